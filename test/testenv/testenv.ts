// A real hub and spoke on loopback: upstream etcd + kube-apiserver per cluster. The hub issues
// ServiceAccount tokens and serves OIDC discovery anonymously; the spoke trusts hub tokens whose
// audience is the spoke's URL through its AuthenticationConfiguration (username prefix "hub:").
import {spawn} from 'node:child_process'
import {closeSync, existsSync, openSync, readFileSync, realpathSync} from 'node:fs'
import {chmod, mkdir, readFile, rm, writeFile} from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import YAML from 'yaml'
import {ensureBinaries, KUBERNETES_VERSION, type Binaries} from './binaries.js'
import {kubeCall, kubeRequest, waitFor, type Connection} from './http.js'
import {createClientCertificate, createPki, createServiceAccountKey, type Pki} from './pki.js'

export const HUB_USER_PREFIX = 'hub:'
const manifestsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'manifests')
/** The checkout this code runs from: an environment acts only on clusters this checkout started. */
export const CHECKOUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const READY_TIMEOUT_MS = 90_000

export interface ClusterInfo {
  name: string
  server: string
  /** Absolute path of an admin kubeconfig (client certificate, group system:masters). */
  kubeconfig: string
  context: string
  /** base64 of the CA PEM, as in a kubeconfig's certificate-authority-data. */
  caData: string
  /** The cluster's service-account issuer URL. */
  issuer: string
  /** The hub's audit log (JSON lines): what each user asked of it, as the server saw the request. */
  auditLog?: string
}

/**
 * What the hub records of every request but its own loopback ones, so that a test can show which
 * paths cpcred asked for (and that a hostile name made it ask for none).
 */
const HUB_AUDIT_POLICY = YAML.stringify({
  apiVersion: 'audit.k8s.io/v1',
  kind: 'Policy',
  omitStages: ['RequestReceived'],
  rules: [{level: 'None', users: ['system:apiserver']}, {level: 'Metadata'}],
})

export interface ProcessInfo {
  name: string
  pid: number
  log: string
  /** How it was started, so restartApiserver can start it again the same way. */
  binary: string
  args: string[]
  /**
   * Its start time (clock ticks after boot, /proc/PID/stat), so a pid the kernel has since given to
   * another process is never signalled.
   */
  startTime?: string
}

export interface TestEnv {
  /** The checkout that started it (CHECKOUT); absent in state files older than this field. */
  checkout?: string
  dir: string
  hub: ClusterInfo
  spoke: ClusterInfo
  processes: ProcessInfo[]
  /** The kubectl built for the clusters' release, which tests, the demo and the bench put first on PATH. */
  kubectl: string
  /** The release both kube-apiservers run (their /version). */
  kubernetesVersion: string
}

export function envFile(dir: string): string {
  return path.join(dir, 'env.json')
}

/**
 * The environment recorded in `dir`, refused when the state file is not this checkout's own: a
 * copied or moved checkout keeps .testenv/env.json, whose absolute paths and pids are those of the
 * original's clusters.
 */
export async function readEnv(dir: string): Promise<TestEnv | undefined> {
  if (!existsSync(envFile(dir))) return undefined
  const env = JSON.parse(await readFile(envFile(dir), 'utf8')) as TestEnv
  const foreign = foreignReason(env, dir)
  if (foreign) {
    throw new Error(
      `refusing to act on the test environment recorded in ${envFile(path.resolve(dir))}: ${foreign}. ` +
        `Its clusters are not this checkout's to use or stop; stop them from the checkout that started them, ` +
        `and remove ${path.resolve(dir)} here (nothing of it is running from this checkout)`,
    )
  }
  return env
}

function foreignReason(env: TestEnv, dir: string): string | undefined {
  if (!samePath(env.dir, dir)) return `it was written for ${env.dir}, not for this directory (a copy?)`
  if (env.checkout !== undefined && !samePath(env.checkout, CHECKOUT))
    return `it was started by the checkout in ${env.checkout}, not by this one (${CHECKOUT})`
  return undefined
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b)
  } catch {
    return path.resolve(a) === path.resolve(b)
  }
}

export interface UpOptions {
  /** The hub's and spoke's kube-apiserver (default: KUBERNETES_VERSION, the current release). */
  kubernetesVersion?: string
}

