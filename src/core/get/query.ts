// What `cpcred get` asks each target for: kubectl get's own arguments (the words after --), read
// into resource words, object names and the flags that shape the request and the printed table.
import {UsageError} from '../errors.js'

/** What a target is asked for: a Table of rows (the tables, -o name) or the objects themselves. */
export type RequestShape = 'table' | 'objects'

/** One thing to get: a resource word as typed (pods, deploy, deployments.apps, all) and maybe a name. */
export interface GetItem {
  resource: string
  name?: string
}

/** kubectl get's arguments, as cpcred asks every target for them. */
export interface GetQuery {
  /** In the order typed: `pods,svc a` is pods/a then svc/a; `pod/a svc/b` is pod/a then svc/b. */
  items: GetItem[]
  /** -n: the namespace on every target (default: the target's "default"). */
  namespace?: string
  /** -A: every namespace of every target. */
  allNamespaces: boolean
  /** -l, sent to the server as labelSelector. */
  selector?: string
  /** --field-selector, sent as fieldSelector. */
  fieldSelector?: string
  /** What -o needs of each target (cli/get-output.ts says it for each format). */
  shape: RequestShape
  noHeaders: boolean
  /** --sort-by: a column's name (case-insensitive) or a JSONPath such as .metadata.name. */
  sortBy?: string
}

/**
 * kubectl get's operands: `TYPE[,TYPE…] [NAME…]` or `TYPE/NAME…`, as kubectl reads them. `usage`
 * goes with each mistake.
 */
export function readGetItems(operands: string[], usage: string): GetItem[] {
  if (operands.length === 0)
    throw new UsageError(
      'no resource type to get',
      `${usage}\ne.g. cpcred get -A -l env=prod -- pods -n kube-system`,
    )
  const first = operands[0]!
  if (operands.some((word) => word.includes('/'))) {
    if (!operands.every((word) => /^[^/]+\/[^/]+$/.test(word)))
      throw new UsageError(
        `there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (got ${operands.map((word) => JSON.stringify(word)).join(' ')})`,
        usage,
      )
    return operands.map((word) => {
      const [resource, name] = word.split('/') as [string, string]
      return {resource, name}
    })
  }
  const resources = first.split(',')
  if (resources.some((resource) => resource === ''))
    throw new UsageError(`${JSON.stringify(first)} names an empty resource type`, usage)
  const names = operands.slice(1)
  if (names.length === 0) return resources.map((resource) => ({resource}))
  return resources.flatMap((resource) => names.map((name) => ({resource, name})))
}
