// `cpcred get [PROFILE…] -- TYPE[,TYPE…] [NAME…] [kubectl get flags]`: exec's selection (names, -l,
// --all, --placement, --healthy, --shard, member folding, --min-targets; one profile named by
// itself read as exec reads it, from a copy read moments ago), each target's credential
// by exec's path (the cache, or a plugin run shared by the targets that need the same one), then
// kubectl get's requests through cpcred's own HTTP client, a few targets at a time: discovery (kept
// per server, as kubectl keeps it) resolves the resource words, and the server prints the columns
// (a Table) or gives the objects. What each target answered, or why it could not, comes back for
// the front to print; a JUnit or JSON report says the same per target.
import path from 'node:path'
import {profileKey, type ClusterProfile} from '../core/profiles/cluster-profile.js'
import {CpcredError, ExitCode, isCpcredError} from '../core/errors.js'
import {formatDuration} from '../core/duration.js'
import {lifetimeRule} from '../core/exec-credential/cache.js'
import {causeLine, inSelectionOrder, notRunResults, type TargetResult} from '../core/fleet/fan-out-report.js'
import {inPool} from '../core/fleet/worker-pool.js'
import {
  resolveResource,
  resourceName,
  unknownResourceMessage,
  type ApiResource,
} from '../core/get/discovery.js'
import {answerObjects, type KubeObject} from '../core/get/objects.js'
import type {GetItem, GetQuery} from '../core/get/query.js'
import {listVersion} from '../core/get/follow.js'
import {targetRequest, type TargetRequest} from '../core/get/request.js'
import {asTable, needsObject, type ServerTable, type SortKey} from '../core/get/table.js'
import {
  openCredentialRun,
  openFederation,
  profileFreshness,
  readRecentProfile,
  seconds,
  staleProfileWarning,
  type PipelineInput,
  type PipelinePorts,
} from './credential-pipeline.js'
import {writeReports, type ReportRequest} from './exec-many.js'
import {obtainTargetCredential, type TargetCredentialInput} from './exec-prepare.js'
import {discover} from './get-discovery.js'
import {
  oneNamedTarget,
  selectExecTargets,
  type ExecTargetInput,
  type ExecTargetPorts,
} from './exec-targets.js'
import type {FleetSelection} from './find-profiles.js'
import {RunCredentials} from './obtain-credential.js'
import {parseProfileRef} from './profile-ref.js'
import type {DiscoveryCache, FanOutPorts, Notices, TargetApi, TargetApis} from './ports.js'

export interface GetInput extends PipelineInput {
  /** Which profiles: exec's selection. */
  targets: ExecTargetInput
  /** kubectl get's arguments (after --). */
  query: GetQuery
  /** --sort-by, read (a column or a JSONPath). */
  sortBy?: SortKey
  /** How many targets are asked at once. */
  parallel: number
  /** --timeout: a target not done in this long is a failure (its row says so). */
  timeoutMs?: number
  reports: ReportRequest[]
  as?: string
  asGroups: string[]
  stdinIsTTY: boolean
  /** --watch: each answer's connection is kept, to be followed (usecases/get-watch.ts). */
  watch?: boolean
}

export interface GetPorts extends PipelinePorts {
  notices: Notices
  targets: ExecTargetPorts
  apis: TargetApis
  discovery: DiscoveryCache
  /** A monotonic clock in milliseconds (durations). */
  now(): number
  /** The wall clock (the discovery cache's age, the reports' start). */
  date(): Date
  /** Told each target's objects as it answers (-o jsonl), in the order they answer. */
  onObjects?(cluster: string, objects: KubeObject[]): void
  /** Writing the reports (asked for only with --report). */
  reportPorts(): Promise<Pick<FanOutPorts, 'makeDirectory' | 'writeReport' | 'error'>>
}

/** What one target gave for one resource: a Table or objects, or why not. */
export interface ResourceAnswer {
  resource: ApiResource
  table?: ServerTable
  objects?: KubeObject[]
  error?: string
}

/** One section of the output: a resource word (or one resource of a category) and each target's answer. */
export interface GetSection {
  /** The resource as resolved on the first target that served it; undefined when none did. */
  resource?: ApiResource
  /** The word typed, for a section no target could resolve. */
  word: string
  /** In the selection's order, a target that failed for this resource with its reason. */
  answers: {cluster: string; table?: ServerTable; objects?: KubeObject[]; error?: string}[]
}

