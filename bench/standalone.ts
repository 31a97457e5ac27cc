// credential-standalone: a warm `cpcred credential NS/NAME` through the standalone archive as krew
// installs it (krew's link, the shell launcher and the Node beside it) against the npm install of the
// same tarball, alternated, with the same hub, provider file and warm cache. Budget "no slower"; the
// sizes of both printed beside it.
//
// Setup builds what `npm run release` builds for linux-amd64 only (scripts/release.ts: the npm pack
// of this checkout, whose prepack builds again, the archive and the krew manifest), installs the
// archive with the real krew (built once from the Go module proxy) and the tarball with npm.
import {execFile as execFileCallback} from 'node:child_process'
import {mkdtemp, readFile, rm, stat, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {KREW_MANIFEST, archiveName, buildStandalone, tarballName} from '../scripts/release.js'
import {ensureKrew} from '../test/testenv/binaries.js'
import {benchLine, withTargets} from './credential.js'
import {alternate, median, sampleOnce, settle} from './measure.js'
import type {BenchContext} from './run.js'

const execFile = promisify(execFileCallback)

// Each side is 30 to 100 ms. "No slower" with room for the noise of two equal sides: 60 alternated
// runs put their medians up to 7% apart on a quiet machine (docs/performance.md).
const RUNS = 60
const BUDGET = 1.1

interface Installs {
  /** The archive as krew unpacked it: its launchers, `lib/node` and `lib/cpcred`. */
  standalone: string
  /** krew's link to the launcher, `$KREW_ROOT/bin/kubectl-cpcred`. */
  krewLink: string
  /** The npm prefix: `bin/cpcred`, a link to lib/node_modules/cpcred/bin/run.js (`#!/usr/bin/env node`). */
  npm: string
  sizes: Record<string, string>
  setupSeconds: number
}

export async function credentialStandaloneBench(context: BenchContext): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-bench-standalone-'))
  try {
    const installs = await install(context, dir)
    // The build and the installs kept both cores busy.
    await settle('credential-standalone')
    await withTargets(context, 'standalone', 1, async (targets) => {
      const args = ['credential', targets.profiles[0]!, ...targets.flags]
      // kubectl runs a krew plugin through krew's link, and so does a --mode cpcred kubeconfig.
      const standalone = [installs.krewLink, ...args]
      const npm = [path.join(installs.npm, 'bin', 'cpcred'), ...args]
      // The archive's Node and files without the launcher: what the launcher itself costs.
      const direct = [
        path.join(installs.standalone, 'lib', 'node'),
        path.join(installs.standalone, 'lib', 'cpcred', 'bin', 'run.js'),
        ...args,
      ]
      const nodes = []
      for (const command of [standalone, npm]) {
        // Fills the cache (both read and write the same one); a failure here fails the case.
        await sampleOnce({name: `${command[0]} (cold)`, command, env: targets.env})
        const {stdout} = await execFile(command[0]!, ['version', '-o', 'json'], {
          env: {...process.env, ...targets.env},
        })
        nodes.push((JSON.parse(stdout) as {node: string}).node)
      }

      const samples = await alternate(
        [
          {name: 'standalone', command: standalone, env: targets.env},
          {name: 'npm', command: npm, env: targets.env},
          {name: 'direct', command: direct, env: targets.env},
          {name: 'npm again', command: npm, env: targets.env},
        ],
        RUNS,
      )
      const ms = (name: string) => median(samples.get(name)!.map((sample) => sample.wallMs))
      benchLine('credential-standalone', ms('standalone') / ms('npm'), BUDGET, {
        standalone_ms: ms('standalone').toFixed(1),
        npm_ms: ms('npm').toFixed(1),
        launcher_ms: (ms('standalone') - ms('direct')).toFixed(1),
        // The same npm command measured twice: how far apart two identical sides read in this run.
        npm_again_ratio: (ms('npm again') / ms('npm')).toFixed(2),
        ...installs.sizes,
        node: nodes.join('/'),
        runs: String(RUNS),
        setup_s: installs.setupSeconds.toFixed(0),
      })
    })
  } finally {
    await rm(dir, {recursive: true, force: true})
  }
}

/** The linux-amd64 archive, unpacked, and the npm install of the tarball it was built from. */
async function install(context: BenchContext, dir: string): Promise<Installs> {
  const started = Date.now()
  const log = (line: string) => console.error(`credential-standalone: ${line}`)
  // npm pack's postpack removes the checkout's oclif manifest, which the other cases run with.
  const manifest = path.resolve('oclif.manifest.json')
  const kept = await readFile(manifest).catch(() => undefined)
  const release = await withSetupEnv(context, () =>
    buildStandalone('linux-amd64', {out: path.join(dir, 'release'), log}),
  ).finally(() => kept && writeFile(manifest, kept))
  const archive = path.join(release.out, archiveName(release.version, 'linux-amd64'))
  // Installed as users install it, by the real krew. How a file is written decides how the kernel
  // caches it, and so how fast it starts for hours after: GNU tar's 10 KiB writes left the same Node
  // binary 1 to 2 ms slower to start than a copy written in larger pieces, as krew writes.
  const krewRoot = path.join(dir, 'krew')
  await execFile(
    await ensureKrew(log),
    ['install', `--manifest=${path.join(release.out, KREW_MANIFEST)}`, `--archive=${archive}`],
    {env: {...process.env, KREW_ROOT: krewRoot, HOME: dir}},
  )
  const standalone = path.join(krewRoot, 'store', 'cpcred', `v${release.version}`)
  const npm = path.join(dir, 'npm')
  await withSetupEnv(context, () =>
    execFile(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        npm,
        '--no-audit',
        '--no-fund',
        `./${tarballName(release.version)}`,
      ],
      {cwd: release.out, maxBuffer: 16 * 1024 * 1024},
    ),
  )
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)}MiB`
  return {
    standalone,
    krewLink: path.join(krewRoot, 'bin', 'kubectl-cpcred'),
    npm,
    sizes: {
      archive: mib((await stat(archive)).size),
      standalone_unpacked: mib(await diskBytes(standalone)),
      npm_installed: mib(await diskBytes(npm)),
    },
    setupSeconds: (Date.now() - started) / 1000,
  }
}

/** Apparent size of a tree (`du -sb`): the bytes a user downloads or unpacks, not blocks. */
async function diskBytes(dir: string): Promise<number> {
  const {stdout} = await execFile('du', ['-sb', dir])
  return Number(stdout.split('\t')[0])
}

/** Runs `body` with the Node startup variables the bench unset put back (npm may need the CA bundle). */
async function withSetupEnv<T>(context: BenchContext, body: () => Promise<T>): Promise<T> {
  const unset = Object.keys(context.setupEnv).filter((name) => process.env[name] === undefined)
  for (const name of unset) if (context.setupEnv[name]) process.env[name] = context.setupEnv[name]
  try {
    return await body()
  } finally {
    for (const name of unset) delete process.env[name]
  }
}
