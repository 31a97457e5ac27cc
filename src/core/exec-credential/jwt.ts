// The claims of a JSON Web Token that say who it is for and until when, for diagnosis. Nothing here
// verifies a token, and nothing returns the signature or the token itself: what comes out may be
// shown to a person (docs/design.md §5).
import {isRecord} from '../json.js'

export interface JwtClaims {
  /** `iss`: who issued it. */
  issuer?: string
  /** `sub`: whom it names. */
  subject?: string
  /** `aud`, always as a list (the claim may be one string). */
  audiences: string[]
  /** `exp`, `nbf`, `iat` (seconds since the epoch in the token). */
  expiresAt?: Date
  notBefore?: Date
  issuedAt?: Date
}

const BASE64URL = /^[A-Za-z0-9_-]+$/

/**
 * The claims of a JWS compact token (header.payload.signature, as Kubernetes service-account and
 * OIDC tokens are), or undefined when the token is not one. Claims of the wrong type are left out.
 */
export function jwtClaims(token: string): JwtClaims | undefined {
  const parts = token.split('.')
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return undefined
  const header = decodeSegment(parts[0]!)
  const payload = decodeSegment(parts[1]!)
  if (!isRecord(header) || typeof header.alg !== 'string' || !isRecord(payload)) return undefined
  const claims: JwtClaims = {audiences: audiencesOf(payload.aud)}
  if (typeof payload.iss === 'string') claims.issuer = payload.iss
  if (typeof payload.sub === 'string') claims.subject = payload.sub
  const expiresAt = epochSeconds(payload.exp)
  if (expiresAt) claims.expiresAt = expiresAt
  const notBefore = epochSeconds(payload.nbf)
  if (notBefore) claims.notBefore = notBefore
  const issuedAt = epochSeconds(payload.iat)
  if (issuedAt) claims.issuedAt = issuedAt
  return claims
}

function decodeSegment(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}

function audiencesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function epochSeconds(value: unknown): Date | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? new Date(value * 1000) : undefined
}
