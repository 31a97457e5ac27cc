// A small Kubernetes REST client on node:https. @kubernetes/client-node takes over half a second
// just to load, which every `cpcred list`, `whoami` and built-in plugin run would pay; this client
// loads in milliseconds and speaks only what cpcred needs: JSON requests with client-go's TLS,
// bearer/basic/client-certificate auth, impersonation, gzip, keep-alive and proxies.
import type http from 'node:http'
import {formatDuration} from '../core/duration.js'
import {CpcredError, ExitCode} from '../core/errors.js'
import {connectionReason} from '../core/failures.js'
import type {Endpoint} from '../usecases/ports.js'
import type https from 'node:https'

export type {Endpoint} from '../usecases/ports.js'

export interface Impersonation {
  user?: string
  uid?: string
  groups?: string[]
  extra?: Record<string, string[]>
}

export interface Credentials {
  token?: string
  basic?: {username: string; password: string}
  clientCertPem?: string
  clientKeyPem?: string
  /** Extra headers from a provider that computes them (auth-provider fallback). */
  headers?: Record<string, string>
}

export interface AuthSource {
  /** `refresh` asks for a new credential after the server answered 401 (exec plugins re-run). */
  credentials(refresh: boolean): Promise<Credentials>
  /** Whether a 401 is worth one retry with refreshed credentials. */
  readonly refreshable: boolean
}

export const staticAuth = (credentials: Credentials): AuthSource => ({
  credentials: async () => credentials,
  refreshable: false,
})

/** The Kubernetes Status a failed request returned. */
export interface Status {
  kind?: string
  message?: string
  reason?: string
  code?: number
  details?: {name?: string; kind?: string; group?: string}
}

