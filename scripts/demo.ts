// npm run demo: the whole story on a real local hub and spoke (upstream kube-apiserver + etcd).
// Starts the test environment in .testenv/ (or $CPCRED_DEMO_DIR), or reuses it when it runs;
// applies the admin guides' manifests from docs/examples/ to both clusters; seeds ClusterProfiles;
// writes a provider file and a consumer kubeconfig; then runs cpcred as that consumer. Safe to run
// again. Leaves the environment running; `npm run testenv -- down` ends it.
import {spawn} from 'node:child_process'
import {mkdir} from 'node:fs/promises'
import path from 'node:path'
import {adminConnection, down, status, up, type TestEnv} from '../test/testenv/testenv.js'
import {
  applyAccessExamples,
  applyProfileExamples,
  CONSUMER_SERVICE_ACCOUNT,
  describeObject,
  PROFILES,
  PROFILES_FILE,
  providerFileForCheckout,
  REACHABLE_SELECTOR,
  repoRoot,
  writeConsumerKubeconfig,
  writePrivateFile,
  type KubeObject,
} from './manifests.js'

const DEMO_NAMESPACE = 'cpcred-demo'
const DEMO_CLUSTERSET = 'demo'

const dir = path.resolve(process.env.CPCRED_DEMO_DIR || path.join(repoRoot, '.testenv'))
const cpcredBin = path.join(repoRoot, 'bin', 'run.js')

