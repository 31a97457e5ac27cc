// The hub `cpcred hub use` keeps, in cpcred's config directory, and the layers that choose the hub
// (core/kubeconfig/hub-choice.ts) applied to a selection. A small file read on every hub command,
// the credential fast path included, so it loads nothing heavy.
import {readFileSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {UsageError} from '../core/errors.js'
import {chooseHub, parseSavedHub, type SavedHub} from '../core/kubeconfig/hub-choice.js'
import type {HubSelection} from '../usecases/ports.js'

/** `${XDG_CONFIG_HOME:-~/.config}/cpcred/hub.json`, beside providers.json. */
export function savedHubFile(env: NodeJS.ProcessEnv = process.env): string {
  const configHome = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config')
  return path.join(configHome, 'cpcred', 'hub.json')
}

export async function readSavedHub(env: NodeJS.ProcessEnv = process.env): Promise<SavedHub | undefined> {
  const file = savedHubFile(env)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw new UsageError(`cannot read the hub cpcred hub use keeps (${file}): ${code ?? 'error'}`)
  }
  let saved: SavedHub | undefined
  try {
    saved = parseSavedHub(JSON.parse(text))
  } catch {
    saved = undefined
  }
  if (saved) return saved
  throw new UsageError(
    `${file} does not hold a hub as cpcred hub use writes it`,
    'choose the hub again with: cpcred hub use CONTEXT (or cpcred hub use --unset)',
  )
}

/** Keeps (or, with undefined, forgets) the hub: atomically, 0600, in a private directory. */
export async function writeSavedHub(saved: SavedHub | undefined, env: NodeJS.ProcessEnv = process.env) {
  const file = savedHubFile(env)
  if (saved === undefined) {
    const {rm} = await import('node:fs/promises')
    await rm(file, {force: true})
    return
  }
  const [{writeFileAtomic}, {ensurePrivateDir}] = await Promise.all([
    import('./files.js'),
    import('./directories.js'),
  ])
  ensurePrivateDir(path.dirname(file))
  await writeFileAtomic(file, `${JSON.stringify(saved)}\n`, {mode: 'private', refuseSymlink: true})
}

/** The selection with its layers applied (flags, environment, cpcred hub use, kubectl's current context). */
export async function chosenSelection(
  selection: HubSelection,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HubSelection> {
  if (selection.source !== undefined || selection.inCluster) return selection
  const flagsSay = selection.kubeconfig !== undefined || selection.context !== undefined
  const choice = chooseHub(selection, env, flagsSay ? undefined : await readSavedHub(env))
  return {
    namespace: selection.namespace,
    apiVersion: selection.apiVersion,
    kubeconfig: choice.kubeconfig,
    kubeconfigList: choice.kubeconfigList,
    context: choice.context,
    inCluster: choice.inCluster,
    source: choice.source,
    requestTimeoutMs: selection.requestTimeoutMs,
  }
}

/** The kubeconfig file the kept hub names, if any and readable: the answer book signs it (sync, small). */
export function savedHubKubeconfigSync(env: NodeJS.ProcessEnv = process.env): string | undefined {
  try {
    return parseSavedHub(JSON.parse(readFileSync(savedHubFile(env), 'utf8')))?.kubeconfig
  } catch {
    return undefined
  }
}
