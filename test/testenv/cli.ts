// npm run testenv -- up|down|status [--dir DIR]
import path from 'node:path'
import {down, status, up} from './testenv.js'
import {
  binaryCacheDir,
  ensureBinaries,
  ensureKrew,
  ensureKubectl,
  ensureReleaseTool,
  ETCD_VERSION,
  KREW_VERSION,
  KUBERNETES_VERSION,
  RELEASE_TOOLS,
  SKEW_KUBERNETES_VERSION,
  type ReleaseTool,
} from './binaries.js'

export const DEFAULT_DIR = path.resolve('.testenv')

const usage = `usage: npm run testenv -- <up|down|status|build [--all]> [--dir DIR]

  up      build the binaries if needed, start a hub and a spoke, write DIR/env.json
  down    stop every process the environment started and remove DIR
  status  ask the hub and spoke whether they serve (/readyz), and show the processes started, with
          memory use (exit 0 only when both serve)
  build   only build (or find) the kube-apiserver and kubectl ${KUBERNETES_VERSION} and etcd ${ETCD_VERSION} binaries;
          with --all also everything else a CI run builds: the skew job's kube-apiserver
          ${SKEW_KUBERNETES_VERSION}, krew ${KREW_VERSION}, kubectl for linux/arm64 (the release's image) and
          the release's tools (${Object.keys(RELEASE_TOOLS).join(', ')}), one after another, each timed

DIR defaults to ./.testenv`

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv
  let dir = DEFAULT_DIR
  let all = false
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--dir' && rest[i + 1]) dir = path.resolve(rest[++i]!)
    else if (verb === 'build' && rest[i] === '--all') all = true
    else {
      console.error(`unknown argument: ${rest[i]}\n\n${usage}`)
      return 2
    }
  }
  const log = (line: string) => console.error(line)
  switch (verb) {
    case 'build': {
      const timed = async (what: string, build: () => Promise<unknown>) => {
        const started = Date.now()
        await build()
        log(`build: ${what}: ${((Date.now() - started) / 1000).toFixed(0)}s`)
      }
      let binaries: Awaited<ReturnType<typeof ensureBinaries>> | undefined
      await timed(`kube-apiserver, etcd and kubectl ${KUBERNETES_VERSION}`, async () => {
        binaries = await ensureBinaries(log)
      })
      console.log(`${binaries!.kubeApiserver}\n${binaries!.etcd}\n${binaries!.kubectl}`)
      if (!all) return 0
      // One at a time: on 2 cores, Go builds side by side take as long and need more memory.
      await timed(`kube-apiserver ${SKEW_KUBERNETES_VERSION}`, () =>
        ensureBinaries(log, SKEW_KUBERNETES_VERSION),
      )
      await timed(`krew ${KREW_VERSION}`, () => ensureKrew(log))
      await timed('kubectl linux/arm64', () => ensureKubectl('arm64', log))
      for (const tool of Object.keys(RELEASE_TOOLS) as ReleaseTool[])
        await timed(tool, () => ensureReleaseTool(tool, log))
      return 0
    }
    case 'up': {
      const env = await up(dir, log)
      console.log(`hub:   ${env.hub.server}  (kubeconfig ${env.hub.kubeconfig})`)
      console.log(`spoke: ${env.spoke.server}  (kubeconfig ${env.spoke.kubeconfig})`)
      console.log(`state: ${path.join(env.dir, 'env.json')}`)
      return 0
    }
    case 'down':
      console.log(
        (await down(dir)) ? `stopped the test environment in ${dir}` : `no test environment in ${dir}`,
      )
      return 0
    case 'status': {
      const {env, processes, servers} = await status(dir)
      if (!env) {
        console.log(`no test environment in ${dir} (binaries cache: ${binaryCacheDir()})`)
        return 1
      }
      for (const server of servers) {
        const started = processes.find((p) => p.name === `${server.name}-apiserver`)
        const note =
          server.serving && started && !started.running
            ? ' (not by the process this environment started: down leaves it running)'
            : ''
        console.log(
          `${`${server.name}:`.padEnd(7)}${server.server}  ${server.serving ? 'serving' : 'not serving'}${note}`,
        )
      }
      for (const p of processes) {
        console.log(
          `${p.name.padEnd(16)} pid ${String(p.pid).padEnd(8)} ${p.running ? `running  ${p.rssMiB ?? '?'} MiB` : 'stopped'}`,
        )
      }
      return servers.every((server) => server.serving) ? 0 : 1
    }
    default:
      console.error(usage)
      return 2
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`testenv: ${error.message}`)
    process.exit(1)
  },
)
