// `cpcred __complete WORD...`: what the shell offers at TAB (the scripts that call it are patched
// into oclif's completion scripts by src/hooks/completion-scripts.ts). It runs on every keypress,
// so it starts on the fast path and never prints an error: the profile names come from a
// short-lived local list that a detached `cpcred __complete --refresh` renews. Only the very first
// TAB for a hub, with no list at all, waits a moment for that refresh instead of offering nothing.
import {spawn} from 'node:child_process'
import {readFile} from 'node:fs/promises'
import {
  completionOutput,
  completionRequest,
  profileCandidates,
  type ManifestCommand,
} from '../core/profiles/completion.js'
import type {HubPort, HubSelection} from '../usecases/ports.js'
import {COMPLETE_COMMAND} from './router.js'
import {wire} from './wiring.js'

/** An empty kubeconfig: the command completes its own words, and asks no cluster for names. */
const NO_CLUSTER = '/dev/null'

export async function runComplete(argv: string[]): Promise<void> {
  try {
    if (argv[0] === '--refresh') await refresh(JSON.parse(argv[1] ?? '{}') as HubSelection)
    else wire().printer.data(await candidates(argv))
  } catch {
    // A completion that fails offers nothing; the shell line must stay clean.
  }
}

async function candidates(words: string[]): Promise<string> {
  const manifest = JSON.parse(
    await readFile(new URL('../../oclif.manifest.json', import.meta.url), 'utf8'),
  ) as {commands: Record<string, ManifestCommand>}
  const request = completionRequest(words, manifest.commands)
  if (request.kind === 'command') {
    // The command is completed with its target's kubeconfig; with none (several targets, or it
    // could not be had in time) with no cluster at all, never the hub's.
    const kubeconfig = request.target && (await (await wire().completionTargets()).kubeconfig(request.target))
    return completionOutput(request, () => [], kubeconfig ?? NO_CLUSTER)
  }
  if (request.kind !== 'profiles') return completionOutput(request, () => [])
  const wiring = wire()
  const [hub, lists, {completionNames}] = await Promise.all([
    wiring.completionHub(request.hub),
    wiring.completionLists(),
    import('../usecases/complete-profiles.js'),
  ])
  const {keys, namespace} = await completionNames(hub, {
    lists,
    // Detached and unwaited: a stale list answers this keypress, and the next one gets the new.
    startRefresh: () =>
      spawn(
        process.execPath,
        [process.argv[1]!, COMPLETE_COMMAND, '--refresh', JSON.stringify(request.hub)],
        {detached: true, stdio: 'ignore'},
      ).unref(),
  })
  return completionOutput(request, () => profileCandidates(keys, namespace, request.prefix))
}

/** Lists every profile the hub user may see into the list (a detached `__complete --refresh`). */
async function refresh(selection: HubSelection): Promise<void> {
  const wiring = wire()
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
