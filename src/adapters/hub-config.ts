// The hub's kubeconfig, loaded like kubectl loads one (--kubeconfig, KUBECONFIG, --context, -n), and
// what the hub's identity is made of. Read on every `cpcred credential`, so it loads only js-yaml.
import {createHash} from 'node:crypto'
import {readFile, stat} from 'node:fs/promises'
import os from 'node:os'
import {namesInBrief} from '../core/text/format.js'
import {canonicalJson} from '../core/exec-credential/cache.js'
import type {HubPin} from '../core/profiles/hub-pin.js'
import {CpcredError, ExitCode, UsageError} from '../core/errors.js'
import {NAME_RULES, nameProblem, quotedName} from '../core/profiles/names.js'
import {
  findNamed,
  kubeconfigPaths,
  mergeKubeconfigs,
  type ContextEntry,
  type KubeconfigFile,
  type MergedKubeconfig,
} from '../core/kubeconfig/merge.js'
import {hubContextsOfOwned, sourceWords} from '../core/kubeconfig/hub-choice.js'
import {chosenSelection} from './hub-choice.js'
import {
  fallsBackToInCluster,
  IN_CLUSTER,
  inClusterFile,
  inClusterKubeconfig,
  inClusterNamespace,
  inClusterPossible,
  inClusterServer,
  isEmptyKubeconfig,
  SERVICE_ACCOUNT_DIR,
  SERVICE_HOST_ENV,
  SERVICE_PORT_ENV,
  serviceAccountOfToken,
  tokenExpiry,
} from '../core/kubeconfig/in-cluster.js'
import type {HubConfig, HubSelection} from '../usecases/ports.js'

export type {HubConfig, HubSelection} from '../usecases/ports.js'

/**
 * The hub's config as kubectl finds it: the kubeconfig files, or, when they hold nothing and the
 * process runs in a pod, the pod's in-cluster config (clientcmd's fallback). `serviceAccountDir` is
 * the kubelet's mount; tests name another.
 */
