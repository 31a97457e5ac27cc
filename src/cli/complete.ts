// `cpcred __complete WORD...`: what the shell offers at TAB (the scripts that call it are patched
// into oclif's completion scripts by src/hooks/completion-scripts.ts), and, with --kubectl, what
// kubectl offers after `kubectl cpcred` (bin/kubectl_complete-cpcred). It runs on every keypress,
// so it starts on the fast path and never prints an error: the profile names come from a
// short-lived local list that a detached `cpcred __complete --refresh` renews. Only the very first
// TAB for a hub, with no list at all, waits a moment for that refresh instead of offering nothing.
import {execFile, spawn} from 'node:child_process'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {
  COBRA_DEFAULT,
  cobraOutput,
  commandCandidates,
  completionOutput,
  completionRequest,
  profileCandidates,
  type CompletionRequest,
  type ManifestCommand,
} from '../core/profiles/completion.js'
import type {HubPort, HubSelection} from '../usecases/ports.js'
import {COMPLETE_COMMAND} from './router.js'
import {selfInvocation, type Wiring} from './wiring.js'

/** An empty kubeconfig: the command completes its own words, and asks no cluster for names. */
const NO_CLUSTER = '/dev/null'

/** `__complete --kubectl WORDS…`: the answer in cobra's protocol, for kubectl_complete-cpcred. */
export const KUBECTL_PLUGIN_MODE = '--kubectl'

/** What the words of `cpcred __complete` ask for. */
export type CompleteRequest =
  /** A detached refresh of the names of this hub's profiles. */
  | {kind: 'refresh'; selection: HubSelection}
  /** kubectl's completion of `kubectl cpcred WORDS…`, in cobra's protocol. */
  | {kind: 'kubectl'; words: string[]}
  /** A shell's completion of `cpcred WORDS…`. */
  | {kind: 'shell'; words: string[]}

/** The words of `cpcred __complete`; a refresh's hub that is not JSON throws (and nothing is offered). */
export function parseComplete(argv: string[], _env: NodeJS.ProcessEnv = {}): CompleteRequest {
  if (argv[0] === '--refresh')
    return {kind: 'refresh', selection: JSON.parse(argv[1] ?? '{}') as HubSelection}
  if (argv[0] === KUBECTL_PLUGIN_MODE) return {kind: 'kubectl', words: argv.slice(1)}
  return {kind: 'shell', words: argv}
}

export async function runComplete(wiring: Wiring, argv: string[]): Promise<void> {
  try {
    const request = parseComplete(argv, wiring.env)
    if (request.kind === 'refresh') await refresh(wiring, request.selection)
    else if (request.kind === 'kubectl') wiring.printer.data(await kubectlAnswer(wiring, request.words))
    else wiring.printer.data(await shellAnswer(wiring, request.words))
  } catch {
    // A completion that fails offers nothing; the shell line must stay clean.
  }
}

/** What the words ask for, with the profile names or the target's kubeconfig it needs. */
async function answer(
  wiring: Wiring,
  words: string[],
): Promise<{request: CompletionRequest; commands: Record<string, ManifestCommand>; found: string[]}> {
  const manifest = JSON.parse(
    await readFile(new URL('../../oclif.manifest.json', import.meta.url), 'utf8'),
  ) as {commands: Record<string, ManifestCommand>}
  const request = completionRequest(words, manifest.commands)
  let found: string[] = []
  if (request.kind === 'command') {
    // The command is completed with its target's kubeconfig; with none (several targets, or it
    // could not be had in time) with no cluster at all, never the hub's.
    const kubeconfig = request.target && (await (await wiring.completionTargets()).kubeconfig(request.target))
    found = [kubeconfig ?? NO_CLUSTER]
  }
  if (request.kind === 'profiles') found = await profileNames(wiring, request)
  if (request.kind === 'types') found = await typeNames(wiring, request)
  return {request, commands: manifest.commands, found}
}

