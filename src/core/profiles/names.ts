// Kubernetes object names (k8s.io/apimachinery validation, DNS-1123): the one place cpcred checks
// that a name could be one, for what a user types, what a plugin is asked to read, and what the hub
// serves before it becomes part of a path. Request paths are built here, from checked segments
// only: a name of "." or ".." (or one with "/" or "%") would otherwise change which URL is asked for,
// with the user's hub credentials, on the say-so of whoever wrote the name.
import {CpcredError, ExitCode} from '../errors.js'

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const LABEL_MAX = 63
const SUBDOMAIN_MAX = 253

/** A DNS-1123 label: namespaces (at most 63 lower-case letters, digits and "-"). */
export function isDnsLabel(name: string): boolean {
  return name.length <= LABEL_MAX && DNS_LABEL.test(name)
}

/** A DNS-1123 subdomain: the names of most objects (Secrets, ServiceAccounts, ClusterProfiles). */
export function isDnsSubdomain(name: string): boolean {
  return name.length <= SUBDOMAIN_MAX && DNS_SUBDOMAIN.test(name)
}

/** The two rules, in words a user can act on. */
export const NAME_RULES = {
  namespace: `a namespace must be a DNS-1123 label: at most ${LABEL_MAX} lower-case letters, digits and "-", starting and ending with a letter or digit`,
  object: `a name must be a DNS-1123 subdomain: at most ${SUBDOMAIN_MAX} lower-case letters, digits, "-" and ".", each dot-separated part starting and ending with a letter or digit`,
} as const

export type NameKind = keyof typeof NAME_RULES

const RULE_CHECKS: Record<NameKind, (name: string) => boolean> = {
  namespace: isDnsLabel,
  object: isDnsSubdomain,
}

/** A name as a message shows it: quoted with its control characters escaped, and cut when long. */
export function quotedName(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…(${name.length} characters)` : name)
}

/** Why `name` cannot be a `kind` name (the rule it breaks), or undefined when it can. */
export function nameProblem(kind: NameKind, name: string): string | undefined {
  return RULE_CHECKS[kind](name) ? undefined : NAME_RULES[kind]
}

/**
 * A name that may not reach a request: exit 1, since it came from the hub or a file rather than
 * the command line (what a user types is refused earlier as a usage error).
 */
export class InvalidNameError extends CpcredError {
  constructor(
    readonly kind: NameKind,
    readonly value: string,
    what: string,
  ) {
    super(
      `${what} ${quotedName(value)} is not a valid ${kind === 'namespace' ? 'namespace' : 'name'}: ${NAME_RULES[kind]}`,
      {
        exitCode: ExitCode.Failure,
        hint: 'no request was made for it; fix the object that names it',
      },
    )
    this.name = 'InvalidNameError'
  }
}

/** `name` when it is a valid `kind` name; else an InvalidNameError that says `what` it was. */
export function checkedName(kind: NameKind, name: string, what: string): string {
  if (nameProblem(kind, name) !== undefined) throw new InvalidNameError(kind, name, what)
  return name
}

/**
 * The path of a namespaced resource (`/api/v1` or `/apis/GROUP/VERSION`, then namespaces/NS/RESOURCE
 * [/NAME[/SUBRESOURCE]]), every segment that came from outside checked first: the namespace as a
 * DNS-1123 label, the name as a subdomain. The only way cpcred builds such a path.
 */
export function namespacedPath(
  base: string,
  resource: string,
  namespace: string,
  name?: string,
  subresource?: string,
): string {
  const ns = checkedName('namespace', namespace, 'namespace')
  const collection = `${base}/namespaces/${ns}/${resource}`
  if (name === undefined) return collection
  const object = `${collection}/${checkedName('object', name, `${resource} name`)}`
  return subresource === undefined ? object : `${object}/${subresource}`
}

/**
 * The path of a resource's collection across every namespace, or of a cluster-scoped resource
 * (`BASE/RESOURCE[/NAME]`), the name checked as a subdomain (`cpcred get -- nodes NAME`).
 */
export function clusterPath(base: string, resource: string, name?: string): string {
  return name === undefined
    ? `${base}/${resource}`
    : `${base}/${resource}/${checkedName('object', name, `${resource} name`)}`
}

/** The path of one Namespace object, its name checked. */
export function namespaceObjectPath(namespace: string): string {
  return `/api/v1/namespaces/${checkedName('namespace', namespace, 'namespace')}`
}