export async function up(
  dir: string,
  log: (line: string) => void = () => {},
  options: UpOptions = {},
): Promise<TestEnv> {
  dir = checkedDir(dir)
  if (await readEnv(dir))
    throw new Error(`a test environment is already recorded in ${dir}; run 'down' first`)
  const binaries = await ensureBinaries(log, options.kubernetesVersion)
  await mkdir(dir, {recursive: true, mode: 0o700})
  await chmod(dir, 0o700)

  const processes: ProcessInfo[] = []
  const partial = {checkout: CHECKOUT, dir, processes} as unknown as TestEnv
  try {
    const started = Date.now()
    const pki = await createPki(dir)
    const admin = await createClientCertificate(dir, pki, 'admin', 'cpcred-admin', ['system:masters'])
    const adminPem = {
      clientCertPem: await readFile(admin.cert, 'utf8'),
      clientKeyPem: await readFile(admin.key, 'utf8'),
    }
    const [hubPort, spokePort, ...etcdPorts] = await freePorts(6)
    const hubServer = `https://127.0.0.1:${hubPort}`
    const spokeServer = `https://127.0.0.1:${spokePort}`

    const startEtcd = (name: string, clientPort: number, peerPort: number) =>
      startProcess(dir, processes, `${name}-etcd`, binaries.etcd, [
        `--name=${name}`,
        `--data-dir=${path.join(dir, `${name}-etcd-data`)}`,
        `--listen-client-urls=http://127.0.0.1:${clientPort}`,
        `--advertise-client-urls=http://127.0.0.1:${clientPort}`,
        `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-cluster=${name}=http://127.0.0.1:${peerPort}`,
        '--unsafe-no-fsync',
        '--log-level=warn',
      ])
    await startEtcd('hub', etcdPorts[0]!, etcdPorts[1]!)
    await startEtcd('spoke', etcdPorts[2]!, etcdPorts[3]!)
    await writeState(partial)

    const hubKey = await createServiceAccountKey(dir, 'hub-sa')
    const auditPolicy = path.join(dir, 'hub-audit-policy.yaml')
    await writeFile(auditPolicy, HUB_AUDIT_POLICY)
    const hubAuditLog = path.join(dir, 'hub-audit.log')
    await startApiserver(dir, processes, binaries, pki, {
      name: 'hub',
      port: hubPort!,
      etcdPort: etcdPorts[0]!,
      serviceAccountKey: hubKey,
      extraArgs: [`--audit-policy-file=${auditPolicy}`, `--audit-log-path=${hubAuditLog}`],
    })
    await writeState(partial)
    const hubConnection: Connection = {server: hubServer, caPem: pki.caPem, ...adminPem}
    await waitReady(hubConnection, processes, 'hub-apiserver')

    // The spoke's JWT authenticator fetches the hub's discovery document at start and retries
    // about every 10 s, so start it only once the hub answers.
    const authenticationConfig = path.join(dir, 'spoke-authentication-config.yaml')
    await writeFile(authenticationConfig, spokeAuthenticationConfig(hubServer, spokeServer, pki.caPem))
    const spokeKey = await createServiceAccountKey(dir, 'spoke-sa')
    await startApiserver(dir, processes, binaries, pki, {
      name: 'spoke',
      port: spokePort!,
      etcdPort: etcdPorts[2]!,
      serviceAccountKey: spokeKey,
      extraArgs: [`--authentication-config=${authenticationConfig}`],
    })
    await writeState(partial)

    await bootstrapHub(hubConnection)
    const spokeConnection: Connection = {server: spokeServer, caPem: pki.caPem, ...adminPem}
    await waitReady(spokeConnection, processes, 'spoke-apiserver')
    await waitSpokeTrustsHub(hubConnection, spokeConnection)

    const caData = Buffer.from(pki.caPem).toString('base64')
    const hub: ClusterInfo = {
      name: 'hub',
      server: hubServer,
      kubeconfig: path.join(dir, 'hub.kubeconfig'),
      context: 'hub',
      caData,
      issuer: hubServer,
      auditLog: hubAuditLog,
    }
    const spoke: ClusterInfo = {
      name: 'spoke',
      server: spokeServer,
      kubeconfig: path.join(dir, 'spoke.kubeconfig'),
      context: 'spoke',
      caData,
      issuer: spokeServer,
    }
    await writePrivate(hub.kubeconfig, adminKubeconfig(hub, adminPem))
    await writePrivate(spoke.kubeconfig, adminKubeconfig(spoke, adminPem))
    const env: TestEnv = {
      checkout: CHECKOUT,
      dir,
      hub,
      spoke,
      processes,
      kubectl: binaries.kubectl,
      kubernetesVersion: options.kubernetesVersion ?? KUBERNETES_VERSION,
    }
    await writeState(env)
    log(`hub and spoke ready in ${((Date.now() - started) / 1000).toFixed(1)}s`)
    return env
  } catch (error) {
    await stopProcesses(processes)
    await rm(dir, {recursive: true, force: true})
    throw error
  }
}

