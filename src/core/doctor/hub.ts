// Doctor's hub links: the hub kubeconfig, who the hub says you are, whether you may read
// ClusterProfiles (RBAC), and what credential and exec do while the hub is down.
import {PLURAL, RESOURCE} from '../profiles/cluster-profile.js'
import {formatDuration} from '../duration.js'
import {ExitCode} from '../errors.js'
import {humanDuration} from '../text/format.js'
import {isHttps} from '../access/connection.js'
import {fail, ok, warn, type CheckOutcome} from './checks.js'

/** How a kubeconfig user authenticates, in words (never the credential). */
export function credentialKind(user: Record<string, unknown> | undefined): string {
  const exec = user?.exec as {command?: unknown} | undefined
  if (exec) return `exec plugin ${typeof exec.command === 'string' ? exec.command : ''}`.trim()
  const authProvider = user?.['auth-provider'] as {name?: unknown} | undefined
  if (authProvider)
    return `auth-provider ${typeof authProvider.name === 'string' ? authProvider.name : ''}`.trim()
  const kinds: string[] = []
  if (user?.['client-certificate-data'] || user?.['client-certificate']) kinds.push('client certificate')
  if (user?.token) kinds.push('bearer token')
  else if (user?.tokenFile) kinds.push('token file')
  else if (user?.username !== undefined || user?.password !== undefined) kinds.push('basic auth')
  return kinds.length === 0 ? 'no credentials' : kinds.join(' and ')
}

export interface HubKubeconfigFacts {
  files: string[]
  context: string
  server: string
  user: string
  userKind: string
  namespace: string
  /** What chose the context, in words ("cpcred hub use", "--context", …). */
  chosenBy?: string
  /** The layers that choose the hub, first wins, and what each says. */
  chain?: string[]
}

export function judgeHubKubeconfig(facts: HubKubeconfigFacts): CheckOutcome {
  const chosen = facts.chosenBy ? ` (from ${facts.chosenBy})` : ''
  const chain = facts.chain?.length ? `; chosen by the first of: ${facts.chain.join('; ')}` : ''
  const detail =
    `context "${facts.context}"${chosen} of ${facts.files.join(', ')}: server ${facts.server}, ` +
    `user "${facts.user}" (${facts.userKind}), namespace "${facts.namespace}"${chain}`
  return isHttps(facts.server)
    ? ok(detail)
    : warn(
        `${detail}; the server is not https, so credentials travel unencrypted`,
        'use the https URL of the hub',
      )
}

/** What doctor knows of a hub read through the pod's in-cluster config. */
export interface InClusterFacts {
  server: string
  /** The service account directory. */
  dir: string
  namespace: string
  serviceAccount?: {namespace: string; name: string}
  caFile?: string
  tokenExpiresAt?: number
  now: Date
}

/**
 * The in-cluster config named as the hub's source, with its token file and CA judged: a token that
 * has expired is refused by the hub (a projected one is rotated by the kubelet, a copied one is not);
 * without a CA the hub's certificate is checked against the system roots, as client-go does.
 */
export function judgeInClusterConfig(facts: InClusterFacts): CheckOutcome {
  const token = `${facts.dir}/token`
  const account = facts.serviceAccount
    ? `ServiceAccount ${facts.serviceAccount.namespace}/${facts.serviceAccount.name}`
    : 'no ServiceAccount'
  const detail =
    `in-cluster config (KUBERNETES_SERVICE_HOST/PORT, no kubeconfig): server ${facts.server}, ` +
    `token file ${token} (${account}), CA ${facts.caFile ?? 'none'}, namespace "${facts.namespace}"`
  if (facts.tokenExpiresAt !== undefined && facts.tokenExpiresAt <= facts.now.getTime()) {
    return fail(
      ExitCode.Denied,
      `${detail}; the token expired ${humanDuration(facts.now.getTime() - facts.tokenExpiresAt)} ago`,
      'the kubelet rotates a projected token; a token copied into the pod is not: mount the projected service account token',
    )
  }
  if (!facts.caFile) {
    return warn(
      `${detail}; ${facts.dir}/ca.crt holds no certificate, so the hub is checked against the system roots`,
      'mount the service account CA (the kube-root-ca.crt ConfigMap) at ca.crt',
    )
  }
  if (!facts.serviceAccount) {
    return warn(
      `${detail}; the token names no ServiceAccount, so token-request has no pod ServiceAccount to default to`,
      'pass --service-account to token-request, or mount a service account token',
    )
  }
  return ok(detail)
}

