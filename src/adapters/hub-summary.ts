// What the hot paths (credential, exec on one profile) need to know of the hub before they know
// whether they must talk to it: who reads it (the identity every cache key carries), how plugins
// find it (the pin), the namespace. Parsing the hub kubeconfig for that takes longer than all the
// rest of a warm `cpcred credential` (client certificates make long YAML scalars), so the answer is
// kept per content: a file named by a digest of the kubeconfig files' paths and bytes and of the
// selection. It holds no secret, only names, paths and the identity digest. When the files change,
// so does the digest; the old summary is simply never read again.
import {createHash} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import os from 'node:os'
import type {HubPin} from '../core/profiles/hub-pin.js'
import {kubeconfigPaths} from '../core/kubeconfig/merge.js'
import {CacheStore} from './cache-store.js'
import {isRecord} from '../core/json.js'
import {chosenSelection} from './hub-choice.js'
import {hubIdentity, hubPin, loadHubConfig, type HubConfig, type HubSelection} from './hub.js'

// 2: kept by the cache store, as {version, value}. 3: keyed by what chose the hub too.
const VERSION = 3

export interface HubSummary {
  identity: string
  pin: HubPin
  /** -n, else the context's namespace, else "default". */
  namespace: string
}

export interface SummarizedHub {
  summary: HubSummary
  /** The whole configuration, loaded now or on first use. */
  config(): Promise<HubConfig>
}

export async function summarizeHub(
  selection: HubSelection,
  cacheDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SummarizedHub> {
  // The layers are applied once here, so the summary's name covers what they chose.
  selection = await chosenSelection(selection, env)
  let loaded: Promise<HubConfig> | undefined
  const config = () => (loaded ??= loadHubConfig(selection, env))
  const store = new CacheStore(cacheDir, {version: VERSION, isValue: isSummary})
  const name = await summaryName(selection, env)
  // An unreadable summary is worked out again.
  const kept = name === undefined ? undefined : await store.read(name)
  if (kept) return {summary: {identity: kept.identity, pin: kept.pin, namespace: kept.namespace}, config}
  // loadHubConfig reports a missing or broken kubeconfig as the user needs to hear it.
  const full = await config()
  const summary = {identity: hubIdentity(full), pin: hubPin(full), namespace: full.namespace}
  if (name !== undefined) await store.write(name, summary)
  return {summary, config}
}

function isSummary(value: unknown): value is HubSummary {
  return (
    isRecord(value) &&
    typeof value.identity === 'string' &&
    typeof value.namespace === 'string' &&
    isRecord(value.pin) &&
    Array.isArray(value.pin.kubeconfigPaths) &&
    value.pin.kubeconfigPaths.every((file) => typeof file === 'string') &&
    typeof value.pin.context === 'string' &&
    (value.pin.currentContext === undefined || typeof value.pin.currentContext === 'string')
  )
}

/** The summary's name for these kubeconfig bytes and this selection; undefined when one is unreadable. */
async function summaryName(selection: HubSelection, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const {paths} = kubeconfigPaths(
    selection.kubeconfig,
    selection.kubeconfigList ?? env.KUBECONFIG,
    os.homedir(),
  )
  const hash = createHash('sha256').update(
    JSON.stringify([
      VERSION,
      selection.context ?? null,
      selection.namespace ?? null,
      selection.source ?? null,
      selection.inCluster ?? null,
      paths,
    ]),
  )
  for (const file of paths) {
    try {
      hash.update('\0').update(await readFile(file))
    } catch (error) {
      // A missing file in a KUBECONFIG list is normal (kubectl skips it); anything else is for
      // loadHubConfig to report.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined
      hash.update('\0missing')
    }
  }
  return hash.digest('hex')
}
