// credential-warm: `cpcred credential <ns>/<p>` with a warm cache against `node -e 0`: what cpcred adds
// to every kubectl call that goes through a `--mode cpcred` kubeconfig.
//
// Also the seeding the credential and exec cases share: profiles on the real hub that point at the
// real spoke, with the fake plugin provider of test/helpers/fixtures.ts (a hub ServiceAccount token
// whose audience is the spoke's URL, in a 0600 file the plugin reads).
import {spawnSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {chmod, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import YAML from 'yaml'
import {grantClusterRole, kubeCall, type Connection} from '../test/testenv/http.js'
import {adminConnection, HUB_USER_PREFIX, requestServiceAccountToken} from '../test/testenv/testenv.js'
import {alternate, median, sampleOnce} from './measure.js'
import type {BenchContext} from './run.js'

const RUNS = 15
const BUDGET = 1.2
const SERVICE_ACCOUNT = 'deployer'
export const FAKE_PLUGIN = fileURLToPath(new URL('../test/plugins/fake-plugin.mjs', import.meta.url))

export interface BenchTargets {
  namespace: string
  /** `namespace/name` of each profile, in creation order. */
  profiles: string[]
  /** `key=value` on every profile of this set. */
  selector: string
  dir: string
  providerFile: string
  /** The hub-issued token the plugin returns (for the static-token baseline). */
  token: string
  /** The identity the spoke maps the token to. */
  username: string
  /** HOME, XDG_* and NO_COLOR for a private, warmable cpcred (and kubectl discovery) cache. */
  env: NodeJS.ProcessEnv
  /** `--kubeconfig <hub> --provider-file <file>`. */
  flags: string[]
}

/**
 * Creates a namespace with a ServiceAccount and `count` profiles reaching the spoke through the fake
 * plugin, and a private home (0700) holding the token file (0600) and the provider file.
 */
export async function benchTargets(
  context: BenchContext,
  prefix: string,
  count: number,
): Promise<BenchTargets> {
  const {env, hub} = context
  const home = await benchHome(context, prefix)
  const stamp = home.namespace.slice(`bench-${prefix}-`.length)
  const selector = `bench=${prefix}-${stamp}`
  const jobs = Array.from({length: count}, (_, i) => `target-${String(i).padStart(3, '0')}`)
  const profiles = jobs.map((name) => `${home.namespace}/${name}`)
  const workers = Array.from({length: 8}, async () => {
    for (let name = jobs.shift(); name; name = jobs.shift())
      await createProfile(hub, home.namespace, name, selector, env.spoke.server, env.spoke.caData)
  })
  await Promise.all(workers)
  return {...home, profiles, selector}
}

/**
 * What a set of targets needs besides its profiles: a namespace with a ServiceAccount whose token
 * (for the spoke) the fake plugin returns, and a private home (0700) holding the token file (0600),
 * the provider file and cpcred's (and kubectl's discovery) cache.
 */
export async function benchHome(
  {env, hub}: BenchContext,
  prefix: string,
): Promise<Omit<BenchTargets, 'profiles' | 'selector'>> {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  const namespace = `bench-${prefix}-${stamp}`
  await kubeCall(hub, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {name: namespace},
  })
  await kubeCall(hub, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {name: SERVICE_ACCOUNT},
  })

  const dir = await mkdtemp(path.join(os.tmpdir(), `cpcred-bench-${prefix}-`))
  const token = await requestServiceAccountToken(hub, namespace, SERVICE_ACCOUNT, [env.spoke.server], 3600)
  const tokenFile = path.join(dir, 'token')
  await writeFile(tokenFile, token, {mode: 0o600})
  const providerFile = path.join(dir, 'providers.json')
  await writeFakeProviders(providerFile, FAKE_PLUGIN, {PLUGIN_TOKEN_FILE: tokenFile})

  const home = path.join(dir, 'home')
  await mkdir(home, {mode: 0o700})
  return {
    namespace,
    dir,
    providerFile,
    token,
    username: `${HUB_USER_PREFIX}system:serviceaccount:${namespace}:${SERVICE_ACCOUNT}`,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      KUBECONFIG: undefined,
      CPCRED_PROVIDER_FILE: undefined,
      NO_COLOR: '1',
    },
    flags: ['--kubeconfig', env.hub.kubeconfig, '--provider-file', providerFile],
  }
}