/**
 * Stops a cluster's kube-apiserver and starts it again with the same flags, on the same port and
 * etcd, as a hub upgrade or a crash would: clients see their connections drop, then refused, then
 * the server back with every object (and resourceVersions) as it was. Resolves once it is ready.
 */
export async function restartApiserver(env: TestEnv, cluster: 'hub' | 'spoke'): Promise<void> {
  await stopApiserver(env, cluster)
  await startApiserverAgain(env, cluster)
}

/** Stops a cluster's kube-apiserver (etcd keeps running): its port then refuses connections. */
export async function stopApiserver(env: TestEnv, cluster: 'hub' | 'spoke'): Promise<void> {
  const name = `${cluster}-apiserver`
  const info = env.processes.find((process) => process.name === name)
  if (!info) throw new Error(`no ${name} in ${env.dir}`)
  await stopProcesses([info])
}

/** Starts a stopped kube-apiserver again as it was first started; resolves once it is ready. */
export async function startApiserverAgain(env: TestEnv, cluster: 'hub' | 'spoke'): Promise<void> {
  const name = `${cluster}-apiserver`
  const info = env.processes.find((process) => process.name === name)
  if (!info) throw new Error(`no ${name} in ${env.dir}`)
  const restarted: ProcessInfo[] = []
  await startProcess(env.dir, restarted, name, info.binary, info.args)
  env.processes = env.processes.map((process) => (process.name === name ? restarted[0]! : process))
  await writeState(env)
  await waitReady(await adminConnection(env[cluster]), env.processes, name)
}

export async function down(dir: string): Promise<boolean> {
  const env = await readEnv(checkedDir(dir))
  if (env) await stopProcesses(env.processes)
  await rm(dir, {recursive: true, force: true})
  return env !== undefined
}

/**
 * An environment owns its directory and `down` deletes it whole, so it must never be the working
 * directory or a project (an empty path resolves to the working directory).
 */
function checkedDir(dir: string): string {
  const resolved = path.resolve(dir)
  if (
    dir.trim() === '' ||
    resolved === path.parse(resolved).root ||
    existsSync(path.join(resolved, 'package.json')) ||
    existsSync(path.join(resolved, '.git'))
  ) {
    throw new Error(
      `refusing to use ${resolved} as a test environment directory: it is not a directory of its own`,
    )
  }
  return resolved
}

export interface ProcessStatus extends ProcessInfo {
  /** The recorded process runs: its pid is alive and still the process that was started. */
  running: boolean
  rssMiB?: number
}

export interface ServerStatus {
  name: 'hub' | 'spoke'
  server: string
  /** Its /readyz answered 200 through this environment's CA and admin certificate. */
  serving: boolean
}

export async function status(
  dir: string,
): Promise<{env?: TestEnv; processes: ProcessStatus[]; servers: ServerStatus[]}> {
  const env = await readEnv(dir)
  if (!env) return {processes: [], servers: []}
  const processes = await Promise.all(
    env.processes.map(async (info) => {
      const running = isRunning(info)
      return {...info, running, rssMiB: running ? await residentMiB(info.pid) : undefined}
    }),
  )
  // The servers are asked, not the pids: a cluster restarted by hand serves under another pid.
  const servers = await Promise.all(
    (['hub', 'spoke'] as const).map(async (name) => ({
      name,
      server: env[name].server,
      serving: await isServing(env[name]),
    })),
  )
  return {env, processes, servers}
}

