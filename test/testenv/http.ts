// A minimal HTTPS client for bootstrapping the test clusters: raw requests with the admin client
// certificate or a bearer token, so the environment does not depend on the code under test.
import https from 'node:https'

export interface Connection {
  server: string
  caPem: string
  clientCertPem?: string
  clientKeyPem?: string
  bearerToken?: string
}

export interface Response {
  status: number
  body: string
}

export function kubeRequest(
  connection: Connection,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  const url = new URL(path, connection.server)
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method,
        ca: connection.caPem,
        cert: connection.clientCertPem,
        key: connection.clientKeyPem,
        headers: {
          Accept: 'application/json',
          ...(payload ? {'Content-Type': 'application/json'} : {}),
          ...(connection.bearerToken ? {Authorization: `Bearer ${connection.bearerToken}`} : {}),
        },
        timeout: 10_000,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8')}),
        )
        response.on('error', reject)
      },
    )
    request.on('timeout', () => request.destroy(new Error(`${method} ${url} timed out`)))
    request.on('error', reject)
    request.end(payload)
  })
}

/** Sends a request and fails unless the status is one of `expected`; returns the parsed body. */
export async function kubeCall<T = Record<string, unknown>>(
  connection: Connection,
  method: string,
  path: string,
  body?: unknown,
  expected: number[] = [200, 201],
): Promise<T> {
  const response = await kubeRequest(connection, method, path, body)
  if (!expected.includes(response.status)) {
    throw new Error(
      `${method} ${path} on ${connection.server}: HTTP ${response.status} ${response.body.slice(0, 500)}`,
    )
  }
  return (response.body ? JSON.parse(response.body) : {}) as T
}

export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  attempt: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      const result = await attempt()
      if (result !== undefined) return result
    } catch (error) {
      if ((error as {fatal?: boolean}).fatal) throw error
      lastError = error
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(
    `timed out after ${timeoutMs / 1000}s waiting for ${what}${lastError ? `: ${lastError}` : ''}`,
  )
}

/** One rule of a ClusterRole (rbac.authorization.k8s.io/v1 PolicyRule). */
export interface PolicyRule {
  apiGroups: string[]
  resources: string[]
  verbs: string[]
}

/** Lets the user `username` do what `rules` say on `cluster`: a ClusterRole and its binding, both `name`. */
export async function grantClusterRole(
  cluster: Connection,
  name: string,
  username: string,
  rules: PolicyRule[],
): Promise<void> {
  await kubeCall(cluster, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {name},
    rules,
  })
  await kubeCall(cluster, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: {name},
    roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name},
    subjects: [{apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: username}],
  })
}