export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusObject: Status | undefined,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path}: HTTP ${status}${statusObject?.message ? `: ${statusObject.message}` : ''}`)
    this.name = 'KubeApiError'
  }
}

/** The server could not be reached, or TLS verification failed. */
export class KubeConnectionError extends Error {
  constructor(
    readonly reason: string,
    readonly code: string | undefined,
    /** Set when the request's own deadline (ClientTimeouts.requestMs) passed: that deadline. */
    readonly deadlineMs?: number,
  ) {
    super(reason)
    this.name = 'KubeConnectionError'
  }
}

/** The deadline of one request passed before it was answered (and, but for a watch, read). */
class RequestDeadlineError extends Error {
  readonly code = 'ETIMEDOUT'
  constructor(readonly deadlineMs: number) {
    super(`no answer within ${formatDuration(deadlineMs)}`)
  }
}

/** How long a request may take, and who hears that one is slow. */
export interface ClientTimeouts {
  /** A request that goes this long without a byte (connecting included) fails; 0: never. Default a minute. */
  idleMs?: number
  /**
   * A request not answered and read this long after it began fails, as kubectl's --request-timeout
   * (an http.Client's Timeout); 0 or absent: never. A watch is bounded only until its answer begins.
   */
  requestMs?: number
  /** Told (true) when requests have gone `afterMs` unanswered, and (false) when none is waiting any more. */
  waiting?: {afterMs: number; notify(waiting: boolean): void}
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>
  body?: unknown
  /** The Accept header (default application/json): a server-side Table, aggregated discovery. */
  accept?: string
}

const USER_AGENT = 'cpcred/0.1 (node)'
const IDLE_TIMEOUT_MS = 60_000
/** The longest delay a Node timer keeps (a longer one fires at once): beyond it, no deadline. */
const MAX_TIMER_MS = 2_147_483_647

export class KubeClient {
  private agent?: Promise<http.Agent>
  /** Requests past the `waiting` notice's delay and not yet answered. */
  private waitingFor = 0

  constructor(
    readonly endpoint: Endpoint,
    private readonly auth: AuthSource,
    private readonly impersonation: Impersonation = {},
    private readonly timeouts: ClientTimeouts = {},
  ) {}

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const text = await this.requestText(method, path, options)
    return (text.length ? parseJsonBody(text) : {}) as T
  }

  /** The response body as text, for a caller that reads part of it before parsing the rest. */
  async requestText(method: string, path: string, options: RequestOptions = {}): Promise<string> {
    let credentials = await this.auth.credentials(false)
    let response = await this.send(method, path, options, credentials)
    if (response.status === 401 && this.auth.refreshable) {
      credentials = await this.auth.credentials(true)
      response = await this.send(method, path, options, credentials)
    }
    if (response.status < 200 || response.status >= 300) {
      throw new KubeApiError(response.status, parseStatus(response.body), method, path)
    }
    return response.body.toString('utf8')
  }

  /**
   * A watch: each newline-delimited JSON event of the response goes to `onEvent` until the server
   * ends the stream (resolves), the connection fails (KubeConnectionError) or `signal` aborts it
   * (resolves). An answer other than 2xx is a KubeApiError, as for request(). `accept` asks for
   * each event's object in another shape (a server-side Table, as kubectl get -w asks).
   */
  async watch(
    path: string,
    query: RequestOptions['query'],
    onEvent: (event: WatchEvent) => void,
    signal?: AbortSignal,
    accept?: string,
  ): Promise<void> {
    let credentials = await this.auth.credentials(false)
    let opened = await this.open('GET', path, {query, accept}, credentials, {stream: true, signal})
    if (opened.status === 401 && this.auth.refreshable) {
      opened.stream.destroy()
      credentials = await this.auth.credentials(true)
      opened = await this.open('GET', path, {query, accept}, credentials, {stream: true, signal})
    }
    const {status, stream} = opened
    if (status < 200 || status >= 300) {
      throw new KubeApiError(status, parseStatus(await readAll(stream)), 'GET', path)
    }
    const {createInterface} = builtin('node:readline')
    await new Promise<void>((resolve, reject) => {
      const lines = createInterface({input: stream, crlfDelay: Infinity})
      lines.on('line', (line) => {
        if (line.trim() === '') return
        try {
          onEvent(parseJsonBody(line) as WatchEvent)
        } catch (error) {
          stream.destroy()
          reject(error)
        }
      })
      lines.on('close', resolve)
      // readline passes its input's errors on as its own.
      const failed = (error: Error) => (signal?.aborted ? resolve() : reject(connectionError(error)))
      stream.on('error', failed)
      lines.on('error', failed)
    })
  }

  /** Closes kept-alive connections so the process can exit on its own. */
  async close(): Promise<void> {
    if (this.agent) (await this.agent).destroy()
  }

  private url(path: string, query: RequestOptions['query']): URL {
    const base = new URL(this.endpoint.server)
    // A server URL may carry a path prefix (a proxy in front of the API server).
    const url = new URL(base.pathname.replace(/\/$/, '') + path, base)
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== '') url.searchParams.set(key, String(value))
    }
    return url
  }

  private async send(
    method: string,
    path: string,
    options: RequestOptions,
    credentials: Credentials,
  ): Promise<{status: number; body: Buffer}> {
    const {status, stream} = await this.open(method, path, options, credentials, {stream: false})
    return {status, body: await readAll(stream)}
  }

  /** Sends a request and hands back the (decompressed) response body as a stream. */
  private async open(
    method: string,
    path: string,
    options: RequestOptions,
    credentials: Credentials,
    how: {stream: boolean; signal?: AbortSignal},
  ): Promise<{status: number; stream: NodeJS.ReadableStream & {destroy(error?: Error): void}}> {
    const url = this.url(path, options.query)
    const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body))
    const headers: Record<string, string | string[]> = {
      Accept: options.accept ?? 'application/json',
      'User-Agent': USER_AGENT,
      ...(this.endpoint.disableCompression ? {} : {'Accept-Encoding': 'gzip'}),
      ...(payload ? {'Content-Type': 'application/json', 'Content-Length': String(payload.length)} : {}),
      ...authorizationHeaders(credentials),
      ...impersonationHeaders(this.impersonation),
    }
    const agent = await this.agentFor(credentials)
    // Loaded on the first request: commands that find what they need in a cache never load TLS.
    const transport = url.protocol === 'http:' ? builtin('node:http') : builtin('node:https')
    const zlib = builtin('node:zlib')
    const {idleMs = IDLE_TIMEOUT_MS, requestMs = 0, waiting} = this.timeouts
    return new Promise((resolve, reject) => {
      // Until the request is over: for a watch, when its answer begins; else when its body is read.
      const timers: NodeJS.Timeout[] = []
      let waited = false
      let over = false
      let body: (NodeJS.ReadableStream & {destroy(error?: Error): void}) | undefined
      const end = () => {
        if (over) return
        over = true
        for (const timer of timers) clearTimeout(timer)
        if (waited && --this.waitingFor === 0) waiting?.notify(false)
      }
      const request = transport.request(url, {method, headers, agent, signal: how.signal}, (response) => {
        const stream =
          response.headers['content-encoding'] === 'gzip' ? response.pipe(zlib.createGunzip()) : response
        // A gunzip stream does not see the response's own errors (a reset mid-body); pass them on.
        if (stream !== response) response.on('error', (error) => stream.destroy(error))
        body = stream
        if (how.stream) end()
        else for (const event of ['end', 'error', 'close']) stream.once(event, end)
        resolve({status: response.statusCode ?? 0, stream})
      })
      if (requestMs > 0 && requestMs <= MAX_TIMER_MS) {
        timers.push(
          setTimeout(() => {
            const error = new RequestDeadlineError(requestMs)
            body?.destroy(error)
            request.destroy(error)
          }, requestMs),
        )
      }
      if (waiting) {
        timers.push(
          setTimeout(() => {
            waited = true
            if (this.waitingFor++ === 0) waiting.notify(true)
          }, waiting.afterMs),
        )
      }
      // A watch is quiet for minutes between events; the server ends it (timeoutSeconds).
      if (!how.stream && idleMs > 0) {
        request.setTimeout(idleMs, () =>
          request.destroy(Object.assign(new Error('no answer'), {code: 'ETIMEDOUT'})),
        )
      }
      request.on('error', (error) => {
        end()
        reject(connectionError(error))
      })
      request.end(payload)
    })
  }

  // One agent per client: its TLS settings are fixed, and keep-alive lets a paginated list reuse
  // one connection. Client certificates from a refreshed exec credential need a new agent.
  private agentFor(credentials: Credentials): Promise<http.Agent> {
    const certificate = credentials.clientCertPem ?? ''
    if (!this.agent || this.agentCertificate !== certificate) {
      this.agentCertificate = certificate
      this.agent = createAgent(this.endpoint, credentials)
    }
    return this.agent
  }

  private agentCertificate?: string
}

/**
 * A Node module loaded when first needed, as CommonJS: import() would build node:http's ES module
 * face, which reads every export and so loads undici for its lazy fetch and WebSocket getters
 * (50 to 70 ms on Node 22 to 26, more than the rest of a warm `cpcred get`), none of which cpcred uses.
 */
const builtin: NodeJS.Process['getBuiltinModule'] = (id: string) => process.getBuiltinModule(id)

async function createAgent(endpoint: Endpoint, credentials: Credentials): Promise<http.Agent> {
  const url = new URL(endpoint.server)
  const tls: https.AgentOptions = {
    keepAlive: true,
    ca: endpoint.caPem,
    cert: credentials.clientCertPem,
    key: credentials.clientKeyPem,
    rejectUnauthorized: !endpoint.insecureSkipTLSVerify,
    servername: endpoint.tlsServerName || undefined,
  }
  const proxy = await proxyFor(url, endpoint.proxyUrl)
  const [http, https] = [builtin('node:http'), builtin('node:https')]
  if (proxy) {
    if (proxy.protocol.startsWith('socks')) {
      const {SocksProxyAgent} = await import('socks-proxy-agent')
      return new SocksProxyAgent(proxy, tls)
    }
    const {HttpsProxyAgent, HttpProxyAgent} = await import('hpagent')
    const Agent = url.protocol === 'http:' ? HttpProxyAgent : HttpsProxyAgent
    return new Agent({...tls, proxy})
  }
  return url.protocol === 'http:' ? new http.Agent({keepAlive: true}) : new https.Agent(tls)
}

/**
 * client-go's proxy choice: the cluster's proxy-url, else HTTPS_PROXY/HTTP_PROXY/NO_PROXY from the
 * environment (Go's ProxyFromEnvironment), and never for loopback addresses.
 */
export async function proxyFor(url: URL, proxyUrl: string | undefined): Promise<URL | undefined> {
  if (proxyUrl) return new URL(proxyUrl)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (host === 'localhost' || /^127\./.test(host) || host === '::1') return undefined
  if (
    !['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'].some(
      (name) => process.env[name],
    )
  ) {
    return undefined
  }
  const {getProxyForUrl} = await import('proxy-from-env')
  const proxy = getProxyForUrl(url.href)
  if (!proxy) return undefined
  try {
    return new URL(proxy)
  } catch {
    // A CpcredError of the connection class: it can surface on paths that translate nothing else.
    throw new CpcredError('the proxy in HTTPS_PROXY, HTTP_PROXY or ALL_PROXY is not a URL', {
      exitCode: ExitCode.Unreachable,
      hint: 'write it as http://host:port, or unset it',
    })
  }
}

function authorizationHeaders(credentials: Credentials): Record<string, string> {
  if (credentials.headers) return credentials.headers
  if (credentials.token) return {Authorization: `Bearer ${credentials.token}`}
  if (credentials.basic) {
    const encoded = Buffer.from(`${credentials.basic.username}:${credentials.basic.password}`).toString(
      'base64',
    )
    return {Authorization: `Basic ${encoded}`}
  }
  return {}
}

function impersonationHeaders(impersonation: Impersonation): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {}
  if (impersonation.user) headers['Impersonate-User'] = impersonation.user
  if (impersonation.uid) headers['Impersonate-Uid'] = impersonation.uid
  if (impersonation.groups?.length) headers['Impersonate-Group'] = impersonation.groups
  for (const [key, values] of Object.entries(impersonation.extra ?? {})) {
    headers[`Impersonate-Extra-${encodeURIComponent(key)}`] = values
  }
  return headers
}

/** One event of a watch (k8s.io/apimachinery/pkg/watch): ADDED, MODIFIED, DELETED, BOOKMARK or ERROR. */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'
  object: Record<string, unknown>
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', (error: Error) => reject(connectionError(error)))
  })
}

function parseStatus(body: Buffer): Status | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Status
    return parsed && parsed.kind === 'Status' ? parsed : undefined
  } catch {
    return undefined
  }
}

/**
 * A response body read as JSON. Anything else (a proxy's HTML page, a captive portal) means the
 * endpoint is not a Kubernetes API server: a connection-class failure, not a bug in cpcred.
 */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new KubeConnectionError(
      'the server answered with something that is not JSON (is it a Kubernetes API server?)',
      'ENOTJSON',
    )
  }
}

/** A failed connection, with its reason in words (src/core/failures.ts). */
export function connectionError(error: Error): KubeConnectionError {
  if (error instanceof RequestDeadlineError)
    return new KubeConnectionError(error.message, error.code, error.deadlineMs)
  const code = (error as NodeJS.ErrnoException).code
  return new KubeConnectionError(connectionReason(code, error.message), code)
}
