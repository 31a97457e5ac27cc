// The container image (scripts/release-image.ts) built as a release builds it and run as the
// Indexed Job's pods run it: the amd64 image unpacked with umoci and started with runc, a read-only
// root filesystem, a non-root user, no capabilities, the pod's ServiceAccount token, CA and
// namespace at /var/run/secrets/kubernetes.io/serviceaccount, KUBERNETES_SERVICE_HOST/PORT naming
// the test hub, JOB_COMPLETION_INDEX set, and docs/examples/fleet-job.yaml's command and arguments.
// No network namespace: the container reaches the hub and spoke on this machine's loopback.
import assert from 'node:assert/strict'
import {existsSync} from 'node:fs'
import {chmod, chown, mkdir, readdir, readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {after, before, describe, it} from 'node:test'
import {
  buildImage,
  commitEpoch,
  ENTRYPOINT,
  IMAGE_UID,
  packRepository,
  type BuiltImage,
} from '../../scripts/release-image.js'
import {NODE_VERSION} from '../../scripts/node-runtime.js'
import {applyAccessExamples, applyProfileExamples, PROFILES} from '../../scripts/manifests.js'
import {repoRoot, runProgram, tempDir, testEnv, uniqueName} from '../helpers/env.js'
import {applyFleetJob, shardOutcomes} from '../helpers/fleet-job.js'
import {makePod, SERVICE_ACCOUNT_DIR} from '../helpers/pods.js'
import {KUBERNETES_VERSION} from '../testenv/binaries.js'

/** What the tests run, and the Debian package that has it. */
const TOOLS: Record<string, string> = {
  mmdebstrap: 'mmdebstrap',
  umoci: 'umoci',
  runc: 'runc',
  skopeo: 'skopeo',
  readelf: 'binutils',
}
const SHARDS = 3

function unavailable(): string | undefined {
  if (process.platform !== 'linux') return 'the image is built and run on Linux only'
  if (process.getuid?.() !== 0) return 'mmdebstrap --mode=root and runc need root'
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean)
  const missing = Object.keys(TOOLS).filter((tool) => !dirs.some((dir) => existsSync(path.join(dir, tool))))
  if (missing.length === 0) return undefined
  const packages = missing.map((tool) => TOOLS[tool]).join(' ')
  return `${missing.join(', ')} not installed (apt-get install ${packages}; .ci/run does it as root)`
}

const skip = unavailable()
if (skip) console.log(`# container image tests skipped: ${skip}`)

interface Container {
  command: string[]
  args: string[]
  env: {name: string; value: string}[]
  volumeMounts: {name: string; mountPath: string; readOnly?: boolean}[]
  securityContext: {readOnlyRootFilesystem: boolean}
}
interface JobObject {
  kind: string
  data?: Record<string, string>
  spec?: {
    template: {
      spec: {serviceAccountName: string; securityContext: {runAsUser: number}; containers: Container[]}
    }
  }
}

