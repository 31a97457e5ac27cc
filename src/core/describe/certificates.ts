// The certificates in a CA bundle, as describe and doctor show them: subject, issuer, validity.
// Decoding is computation, not I/O.
import {X509Certificate} from 'node:crypto'
import {NONE} from './values.js'

export interface CertificateSummary {
  subject: string
  issuer: string
  notBefore: string
  notAfter: string
  expired: boolean
  notYetValid: boolean
  sha256Fingerprint: string
}

export interface CertificateAuthorityDescription {
  certificates: CertificateSummary[]
  /** Why the data, or one certificate in it, could not be read; empty when all of it decoded. */
  problems: string[]
}

/**
 * The certificates in a kubeconfig `certificate-authority-data` value (base64 of a PEM bundle).
 * client-go trusts every certificate in the bundle, so each is listed.
 */
export function decodeCertificateAuthorityData(data: string, now: Date): CertificateAuthorityDescription {
  const compact = data.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    return {certificates: [], problems: ['undecodable: certificate-authority-data is not base64']}
  }
  const pem = Buffer.from(compact, 'base64').toString('latin1')
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0) {
    return {
      certificates: [],
      problems: ['undecodable: certificate-authority-data holds no PEM certificate'],
    }
  }
  const certificates: CertificateSummary[] = []
  const problems: string[] = []
  blocks.forEach((block, index) => {
    let certificate: X509Certificate
    try {
      certificate = new X509Certificate(block)
    } catch (error) {
      problems.push(`undecodable: certificate ${index + 1} of ${blocks.length}: ${(error as Error).message}`)
      return
    }
    certificates.push(summarizeCertificate(certificate, now))
  })
  return {certificates, problems}
}

/** Subject, issuer and validity of one certificate, as describe and doctor show them. */
export function summarizeCertificate(certificate: X509Certificate, now: Date): CertificateSummary {
  const notBefore = Date.parse(certificate.validFrom)
  const notAfter = Date.parse(certificate.validTo)
  return {
    subject: distinguishedName(certificate.subject),
    issuer: distinguishedName(certificate.issuer),
    notBefore: rfc3339(notBefore),
    notAfter: rfc3339(notAfter),
    expired: now.getTime() > notAfter,
    notYetValid: now.getTime() < notBefore,
    sha256Fingerprint: certificate.fingerprint256,
  }
}

/** Node gives one attribute per line, most significant first; one line reads better. */
function distinguishedName(name: string): string {
  return name.split('\n').filter(Boolean).join(', ') || NONE
}

function rfc3339(milliseconds: number): string {
  if (Number.isNaN(milliseconds)) return NONE
  return new Date(milliseconds).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
