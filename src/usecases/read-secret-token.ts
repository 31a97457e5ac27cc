// `cpcred plugin secretreader`: the token of a target kept on the hub in Secret
// <namespace>/<clusterName> (the Cluster Inventory API's secret-reader flow), as an ExecCredential
// without expiry, as upstream: the Secret's owner rotates it.
import type {ExecApiVersion} from '../core/access/exec-config.js'
import {CpcredError} from '../core/errors.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import {hubSelection, parseExecInfo, PLUGIN_HUB_UNREACHABLE_HINT} from '../core/exec-credential/exec-info.js'
import {
  clusterNameFrom,
  missingSecretHint,
  requireExecInfo,
  secretForbiddenHint,
  tokenFromSecret,
  type SecretreaderOptions,
} from '../core/exec-credential/secretreader.js'
import type {HubOpener} from './ports.js'

export interface SecretreaderInput {
  options: SecretreaderOptions
  /** KUBERNETES_EXEC_INFO, as kubectl set it. */
  execInfo: string | undefined
  /** The environment the hub is pinned in (CPCRED_HUB_CONTEXT). */
  env: NodeJS.ProcessEnv
}

export interface PluginOutcome {
  credential: Credential
  /** The ExecCredential's apiVersion: the one the plugin was run with. */
  apiVersion: ExecApiVersion
  /** With -v: what was read on the hub (never the token). */
  note?: string
}

export async function secretreaderCommand(
  ports: {openHub: HubOpener},
  input: SecretreaderInput,
): Promise<PluginOutcome> {
  const info = requireExecInfo(parseExecInfo(input.execInfo))
  const name = clusterNameFrom(info)
  const hub = await ports.openHub(hubSelection(input.options, input.env))
  // --namespace, else the hub context's namespace, else "default" (as kubectl resolves it).
  const ref = {namespace: hub.config.namespace, name}
  let secret
  try {
    secret = await hub.getSecret(ref.namespace, ref.name, {
      forbiddenHint: secretForbiddenHint(ref, hub.config.inCluster),
      unreachableHint: PLUGIN_HUB_UNREACHABLE_HINT,
    })
  } finally {
    await hub.close()
  }
  if (secret === undefined) {
    throw new CpcredError(`no Secret ${ref.namespace}/${ref.name} on ${hub.describe()}`, {
      hint: missingSecretHint(),
    })
  }
  const token = tokenFromSecret(secret, ref)
  return {
    credential: {token},
    apiVersion: info.apiVersion,
    note: input.options.verbose
      ? `secretreader: read the token of Secret ${ref.namespace}/${ref.name} on ${hub.describe()}`
      : undefined,
  }
}