describe(
  'the container image: cpcred, node and kubectl on a pruned Debian base, linux/amd64 and linux/arm64',
  {skip},
  () => {
    let dir: string
    let version: string
    let first: BuiltImage
    const log = (line: string) => console.log(line)

    before(async () => {
      dir = await tempDir('cpcred-image-test-')
      version = (JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {version: string})
        .version
      // The built checkout as npm would publish it (the test run has built dist/ already).
      const npmTarball = await packRepository(dir, {ignoreScripts: true})
      const started = Date.now()
      first = await buildImage({
        version,
        npmTarball,
        // Where `npm run release:image` writes it in a checkout, for docs/ci.md's push command.
        outDir: path.join(dir, 'release'),
        sourceDateEpoch: await commitEpoch(),
        log,
        cacheDir: path.join(dir, 'downloads'),
      })
      log(`first build ${((Date.now() - started) / 1000).toFixed(0)}s: ${JSON.stringify(first.sizes)}`)
    })

    // Two layouts, a pushed copy and two unpacked root filesystems: about 1 GB.
    after(() => dir && rm(dir, {recursive: true, force: true}))

    /** umoci's bundle of one platform's image: its root filesystem and runtime spec, unpacked once. */
    const bundles = new Map<string, Promise<{rootfs: string; spec: RuntimeSpec}>>()
    const unpack = (arch: string) => {
      if (!bundles.has(arch)) {
        bundles.set(
          arch,
          (async () => {
            const bundle = path.join(dir, `bundle-${arch}`)
            const unpacked = await runProgram('umoci', [
              'unpack',
              '--image',
              `${first.layout}:${version}-${arch}`,
              bundle,
            ])
            assert.equal(unpacked.code, 0, unpacked.stderr)
            const spec = JSON.parse(await readFile(path.join(bundle, 'config.json'), 'utf8')) as RuntimeSpec
            return {rootfs: path.join(bundle, 'rootfs'), spec}
          })(),
        )
      }
      return bundles.get(arch)!
    }

    it('is reproducible: a second build of the commit has the same index digest, blob for blob', async () => {
      const started = Date.now()
      const second = await buildImage({
        version,
        npmTarball: (await readdir(dir))
          .map((name) => path.join(dir, name))
          .find((file) => file.endsWith('.tgz'))!,
        outDir: path.join(dir, 'second'),
        sourceDateEpoch: await commitEpoch(),
        log,
        cacheDir: path.join(dir, 'downloads'),
      })
      log(`second build ${((Date.now() - started) / 1000).toFixed(0)}s: ${second.indexDigest}`)
      assert.equal(second.indexDigest, first.indexDigest)
      const blobs = async (layout: string) => (await readdir(path.join(layout, 'blobs', 'sha256'))).sort()
      assert.deepEqual(await blobs(second.layout), await blobs(first.layout))
      assert.match(first.indexDigest, /^sha256:[0-9a-f]{64}$/)
    })

    it('is one image index of two platforms that skopeo reads and copies whole, as docs/ci.md pushes it', async () => {
      const raw = await runProgram('skopeo', ['inspect', '--raw', `oci:${first.layout}:${version}`])
      assert.equal(raw.code, 0, raw.stderr)
      const platforms = JSON.parse(raw.stdout) as {
        manifests: {platform: {architecture: string; os: string}}[]
      }
      assert.deepEqual(
        platforms.manifests.map(({platform}) => `${platform.os}/${platform.architecture}`),
        ['linux/amd64', 'linux/arm64'],
      )
      for (const arch of ['amd64', 'arm64']) {
        const inspected = await runProgram('skopeo', [
          'inspect',
          '--config',
          `oci:${first.layout}:${version}-${arch}`,
        ])
        assert.equal(inspected.code, 0, inspected.stderr)
        const config = JSON.parse(inspected.stdout) as {
          architecture: string
          config: {User: string; Entrypoint: string[]}
        }
        assert.equal(config.architecture, arch)
        assert.equal(config.config.User, `${IMAGE_UID}:${IMAGE_UID}`)
        assert.deepEqual(config.config.Entrypoint, ENTRYPOINT)
      }
      // docs/ci.md's push, as written, to a local layout instead of a registry: skopeo reads and
      // verifies every blob of both platforms.
      const doc = await readFile(path.join(repoRoot, 'docs', 'ci.md'), 'utf8')
      const push = doc.split('\n').find((line) => line.startsWith('skopeo copy'))
      assert.ok(push, 'docs/ci.md shows how to push the image')
      const words = push.split(/\s+/)
      assert.ok(words.includes(`oci:release/image:${version}`), push)
      const target = words.at(-1)!
      assert.match(target, /^docker:\/\/registry\.example\//)
      const pushed = path.join(dir, 'pushed')
      const copied = await runProgram(
        words[0]!,
        [
          ...words.slice(1, -1),
          '--quiet',
          target.replace(/^docker:\/\/registry\.example\/[^:]+/, `oci:${pushed}`),
        ],
        {cwd: dir},
      )
      assert.equal(copied.code, 0, copied.stderr)
      const index = JSON.parse(await readFile(path.join(pushed, 'index.json'), 'utf8')) as {
        manifests: {digest: string}[]
      }
      assert.deepEqual(
        index.manifests.map((manifest) => manifest.digest),
        [first.indexDigest],
      )
    })

    it('starts cpcred as its entrypoint with kubectl v1.37.2 beside it; the arm64 image holds every library its programs load', async () => {
      const {rootfs, spec} = await unpack('amd64')
      assert.equal(spec.process.user.uid, IMAGE_UID)
      assert.deepEqual(spec.process.args, ENTRYPOINT)
      const where = path.join(dir, 'entrypoint')
      const started = await runContainer(where, spec, rootfs, {args: [...spec.process.args, '--version']})
      assert.equal(started.code, 0, started.stderr)
      assert.match(
        started.stdout,
        new RegExp(
          `^cpcred +${version.replaceAll('.', '\\.')}\\n(.*\\n)*node +v${NODE_VERSION} \\(LTS, end of life `,
          'm',
        ),
      )
      const kubectl = await runContainer(where, spec, rootfs, {
        args: ['kubectl', 'version', '--client', '-o', 'json'],
      })
      assert.equal(kubectl.code, 0, kubectl.stderr)
      const client = (JSON.parse(kubectl.stdout) as {clientVersion: {gitVersion: string; platform: string}})
        .clientVersion
      assert.deepEqual([client.gitVersion, client.platform], [KUBERNETES_VERSION, 'linux/amd64'])

      // No emulator here to run arm64: its loader and every library node asks for are there.
      const arm = await unpack('arm64')
      for (const program of ['usr/local/bin/node']) {
        const headers = await runProgram('readelf', [
          '--file-header',
          '--program-headers',
          '--dynamic',
          path.join(arm.rootfs, program),
        ])
        assert.equal(headers.code, 0, headers.stderr)
        assert.match(headers.stdout, /Machine:\s+AArch64/)
        const loader = /Requesting program interpreter: (\S+)\]/.exec(headers.stdout)?.[1]
        assert.equal(loader, '/lib/ld-linux-aarch64.so.1', program)
        assert.ok(existsSync(path.join(arm.rootfs, loader)), `${program}: ${loader}`)
        const needed = [...headers.stdout.matchAll(/\(NEEDED\)\s+Shared library: \[(.+?)\]/g)].map(
          (match) => match[1]!,
        )
        assert.ok(needed.includes('libc.so.6'), `${program}: ${needed.join(' ')}`)
        for (const library of needed) {
          const found = ['lib/aarch64-linux-gnu', 'usr/lib/aarch64-linux-gnu'].some((libDir) =>
            existsSync(path.join(arm.rootfs, libDir, library)),
          )
          assert.ok(found, `${program} needs ${library}, which the arm64 image lacks`)
        }
      }
    })

    it("runs the fleet Job's pods with runc: each shard's targets pass, the one the guides make unusable fails for that reason", async () => {
      const {env, hub, spoke} = await testEnv()
      const {rootfs, spec: imageSpec} = await unpack('amd64')
      const du = await runProgram('du', ['-sb', rootfs])
      log(`amd64 root filesystem unpacked: ${du.stdout.trim().split('\t')[0]} bytes`)
      // Nothing a shell-less Job does not need.
      assert.equal(existsSync(path.join(rootfs, 'bin', 'sh')), false, 'no shell in the image')

      // The hub as the admin guides set it up, and fleet-job.yaml applied with this image's name.
      const namespace = uniqueName('fleetimage')
      const variables = await applyAccessExamples({
        hub,
        spoke,
        spokeServer: env.spoke.server,
        spokeCaData: env.spoke.caData,
        namespace,
        clusterset: 'fleetimage',
      })
      await applyProfileExamples(hub, variables)
      const objects = await applyFleetJob<JobObject>(env.hub.kubeconfig, dir, {
        NAMESPACE: namespace,
        IMAGE: `cpcred:${version}`,
        SHARDS: String(SHARDS),
        CLUSTER_NAME: variables.CLUSTER_NAME!,
      })
      const podSpec = objects.find((object) => object.kind === 'Job')!.spec!.template.spec
      const container = podSpec.containers[0]!
      assert.equal(podSpec.securityContext.runAsUser, IMAGE_UID)
      assert.equal(container.securityContext.readOnlyRootFilesystem, true)
      const providers = objects.find((object) => object.kind === 'ConfigMap')!.data!['providers.json']!

      // The pod's ServiceAccount files, readable by the pod's user as the kubelet projects them (0644).
      const pod = await makePod(namespace, podSpec.serviceAccountName)
      for (const file of ['token', 'ca.crt', 'namespace']) await chmod(path.join(pod.dir, file), 0o644)
      await chmod(pod.dir, 0o755)

      const runShard = async (index: number) => {
        const root = path.join(dir, `pod-${index}`)
        const volumes: Record<string, string> = {
          providers: path.join(root, 'providers'),
          reports: path.join(root, 'reports'),
          tmp: path.join(root, 'tmp'),
        }
        for (const volume of Object.values(volumes)) {
          await mkdir(volume, {recursive: true})
          await chown(volume, IMAGE_UID, IMAGE_UID)
        }
        await writeFile(path.join(volumes.providers!, 'providers.json'), providers, {mode: 0o644})
        // What the kubelet does: $(VAR) expanded from the container's environment, volumes mounted.
        const args = container.args.map((arg) => arg.replaceAll('$(JOB_COMPLETION_INDEX)', String(index)))
        assert.equal(container.securityContext.readOnlyRootFilesystem, true)
        const result = await runContainer(path.join(dir, `pod-${index}`), imageSpec, rootfs, {
          args: [...container.command, ...args],
          env: [
            ...container.env.map(({name, value}) => `${name}=${value}`),
            `KUBERNETES_SERVICE_HOST=${pod.env.KUBERNETES_SERVICE_HOST}`,
            `KUBERNETES_SERVICE_PORT=${pod.env.KUBERNETES_SERVICE_PORT}`,
            `JOB_COMPLETION_INDEX=${index}`,
          ],
          mounts: [
            ...container.volumeMounts.map(({name, mountPath, readOnly}) =>
              bind(volumes[name]!, mountPath, readOnly),
            ),
            bind(pod.dir, SERVICE_ACCOUNT_DIR, true),
          ],
        })
        return {result, report: path.join(volumes.reports!, `fleet-${index}.xml`)}
      }
      log(`runc run --bundle <pod>/bundle <id>, ${SHARDS} shards at once`)
      const shards = await Promise.all(Array.from({length: SHARDS}, (_, index) => runShard(index)))
      const {passed, failed, cases: podCases} = await shardOutcomes(shards, PROFILES.unusable)
      for (const [index, cases] of podCases.entries()) {
        // The spoke answered the image's kubectl for every target that passed.
        for (const testcase of cases.filter((item) => !item.failed)) {
          const logFile = path.join(
            dir,
            `pod-${index}`,
            'reports',
            `logs-${index}`,
            testcase.classname,
            `${testcase.name}.log`,
          )
          assert.equal((await readFile(logFile, 'utf8')).trim(), 'ok', logFile)
        }
      }
      assert.deepEqual(passed.sort(), [PROFILES.legacy, PROFILES.secretreader, PROFILES.tokenRequest].sort())
      assert.deepEqual(failed, [PROFILES.unusable])
    })
  },
)

