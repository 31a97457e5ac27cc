// What the user types to name a profile. Kept apart from find-profiles so the credential fast
// path can parse a reference without loading the lookup and suggestion code.
import {UsageError} from '../core/errors.js'
import {isDnsSubdomain} from '../core/profiles/names.js'

export interface ProfileRef {
  namespace?: string
  name: string
}

/** `name` or `namespace/name`; the parts must be valid Kubernetes names. */
/**
 * clusterprofile.multicluster.x-k8s.io/, clusterprofiles.multicluster.x-k8s.io/, clusterprofile/ and
 * clusterprofiles/. A namespace with one of the two short names is given with -n instead.
 */
const TYPE_PREFIX = /^clusterprofiles?(\.multicluster\.x-k8s\.io)?\/(?=[^/]+$)/

export function parseProfileRef(text: string): ProfileRef {
  // kubectl's TYPE/NAME, as `cpcred list -o name` prints it: the name in the namespace in use.
  const typed = TYPE_PREFIX.exec(text)
  if (typed) return parseProfileRef(text.slice(typed[0].length))
  const parts = text.split('/')
  if (parts.length > 2 || parts.some((part) => !isDnsSubdomain(part))) {
    throw new UsageError(
      `"${text}" is not a profile name`,
      'write NAME or NAMESPACE/NAME, with lower-case letters, digits, "-" and "."',
    )
  }
  return parts.length === 2 ? {namespace: parts[0], name: parts[1]!} : {name: parts[0]!}
}
