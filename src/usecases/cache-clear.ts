// `cpcred cache clear [PROFILE]`: every cached credential, or the one a profile would use. An entry
// is named by the hash of the resolved identity, so the profile goes through the credential
// pipeline as `cpcred credential` would take it, up to the cache key.
import {credentialKey, openFederation, openPipeline, resolveProfile} from './credential-pipeline.js'
import {pluginRun} from './obtain-credential.js'
import type {
  CredentialStore,
  FederationPorts,
  Notices,
  ProviderSelection,
  ProviderSource,
  SessionHub,
} from './ports.js'
import {oneProfile} from './find-profiles.js'

export interface CacheClearInput {
  profile?: string
  providers: ProviderSelection
}

export interface CacheClearPorts {
  store: CredentialStore
  openHub(): Promise<SessionHub>
  providers: ProviderSource
  notices: Pick<Notices, 'warn'>
  /** For a provider with a serviceAccountToken block, whose entry is keyed by the ServiceAccount's UID. */
  federation?(): FederationPorts
}

export type CacheClearOutcome = {all: true; removed: number; dir: string} | {all: false; removed: boolean}

export async function cacheClearCommand(
  ports: CacheClearPorts,
  input: CacheClearInput,
): Promise<CacheClearOutcome> {
  const {store} = ports
  if (!input.profile) return {all: true, removed: await store.clear(), dir: store.dir}
  const {hub, providers} = await openPipeline(ports.providers, ports.openHub, input.providers)
  for (const warning of providers.warnings) ports.notices.warn(warning)
  const profile = await oneProfile(
    hub.profiles,
    input.profile,
    {namespace: hub.namespace, allNamespaces: false},
    hub.chooser,
  )
  const resolution = resolveProfile(profile, providers)
  const block = resolution.provider.serviceAccountToken
  const federation = block && openFederation(ports)
  let key
  try {
    // The entry of a federated provider is keyed by its ServiceAccount as the hub names it now (its
    // UID is in the token), so a token is minted to find it, never handed to anyone.
    key = federation
      ? pluginRun(
          resolution,
          hub.identity,
          hub.pin,
          (await federation.mint(resolution.provider.name, block)).identity,
        ).key
      : credentialKey(hub, resolution)
  } finally {
    await federation?.close()
    await hub.close()
  }
  return {all: false, removed: (await store.clear([key])) > 0}
}