async function createProfile(
  hub: Connection,
  namespace: string,
  name: string,
  selector: string,
  server: string,
  caData: string,
): Promise<void> {
  const [labelKey, labelValue] = selector.split('=') as [string, string]
  const profilesPath = `/apis/multicluster.x-k8s.io/v1alpha1/namespaces/${namespace}/clusterprofiles`
  const created = await kubeCall<Record<string, unknown>>(hub, 'POST', profilesPath, {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {name, labels: {[labelKey]: labelValue, 'x-k8s.io/cluster-manager': 'bench-manager'}},
    spec: {clusterManager: {name: 'bench-manager'}},
  })
  await kubeCall(hub, 'PUT', `${profilesPath}/${name}/status`, {
    ...created,
    status: {
      accessProviders: [
        {
          name: 'fake',
          cluster: {
            server,
            'certificate-authority-data': caData,
            // A per-cluster exec config, as real fleets have: each target gets its own cache entry.
            extensions: [{name: 'client.authentication.k8s.io/exec', extension: {clusterName: name}}],
          },
        },
      ],
    },
  })
}

/**
 * A provider file (0600) whose one provider, `fake` (the name every bench profile offers), runs
 * `command` with `env`: the bench targets' plugin, or a stand-in for another kind of plugin.
 */
export async function writeFakeProviders(file: string, command: string, env: Record<string, string>) {
  await writeFile(
    file,
    JSON.stringify({
      providers: [
        {
          name: 'fake',
          execConfig: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command,
            env: Object.entries(env).map(([name, value]) => ({name, value})),
            provideClusterInfo: true,
          },
        },
      ],
    }),
    {mode: 0o600},
  )
}

/** Runs `body` with fresh targets, then removes their directory (the token file with it). */
export async function withTargets(
  context: BenchContext,
  prefix: string,
  count: number,
  body: (targets: BenchTargets) => Promise<void>,
): Promise<void> {
  const targets = await benchTargets(context, prefix, count)
  try {
    await body(targets)
  } finally {
    await rm(targets.dir, {recursive: true, force: true})
  }
}

/**
 * Points `providerFile` at a shell plugin (in `dir`) that prints the token in `dir`/token, valid 4 h:
 * for a fleet, where the Node fake plugin would start a Node process per target to fill the cache,
 * and where a loop's kubectl runs the plugin on every call, so it gets the cheapest plugin there is.
 */
export async function writeShellPluginProviders(dir: string, providerFile: string): Promise<void> {
  const plugin = path.join(dir, 'plugin.sh')
  const expires = new Date(Date.now() + 4 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z')
  await writeFile(
    plugin,
    [
      '#!/bin/sh',
      'read -r token < "$PLUGIN_TOKEN_FILE"',
      `printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"${expires}"}}' "$token"`,
      '',
    ].join('\n'),
  )
  await chmod(plugin, 0o700)
  await writeFakeProviders(providerFile, plugin, {PLUGIN_TOKEN_FILE: path.join(dir, 'token')})
}

/** Lets the targets' identity list namespaces on the spoke (as the spoke's admin). */
export function grantNamespaceReader(context: BenchContext, targets: BenchTargets): Promise<void> {
  return grantReader(context, targets, 'namespaces')
}

/** Lets the targets' identity get and list `resource` (core group) in every namespace of the spoke. */
export async function grantReader(
  {env}: BenchContext,
  targets: BenchTargets,
  resource: string,
): Promise<void> {
  const spoke = await adminConnection(env.spoke)
  const name = `cpcred-bench-${targets.namespace}-${resource}`
  await grantClusterRole(spoke, name, targets.username, [
    {apiGroups: [''], resources: [resource], verbs: ['get', 'list']},
  ])
}

/** A kubeconfig for the spoke with the targets' token inline (0600), as the baseline kubectl uses. */
export async function staticTokenKubeconfig({env}: BenchContext, targets: BenchTargets): Promise<string> {
  const file = path.join(targets.dir, 'static-token.kubeconfig')
  await writeFile(
    file,
    YAML.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {name: 'spoke', cluster: {server: env.spoke.server, 'certificate-authority-data': env.spoke.caData}},
      ],
      users: [{name: 'bench', user: {token: targets.token}}],
      contexts: [{name: 'spoke', context: {cluster: 'spoke', user: 'bench', namespace: 'default'}}],
      'current-context': 'spoke',
    }),
    {mode: 0o600},
  )
  return file
}

/**
 * Prints one `BENCH <name> ratio=<x> …` line, marked when the ratio exceeds its budget
 * (`budget=none` for a case that only reports).
 */
