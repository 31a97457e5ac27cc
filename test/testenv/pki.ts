// Test PKI made with the machine's openssl: one CA, a serving certificate for 127.0.0.1/localhost,
// admin client certificates, and a service-account signing key per cluster.
import {execFile} from 'node:child_process'
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {promisify} from 'node:util'

const run = promisify(execFile)

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, {cwd})
  } catch (error) {
    throw new Error(`openssl ${args[0]} failed: ${(error as {stderr?: string}).stderr ?? error}`)
  }
}

export interface CertificatePaths {
  cert: string
  key: string
}

export interface Pki {
  ca: CertificatePaths
  /** PEM text of the CA certificate. */
  caPem: string
  serving: CertificatePaths
}

export async function createPki(dir: string): Promise<Pki> {
  const ca = {cert: path.join(dir, 'ca.crt'), key: path.join(dir, 'ca.key')}
  await openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      ca.key,
      '-out',
      ca.cert,
      '-days',
      '30',
      '-subj',
      '/CN=cpcred-testenv-ca',
    ],
    dir,
  )
  const serving = await signCertificate(
    dir,
    ca,
    'serving',
    '/CN=localhost',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth',
  )
  return {ca, caPem: await readFile(ca.cert, 'utf8'), serving}
}

/** A client certificate: CN is the user name, each O a group. */
export async function createClientCertificate(
  dir: string,
  pki: Pki,
  name: string,
  user: string,
  groups: string[],
) {
  const subject = `/CN=${user}${groups.map((group) => `/O=${group}`).join('')}`
  return signCertificate(dir, pki.ca, name, subject, 'extendedKeyUsage=clientAuth')
}

/** An RSA key that serves both --service-account-key-file and --service-account-signing-key-file. */
export async function createServiceAccountKey(dir: string, name: string): Promise<string> {
  const key = path.join(dir, `${name}.key`)
  await openssl(['genrsa', '-out', key, '2048'], dir)
  return key
}

async function signCertificate(
  dir: string,
  ca: CertificatePaths,
  name: string,
  subject: string,
  extensions: string,
): Promise<CertificatePaths> {
  const paths = {cert: path.join(dir, `${name}.crt`), key: path.join(dir, `${name}.key`)}
  const csr = path.join(dir, `${name}.csr`)
  const extFile = path.join(dir, `${name}.ext`)
  await writeFile(extFile, `${extensions}\n`)
  await openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', paths.key, '-out', csr, '-subj', subject],
    dir,
  )
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      ca.cert,
      '-CAkey',
      ca.key,
      '-CAcreateserial',
      '-out',
      paths.cert,
      '-days',
      '30',
      '-extfile',
      extFile,
    ],
    dir,
  )
  return paths
}
