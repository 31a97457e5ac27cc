// `cpcred plugin token-request`: a token of a hub ServiceAccount from the hub's TokenRequest API, for
// the target's URL as audience, as an ExecCredential with the expiry the hub gave it.
import {EXEC_API_V1} from '../core/access/exec-config.js'
import {CpcredError} from '../core/errors.js'
import {
  hubSelection,
  parseExecInfo,
  PLUGIN_HUB_UNREACHABLE_HINT,
  quoted,
} from '../core/exec-credential/exec-info.js'
import {
  credentialFromTokenRequest,
  MISSING_SERVICE_ACCOUNT_HINT,
  ORIGIN_TEXT,
  planTokenRequest,
  tokenForbiddenHint,
  tokenRequestSpec,
  type TokenRequestOptions,
} from '../core/exec-credential/token-request.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import type {HubOpener, HubPort, TokenRequestSpec} from './ports.js'
import type {PluginOutcome} from './read-secret-token.js'

export interface TokenRequestInput {
  options: TokenRequestOptions
  /** KUBERNETES_EXEC_INFO, as kubectl set it (absent when run by hand). */
  execInfo: string | undefined
  /** The environment the hub is pinned in (CPCRED_HUB_CONTEXT). */
  env: NodeJS.ProcessEnv
}

export async function tokenRequestCommand(
  ports: {openHub: HubOpener},
  input: TokenRequestInput,
): Promise<PluginOutcome> {
  const {options} = input
  const info = parseExecInfo(input.execInfo)
  // Usage errors first, before the hub is opened; in a pod the hub's config names the pod's own
  // ServiceAccount, the default when nothing names one.
  planTokenRequestOrPodDefault(options, info)
  let hub
  try {
    hub = await ports.openHub(hubSelection(options, input.env))
  } catch (error) {
    // With no hub to default to, a missing ServiceAccount is the mistake to name first.
    planTokenRequest(options, info)
    throw error
  }
  let credential, plan, account
  try {
    plan = planTokenRequest(options, info, hub.config.inCluster?.serviceAccount)
    const namespace = plan.namespace ?? hub.config.namespace
    account = `${namespace}/${plan.serviceAccount}`
    credential = await requestServiceAccountToken(
      hub,
      namespace,
      plan.serviceAccount,
      tokenRequestSpec(plan),
      {
        unreachableHint: PLUGIN_HUB_UNREACHABLE_HINT,
      },
    )
  } finally {
    await hub.close()
  }
  return {
    credential,
    apiVersion: info?.apiVersion ?? EXEC_API_V1,
    note: options.verbose
      ? `token-request: token of ${plan.podOwn ? "the pod's own " : ''}ServiceAccount ${account} on ${hub.describe()}, audience ` +
        `${quoted(plan.audience)} (from ${ORIGIN_TEXT[plan.audienceOrigin]}), expires ${credential.expirationTimestamp}`
      : undefined,
  }
}

/**
 * The one TokenRequest call: a token of ServiceAccount namespace/name with the hub's expiry, a 403
 * explained with the RBAC it needs (exit 4), a missing ServiceAccount named. Used by this plugin and
 * by providers with a serviceAccountToken block (federated-token.ts).
 */
export async function requestServiceAccountToken(
  hub: Pick<HubPort, 'requestToken' | 'describe' | 'config'>,
  namespace: string,
  serviceAccount: string,
  spec: TokenRequestSpec,
  hints: {unreachableHint?: string} = {},
): Promise<Credential> {
  const account = `${namespace}/${serviceAccount}`
  const answer = await hub.requestToken(namespace, serviceAccount, spec, {
    forbiddenHint: tokenForbiddenHint(namespace, serviceAccount, hub.config.inCluster),
    ...hints,
  })
  if (answer === undefined) {
    throw new CpcredError(`no ServiceAccount ${account} on ${hub.describe()}`, {
      hint: MISSING_SERVICE_ACCOUNT_HINT,
    })
  }
  return credentialFromTokenRequest(answer, account)
}

/** The plan's usage errors, except a missing ServiceAccount, which a pod's own may fill. */
function planTokenRequestOrPodDefault(
  options: TokenRequestOptions,
  info: ReturnType<typeof parseExecInfo>,
): void {
  planTokenRequest(options, info, {namespace: 'default', name: 'default'})
}