async function isServing(cluster: ClusterInfo): Promise<boolean> {
  try {
    return (await kubeRequest(await adminConnection(cluster), 'GET', '/readyz')).status === 200
  } catch {
    return false
  }
}

/**
 * Whether the recorded process still runs: its pid is alive, not a zombie, started when it was
 * recorded and runs the recorded command line. A pid is only ever signalled after this says yes.
 */
export function isRunning(info: Pick<ProcessInfo, 'pid' | 'binary' | 'args' | 'startTime'>): boolean {
  if (process.platform !== 'linux') {
    try {
      process.kill(info.pid, 0)
      return true
    } catch {
      return false
    }
  }
  const stat = procStat(info.pid)
  if (!stat || stat.state === 'Z') return false
  if (info.startTime !== undefined && stat.startTime !== info.startTime) return false
  let cmdline: string
  try {
    cmdline = readFileSync(`/proc/${info.pid}/cmdline`, 'utf8')
  } catch {
    return false
  }
  return cmdline === `${[info.binary, ...info.args].join('\0')}\0`
}

/** Fields 3 (state) and 22 (start time) of /proc/PID/stat; the name before them may hold spaces. */
function procStat(pid: number): {state: string; startTime: string} | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return fields[19] === undefined ? undefined : {state: fields[0]!, startTime: fields[19]}
}

/** Resident memory of a process in MiB, from /proc (Linux). */
export async function residentMiB(pid: number): Promise<number | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/status`, 'utf8')
    const match = /^VmRSS:\s+(\d+) kB/m.exec(text)
    return match ? Math.round(Number(match[1]) / 1024) : undefined
  } catch {
    return undefined
  }
}

interface ApiserverOptions {
  name: string
  port: number
  etcdPort: number
  serviceAccountKey: string
  extraArgs?: string[]
}

async function startApiserver(
  dir: string,
  processes: ProcessInfo[],
  binaries: Binaries,
  pki: Pki,
  options: ApiserverOptions,
) {
  const issuer = `https://127.0.0.1:${options.port}`
  const certDir = path.join(dir, `${options.name}-certs`)
  await mkdir(certDir, {recursive: true})
  await startProcess(dir, processes, `${options.name}-apiserver`, binaries.kubeApiserver, [
    `--etcd-servers=http://127.0.0.1:${options.etcdPort}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${options.port}`,
    `--cert-dir=${certDir}`,
    `--tls-cert-file=${pki.serving.cert}`,
    `--tls-private-key-file=${pki.serving.key}`,
    `--client-ca-file=${pki.ca.cert}`,
    '--authorization-mode=RBAC',
    '--service-cluster-ip-range=10.96.0.0/24',
    `--service-account-issuer=${issuer}`,
    `--service-account-jwks-uri=${issuer}/openid/v1/jwks`,
    `--service-account-key-file=${options.serviceAccountKey}`,
    `--service-account-signing-key-file=${options.serviceAccountKey}`,
    // Nothing creates `default` ServiceAccounts without a controller-manager.
    '--disable-admission-plugins=ServiceAccount',
    // Loopback endpoints are invalid for the kubernetes Service.
    '--endpoint-reconciler-type=none',
    '--profiling=false',
    ...(options.extraArgs ?? []),
  ])
}

function spokeAuthenticationConfig(hubServer: string, spokeServer: string, caPem: string): string {
  return YAML.stringify({
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'AuthenticationConfiguration',
    jwt: [
      {
        issuer: {url: hubServer, audiences: [spokeServer], certificateAuthority: caPem},
        claimMappings: {username: {claim: 'sub', prefix: HUB_USER_PREFIX}},
      },
    ],
  })
}