export interface GetOutcome {
  sections: GetSection[]
  /** Targets that failed as a whole (no credential, not reachable), in the selection's order. */
  failures: {cluster: string; error: string; exitCode: number}[]
  /** One per target, for the reports: exec's records. */
  results: TargetResult[]
  /** 0 when every target answered everything (and every report was written), else 1: exec's rule. */
  exitCode: number
  /** With --watch, what each target answered, to follow from there; its connection is still open. */
  watched: WatchedAnswer[]
}

/** A target's answer for one resource, its connection kept to watch it from the answer's resourceVersion. */
export interface WatchedAnswer {
  cluster: string
  api: TargetApi
  resource: ApiResource
  request: TargetRequest
  table?: ServerTable
  objects?: KubeObject[]
  resourceVersion?: string
}

/** One target's whole answer. */
interface TargetOutcome {
  cluster: string
  answers: {item: GetItem; word: string; answer: ResourceAnswer}[]
  /** Why the target gave nothing. */
  failure?: CpcredError
  /** With --watch, the answers to follow. */
  watched?: WatchedAnswer[]
}

export async function getCommand(ports: GetPorts, input: GetInput): Promise<GetOutcome> {
  const {notices} = ports
  const startedAt = ports.date()
  const startedMs = ports.now()
  if (input.reports.length > 0) {
    const reportPorts = await ports.reportPorts()
    for (const report of input.reports) reportPorts.makeDirectory(path.dirname(report.file))
  }
  const {store, hub, providers} = await openCredentialRun(ports, input, undefined)
  for (const warning of providers.warnings) notices.warn(warning)
  const shown = new Set(providers.warnings)
  const oneNamed = oneNamedTarget(input.targets)
  // One profile named by itself is read as exec reads it: a copy read moments ago spares a warm get
  // the hub's round trip, and while the hub is down the last copy serves, with cached credentials only.
  const one = oneNamed
    ? await readRecentProfile(hub, parseProfileRef(oneNamed), profileFreshness(input))
    : undefined
  if (one?.stale) {
    const warning = staleProfileWarning(profileKey(one.profile), one.stale)
    notices.warn(warning)
    shown.add(warning)
  }
  const selection: FleetSelection = one
    ? {profiles: [one.profile], unresolved: [], skipped: []}
    : await selectExecTargets(ports.targets, input.targets)
  const notRun = notRunResults(selection.unresolved, selection.skipped)
  const profiles = selection.profiles
  const federation = openFederation(ports)
  const credentialPorts = {plugins: ports.plugins, cache: new RunCredentials(store), federation}
  const credentialInput: TargetCredentialInput = {
    providers: providers.required(),
    hubIdentity: hub.hub.identity,
    hubPin: hub.hub.pin,
    stdinIsTTY: input.stdinIsTTY,
    pluginTimeoutMs: input.pluginTimeoutMs,
    cacheTtlSeconds: seconds(input.cacheTtlMs),
    lifetimeRule: lifetimeRule(one?.stale ? undefined : seconds(input.minCredentialLifetimeMs), false),
    cacheOnly: one?.stale?.reason,
    onWarning: (message) => {
      if (!shown.has(message)) notices.warn(message)
      shown.add(message)
    },
    onPluginStderr: (text) => notices.pluginStderr(text),
    onVerbose: input.verbose ? (message) => notices.note(`cpcred: ${message}`) : undefined,
  }
  const results: TargetResult[] = []
  let outcomes: TargetOutcome[]
  try {
    outcomes = await inPool(profiles, input.parallel, async (profile) => {
      const started = ports.now()
      const outcome = await withDeadline(input.timeoutMs, (deadline) =>
        askTarget(ports, input, profile, credentialPorts, credentialInput, deadline),
      ).catch((error: unknown): TargetOutcome => {
        if (!isCpcredError(error)) throw error
        return {cluster: profileKey(profile), answers: [], failure: error}
      })
      results.push(targetResult(outcome, ports.now() - started))
      if (ports.onObjects && !outcome.failure) {
        const objects = outcome.answers.flatMap(({answer}) => answer.objects ?? [])
        if (objects.length > 0) ports.onObjects(outcome.cluster, objects)
      }
      return outcome
    })
  } finally {
    await federation?.close()
  }
  const byProfile = new Map(results.map((result) => [result.profile, result]))
  const ordered = inSelectionOrder(
    [...profiles.map((profile) => byProfile.get(profileKey(profile))!), ...notRun],
    selection.order,
  )
  const sections = collectSections(input.query.items, outcomes)
  const failures = [
    ...outcomes.flatMap((outcome) =>
      outcome.failure
        ? [{cluster: outcome.cluster, error: oneLine(outcome.failure), exitCode: outcome.failure.exitCode}]
        : [],
    ),
    ...notRun
      .filter((result) => result.exitCode !== 0)
      .map((result) => ({
        cluster: result.profile,
        error: result.error ?? 'not run',
        exitCode: result.exitCode,
      })),
  ]
  for (const result of notRun.filter((result) => result.skipped))
    notices.note(`${result.profile}: ${result.error}`)
  const written =
    input.reports.length === 0 ||
    (await writeReports(await ports.reportPorts(), input.reports, {
      command: 'get',
      program: [...new Set(input.query.items.map((item) => item.resource))].join(','),
      startedAt,
      durationMs: ports.now() - startedMs,
      targets: ordered.map((result) => ({result})),
    }))
  const failed = ordered.some((result) => result.exitCode !== 0)
  return {
    sections,
    failures,
    results: ordered,
    exitCode: failed || !written ? ExitCode.Failure : ExitCode.Success,
    watched: outcomes.flatMap((outcome) => outcome.watched ?? []),
  }
}

