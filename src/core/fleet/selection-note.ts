// What a command says when a selection matched nothing, as kubectl's "No resources found in fleet
// namespace.": where it looked and with which selector, on stderr, with exit code 0. And the CI
// opt-in to fail instead (--min-targets), which names the same scope.
import {CpcredError} from '../errors.js'
import type {Shard} from './shard.js'

export interface SelectionScope {
  /** The namespace looked in; undefined for all namespaces (-A). */
  namespace?: string
  selector?: string
  shard?: Shard
}

function where(scope: SelectionScope): string {
  const place = scope.namespace === undefined ? 'any namespace' : `${scope.namespace} namespace`
  const shard = scope.shard ? ` (shard ${scope.shard.index}/${scope.shard.count})` : ''
  return `${place}${shard}`
}

export function noProfilesNote(scope: SelectionScope): string {
  return scope.selector === undefined
    ? `No ClusterProfiles found in ${where(scope)}.`
    : `No ClusterProfiles match -l ${scope.selector} in ${where(scope)}.`
}

/** --min-targets: a CI job that expects a fleet fails when the selection is smaller. */
export function checkMinTargets(count: number, minimum: number | undefined, scope: SelectionScope): void {
  if (minimum === undefined || count >= minimum) return
  const matched = scope.selector === undefined ? 'found' : `matching -l ${scope.selector}`
  throw new CpcredError(
    `${count} ClusterProfile${count === 1 ? '' : 's'} ${matched} in ${where(scope)}, fewer than --min-targets ${minimum}`,
    {hint: 'check the selector, the namespace (-n, -A) and the shard; or lower --min-targets'},
  )
}