async function bootstrapHub(hub: Connection): Promise<void> {
  // The spoke reads the hub's discovery document and JWKS without credentials.
  await kubeCall(hub, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: {name: 'cpcred-testenv:service-account-issuer-discovery'},
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'system:service-account-issuer-discovery',
    },
    subjects: [{apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:unauthenticated'}],
  })
  // The Cluster Inventory API: ClusterProfile and PlacementDecision, each served before the hub is ready.
  for (const [file, resource] of [
    ['clusterprofile-crd.yaml', 'clusterprofiles'],
    ['placementdecision-crd.yaml', 'placementdecisions'],
  ] as const) {
    const crd = YAML.parse(await readFile(path.join(manifestsDir, file), 'utf8'))
    await kubeCall(hub, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)
    await waitFor(`the ${crd.spec.names.kind} CRD to be established`, READY_TIMEOUT_MS, async () => {
      const current = await kubeCall<{status?: {conditions?: {type: string; status: string}[]}}>(
        hub,
        'GET',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
      )
      const established = current.status?.conditions?.some(
        (c) => c.type === 'Established' && c.status === 'True',
      )
      if (!established) return undefined
      // Established can precede the first successful request by a moment.
      const probe = await kubeRequest(hub, 'GET', `/apis/multicluster.x-k8s.io/v1alpha1/${resource}?limit=1`)
      return probe.status === 200 ? true : undefined
    })
  }
  await waitFor('namespace default on the hub', READY_TIMEOUT_MS, async () =>
    (await kubeRequest(hub, 'GET', '/api/v1/namespaces/default')).status === 200 ? true : undefined,
  )
}

/** Requests a hub ServiceAccount token for the spoke and waits until the spoke accepts it. */
async function waitSpokeTrustsHub(hub: Connection, spoke: Connection): Promise<void> {
  const namespace = 'cpcred-testenv'
  await kubeCall(hub, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {name: namespace},
  })
  await kubeCall(hub, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {name: 'trust-probe'},
  })
  const token = await requestServiceAccountToken(hub, namespace, 'trust-probe', [spoke.server], 600)
  const expected = `${HUB_USER_PREFIX}system:serviceaccount:${namespace}:trust-probe`
  await waitFor('the spoke to accept hub-issued tokens', READY_TIMEOUT_MS, async () => {
    const username = await whoAmI({server: spoke.server, caPem: spoke.caPem, bearerToken: token})
    return username === expected ? true : undefined
  })
}

export async function requestServiceAccountToken(
  hub: Connection,
  namespace: string,
  serviceAccount: string,
  audiences: string[],
  expirationSeconds: number,
): Promise<string> {
  const review = await kubeCall<{status: {token: string}}>(
    hub,
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}/token`,
    {apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {audiences, expirationSeconds}},
  )
  return review.status.token
}

export type RbacRule = {apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[]}

/**
 * A ServiceAccount `name` in `namespace` with exactly `rules` there (a Role and its RoleBinding),
 * once RBAC lets it do `probe`.
 */
export async function serviceAccountWithRole(
  hub: Connection,
  namespace: string,
  name: string,
  rules: RbacRule[],
  probe: AccessProbe,
): Promise<void> {
  await kubeCall(hub, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {name},
  })
  const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`
  await kubeCall(hub, 'POST', `${rbac}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: {name},
    rules,
  })
  await kubeCall(hub, 'POST', `${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: {name},
    subjects: [{kind: 'ServiceAccount', name, namespace}],
    roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name},
  })
  await waitForAccess(hub, namespace, name, probe)
}

/**
 * A kubeconfig whose one context ("hub", namespace `namespace`) reaches `cluster` as `user`, a
 * kubeconfig user entry (a token, an auth-provider, …).
 */
export function oneUserKubeconfig(
  cluster: Pick<ClusterInfo, 'server' | 'caData'>,
  user: Record<string, unknown>,
  namespace: string,
): string {
  return YAML.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {name: 'hub', cluster: {server: cluster.server, 'certificate-authority-data': cluster.caData}},
    ],
    users: [{name: 'hub', user}],
    contexts: [{name: 'hub', context: {cluster: 'hub', user: 'hub', namespace}}],
    'current-context': 'hub',
  })
}

export type AccessProbe = {verb: string; group?: string; resource: string; subresource?: string; name: string}

/** Waits until RBAC lets ServiceAccount namespace/name do `probe` (bindings take a moment to apply). */
export async function waitForAccess(
  hub: Connection,
  namespace: string,
  name: string,
  probe: AccessProbe,
): Promise<void> {
  await waitFor(`RBAC for ${namespace}/${name}`, 30_000, async () => {
    const review = await kubeCall<{status: {allowed?: boolean}}>(
      hub,
      'POST',
      '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: `system:serviceaccount:${namespace}:${name}`,
          groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
          resourceAttributes: {namespace, ...probe},
        },
      },
    )
    return review.status.allowed ? true : undefined
  })
}

