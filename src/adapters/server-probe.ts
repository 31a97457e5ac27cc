// A direct look at a Kubernetes API server for `cpcred doctor`: the TCP connection, the TLS
// handshake (completed without verification, so that a failed verification can be explained with
// the certificate the server really presented, and nothing is sent over it), and an anonymous
// GET /version over a verified connection for the server's Date header and version. No credential
// is ever sent from here.
import http from 'node:http'
import https from 'node:https'
import {isIP} from 'node:net'
import tls from 'node:tls'
import type {HttpAnswer, ServerProbe} from '../core/doctor/server-tls.js'
import {tlsFailureReason} from '../core/failures.js'
import {connectionError, proxyFor, type Endpoint} from './kube-client.js'

const PROBE_TIMEOUT_MS = 10_000
/** /version is a few hundred bytes; anything much larger is not worth reading. */
const MAX_BODY_BYTES = 64 * 1024

export async function probeServer(endpoint: Endpoint, timeoutMs = PROBE_TIMEOUT_MS): Promise<ServerProbe> {
  const url = new URL(endpoint.server)
  const proxy = await proxyFor(url, endpoint.proxyUrl)
  // A proxy decides what the connection is; a direct probe would check another path than cpcred takes.
  if (proxy) return {proxy: `${proxy.protocol}//${proxy.host}`}
  const probe: ServerProbe = {}
  if (url.protocol === 'https:') {
    const handshake = await handshakeWith(url, endpoint, timeoutMs)
    if ('connectError' in handshake) return handshake
    probe.tls = handshake
    if (handshake.verifyError && !endpoint.insecureSkipTLSVerify) return probe
  }
  const answer = await anonymousVersion(url, endpoint, timeoutMs)
  if ('connectError' in answer) {
    if (!probe.tls) return answer
    probe.httpError = answer.connectError.reason
  } else {
    probe.http = answer
  }
  return probe
}

type Handshake = NonNullable<ServerProbe['tls']>
type ConnectFailure = {connectError: NonNullable<ServerProbe['connectError']>}

function handshakeWith(url: URL, endpoint: Endpoint, timeoutMs: number): Promise<Handshake | ConnectFailure> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return new Promise((resolve) => {
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      ca: endpoint.caPem,
      // SNI and the name checked are the tls-server-name when there is one, as for every request.
      servername: endpoint.tlsServerName || (isIP(host) ? undefined : host),
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    })
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(Object.assign(new Error('no answer'), {code: 'ETIMEDOUT'})),
    )
    socket.once('secureConnect', () => {
      const code = socket.authorizationError ? String(socket.authorizationError) : undefined
      const result: Handshake = {
        protocol: socket.getProtocol() ?? undefined,
        certificate: socket.getPeerX509Certificate()?.raw,
      }
      if (code) result.verifyError = {code, reason: tlsFailureReason(code) ?? code}
      socket.end()
      resolve(result)
    })
    socket.on('error', (error) => {
      const {reason, code} = connectionError(error)
      resolve({connectError: code === undefined ? {reason} : {code, reason}})
    })
  })
}

function anonymousVersion(
  url: URL,
  endpoint: Endpoint,
  timeoutMs: number,
): Promise<HttpAnswer | ConnectFailure> {
  const target = new URL(`${url.pathname.replace(/\/$/, '')}/version`, url)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const options: https.RequestOptions = {
    agent: false,
    headers: {Accept: 'application/json', 'User-Agent': 'cpcred-doctor/0.1 (node)'},
    ca: endpoint.caPem,
    servername: endpoint.tlsServerName || (isIP(host) ? undefined : host),
    rejectUnauthorized: !endpoint.insecureSkipTLSVerify,
  }
  return new Promise((resolve) => {
    const sentAt = new Date()
    const request = (url.protocol === 'http:' ? http : https).get(target, options, (response) => {
      const receivedAt = new Date()
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= MAX_BODY_BYTES) chunks.push(chunk)
      })
      response.on('end', () => {
        const answer: HttpAnswer = {status: response.statusCode ?? 0, sentAt, receivedAt}
        if (response.headers.date) answer.date = response.headers.date
        const version = response.statusCode === 200 ? gitVersion(Buffer.concat(chunks)) : undefined
        if (version) answer.version = version
        resolve(answer)
      })
      response.on('error', (error) => resolve({connectError: {reason: connectionError(error).reason}}))
    })
    request.setTimeout(timeoutMs, () =>
      request.destroy(Object.assign(new Error('no answer'), {code: 'ETIMEDOUT'})),
    )
    request.on('error', (error) => resolve({connectError: {reason: connectionError(error).reason}}))
  })
}

function gitVersion(body: Buffer): string | undefined {
  try {
    const version = (JSON.parse(body.toString('utf8')) as {gitVersion?: unknown}).gitVersion
    return typeof version === 'string' ? version : undefined
  } catch {
    return undefined
  }
}
