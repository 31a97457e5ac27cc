// Doctor's target link: why a target answered 401 to a credential, as far as the credential itself
// can tell (never any part of the secret).
import {formatRfc3339, type Credential} from '../exec-credential/protocol.js'
import {jwtClaims} from '../exec-credential/jwt.js'
import {clientCertificate} from './plugin.js'

// The target

/** Why a target answered 401 to this credential, as far as the credential itself can tell. */
export function explainRejection(
  credential: Credential,
  server: string,
  now: Date,
): {detail: string; hint: string} {
  if (credential.token) {
    const claims = jwtClaims(credential.token)
    if (!claims) {
      return {
        detail: `${server} rejected the bearer token (401 Unauthorized; opaque, ${credential.token.length} characters)`,
        hint: 'the token is not valid on this cluster: check that the plugin logs in to the identity this cluster expects',
      }
    }
    const audiences = claims.audiences.join(', ') || '<none>'
    if (claims.expiresAt && claims.expiresAt <= now) {
      return {
        detail: `${server} rejected the token (401 Unauthorized): it expired at ${formatRfc3339(claims.expiresAt)}`,
        hint: "the plugin handed out an expired token: check its own cache and this machine's clock (date -u)",
      }
    }
    if (!claims.audiences.some((audience) => sameUrl(audience, server))) {
      return {
        detail: `${server} rejected the token (401 Unauthorized): its audience is ${audiences}, not the target's URL ${server}`,
        hint:
          `have the plugin ask for a token with audience ${server} (token-request: provideClusterInfo true, or --audience); ` +
          'if the target expects another audience, add this one to its AuthenticationConfiguration',
      }
    }
    return {
      detail:
        `${server} rejected the token (401 Unauthorized) from issuer ${claims.issuer ?? '<none>'} for audience ${audiences}: ` +
        'the target does not trust that issuer, or no longer accepts this token',
      hint:
        `the target's administrator must trust issuer ${claims.issuer ?? '<none>'} for audience ${server} ` +
        '(AuthenticationConfiguration jwt[].issuer, docs/flow-token-request.md); if it does, the token was revoked (its service account deleted or recreated)',
    }
  }
  const certificate = credential.clientCertificateData
    ? clientCertificate(credential.clientCertificateData, now)
    : undefined
  return {
    detail: `${server} rejected the client certificate${certificate ? ` ${certificate.subject}, issued by ${certificate.issuer}` : ''} (401 Unauthorized)`,
    hint: `the target's --client-ca-file must include the CA that issued it${certificate ? ` (${certificate.issuer})` : ''}`,
  }
}

/** URLs that name the same server: a trailing slash or the case of the host makes no difference. */
function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => url.replace(/\/+$/, '').toLowerCase()
  return normal(a) === normal(b)
}