interface RuntimeSpec {
  root: {path: string; readonly: boolean}
  process: {
    args: string[]
    env: string[]
    user: {uid: number; gid: number}
    terminal: boolean
    noNewPrivileges: boolean
    capabilities: Record<string, string[]>
  }
  mounts: {destination: string; type: string; source: string; options: string[]}[]
  linux: {namespaces: {type: string}[]}
}

function bind(source: string, destination: string, readOnly = false) {
  return {destination, type: 'bind', source, options: ['rbind', 'nosuid', 'nodev', readOnly ? 'ro' : 'rw']}
}

let containers = 0

/**
 * Runs one container of the image as a pod's container runs: the image's spec with a read-only
 * root, no capabilities, no new privileges, `args` and `env` added, `mounts` added, and no network
 * namespace (the hub and spoke listen on this machine's loopback).
 */
async function runContainer(
  where: string,
  imageSpec: RuntimeSpec,
  rootfs: string,
  {args, env = [], mounts = []}: {args: string[]; env?: string[]; mounts?: RuntimeSpec['mounts']},
) {
  const spec = structuredClone(imageSpec)
  spec.root = {path: rootfs, readonly: true}
  spec.process.args = args
  spec.process.env = [...spec.process.env, ...env]
  spec.process.terminal = false
  spec.process.noNewPrivileges = true
  spec.process.capabilities = {bounding: [], effective: [], permitted: [], ambient: []}
  spec.mounts.push(...mounts)
  if (!mounts.some((mount) => mount.destination === '/tmp')) {
    spec.mounts.push({
      destination: '/tmp',
      type: 'tmpfs',
      source: 'tmpfs',
      options: ['nosuid', 'nodev', 'mode=1777'],
    })
  }
  spec.linux.namespaces = spec.linux.namespaces.filter((namespace) => namespace.type !== 'network')
  const number = ++containers
  const bundle = path.join(where, `bundle-${number}`)
  await mkdir(bundle, {recursive: true})
  await writeFile(path.join(bundle, 'config.json'), JSON.stringify(spec))
  const id = `cpcred-image-${process.pid}-${number}`
  try {
    return await runProgram('runc', ['run', '--bundle', bundle, id])
  } finally {
    await runProgram('runc', ['delete', '--force', id])
  }
}
