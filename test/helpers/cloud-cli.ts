// A stand-in for a cloud CLI (aws eks get-token, kubelogin) in the serviceAccountToken tests, and
// what the tests read back from it.
import {readdir, readFile, stat} from 'node:fs/promises'
import path from 'node:path'

const V1 = 'client.authentication.k8s.io/v1'

// The stand-in for a cloud CLI. It writes what it saw to REPORT (one JSON line per run, never the
// token) and its pid to PIDS; with HANG it waits to be killed instead of answering.
export const PLUGIN = `
const fs = require('node:fs')
const path = require('node:path')
fs.appendFileSync(process.env.PIDS, process.pid + '\\n')
const file = process.env[process.env.FILE_ENV]
const token = fs.readFileSync(file, 'utf8')
const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'))
const inCmdline = [], inEnviron = []
for (const pid of fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name))) {
  try { if (fs.readFileSync('/proc/' + pid + '/cmdline', 'latin1').includes(token)) inCmdline.push(pid) } catch {}
  try { if (fs.readFileSync('/proc/' + pid + '/environ', 'latin1').includes(token)) inEnviron.push(pid) } catch {}
}
const report = {
  file,
  mode: fs.statSync(file).mode & 0o777,
  dirMode: fs.statSync(path.dirname(file)).mode & 0o777,
  aud: claims.aud,
  sub: claims.sub,
  inCmdline,
  inEnviron,
  pid: process.pid,
}
fs.appendFileSync(process.env.REPORT, JSON.stringify(report) + '\\n')
if (JSON.stringify(claims.aud) !== JSON.stringify([process.env.EXPECTED_AUD]) || claims.sub !== process.env.EXPECTED_SUB) {
  process.stderr.write('unexpected audience or subject\\n')
  process.exit(1)
}
if (process.env.HANG) setInterval(() => {}, 1000)
else process.stdout.write(JSON.stringify({
  apiVersion: '${V1}',
  kind: 'ExecCredential',
  status: {token, expirationTimestamp: new Date(claims.exp * 1000).toISOString().replace(/\\.\\d+Z$/, 'Z')},
}))
`

export interface Report {
  file: string
  mode: number
  dirMode: number
  aud: string[]
  sub: string
  inCmdline: string[]
  inEnviron: string[]
  pid: number
}

export async function reports(file: string): Promise<Report[]> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Report)
}

/** Every file under `dir` that holds `secret`, with its mode. */
export async function filesHolding(
  dir: string,
  secret: string,
): Promise<Array<{file: string; mode: number}>> {
  const found: Array<{file: string; mode: number}> = []
  let entries
  try {
    entries = await readdir(dir, {withFileTypes: true})
  } catch {
    return found
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) found.push(...(await filesHolding(file, secret)))
    else if (entry.isFile() && (await readFile(file, 'latin1').catch(() => '')).includes(secret)) {
      found.push({file, mode: (await stat(file)).mode & 0o777})
    }
  }
  return found
}
