// npm run testenv -- up|down|status [--dir DIR]
import path from 'node:path'
import {down, status, up} from './testenv.js'
import {binaryCacheDir, ensureBinaries, ETCD_VERSION, KUBERNETES_VERSION} from './binaries.js'

export const DEFAULT_DIR = path.resolve('.testenv')

const usage = `usage: npm run testenv -- <up|down|status|build> [--dir DIR]

  up      build the binaries if needed, start a hub and a spoke, write DIR/env.json
  down    stop every process the environment started and remove DIR
  status  ask the hub and spoke whether they serve (/readyz), and show the processes started, with
          memory use (exit 0 only when both serve)
  build   only build (or find) the kube-apiserver and kubectl ${KUBERNETES_VERSION} and etcd ${ETCD_VERSION} binaries

DIR defaults to ./.testenv`

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv
  let dir = DEFAULT_DIR
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--dir' && rest[i + 1]) dir = path.resolve(rest[++i]!)
    else {
      console.error(`unknown argument: ${rest[i]}\n\n${usage}`)
      return 2
    }
  }
  const log = (line: string) => console.error(line)
  switch (verb) {
    case 'build': {
      const binaries = await ensureBinaries(log)
      console.log(`${binaries.kubeApiserver}\n${binaries.etcd}\n${binaries.kubectl}`)
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