// The hub: identity, RBAC, the API

export interface UserInfo {
  username?: string
  groups?: string[]
}

/** Who a server says you are. */
export function identityText(user: UserInfo): string {
  const groups = user.groups?.length ? ` (groups ${user.groups.join(', ')})` : ''
  return `you are ${user.username || '<no name>'}${groups}`
}

/** The answer of one SelfSubjectAccessReview on clusterprofiles. */
export interface AccessAnswer {
  verb: string
  allowed: boolean
  reason?: string
}

/** Why a verb that is not required still matters. */
const OPTIONAL_VERB_USE: Record<string, string> = {
  list: "'cpcred list', -l and --all need it",
  watch: 'only watching needs it',
}

export function judgeRbac(
  answers: AccessAnswer[],
  required: readonly string[],
  scope: {user: string; namespace?: string; inCluster?: boolean},
): CheckOutcome {
  const where = scope.namespace ? `in namespace "${scope.namespace}"` : 'in all namespaces'
  const denied = answers.filter((answer) => !answer.allowed)
  const missing = denied.filter((answer) => required.includes(answer.verb))
  if (missing.length > 0) {
    const reason = missing.map((answer) => answer.reason).find(Boolean)
    return fail(
      ExitCode.Denied,
      `${scope.user} may not ${missing.map((answer) => answer.verb).join(' or ')} ${RESOURCE} ${where}${reason ? ` (${reason})` : ''}`,
      `ask the hub administrator to grant ${scope.user} get and list on ${RESOURCE} ${where} (docs/examples/${scope.inCluster ? 'in-cluster-rbac.yaml' : 'hub-consumer.yaml'} is such a role)`,
    )
  }
  const allowed = answers.filter((answer) => answer.allowed).map((answer) => answer.verb)
  const notes = denied.map((answer) => `not ${answer.verb} (${OPTIONAL_VERB_USE[answer.verb] ?? 'optional'})`)
  return ok(
    `${scope.user} may ${allowed.join(', ')} ${PLURAL} ${where}${notes.length ? `; ${notes.join('; ')}` : ''}`,
  )
}

/** What credential and exec do while the hub is down, for one profile or for all. */
export interface HubOutageFallback {
  maxStaleMs: number
  /** NAMESPACE/NAME, when one profile is checked. */
  profile?: string
  /** How old that profile's last copy is; undefined when none was kept. */
  ageMs?: number
}

/**
 * The hint for a hub that cannot be reached: how cpcred carries on meanwhile (the last copy of a
 * profile, within --profile-max-stale, with cached credentials only), or why it cannot.
 */
export function hubOutageHint(fallback: HubOutageFallback): string {
  const bound = `--profile-max-stale ${formatDuration(fallback.maxStaleMs)}`
  if (fallback.maxStaleMs <= 0) return `${bound}: cpcred credential and exec fail until the hub is back`
  if (fallback.profile === undefined) {
    return `meanwhile cpcred credential and exec use profiles read within ${bound}, with credentials already cached`
  }
  if (fallback.ageMs === undefined) {
    return `no copy of ${fallback.profile} was kept, so cpcred credential and exec fail for it until the hub is back`
  }
  const age = humanDuration(fallback.ageMs)
  if (fallback.ageMs > fallback.maxStaleMs) {
    return `the last copy of ${fallback.profile} was read ${age} ago, older than ${bound} allows: cpcred credential and exec fail for it until the hub is back`
  }
  const left = humanDuration(fallback.maxStaleMs - fallback.ageMs)
  return `meanwhile cpcred credential and exec use ${fallback.profile} as read ${age} ago (${bound}: ${left} more), with credentials already cached`
}
