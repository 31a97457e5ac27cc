// `cpcred __complete WORD...`: what the shell offers at TAB (the scripts that call it are patched
// into oclif's completion scripts by src/hooks/completion-scripts.ts). It runs on every keypress,
// so it starts on the fast path and never prints an error: the profile names come from a
// short-lived local list that a detached `cpcred __complete --refresh` renews. Only the very first
// TAB for a hub, with no list at all, waits a moment for that refresh instead of offering nothing.
import {spawn} from 'node:child_process'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {
  completionOutput,
  completionRequest,
  profileCandidates,
  type HubFlags,
  type ManifestCommand,
} from '../core/profiles/completion.js'
import {profileKey} from '../core/profiles/cluster-profile.js'
import {ExitCode, isCpcredError} from '../core/errors.js'
import type {HubSelection} from '../adapters/hub.js'
import {COMPLETE_COMMAND} from './complete-command.js'
import {wire} from './wiring.js'

export async function runComplete(argv: string[], out: (text: string) => void): Promise<void> {
  try {
    if (argv[0] === '--refresh') await refresh(JSON.parse(argv[1] ?? '{}') as HubSelection)
    else out(await candidates(argv))
  } catch {
    // A completion that fails offers nothing; the shell line must stay clean.
  }
}

/** How long the first TAB for a hub waits for the list to be fetched. */
const FIRST_LIST_WAIT_MS = 1500

async function candidates(words: string[]): Promise<string> {
  const manifest = JSON.parse(
    await readFile(new URL('../../oclif.manifest.json', import.meta.url), 'utf8'),
  ) as {commands: Record<string, ManifestCommand>}
  const request = completionRequest(words, manifest.commands)
  if (request.kind !== 'profiles') return completionOutput(request, () => [])
  const {keys, namespace} = await profileKeys(request.hub)
  return completionOutput(request, () => profileCandidates(keys, namespace, request.prefix))
}

async function profileKeys(selection: HubFlags): Promise<{keys: string[]; namespace: string}> {
  const [{hubIdentity, loadHubConfig}, cache] = await Promise.all([
    import('../adapters/hub.js'),
    completionCache(),
  ])
  const config = await loadHubConfig(selection)
  const identity = hubIdentity(config)
  let list = await cache.read(identity)
  if (!cache.isFresh(list) && (await cache.claimRefresh(identity))) {
    // Detached and unwaited: a stale list answers this keypress, and the next one gets the new.
    spawn(process.execPath, [process.argv[1]!, COMPLETE_COMMAND, '--refresh', JSON.stringify(selection)], {
      detached: true,
      stdio: 'ignore',
    }).unref()
  }
  list ??= await cache.waitFor(identity, FIRST_LIST_WAIT_MS)
  return {keys: list?.profiles ?? [], namespace: config.namespace}
}

/** Lists every profile the hub user may see (all namespaces, else the context's) into the cache. */
async function refresh(selection: HubSelection): Promise<void> {
  const [{Hub, hubIdentity, loadHubConfig}, {listProfiles}, cache] = await Promise.all([
    import('../adapters/hub.js'),
    import('../usecases/list-profiles.js'),
    completionCache(),
  ])
  const config = await loadHubConfig(selection)
  const identity = hubIdentity(config)
  try {
    const hub = await Hub.fromConfig(config, {
      runExecPlugin: wire().runExecPlugin,
      stdinIsTTY: false,
      onPluginStderr: () => undefined,
    })
    try {
      let result
      try {
        result = await listProfiles(hub, {namespace: undefined})
      } catch (error) {
        // A consumer may only be allowed the profiles of one namespace.
        if (!isCpcredError(error) || error.exitCode !== ExitCode.Denied) throw error
        result = await listProfiles(hub, {namespace: config.namespace})
      }
      await cache.write(identity, result.profiles.map(profileKey))
    } finally {
      await hub.client.close()
    }
  } finally {
    await cache.releaseRefresh(identity)
  }
}

async function completionCache() {
  const [{CompletionCache}, {defaultCredentialCacheDir}] = await Promise.all([
    import('../adapters/completion-cache.js'),
    import('../adapters/credential-store.js'),
  ])
  return new CompletionCache(path.join(path.dirname(defaultCredentialCacheDir()), 'completion'))
}
