// `cpcred get … -- TYPE --watch`: get's first answer (usecases/get.ts), shown once every target has
// answered, then each change on each target as kubectl get -w shows it, until the signal ends it.
// Each target's answer is followed with the reflector's rules (usecases/reflector.ts) from the
// answer's resourceVersion: a watch the target ends is resumed, an expired one relisted (its
// differences told as changes), and a target restarting or unreachable is retried with backoff
// and said as a warning, never the end of the watch.
import type {ApiResource} from '../core/get/discovery.js'
import {resourceName} from '../core/get/discovery.js'
import {followedObjects, followedRows, listVersion, type FollowedItem} from '../core/get/follow.js'
import {answerObjects, type KubeObject} from '../core/get/objects.js'
import {asTable, type ServerTable, type TableColumn} from '../core/get/table.js'
import {CpcredError} from '../core/errors.js'
import {getCommand, type GetInput, type GetOutcome, type GetPorts, type WatchedAnswer} from './get.js'
import {reflect, type Listing, type ObjectEvent, type ReflectOptions} from './reflector.js'

/** One change on one target: the row in its table's columns (a one-row Table), or the object. */
export interface GetChange {
  cluster: string
  resource: ApiResource
  type: 'ADDED' | 'MODIFIED' | 'DELETED'
  table?: ServerTable
  object?: KubeObject
}

export interface GetWatchView {
  /** get's first answer, once every target has answered (or failed). */
  all(outcome: GetOutcome): void | Promise<void>
  /** Each change after it, in the order each target tells them. */
  change(change: GetChange): void
}

export interface GetWatchPorts extends GetPorts {
  view: GetWatchView
  /** Waits before a retry (tests); resolves early when the signal aborts. */
  sleep?: ReflectOptions['sleep']
}

/** Until the signal aborts; get's exit code (1 when a target failed its first answer). */
export async function getWatchCommand(
  ports: GetWatchPorts,
  input: GetInput & {signal: AbortSignal},
): Promise<number> {
  const outcome = await getCommand(ports, {...input, watch: true})
  try {
    await ports.view.all(outcome)
    await Promise.all(
      outcome.watched.map((answer) =>
        followAnswer(ports, answer, {signal: input.signal, sleep: ports.sleep}),
      ),
    )
  } finally {
    await Promise.all([...new Set(outcome.watched.map((answer) => answer.api))].map((api) => api.close()))
  }
  return outcome.exitCode
}

/** One target's answer for one resource, followed until the signal aborts. */
async function followAnswer(
  ports: GetWatchPorts,
  answer: WatchedAnswer,
  options: ReflectOptions,
): Promise<void> {
  const {cluster, api, resource, request} = answer
  const action = `watch ${resourceName(resource)}`
  // The server sends a Table's columns with a watch's first event only: those known stand in after.
  let columns: readonly TableColumn[] = answer.table?.columnDefinitions ?? []
  const itemsOf = (body: unknown, what: string): FollowedItem[] => {
    if (answer.objects) return followedObjects(answerObjects(body, resource, cluster))
    const table = asTable(body, columns)
    if (!table) throw new CpcredError(`the target did not answer ${what} with a Table`)
    if (table.columnDefinitions.length > 0) columns = table.columnDefinitions
    return followedRows(table)
  }
  const initial = answer.table ? followedRows(answer.table) : followedObjects(answer.objects ?? [])
  await reflect<FollowedItem, Listing<FollowedItem>>(
    {
      initial: {items: initial, resourceVersion: answer.resourceVersion},
      list: async () => {
        const body = await api.get(request, `list ${resourceName(resource)}`)
        const items = itemsOf(body, `list ${resourceName(resource)}`)
        return {
          items,
          resourceVersion: answer.objects ? listVersion(body) : asTable(body, columns)?.resourceVersion,
        }
      },
      watch: (resourceVersion, onEvent, signal) =>
        api.watch(
          {...request, resourceVersion},
          action,
          (event) => {
            if (event.type === 'BOOKMARK') return
            for (const item of itemsOf(event.object, action))
              onEvent({type: event.type, object: item} satisfies ObjectEvent<FollowedItem>)
          },
          signal,
        ),
      key: (item) => item.key,
    },
    options,
    {
      onList: () => {},
      onChange: ({type, object}) =>
        ports.view.change({cluster, resource, type, table: object.table, object: object.object}),
      onProblem: (message, retryInMs) =>
        ports.notices.warn(`${cluster}: ${message}; retrying in ${(retryInMs / 1000).toFixed(1)}s`),
    },
  )
}
