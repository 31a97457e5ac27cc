// The hub's kubeconfig, loaded like kubectl loads one (--kubeconfig, KUBECONFIG, --context, -n), and
// what the hub's identity is made of. Read on every `cpcred credential`, so it loads only js-yaml.
import {createHash} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import os from 'node:os'
import {namesInBrief} from '../core/text/format.js'
import {canonicalJson} from '../core/exec-credential/cache.js'
import type {HubPin} from '../core/profiles/hub-pin.js'
import {UsageError} from '../core/errors.js'
import {
  findNamed,
  kubeconfigPaths,
  mergeKubeconfigs,
  type ContextEntry,
  type KubeconfigFile,
} from '../core/kubeconfig/merge.js'
import type {HubConfig, HubSelection} from '../usecases/ports.js'

export type {HubConfig, HubSelection} from '../usecases/ports.js'

export async function loadHubConfig(selection: HubSelection, env = process.env): Promise<HubConfig> {
  const {paths, explicit} = kubeconfigPaths(selection.kubeconfig, env.KUBECONFIG, os.homedir())
  const files: KubeconfigFile[] = []
  // js-yaml loads in about 5 ms where yaml takes 45: this runs on every kubectl call through a
  // `--mode cpcred` kubeconfig. (Output YAML is still written with the yaml package.)
  const {load: parse} = await import('js-yaml')
  for (const file of paths) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      // kubectl ignores missing files in KUBECONFIG, but not a file named with --kubeconfig.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !explicit) continue
      const code = (error as NodeJS.ErrnoException).code
      throw new UsageError(
        `cannot read kubeconfig ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message}`,
      )
    }
    try {
      files.push({path: file, document: parse(text)})
    } catch (error) {
      throw new UsageError(`kubeconfig ${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`)
    }
  }
  if (files.length === 0) {
    throw new UsageError(
      `no kubeconfig found for the hub (looked at ${paths.join(', ')})`,
      'pass --kubeconfig FILE or set KUBECONFIG to the hub cluster kubeconfig',
    )
  }
  let merged
  try {
    merged = mergeKubeconfigs(files)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const contextName = selection.context ?? merged['current-context']
  if (!contextName) {
    throw new UsageError(
      `the hub kubeconfig (${files.map((f) => f.path).join(', ')}) has no current context`,
      'pass --context NAME, or set one with: kubectl config use-context NAME',
    )
  }
  const contextEntry = findNamed(merged.contexts, contextName)
  if (!contextEntry) {
    const known = merged.contexts.map((c) => c.name)
    throw new UsageError(
      `context "${contextName}" not found in ${files.map((f) => f.path).join(', ')}`,
      known.length ? `known contexts: ${namesInBrief(known)}` : 'the kubeconfig defines no contexts',
    )
  }
  const context = (contextEntry.context ?? {}) as ContextEntry
  const cluster = context.cluster ? findNamed(merged.clusters, context.cluster) : undefined
  if (!cluster) {
    throw new UsageError(
      `context "${contextName}" refers to cluster "${context.cluster ?? ''}", which the kubeconfig does not define`,
    )
  }
  const server = (cluster.cluster as {server?: string} | undefined)?.server
  if (!server) throw new UsageError(`cluster "${cluster.name}" in the hub kubeconfig has no server`)

  return {
    merged,
    files: files.map((f) => f.path),
    context: contextName,
    server,
    user: context.user ?? '',
    namespace: selection.namespace || context.namespace || 'default',
  }
}

/**
 * Who reads the hub, as a digest of the context and its cluster and user entries. Plugins that read
 * the hub (secretreader, token-request) answer differently for another hub, user or namespace, so
 * this is part of every credential cache key.
 */
export function hubIdentity(config: HubConfig): string {
  const {merged, context, server} = config
  const entry = findNamed(merged.contexts, context)?.context as ContextEntry | undefined
  const parts = {
    server,
    context,
    // The context's namespace decides answers too (secretreader reads Secrets in it).
    contextEntry: entry,
    cluster: entry?.cluster ? findNamed(merged.clusters, entry.cluster) : undefined,
    user: entry?.user ? findNamed(merged.users, entry.user) : undefined,
  }
  return createHash('sha256').update(canonicalJson(parts)).digest('hex')
}

/** The hub as plugins that read it must find it (absolute files, the context in use). */
export function hubPin(config: HubConfig): HubPin {
  return {
    kubeconfigPaths: config.files,
    context: config.context,
    currentContext: config.merged['current-context'],
  }
}