/** Runs `work`, failing it after `timeoutMs` (--timeout); `deadline` hears when that happens. */
async function withDeadline<T>(
  timeoutMs: number | undefined,
  work: (deadline: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController()
  if (timeoutMs === undefined) return work(controller.signal)
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort()
      reject(
        new CpcredError(`timed out after ${formatDuration(timeoutMs)}`, {exitCode: ExitCode.Unreachable}),
      )
    }, timeoutMs)
  })
  try {
    return await Promise.race([work(controller.signal), expired])
  } finally {
    clearTimeout(timer)
  }
}

/** One target: its credential, its discovery, then each item's request. */
async function askTarget(
  ports: GetPorts,
  input: GetInput,
  profile: ClusterProfile,
  credentialPorts: Parameters<typeof obtainTargetCredential>[0],
  credentialInput: TargetCredentialInput,
  deadline: AbortSignal,
): Promise<TargetOutcome> {
  const cluster = profileKey(profile)
  const {resolution, obtained} = await obtainTargetCredential(credentialPorts, credentialInput, profile)
  const api = ports.apis.open({
    cluster: resolution.cluster,
    credential: obtained.credential,
    // A watch outlives short-lived credentials: after a 401, the pipeline again (the cache, or the
    // plugin once the one in use has expired).
    renew: async () =>
      (await obtainTargetCredential(credentialPorts, credentialInput, profile)).obtained.credential,
    as: input.as,
    asGroups: input.asGroups,
  })
  // --timeout: the connections go, so what is waiting fails at once.
  const onDeadline = () => void api.close()
  deadline.addEventListener('abort', onDeadline)
  const watched: WatchedAnswer[] = []
  let kept = false
  try {
    const server = resolution.cluster.server
    let discovery = await discover(ports, api, server, false)
    let resolved = input.query.items.map((item) => ({
      item,
      resources: resolveResource(item.resource, discovery.resources),
    }))
    // A word the kept discovery does not know: the server may serve it since (a new CRD); ask again once.
    if (discovery.fromCache && resolved.some(({resources}) => resources.length === 0)) {
      discovery = await discover(ports, api, server, true)
      resolved = input.query.items.map((item) => ({
        item,
        resources: resolveResource(item.resource, discovery.resources),
      }))
    }
    const {shape} = input.query
    const objectInRows = needsObject(input.sortBy)
    const answers: TargetOutcome['answers'] = []
    for (const {item, resources} of resolved) {
      if (resources.length === 0) {
        const unknown: ApiResource = {
          group: '',
          version: '',
          resource: item.resource,
          singular: item.resource,
          kind: item.resource,
          namespaced: false,
          shortNames: [],
          categories: [],
          verbs: [],
        }
        answers.push({
          item,
          word: item.resource,
          answer: {resource: unknown, error: unknownResourceMessage(item.resource)},
        })
        continue
      }
      for (const resource of resources) {
        const request = targetRequest(resource, input.query, {name: item.name, shape, objectInRows})
        const action =
          item.name === undefined
            ? `list ${resourceName(resource)}`
            : `get ${resourceName(resource)} "${item.name}"`
        const word = resources.length > 1 ? `${item.resource}:${resourceName(resource)}` : item.resource
        try {
          const body = await api.get(request, action)
          if (shape === 'objects') {
            const objects = answerObjects(body, resource, cluster)
            answers.push({item, word, answer: {resource, objects}})
            if (input.watch)
              watched.push({cluster, api, resource, request, objects, resourceVersion: listVersion(body)})
          } else {
            const table = asTable(body)
            if (!table) throw new CpcredError(`the target did not answer ${action} with a Table`)
            answers.push({item, word, answer: {resource, table}})
            if (input.watch)
              watched.push({cluster, api, resource, request, table, resourceVersion: table.resourceVersion})
          }
        } catch (error) {
          if (!isCpcredError(error) || deadline.aborted) throw error
          answers.push({item, word, answer: {resource, error: oneLine(error)}})
        }
      }
    }
    // A watched answer keeps the connection; get-watch.ts lets it go.
    kept = watched.length > 0 && !deadline.aborted
    return {cluster, answers, watched: kept ? watched : []}
  } finally {
    deadline.removeEventListener('abort', onDeadline)
    if (!kept) await api.close()
  }
}

