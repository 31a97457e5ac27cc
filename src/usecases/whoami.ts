// `cpcred whoami [PROFILE]`: who the credential for a profile makes you on its cluster
// (SelfSubjectReview), through the credential pipeline: the hub and the providers, the profile
// (named, or picked on a terminal), its access provider, the credential, then the review.
import {kubectlTable, type Cells} from '../core/text/format.js'
import {obtainFor, openFederation, openPipeline, resolveProfile} from './credential-pipeline.js'
import type {
  CredentialCache,
  FederationPorts,
  Notices,
  PluginProcessRunner,
  ProviderSelection,
  ProviderSource,
  TargetPort,
  SelfSubjectReview,
  SessionHub,
} from './ports.js'
import {oneProfile} from './find-profiles.js'

export type {SelfSubjectReview} from './ports.js'

/** Who the credential makes the user on the profile's cluster. */
export type WhoamiOutcome = SelfSubjectReview

export interface WhoamiInput {
  profile?: string
  allNamespaces: boolean
  providers: ProviderSelection
  noCache: boolean
  pluginTimeoutMs?: number
  stdinIsTTY: boolean
}

export interface WhoamiPorts {
  openHub(): Promise<SessionHub>
  providers: ProviderSource
  plugins: PluginProcessRunner
  /** The credential cache (not asked for with --no-cache). */
  cache(): Promise<CredentialCache>
  target: Pick<TargetPort, 'reviewSelf'>
  notices: Notices
  /** The hub's TokenRequest and private token files, for providers with a serviceAccountToken block. */
  federation?(): FederationPorts
}

export async function whoamiCommand(ports: WhoamiPorts, input: WhoamiInput): Promise<WhoamiOutcome> {
  const {notices} = ports
  const {hub, providers} = await openPipeline(ports.providers, ports.openHub, input.providers)
  for (const warning of providers.warnings) notices.warn(warning)
  const profile = await oneProfile(
    hub.profiles,
    input.profile,
    {namespace: hub.namespace, allNamespaces: input.allNamespaces},
    hub.chooser,
  )
  const resolution = resolveProfile(profile, providers)
  for (const warning of resolution.warnings) notices.warn(warning)
  const cache = input.noCache ? undefined : await ports.cache()
  const federation = openFederation(ports)
  let credential
  try {
    ;({credential} = await obtainFor({plugins: ports.plugins, cache, federation}, hub, resolution, {
      stdinIsTTY: input.stdinIsTTY,
      timeoutMs: input.pluginTimeoutMs,
      onPluginStderr: (text) => notices.pluginStderr(text),
    }))
  } finally {
    await federation?.close()
  }
  await hub.close()
  return ports.target.reviewSelf(resolution, credential)
}

/** The table kubectl auth whoami prints. */
export function renderSelf(review: SelfSubjectReview): Cells {
  const info = review.status.userInfo
  const rows: string[][] = [['Username', info.username ?? '']]
  if (info.uid) rows.push(['UID', info.uid])
  if (info.groups?.length) rows.push(['Groups', `[${info.groups.join(' ')}]`])
  for (const [key, values] of Object.entries(info.extra ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    rows.push([`Extra: ${key}`, `[${values.join(' ')}]`])
  }
  return kubectlTable(['ATTRIBUTE', 'VALUE'], rows)
}