export function benchLine(
  name: string,
  ratio: number,
  budget: number | undefined,
  fields: Record<string, string>,
) {
  const rest = Object.entries(fields).map(([key, value]) => `${key}=${value}`)
  const over = budget !== undefined && ratio > budget ? ' (over budget)' : ''
  console.log(`BENCH ${name} ratio=${ratio.toFixed(2)} budget=${budget ?? 'none'} ${rest.join(' ')}${over}`)
}

export function credentialWarmBench(context: BenchContext): Promise<void> {
  return withTargets(context, 'cred', 1, async (targets) => {
    const command = [...context.cpcred, 'credential', targets.profiles[0]!, ...targets.flags]
    // Fill the cache (credential and profile snapshot); a failure here fails the case.
    await sampleOnce({name: 'cpcred credential (cold)', command, env: targets.env})

    const samples = await alternate(
      [
        {name: 'cpcred', command, env: targets.env},
        {name: 'node', command: [process.execPath, '-e', '0'], env: targets.env},
      ],
      RUNS,
    )
    const cpcredMs = median(samples.get('cpcred')!.map((s) => s.wallMs))
    const nodeMs = median(samples.get('node')!.map((s) => s.wallMs))
    const cpuMs = median(samples.get('cpcred')!.map((s) => s.cpuMs))
    benchLine('credential-warm', cpcredMs / nodeMs, BUDGET, {
      cpcred_ms: cpcredMs.toFixed(0),
      node_ms: nodeMs.toFixed(0),
      cpcred_cpu_ms: cpuMs.toFixed(0),
      runs: String(RUNS),
    })
  })
}

// credential-instructions: the answered `cpcred credential` of credential-warm counted in instructions
// (valgrind's callgrind) against `node -e 0`. A count does not move with the load of this shared
// machine, so a cost of a millisecond or two, which credential-warm's wall clock cannot tell from
// noise, shows here; what it cannot see is time spent waiting (disk, the scheduler), which
// credential-warm goes on measuring.
const INSTRUCTION_RUNS = 5
const INSTRUCTION_BUDGET = 1.35
const VALGRIND = '/usr/bin/valgrind'

export async function credentialInstructionsBench(context: BenchContext): Promise<void> {
  if (!existsSync(VALGRIND)) {
    console.log(`# credential-instructions: skipped, ${VALGRIND} is not installed (apt-get install valgrind)`)
    return
  }
  await withTargets(context, 'credinstr', 1, async (targets) => {
    // One run under valgrind takes 10 to 15 s: a profile snapshot older than --profile-max-age would
    // send the answered path to the hub, and the count would be the full path's.
    const command = [
      ...context.cpcred,
      'credential',
      targets.profiles[0]!,
      ...targets.flags,
      '--profile-max-age',
      '10m',
    ]
    await sampleOnce({name: 'cpcred credential (cold)', command, env: targets.env})
    const counts = {cpcred: [] as number[], node: [] as number[]}
    for (let run = 0; run < INSTRUCTION_RUNS; run++) {
      counts.cpcred.push(instructions(command, targets.env))
      counts.node.push(instructions([process.execPath, '-e', '0'], targets.env))
    }
    // Counts still differ by a few per cent from run to run (address layout, V8's background
    // threads, when a GC falls): the median of each.
    const cpcred = median(counts.cpcred)
    const node = median(counts.node)
    benchLine('credential-instructions', cpcred / node, INSTRUCTION_BUDGET, {
      cpcred_minstr: (cpcred / 1e6).toFixed(1),
      node_minstr: (node / 1e6).toFixed(1),
      runs: String(INSTRUCTION_RUNS),
    })
  })
}

/** Instructions `command` executes, its children's included (a launcher's Node is the work). */
function instructions(command: string[], env: NodeJS.ProcessEnv): number {
  const run = spawnSync(
    VALGRIND,
    ['--tool=callgrind', '--trace-children=yes', '--callgrind-out-file=/dev/null', ...command],
    {env: {...process.env, ...env}, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe']},
  )
  const collected = [...run.stderr.matchAll(/Collected : (\d+)/g)].map((match) => Number(match[1]))
  if (run.status !== 0 || collected.length === 0)
    throw new Error(
      `${command.join(' ')} under callgrind failed (exit ${run.status}): ${run.stderr.slice(-2000)}`,
    )
  return collected.reduce((sum, count) => sum + count, 0)
}