/** The sections of the output: a resource word's answers from every target, in the order typed. */
function collectSections(items: readonly GetItem[], outcomes: readonly TargetOutcome[]): GetSection[] {
  const sections = new Map<string, GetSection>()
  // Sections in the order of the words typed, then of the resources a category named.
  for (const item of items)
    if (!sections.has(item.resource)) sections.set(item.resource, {word: item.resource, answers: []})
  for (const outcome of outcomes) {
    if (outcome.failure) continue
    // One answer per target and section: the rows of several names put together.
    const mine = new Map<string, GetSection['answers'][number]>()
    for (const {word, answer} of outcome.answers) {
      let section = sections.get(word)
      if (!section) sections.set(word, (section = {word, answers: []}))
      if (answer.table || answer.objects) section.resource ??= answer.resource
      let entry = mine.get(word)
      if (!entry) {
        entry = {cluster: outcome.cluster}
        mine.set(word, entry)
        section.answers.push(entry)
      }
      if (answer.error !== undefined) entry.error ??= answer.error
      else if (answer.table) {
        entry.table = entry.table
          ? {
              columnDefinitions: entry.table.columnDefinitions,
              rows: [...entry.table.rows, ...answer.table.rows],
            }
          : answer.table
      } else if (answer.objects) entry.objects = [...(entry.objects ?? []), ...answer.objects]
    }
  }
  // A category's word stands for its resources' sections; alone, it is a section only when nothing resolved it.
  return [...sections.values()].filter(
    (section) =>
      section.answers.length > 0 || ![...sections.keys()].some((key) => key.startsWith(`${section.word}:`)),
  )
}

/** exec's record of a target (exit code, duration, the error), for the reports and cpcred's exit code. */
function targetResult(outcome: TargetOutcome, durationMs: number): TargetResult {
  const failure = outcome.failure
  const failed = outcome.answers.find(({answer}) => answer.error !== undefined)
  return {
    profile: outcome.cluster,
    exitCode: failure ? failure.exitCode : failed ? ExitCode.Failure : ExitCode.Success,
    durationMs,
    started: !failure,
    ...(failure ? {error: failure.message, ...(failure.hint ? {hint: failure.hint} : {})} : {}),
    ...(!failure && failed ? {error: failed.answer.error} : {}),
    ...(failure?.message.startsWith('timed out after') ? {timedOut: true} : {}),
  }
}

/** A failure in one line, for a row (exec's summary's words, without the hint: the report has it). */
function oneLine(error: CpcredError): string {
  return causeLine({error: error.message})
}
