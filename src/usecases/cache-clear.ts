// `cpcred cache clear [PROFILE]`: every cached credential, or the one a profile would use. An entry
// is named by the hash of the resolved identity, so the profile goes through the credential
// pipeline as `cpcred credential` would take it, up to the cache key.
import {credentialKey, openPipeline, resolveProfile} from './credential-pipeline.js'
import type {CredentialStore, Notices, ProviderSelection, ProviderSource, SessionHub} from './ports.js'

export interface CacheClearInput {
  profile?: string
  providers: ProviderSelection
}

export interface CacheClearPorts {
  store: CredentialStore
  openHub(): Promise<SessionHub>
  providers: ProviderSource
  notices: Pick<Notices, 'warn'>
}

export type CacheClearResult = {all: true; removed: number; dir: string} | {all: false; removed: boolean}

export async function clearCache(ports: CacheClearPorts, input: CacheClearInput): Promise<CacheClearResult> {
  const {store} = ports
  if (!input.profile) return {all: true, removed: await store.clear(), dir: store.dir}
  const {hub, providers} = await openPipeline(ports.providers, ports.openHub, input.providers)
  for (const warning of providers.warnings) ports.notices.warn(warning)
  const profile = await hub.chooseProfile(input.profile, false)
  const key = credentialKey(hub, resolveProfile(profile, providers))
  await hub.close()
  return {all: false, removed: (await store.clear([key])) > 0}
}
