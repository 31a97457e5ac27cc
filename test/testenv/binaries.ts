// Builds the upstream kube-apiserver, etcd and kubectl from the Go module proxy, once per version,
// into a cache outside the repository. Later runs find the binaries there and start in seconds.
//
// The tests run against the Kubernetes users run now (KUBERNETES_VERSION, with its kubectl as the
// oracle for every kubeconfig cpcred writes); the version-skew run (`npm run test:skew`) starts the
// oldest kube-apiserver cpcred supports (SKEW_KUBERNETES_VERSION) with the oldest kubectl.
import {execFile} from 'node:child_process'
import {existsSync, realpathSync} from 'node:fs'
import {mkdir, rename, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import lockfile from 'proper-lockfile'

export const KUBERNETES_VERSION = 'v1.37.2'
export const SKEW_KUBERNETES_VERSION = 'v1.34.10'
export const ETCD_VERSION = 'v3.6.14'
/** The oldest kubectl the skew run uses: the minor the machine's kubectl dispatcher carries. */
export const SKEW_KUBECTL_MINOR = '1.32'
/** The krew the release test installs cpcred's archive with (`npm run test:release`). */
export const KREW_VERSION = 'v0.4.4'
/**
 * What the release signs, describes and publishes with (scripts/release-sign.ts, `npm run
 * test:release`): cosign, syft and the distribution registry the signed image is pushed to.
 */
export const RELEASE_TOOLS = {
  cosign: {version: 'v3.1.3', pkg: 'github.com/sigstore/cosign/v3/cmd/cosign'},
  syft: {version: 'v1.57.1', pkg: 'github.com/anchore/syft/cmd/syft'},
  registry: {version: 'v3.1.2', pkg: 'github.com/distribution/distribution/v3/cmd/registry'},
} as const
export type ReleaseTool = keyof typeof RELEASE_TOOLS

const goModulesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'go')

export interface Binaries {
  kubeApiserver: string
  etcd: string
  /** The kubectl the tests put first on PATH. */
  kubectl: string
}

/** One binary: the wrapper module that builds it, the package, and its version stamps. */
interface Recipe {
  name: 'kube-apiserver' | 'etcd' | 'kubectl' | 'krew' | ReleaseTool
  version: string
  module: string
  pkg: string
  stamped: boolean
  /** A cross build for linux/<arch> (the container image's); the host's own platform when absent. */
  arch?: LinuxArch
}

/** The platforms of the container image (scripts/release-image.ts), as Go and OCI name them. */
export type LinuxArch = 'amd64' | 'arm64'

const KUBE_APISERVER_MODULES: Record<string, string> = {
  [KUBERNETES_VERSION]: 'kube-apiserver',
  [SKEW_KUBERNETES_VERSION]: 'kube-apiserver-v1.34',
}

function recipes(kubernetesVersion: string): Recipe[] {
  const module = KUBE_APISERVER_MODULES[kubernetesVersion]
  if (!module) throw new Error(`no kube-apiserver module for ${kubernetesVersion}`)
  return [
    {name: 'etcd', version: ETCD_VERSION, module: 'etcd', pkg: '.', stamped: false},
    {
      name: 'kube-apiserver',
      version: kubernetesVersion,
      module,
      pkg: 'k8s.io/kubernetes/cmd/kube-apiserver',
      stamped: true,
    },
    {name: 'kubectl', version: KUBERNETES_VERSION, module: 'kubectl', pkg: '.', stamped: true},
  ]
}

export function binaryCacheDir(): string {
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache')
  return path.join(cacheHome, 'cpcred', 'testbin')
}

function binaryPath(recipe: Recipe): string {
  const platform = recipe.arch ? `-linux-${recipe.arch}` : ''
  return path.join(binaryCacheDir(), `${recipe.name}-${recipe.version}${platform}`, recipe.name)
}

/**
 * kubectl KUBERNETES_VERSION for linux/`arch`, built as the tests' own (same module, same version
 * stamps); on a linux host of that arch it is the tests' kubectl itself.
 */
export async function ensureKubectl(
  arch: LinuxArch,
  log: (line: string) => void = () => {},
): Promise<string> {
  const kubectl = recipes(KUBERNETES_VERSION).find((recipe) => recipe.name === 'kubectl')!
  const native = process.platform === 'linux' && GO_ARCH[process.arch] === arch
  return ensureBinary(native ? kubectl : {...kubectl, arch}, log)
}

const GO_ARCH: Partial<Record<string, LinuxArch>> = {x64: 'amd64', arm64: 'arm64'}

/** Whether `ensureKubectl(arch)` has its binary already, or would build it (which needs Go). */
export function kubectlCached(arch: LinuxArch): boolean {
  const kubectl = recipes(KUBERNETES_VERSION).find((recipe) => recipe.name === 'kubectl')!
  const native = process.platform === 'linux' && GO_ARCH[process.arch] === arch
  return existsSync(binaryPath(native ? kubectl : {...kubectl, arch}))
}

/**
 * Returns the cached binaries for `kubernetesVersion`, building whichever is missing (each under a
 * lock of its own, so parallel callers build it once).
 */
export async function ensureBinaries(
  log: (line: string) => void = () => {},
  kubernetesVersion = KUBERNETES_VERSION,
): Promise<Binaries> {
  const built: Partial<Record<Recipe['name'], string>> = {}
  for (const recipe of recipes(kubernetesVersion)) built[recipe.name] = await ensureBinary(recipe, log)
  return {kubeApiserver: built['kube-apiserver']!, etcd: built.etcd!, kubectl: built.kubectl!}
}

