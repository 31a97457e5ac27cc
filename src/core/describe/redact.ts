// What describe never shows as it is: additional-envs values (without --show-env), passwords in
// proxy URLs and user information in server URLs.
import {ADDITIONAL_ENVS_EXTENSION, type ClusterProfile} from '../profiles/cluster-profile.js'
import {withoutUserInfo} from '../access/connection.js'
import {arrayOf} from './values.js'
import {isRecord} from '../json.js'

export const REDACTED = '<redacted>'

/** Env values never leave describe without showEnv; names stay, so the reader sees what is set. */
export function redactEnvExtension(value: unknown): unknown {
  if (value === null || value === undefined) return value
  if (!isRecord(value)) return REDACTED
  return Object.fromEntries(Object.keys(value).map((name) => [name, REDACTED]))
}

/** A proxy URL may carry `user:password@`; the password is a secret like any other. */
export function redactProxyPassword(proxyURL: string | null): string | null {
  if (proxyURL === null) return null
  // Greedy up to the authority's last "@", where a URL parser splits the userinfo off too.
  return proxyURL.replace(/^([^:/?#]+:\/\/[^/?#@:]*):[^/?#]*@/, `$1:${REDACTED}@`)
}

export function redactProfile(profile: ClusterProfile, showEnv: boolean): ClusterProfile {
  const copy = structuredClone(profile)
  for (const list of [copy.status?.accessProviders, copy.status?.credentialProviders]) {
    for (const entry of arrayOf<{cluster?: Record<string, unknown>}>(list)) {
      const cluster = entry?.cluster
      if (!isRecord(cluster)) continue
      if (typeof cluster.server === 'string') cluster.server = withoutUserInfo(cluster.server)
      if (typeof cluster['proxy-url'] === 'string')
        cluster['proxy-url'] = redactProxyPassword(cluster['proxy-url'])
      if (showEnv || !Array.isArray(cluster.extensions)) continue
      for (const extension of cluster.extensions) {
        if (extension?.name === ADDITIONAL_ENVS_EXTENSION)
          extension.extension = redactEnvExtension(extension.extension)
      }
    }
  }
  return copy
}