export async function loadHubConfig(
  selection: HubSelection,
  env = process.env,
  serviceAccountDir = SERVICE_ACCOUNT_DIR,
): Promise<HubConfig> {
  selection = await chosenSelection(selection, env)
  if (selection.inCluster) return loadInClusterConfig(selection, env, serviceAccountDir)
  const {paths, explicit} = kubeconfigPaths(
    selection.kubeconfig,
    selection.kubeconfigList ?? env.KUBECONFIG,
    os.homedir(),
  )
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
  let merged
  try {
    merged = mergeKubeconfigs(files)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const inCluster = fallsBackToInCluster({
    explicitKubeconfig: explicit,
    contextFlag: selection.context !== undefined,
    kubeconfigEmpty: isEmptyKubeconfig(merged),
    possible: inClusterPossible(env, await isFile(inClusterFile(serviceAccountDir, 'token'))),
  })
  if (inCluster) return loadInClusterConfig(selection, env, serviceAccountDir)
  if (files.length === 0) {
    throw new UsageError(
      `no kubeconfig found for the hub (looked at ${paths.join(', ')}) and not in a pod`,
      `pass --kubeconfig FILE or set KUBECONFIG to the hub cluster kubeconfig (in a pod, ${SERVICE_HOST_ENV}, ${SERVICE_PORT_ENV} and ${inClusterFile(serviceAccountDir, 'token')} make the in-cluster config)`,
    )
  }
  const contextName = selection.context ?? currentHubContext(merged, files)
  const chosenBy = sourceWords(
    {source: selection.source ?? 'kubectl', context: selection.context},
    selection.context === undefined && contextName !== merged['current-context']
      ? merged['current-context']
      : undefined,
  )
  const contextEntry = findNamed(merged.contexts, contextName)
  if (!contextEntry) {
    const known = merged.contexts.map((c) => c.name)
    throw new UsageError(
      `context "${contextName}" (from ${chosenBy}) not found in ${files.map((f) => f.path).join(', ')}`,
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
    chosenBy,
    namespace: checkedHubNamespace(
      selection.namespace || context.namespace || 'default',
      selection.namespace ? '-n' : `the namespace of context "${contextName}"`,
    ),
    requestTimeoutMs: selection.requestTimeoutMs,
  }
}

/**
 * The context kubectl would use, unless it is one cpcred wrote for a profile: then the one context
 * that reaches the hub its mark names, so that switching kubectl to a target leaves the hub alone.
 */
function currentHubContext(merged: MergedKubeconfig, files: KubeconfigFile[]): string {
  const current = merged['current-context']
  if (!current) {
    throw new UsageError(
      `the hub kubeconfig (${files.map((f) => f.path).join(', ')}) has no current context`,
      'choose the hub with: cpcred hub use CONTEXT (or pass --context NAME)',
    )
  }
  const owned = hubContextsOfOwned(merged, current)
  if (!owned) return current
  if (owned.contexts.length === 1) return owned.contexts[0]!
  throw new UsageError(
    owned.contexts.length === 0
      ? `kubectl's current context "${current}" is cpcred's, for the hub ${owned.hub}, and no other context reaches that hub`
      : `kubectl's current context "${current}" is cpcred's, for the hub ${owned.hub}, which several contexts reach: ${namesInBrief(owned.contexts)}`,
    'choose the hub with: cpcred hub use CONTEXT (or pass --context NAME)',
  )
}

/**
 * The namespace every namespaced hub request is made in, refused before any request when it breaks
 * Kubernetes' rule (clientcmd refuses such a context namespace too): a usage error naming its source.
 */
function checkedHubNamespace(namespace: string, source: string): string {
  if (nameProblem('namespace', namespace) === undefined) return namespace
  throw new UsageError(`${source} ${quotedName(namespace)} is not a namespace name`, NAME_RULES.namespace)
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile()
  } catch {
    return false
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8')
  } catch {
    return undefined
  }
}

/**
 * rest.InClusterConfig: the server from the service variables, the token file (read now, as
 * client-go does, and again on every request), the CA file when it holds a certificate.
 */
async function loadInClusterConfig(
  selection: HubSelection,
  env: NodeJS.ProcessEnv,
  dir: string,
): Promise<HubConfig> {
  const tokenFile = inClusterFile(dir, 'token')
  if (!env[SERVICE_HOST_ENV] || !env[SERVICE_PORT_ENV]) {
    throw new UsageError(
      `the hub is pinned to the in-cluster config, but ${SERVICE_HOST_ENV} and ${SERVICE_PORT_ENV} are not both set`,
      'run in a pod of the hub cluster, or pass --kubeconfig FILE',
    )
  }
  let token: string
  try {
    token = await readFile(tokenFile, 'utf8')
  } catch (error) {
    throw new UsageError(
      `cannot read the pod's service account token ${tokenFile}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      'mount the service account token (automountServiceAccountToken), or pass --kubeconfig FILE',
    )
  }
  if (token.trim() === '') {
    // client-go would go on without an Authorization header, and the hub's 403 would blame the RBAC
    // of system:anonymous. Exit 4, not 2: the pod is set up to use its ServiceAccount and the hub
    // is reachable, but it has no credential to present (as with a token the hub rejects); an
    // unreadable file stays 2, a matter of how the pod runs (its user and the file's mode).
    throw new CpcredError(
      `the pod's service account token ${tokenFile} is empty: cpcred has no identity to present to the hub`,
      {
        exitCode: ExitCode.Denied,
        hint: 'the kubelet writes the projected token there: check the volume mounted over it and automountServiceAccountToken, or pass --kubeconfig FILE',
      },
    )
  }
  const caFile = inClusterFile(dir, 'ca')
  const ca = await readOptional(caFile)
  const namespaceFile = inClusterFile(dir, 'namespace')
  const namespace = checkedHubNamespace(
    inClusterNamespace(selection.namespace, env, await readOptional(namespaceFile)),
    selection.namespace ? '-n' : `the pod's namespace (POD_NAMESPACE or ${namespaceFile})`,
  )
  const server = inClusterServer(env)
  const heldCa = ca?.includes('-----BEGIN CERTIFICATE-----') ? caFile : undefined
  return {
    merged: inClusterKubeconfig({server, caFile: heldCa, tokenFile, namespace}),
    files: [],
    context: IN_CLUSTER,
    server,
    user: IN_CLUSTER,
    namespace,
    inCluster: {
      dir,
      serviceAccount: serviceAccountOfToken(token),
      caFile: heldCa,
      tokenExpiresAt: tokenExpiry(token),
    },
    requestTimeoutMs: selection.requestTimeoutMs,
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
    // In a pod the user entry is only the token's path: who the token names is the reader.
    serviceAccount: config.inCluster?.serviceAccount,
  }
  return createHash('sha256').update(canonicalJson(parts)).digest('hex')
}

/** The hub as plugins that read it must find it (absolute files, the context in use). */
export function hubPin(config: HubConfig): HubPin {
  if (config.inCluster) return {kubeconfigPaths: [], context: IN_CLUSTER, inCluster: true}
  return {
    kubeconfigPaths: config.files,
    context: config.context,
    currentContext: config.merged['current-context'],
  }
}