/** A path as the user would type it from here: relative when it is below the current directory. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file)
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file
}

const bold = process.stdout.isTTY && !process.env.NO_COLOR

function heading(text: string): void {
  console.log(bold ? `\n\x1b[1m== ${text}\x1b[0m` : `\n== ${text}`)
}

async function main(): Promise<void> {
  const env = await startOrReuse()
  const [hub, spoke] = await Promise.all([adminConnection(env.hub), adminConnection(env.spoke)])

  heading('1. Hub and spoke configuration from docs/examples (the admin guides)')
  const target = {
    hub,
    spoke,
    spokeServer: env.spoke.server,
    spokeCaData: env.spoke.caData,
    namespace: DEMO_NAMESPACE,
    clusterset: DEMO_CLUSTERSET,
  }
  const variables = await applyAccessExamples(target, (file, applied, where) =>
    printApplied(file, applied, where),
  )
  console.log(
    `   The secretreader Secret holds a hub ServiceAccount token requested for ${env.spoke.server}: the demo's\n` +
      '   stand-in for the static cluster token an administrator would store there.\n' +
      `   The spoke already trusts the hub's tokens: the testenv started it with the AuthenticationConfiguration\n` +
      `   of docs/examples/spoke-authentication-config.yaml (${shown(path.join(env.dir, 'spoke-authentication-config.yaml'))}).`,
  )

  heading('2. ClusterProfiles for the spoke')
  printApplied(PROFILES_FILE, await applyProfileExamples(hub, variables), 'hub')

  heading('3. The provider file (docs/examples/providers.json, with this checkout as the command)')
  const providerFile = path.join(env.dir, 'providers.json')
  const providers = `${JSON.stringify(await providerFileForCheckout(process.execPath, cpcredBin), null, 2)}\n`
  await writePrivateFile(providerFile, providers)
  console.log(`$ cat ${shown(providerFile)}\n${providers.trimEnd()}`)

  heading(
    `4. A hub kubeconfig for the consumer (ServiceAccount ${DEMO_NAMESPACE}/${CONSUMER_SERVICE_ACCOUNT})`,
  )
  const consumerKubeconfig = path.join(env.dir, 'consumer.kubeconfig')
  await writeConsumerKubeconfig(
    consumerKubeconfig,
    hub,
    {server: env.hub.server, caData: env.hub.caData},
    DEMO_NAMESPACE,
  )
  console.log(
    `   ${shown(consumerKubeconfig)}: a day-long token of the consumer, which may only read ClusterProfiles (and\n` +
      '   namespaces), get the one secretreader Secret, and request tokens of ServiceAccount deployer.\n' +
      '   Everything below runs as that consumer, with:\n' +
      `     KUBECONFIG=${shown(consumerKubeconfig)}\n     CPCRED_PROVIDER_FILE=${shown(providerFile)}`,
  )

  heading('5. cpcred')
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    KUBECONFIG: consumerKubeconfig,
    CPCRED_PROVIDER_FILE: providerFile,
    // The kubectl of the clusters' release, as the tests use it (an environment recorded before
    // it was kept has none: the machine's kubectl then).
    ...(env.kubectl ? {PATH: `${path.dirname(env.kubectl)}${path.delimiter}${process.env.PATH}`} : {}),
  }
  delete childEnv.CPCRED_HUB_CONTEXT
  const cpcred = (...args: string[]) =>
    run(['cpcred', ...args], process.execPath, [cpcredBin, ...args], childEnv)
  const profile = (name: string) => `${DEMO_NAMESPACE}/${name}`
  const targetKubeconfig = shown(path.join(env.dir, 'target.kubeconfig'))

  await cpcred('list', '-A', '-o', 'wide')
  await cpcred('describe', profile(PROFILES.tokenRequest))
  await cpcred(
    'kubeconfig',
    profile(PROFILES.tokenRequest),
    '--output-file',
    targetKubeconfig,
    // The demo runs twice without a question; by hand you would choose.
    '--overwrite',
  )
  const kubectl = ['kubectl', '--kubeconfig', targetKubeconfig, 'get', 'ns']
  await run(kubectl, 'kubectl', kubectl.slice(1), childEnv)
  await cpcred('exec', profile(PROFILES.tokenRequest), '--', 'kubectl', 'get', 'ns')
  await cpcred('whoami', profile(PROFILES.tokenRequest))
  await cpcred('whoami', profile(PROFILES.secretreader))
  await cpcred('exec', '-A', '-l', REACHABLE_SELECTOR, '--', 'kubectl', 'get', 'ns', 'default')

  const downCommand = `npm run testenv -- down${dir === path.join(repoRoot, '.testenv') ? '' : ` --dir ${shown(dir)}`}`
  heading('Keep going')
  console.log(`The hub runs on ${env.hub.server}, the spoke on ${env.spoke.server}. In this shell:

  export KUBECONFIG=${consumerKubeconfig}
  export CPCRED_PROVIDER_FILE=${providerFile}
  alias cpcred=${cpcredBin}

  cpcred list -A --usable
  cpcred describe ${profile(PROFILES.legacy)}      # deprecated credentialProviders
  cpcred describe ${profile(PROFILES.unusable)}    # a provider your file does not have
  cpcred kubeconfig -n ${DEMO_NAMESPACE} -l ${REACHABLE_SELECTOR} --mode cpcred

The admin guides: docs/flow-token-request.md, docs/flow-secretreader.md; provider files: docs/providers.md.
Stop the clusters with: ${downCommand}
`)
}

/** The running environment in `dir`, started when there is none. */
async function startOrReuse(): Promise<TestEnv> {
  // status refuses a state file that is not this checkout's (a copied .testenv): its clusters are
  // another checkout's, and nothing is applied to them.
  const {env, processes, servers} = await status(dir)
  if (env && servers.every((server) => server.serving)) {
    console.error(`testenv: reusing the hub and spoke recorded in ${shown(dir)}`)
    return env
  }
  if (env) {
    const running = processes.filter((process) => process.running).map((process) => process.name)
    // Some processes of the old environment still run: stopping them is the user's call.
    if (running.length > 0) {
      throw new Error(
        `the environment in ${shown(dir)} is only partly running (${running.join(', ')}); ` +
          `stop it with 'npm run testenv -- down${dir === path.join(repoRoot, '.testenv') ? '' : ` --dir ${dir}`}' and run the demo again`,
      )
    }
    console.error(`testenv: the environment recorded in ${shown(dir)} has stopped; starting a new one`)
    await down(dir)
  }
  await mkdir(path.dirname(dir), {recursive: true})
  console.error('testenv: starting a hub and a spoke (the first run builds kube-apiserver, kubectl and etcd)')
  return up(dir, (line) => console.error(`testenv: ${line}`))
}

function printApplied(file: string, applied: KubeObject[], where: 'hub' | 'spoke'): void {
  console.log(`   docs/examples/${file} -> ${where}: ${applied.map(describeObject).join(', ')}`)
}

/**
 * Runs a command with the terminal, after a `$ …` line showing it as the user would type it; a
 * non-zero exit ends the demo.
 */
async function run(
  shownCommand: string[],
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const commandLine = shownCommand.map(quoteForShell).join(' ')
  console.log(`\n$ ${commandLine}`)
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(file, args, {stdio: 'inherit', env})
    child.on('error', (error) => reject(new Error(`cannot run ${shownCommand[0]}: ${error.message}`)))
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)))
  })
  if (code !== 0) throw new Error(`'${commandLine}' exited with ${code} (its messages are above)`)
}

function quoteForShell(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

main().catch((error: Error) => {
  console.error(`\ndemo failed: ${error.message}`)
  process.exit(1)
})
