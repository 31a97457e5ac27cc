// What the user types to name a profile. Kept apart from find-profiles so the credential fast
// path can parse a reference without loading the lookup and suggestion code.
import {UsageError} from '../core/errors.js'
import {nameProblem, quotedName} from '../core/profiles/names.js'

export interface ProfileRef {
  namespace?: string
  name: string
}

/**
 * clusterprofile.multicluster.x-k8s.io/, clusterprofiles.multicluster.x-k8s.io/, clusterprofile/ and
 * clusterprofiles/. A namespace with one of the two short names is given with -n instead.
 */
const TYPE_PREFIX = /^clusterprofiles?(\.multicluster\.x-k8s\.io)?\/(?=[^/]+$)/

/** `name` or `namespace/name`; the parts must be valid Kubernetes names. */
export function parseProfileRef(text: string): ProfileRef {
  // kubectl's TYPE/NAME, as `cpcred list -o name` prints it: the name in the namespace in use.
  const typed = TYPE_PREFIX.exec(text)
  if (typed) return parseProfileRef(text.slice(typed[0].length))
  const parts = text.split('/')
  const [namespace, name] = parts.length === 2 ? parts : [undefined, parts[0]!]
  const problem =
    parts.length > 2
      ? 'write NAME or NAMESPACE/NAME'
      : ((namespace === undefined ? undefined : nameProblem('namespace', namespace)) ??
        nameProblem('object', name!))
  if (problem !== undefined) throw new UsageError(`${quotedName(text)} is not a profile name`, problem)
  return namespace === undefined ? {name: name!} : {namespace, name: name!}
}