/**
 * krew, cached like the others; the release test runs it as `kubectl-krew` on PATH. Only that test
 * needs it, so `ensureBinaries` does not build it.
 */
export async function ensureKrew(log: (line: string) => void = () => {}): Promise<string> {
  return ensureBinary(
    {name: 'krew', version: KREW_VERSION, module: 'krew', pkg: 'sigs.k8s.io/krew/cmd/krew', stamped: false},
    log,
  )
}

/**
 * cosign, syft or the registry, cached like the others (a cold build of all three takes about
 * 15 minutes on 2 cores, cosign the longest). Only the release needs them.
 */
export async function ensureReleaseTool(
  name: ReleaseTool,
  log: (line: string) => void = () => {},
): Promise<string> {
  const {version, pkg} = RELEASE_TOOLS[name]
  return ensureBinary({name, version, module: name, pkg, stamped: false}, log)
}

/** Whether `ensureReleaseTool(name)` has its binary already, or would build it (which needs Go). */
export function releaseToolCached(name: ReleaseTool): boolean {
  const {version, pkg} = RELEASE_TOOLS[name]
  return existsSync(binaryPath({name, version, module: name, pkg, stamped: false}))
}

/** How long a build may take on a busy 2-core machine before a waiter gives up on it. */
const LONGEST_BUILD_MS = 60 * 60_000

/**
 * The lock of one binary's build. Another run building it holds the lock (refreshed every 10 s) for
 * as long as the build takes, which on a busy machine is longer than any fixed count of retries:
 * wait, saying so once, until it is done; a lock whose holder died goes stale and is taken over.
 */
export async function buildLock(
  dir: string,
  what: string,
  log: (line: string) => void,
  longestMs = LONGEST_BUILD_MS,
): Promise<() => Promise<void>> {
  const options = {lockfilePath: path.join(dir, '.build.lock'), stale: 60_000, update: 10_000}
  const giveUpAt = Date.now() + longestMs
  for (let said = false; ; said = true) {
    try {
      return await lockfile.lock(dir, options)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > giveUpAt) throw error
      if (!said) log(`waiting for another run's build of ${what} (${options.lockfilePath})…`)
      await new Promise((resolve) => setTimeout(resolve, 2000))
    }
  }
}

async function ensureBinary(recipe: Recipe, log: (line: string) => void): Promise<string> {
  const output = binaryPath(recipe)
  if (existsSync(output)) return output
  const dir = path.dirname(output)
  await mkdir(dir, {recursive: true})
  const release = await buildLock(dir, `${recipe.name} ${recipe.version}`, log)
  try {
    if (!existsSync(output)) {
      const platform = recipe.arch ? ` for linux/${recipe.arch}` : ''
      log(
        `building ${recipe.name} ${recipe.version}${platform} from the Go module proxy (first run only, a few minutes)…`,
      )
      const ldflags = ['-s -w', ...(recipe.stamped ? versionLdflags(recipe.version) : [])].join(' ')
      await goBuild(path.join(goModulesDir, recipe.module), recipe.pkg, output, ldflags, recipe.arch)
    }
  } finally {
    await release()
  }
  return output
}

/**
 * The oldest kubectl for the skew run: $CPCRED_SKEW_KUBECTL, else the kubectl.1.32 that the
 * machine's kubectl dispatcher keeps beside itself, else the machine's kubectl as it is.
 */
export function skewKubectl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CPCRED_SKEW_KUBECTL) return env.CPCRED_SKEW_KUBECTL
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'kubectl')
    if (!dir || !existsSync(candidate) || candidate.startsWith(binaryCacheDir())) continue
    const pinned = path.join(path.dirname(realpathSync(candidate)), `kubectl.${SKEW_KUBECTL_MINOR}`)
    return existsSync(pinned) ? pinned : candidate
  }
  throw new Error('the skew run needs the machine kubectl on PATH (or CPCRED_SKEW_KUBECTL)')
}

// kubectl on these machines picks its client version from the server's /version, so the build
// must report the real release instead of the development placeholder; kubectl's own version and
// skew warning read the same stamps.
function versionLdflags(version: string): string[] {
  const [major, minor] = version.replace(/^v/, '').split('.')
  return ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => [
    `-X ${pkg}.gitVersion=${version}`,
    `-X ${pkg}.gitMajor=${major}`,
    `-X ${pkg}.gitMinor=${minor}`,
    `-X ${pkg}.gitTreeState=clean`,
  ])
}

async function goBuild(
  moduleDir: string,
  pkg: string,
  output: string,
  ldflags: string,
  arch?: LinuxArch,
): Promise<void> {
  const partial = `${output}.partial-${process.pid}`
  try {
    await promisify(execFile)('go', ['build', '-trimpath', '-ldflags', ldflags, '-o', partial, pkg], {
      cwd: moduleDir,
      env: {
        ...process.env,
        CGO_ENABLED: '0',
        GOTOOLCHAIN: 'local',
        GOFLAGS: '-mod=readonly -buildvcs=false',
        ...(arch ? {GOOS: 'linux', GOARCH: arch} : {}),
      },
      maxBuffer: 64 * 1024 * 1024,
    })
    await rename(partial, output)
  } catch (error) {
    await rm(partial, {force: true})
    const stderr = (error as {stderr?: string}).stderr ?? ''
    throw new Error(`go build ${pkg} failed in ${moduleDir}:\n${stderr.slice(-4000)}`)
  }
}