/** The username the cluster sees for this connection, or undefined when it rejects the credential. */
export async function whoAmI(connection: Connection): Promise<string | undefined> {
  const response = await kubeRequest(
    connection,
    'POST',
    '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    },
  )
  if (response.status !== 201) return undefined
  return (JSON.parse(response.body) as {status: {userInfo: {username: string}}}).status.userInfo.username
}

/** Connection details for a cluster of a running environment, as the admin. */
export async function adminConnection(cluster: ClusterInfo): Promise<Connection> {
  const config = YAML.parse(await readFile(cluster.kubeconfig, 'utf8'))
  const user = config.users[0].user
  return {
    server: cluster.server,
    caPem: Buffer.from(cluster.caData, 'base64').toString('utf8'),
    clientCertPem: Buffer.from(user['client-certificate-data'], 'base64').toString('utf8'),
    clientKeyPem: Buffer.from(user['client-key-data'], 'base64').toString('utf8'),
  }
}

function adminKubeconfig(cluster: ClusterInfo, admin: {clientCertPem: string; clientKeyPem: string}): string {
  return YAML.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {name: cluster.name, cluster: {server: cluster.server, 'certificate-authority-data': cluster.caData}},
    ],
    users: [
      {
        name: `${cluster.name}-admin`,
        user: {
          'client-certificate-data': Buffer.from(admin.clientCertPem).toString('base64'),
          'client-key-data': Buffer.from(admin.clientKeyPem).toString('base64'),
        },
      },
    ],
    contexts: [
      {
        name: cluster.context,
        context: {cluster: cluster.name, user: `${cluster.name}-admin`, namespace: 'default'},
      },
    ],
    'current-context': cluster.context,
  })
}

async function startProcess(
  dir: string,
  processes: ProcessInfo[],
  name: string,
  binary: string,
  args: string[],
) {
  const log = path.join(dir, `${name}.log`)
  const fd = openSync(log, 'a')
  try {
    // Detached in its own process group so the environment outlives the command that started it.
    const child = spawn(binary, args, {detached: true, stdio: ['ignore', fd, fd]})
    child.unref()
    if (child.pid === undefined) throw new Error(`could not start ${binary}`)
    processes.push({name, pid: child.pid, log, binary, args, startTime: procStat(child.pid)?.startTime})
  } finally {
    closeSync(fd)
  }
}

async function waitReady(connection: Connection, processes: ProcessInfo[], name: string): Promise<void> {
  const info = processes.find((p) => p.name === name)!
  await waitFor(`${name} /readyz`, READY_TIMEOUT_MS, async () => {
    if (!isRunning(info)) {
      const tail = (await readFile(info.log, 'utf8')).split('\n').slice(-20).join('\n')
      throw Object.assign(new Error(`${name} exited during start-up; last lines of ${info.log}:\n${tail}`), {
        fatal: true,
      })
    }
    const response = await kubeRequest(connection, 'GET', '/readyz')
    return response.status === 200 ? true : undefined
  })
}

async function stopProcesses(processes: ProcessInfo[]): Promise<void> {
  // API servers first, then their etcd.
  const ordered = [...processes].sort(
    (a, b) => Number(a.name.endsWith('etcd')) - Number(b.name.endsWith('etcd')),
  )
  for (const info of ordered) {
    // A pid that is no longer the recorded process is someone else's now: never signalled.
    if (!isRunning(info)) continue
    process.kill(info.pid, 'SIGTERM')
    const deadline = Date.now() + 10_000
    while (isRunning(info) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    if (isRunning(info)) process.kill(info.pid, 'SIGKILL')
  }
}

async function writeState(env: TestEnv): Promise<void> {
  await writePrivate(envFile(env.dir), `${JSON.stringify(env, null, 2)}\n`)
}

async function writePrivate(file: string, content: string): Promise<void> {
  await writeFile(file, content, {mode: 0o600})
  await chmod(file, 0o600)
}

/** `count` ports free on 127.0.0.1 right now (each listened on, then let go). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      {length: count},
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer()
          server.on('error', reject)
          server.listen(0, '127.0.0.1', () => resolve(server))
        }),
    ),
  )
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port)
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  return ports
}
