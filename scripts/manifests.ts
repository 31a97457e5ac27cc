// The manifests of docs/examples — the exact YAML the admin guides show — with their ${NAME}
// placeholders filled in, applied to a hub or a target. `npm run demo` and
// test/integration/demo-manifests.test.ts both go through here, so what the guides show is what runs.
import {randomBytes} from 'node:crypto'
import {readFile, rename, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import YAML from 'yaml'
import {kubeCall, kubeRequest, waitFor, type Connection} from '../test/testenv/http.js'
import {requestServiceAccountToken} from '../test/testenv/testenv.js'

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const examplesDir = path.join(repoRoot, 'docs', 'examples')

/** Names fixed by the example files (only the namespace and the target vary). */
export const CONSUMER_SERVICE_ACCOUNT = 'cpcred-consumer'
export const WORKLOAD_SERVICE_ACCOUNT = 'deployer'
export const STAND_IN_SERVICE_ACCOUNT = 'spoke-static-token'
/** The spoke's AuthenticationConfiguration maps hub token subjects to user names with this prefix. */
export const HUB_USER_PREFIX = 'hub:'
export const PROFILES = {
  secretreader: 'spoke-secretreader',
  tokenRequest: 'spoke-token-request',
  legacy: 'spoke-legacy',
  unusable: 'spoke-unusable',
} as const
/** The label the reachable profiles carry, for fan-out. */
export const REACHABLE_SELECTOR = 'env=demo'

/** Applied in this order: each file only needs what the ones before it created. */
export const HUB_ACCESS_FILES = [
  'hub-namespace.yaml',
  'hub-issuer-discovery.yaml',
  'hub-consumer.yaml',
  'hub-token-request.yaml',
  'demo-static-token.yaml',
  'hub-secretreader.yaml',
] as const
export const SPOKE_ACCESS_FILES = ['spoke-rbac.yaml'] as const
export const PROFILES_FILE = 'hub-clusterprofiles.yaml'
export const AUTHENTICATION_CONFIG_FILE = 'spoke-authentication-config.yaml'
export const PROVIDERS_FILE = 'providers.json'

export type Variables = Record<string, string>

export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: {name: string; namespace?: string; resourceVersion?: string; [key: string]: unknown}
  [key: string]: unknown
}

const PLACEHOLDER = /\$\{([A-Z][A-Z0-9_]*)\}/g
/** A header line that documents a variable: `#   ${NAME}   what it is`. */
const DOCUMENTED = /^#\s+\$\{([A-Z][A-Z0-9_]*)\}\s/gm

/** The variables a file's header comment documents. */
export function documentedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(DOCUMENTED)].map((match) => match[1]!))].sort()
}

/** The variables a file's YAML uses, comments left out. */
export function usedVariables(text: string): string[] {
  const used = new Set<string>()
  const visit = (value: unknown): void => {
    if (typeof value === 'string') for (const match of value.matchAll(PLACEHOLDER)) used.add(match[1]!)
    else if (Array.isArray(value)) value.forEach(visit)
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        visit(key)
        visit(item)
      }
    }
  }
  parseDocuments(text, 'text').forEach(visit)
  return [...used].sort()
}

/**
 * Fills `${NAME}` in every string of the parsed YAML (keys and values), so a value that holds
 * newlines or YAML syntax (a PEM, a token) cannot change the document's structure, as it could with
 * text substitution. A placeholder without a value is an error, never an empty string.
 */
export function substitute(value: unknown, variables: Variables, where: string): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (_match, name: string) => {
      const replacement = variables[name]
      if (replacement === undefined) throw new Error(`${where}: \${${name}} has no value`)
      return replacement
    })
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, variables, where))
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        substitute(key, variables, where),
        substitute(item, variables, where),
      ]),
    )
  }
  return value
}

