// What the user types to name a profile. Kept apart from find-profiles so the credential fast
// path can parse a reference without loading the lookup and suggestion code.
import {UsageError} from '../core/errors.js'

export interface ProfileRef {
  namespace?: string
  name: string
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/

/** `name` or `namespace/name`; the parts must be valid Kubernetes names. */
export function parseProfileRef(text: string): ProfileRef {
  const parts = text.split('/')
  if (parts.length > 2 || parts.some((part) => !DNS_SUBDOMAIN.test(part) || part.length > 253)) {
    throw new UsageError(
      `"${text}" is not a profile name`,
      'write NAME or NAMESPACE/NAME, with lower-case letters, digits, "-" and "."',
    )
  }
  return parts.length === 2 ? {namespace: parts[0], name: parts[1]!} : {name: parts[0]!}
}