/** For cpcred's bash, zsh and fish scripts (src/core/profiles/completion.ts says the format). */
async function shellAnswer(wiring: Wiring, words: string[]): Promise<string> {
  const {request, found} = await answer(wiring, words)
  return completionOutput(request, () => found, found[0])
}

/**
 * For kubectl: the same answers in cobra's format, the command names too, and after exec's `--`
 * kubectl's own `__complete` run with the target's kubeconfig (another command gets files).
 */
async function kubectlAnswer(wiring: Wiring, words: string[]): Promise<string> {
  const {request, commands, found} = await answer(wiring, words)
  switch (request.kind) {
    case 'commands':
      return cobraOutput(commandCandidates(words, commands))
    case 'words':
      return cobraOutput(request.words.map((word) => ({word})))
    case 'profiles':
    case 'types':
      return cobraOutput(found.map((word) => ({word})))
    case 'none':
      return cobraOutput([])
    case 'command': {
      const [program, ...rest] = words.slice(request.offset)
      if (program === undefined || rest.length === 0 || path.basename(program) !== 'kubectl')
        return cobraOutput([], COBRA_DEFAULT)
      return new Promise((resolve) =>
        execFile(
          program,
          ['__complete', ...rest],
          {env: {...process.env, KUBECONFIG: found[0]}, timeout: COMMAND_COMPLETION_WAIT_MS},
          (error, stdout) => resolve(error ? cobraOutput([], COBRA_DEFAULT) : stdout),
        ),
      )
    }
  }
}

/** How long kubectl's own completion of the command after `--` may take. */
const COMMAND_COMPLETION_WAIT_MS = 10_000

async function profileNames(
  wiring: Wiring,
  request: Extract<CompletionRequest, {kind: 'profiles'}>,
): Promise<string[]> {
  const [hub, lists, {completeCommand}] = await Promise.all([
    wiring.completionHub(request.hub),
    wiring.completionLists(),
    import('../usecases/complete-profiles.js'),
  ])
  const {keys, namespace} = await completeCommand(
    {
      lists,
      // Detached and unwaited: a stale list answers this keypress, and the next one gets the new.
      startRefresh: () => {
        const [node, script] = selfInvocation()
        spawn(node, [script, COMPLETE_COMMAND, '--refresh', JSON.stringify(request.hub)], {
          detached: true,
          stdio: 'ignore',
        }).unref()
      },
    },
    {hub},
  )
  return profileCandidates(keys, namespace, request.prefix)
}

/**
 * The types after get's `--`: what the kept discovery of the targets' servers (`cpcred get`'s, in
 * the discovery cache) lists, whatever its age, as kubectl's completion reads its own cache. A
 * server with none kept offers nothing: a TAB never asks a target. The servers come from the
 * targets' kubeconfig, written as exec's line has it written (a hub request, no plugin).
 */
async function typeNames(
  wiring: Wiring,
  request: Extract<CompletionRequest, {kind: 'types'}>,
): Promise<string[]> {
  if (!request.targets) return []
  const servers = await (await wiring.completionTargets()).servers(request.targets)
  if (servers.length === 0) return []
  const [discovery, {resourceTypeNames}] = await Promise.all([
    wiring.discoveryCache(),
    import('../core/get/discovery.js'),
  ])
  const kept = await Promise.all(servers.map((server) => discovery.read(server)))
  const names = kept.flatMap((entry) => (entry ? resourceTypeNames(entry.resources) : []))
  return [...new Set(names)].filter((name) => name.startsWith(request.prefix)).sort()
}

/** Lists every profile the hub user may see into the list (a detached `__complete --refresh`). */
async function refresh(wiring: Wiring, selection: HubSelection): Promise<void> {
  const [hub, lists, {refreshNames}] = await Promise.all([
    wiring.completionHub(selection),
    wiring.completionLists(),
    import('../usecases/complete-profiles.js'),
  ])
  let opened: HubPort | undefined
  try {
    await refreshNames(hub, async () => (opened = await hub.connect()), lists)
  } finally {
    await opened?.close()
  }
}