function parseDocuments(text: string, where: string): unknown[] {
  return YAML.parseAllDocuments(text).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${where}: ${document.errors[0]!.message}`)
    const value: unknown = document.toJS()
    return value === null || value === undefined ? [] : [value]
  })
}

export async function readExample(file: string): Promise<string> {
  return readFile(path.join(examplesDir, file), 'utf8')
}

/** The objects of one docs/examples file, with its placeholders filled in. */
export async function loadExample(file: string, variables: Variables): Promise<KubeObject[]> {
  const where = `docs/examples/${file}`
  return parseDocuments(await readExample(file), where).map(
    (document) => substitute(document, variables, where) as KubeObject,
  )
}

const RESOURCES: Record<string, {plural: string; namespaced: boolean}> = {
  Namespace: {plural: 'namespaces', namespaced: false},
  ServiceAccount: {plural: 'serviceaccounts', namespaced: true},
  Secret: {plural: 'secrets', namespaced: true},
  Role: {plural: 'roles', namespaced: true},
  RoleBinding: {plural: 'rolebindings', namespaced: true},
  ClusterRole: {plural: 'clusterroles', namespaced: false},
  ClusterRoleBinding: {plural: 'clusterrolebindings', namespaced: false},
  ClusterProfile: {plural: 'clusterprofiles', namespaced: true},
}

export function objectPath(object: KubeObject): string {
  const resource = RESOURCES[object.kind]
  if (!resource) throw new Error(`cannot apply a ${object.kind}: only ${Object.keys(RESOURCES).join(', ')}`)
  const group = object.apiVersion === 'v1' ? '/api/v1' : `/apis/${object.apiVersion}`
  const scope = resource.namespaced ? `/namespaces/${object.metadata.namespace ?? 'default'}` : ''
  return `${group}${scope}/${resource.plural}/${object.metadata.name}`
}

export function describeObject(object: KubeObject): string {
  const namespace = object.metadata.namespace ? `${object.metadata.namespace}/` : ''
  return `${object.kind} ${namespace}${object.metadata.name}`
}

/**
 * Creates the object, or replaces it when it exists (so running twice is safe); a `status` goes
 * through the status subresource, as a controller would write it.
 */
export async function applyObject(connection: Connection, object: KubeObject): Promise<KubeObject> {
  const item = objectPath(object)
  const {status, ...desired} = object
  const current = await kubeRequest(connection, 'GET', item)
  let applied: KubeObject
  if (current.status === 404) {
    applied = await kubeCall<KubeObject>(connection, 'POST', item.slice(0, item.lastIndexOf('/')), desired)
  } else if (current.status === 200) {
    const {metadata} = JSON.parse(current.body) as KubeObject
    applied = await kubeCall<KubeObject>(connection, 'PUT', item, {
      ...desired,
      metadata: {...desired.metadata, resourceVersion: metadata.resourceVersion},
    })
  } else {
    throw new Error(
      `GET ${item} on ${connection.server}: HTTP ${current.status} ${current.body.slice(0, 300)}`,
    )
  }
  if (status === undefined) return applied
  return kubeCall<KubeObject>(connection, 'PUT', `${item}/status`, {
    ...applied,
    status: keepTransitionTimes(status, applied.status),
  })
}

interface StatusWithConditions {
  conditions?: {type: string; status: string; lastTransitionTime?: string}[]
}

/** As a controller would: a condition whose status did not change keeps its lastTransitionTime. */
function keepTransitionTimes(desired: unknown, current: unknown): unknown {
  const previous = (current as StatusWithConditions | undefined)?.conditions ?? []
  const next = desired as StatusWithConditions
  if (!next?.conditions) return desired
  return {
    ...next,
    conditions: next.conditions.map((condition) => {
      const before = previous.find((old) => old.type === condition.type && old.status === condition.status)
      return before?.lastTransitionTime
        ? {...condition, lastTransitionTime: before.lastTransitionTime}
        : condition
    }),
  }
}

/** Applies one docs/examples file; returns what it applied. */
export async function applyExample(
  connection: Connection,
  file: string,
  variables: Variables,
): Promise<KubeObject[]> {
  const applied: KubeObject[] = []
  for (const object of await loadExample(file, variables)) applied.push(await applyObject(connection, object))
  return applied
}

export interface ExampleTarget {
  /** Admin connections. */
  hub: Connection
  spoke: Connection
  spokeServer: string
  spokeCaData: string
  /** The hub namespace for the profiles and the ServiceAccounts. */
  namespace: string
  clusterset: string
  /** The target's name: the secretreader Secret's name. */
  clusterName?: string
}

export function exampleVariables(target: ExampleTarget): Variables {
  return {
    NAMESPACE: target.namespace,
    CLUSTERSET: target.clusterset,
    CLUSTER_NAME: target.clusterName ?? 'spoke',
    SPOKE_SERVER: target.spokeServer,
    SPOKE_CA_DATA: target.spokeCaData,
    NOW: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  }
}

/** How long the stand-in static token and the consumer's hub token live. */
const DEMO_TOKEN_SECONDS = 24 * 3600

/**
 * Step 1 of the demo: the hub and spoke configuration of both admin guides. The secretreader
 * Secret gets a fresh stand-in token each time (a hub ServiceAccount token for the spoke's URL).
 * Waits until both API servers' RBAC caches allow what the guides promise.
 */
export async function applyAccessExamples(
  target: ExampleTarget,
  log: (file: string, applied: KubeObject[], where: 'hub' | 'spoke') => void = () => {},
): Promise<Variables> {
  const variables = exampleVariables(target)
  for (const file of HUB_ACCESS_FILES) {
    if (file === 'hub-secretreader.yaml') {
      variables.STATIC_TOKEN = await requestServiceAccountToken(
        target.hub,
        target.namespace,
        STAND_IN_SERVICE_ACCOUNT,
        [target.spokeServer],
        DEMO_TOKEN_SECONDS,
      )
    }
    log(file, await applyExample(target.hub, file, variables), 'hub')
  }
  for (const file of SPOKE_ACCESS_FILES) log(file, await applyExample(target.spoke, file, variables), 'spoke')
  await waitForExampleAccess(target, variables)
  return variables
}

/** Step 2: the ClusterProfiles of hub-clusterprofiles.yaml. */
export async function applyProfileExamples(hub: Connection, variables: Variables): Promise<KubeObject[]> {
  return applyExample(hub, PROFILES_FILE, variables)
}

export const hubIdentity = (namespace: string, serviceAccount: string) =>
  `system:serviceaccount:${namespace}:${serviceAccount}`
export const spokeIdentity = (namespace: string, serviceAccount: string) =>
  `${HUB_USER_PREFIX}${hubIdentity(namespace, serviceAccount)}`

interface ResourceAttributes {
  verb: string
  resource: string
  group?: string
  namespace?: string
  subresource?: string
  name?: string
}

async function waitForAccess(
  connection: Connection,
  user: string,
  groups: string[],
  attributes: ResourceAttributes,
): Promise<void> {
  const what = `${user} to be allowed ${attributes.verb} ${attributes.resource}${attributes.subresource ? `/${attributes.subresource}` : ''}`
  await waitFor(what, 30_000, async () => {
    const review = await kubeCall<{status: {allowed?: boolean}}>(
      connection,
      'POST',
      '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {user, groups, resourceAttributes: attributes},
      },
    )
    return review.status.allowed ? true : undefined
  })
}

async function waitForExampleAccess(target: ExampleTarget, variables: Variables): Promise<void> {
  const namespace = target.namespace
  const consumer = hubIdentity(namespace, CONSUMER_SERVICE_ACCOUNT)
  const groups = ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated']
  await waitForAccess(target.hub, consumer, groups, {
    verb: 'list',
    group: 'multicluster.x-k8s.io',
    resource: 'clusterprofiles',
  })
  await waitForAccess(target.hub, consumer, groups, {
    verb: 'get',
    resource: 'secrets',
    namespace,
    name: variables.CLUSTER_NAME!,
  })
  await waitForAccess(target.hub, consumer, groups, {
    verb: 'create',
    resource: 'serviceaccounts',
    subresource: 'token',
    namespace,
    name: WORKLOAD_SERVICE_ACCOUNT,
  })
  for (const serviceAccount of [WORKLOAD_SERVICE_ACCOUNT, STAND_IN_SERVICE_ACCOUNT]) {
    await waitForAccess(target.spoke, spokeIdentity(namespace, serviceAccount), ['system:authenticated'], {
      verb: 'list',
      resource: 'namespaces',
    })
  }
}

/**
 * Step 4: a hub kubeconfig for the consumer ServiceAccount of hub-consumer.yaml (a fresh token,
 * a day long), its context's namespace being the clusterset's — where secretreader looks for
 * Secrets. Written 0600 through a temporary file and a rename.
 */
export async function writeConsumerKubeconfig(
  file: string,
  hub: Connection,
  cluster: {server: string; caData: string},
  namespace: string,
): Promise<{context: string; token: string}> {
  const token = await requestServiceAccountToken(
    hub,
    namespace,
    CONSUMER_SERVICE_ACCOUNT,
    [],
    DEMO_TOKEN_SECONDS,
  )
  const context = `${CONSUMER_SERVICE_ACCOUNT}@hub`
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {name: 'hub', cluster: {server: cluster.server, 'certificate-authority-data': cluster.caData}},
    ],
    users: [{name: CONSUMER_SERVICE_ACCOUNT, user: {token}}],
    contexts: [{name: context, context: {cluster: 'hub', user: CONSUMER_SERVICE_ACCOUNT, namespace}}],
    'current-context': context,
  }
  await writePrivateFile(file, YAML.stringify(kubeconfig))
  return {context, token}
}

/**
 * Step 3: docs/examples/providers.json, with its `cpcred` command replaced by this checkout's
 * bin/run.js run by this Node (the compatibility rule of docs/plugins.md: only the command changes).
 */
export async function providerFileForCheckout(nodePath: string, cpcredBin: string): Promise<unknown> {
  const document = JSON.parse(await readExample(PROVIDERS_FILE)) as {
    providers: {execConfig: {command: string; args?: string[]}}[]
  }
  for (const {execConfig} of document.providers) {
    if (execConfig.command !== 'cpcred') continue
    execConfig.command = nodePath
    execConfig.args = [cpcredBin, ...(execConfig.args ?? [])]
  }
  return document
}

export async function writePrivateFile(file: string, content: string): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temporary, content, {mode: 0o600})
  await rename(temporary, file)
}
