// `cpcred describe`: the one profile asked for (or chosen on a terminal), with what its description
// needs from the hub. How it reads is core/describe's; this only gathers.
import type {Provider} from '../core/access/provider-file.js'
import type {DescribeInput} from '../core/describe/describe.js'
import {oneProfile, type FindScope} from './find-profiles.js'
import type {Chooser, ProfileDescriber} from './ports.js'

export interface DescribeProfileInput {
  /** NAME or NAMESPACE/NAME as typed; undefined: choose on a terminal. */
  profile?: string
  scope: FindScope
  providers: Provider[]
  providerSource: string
  showEnv: boolean
  now: Date
}

export async function gatherDescription(
  input: DescribeProfileInput,
  ports: {hub: ProfileDescriber; chooser: Chooser},
): Promise<DescribeInput> {
  const profile = await oneProfile(ports.hub, input.profile, input.scope, ports.chooser)
  return {
    profile,
    clusterset: await ports.hub.clustersetOf(profile.metadata.namespace ?? ''),
    providers: input.providers,
    providerSource: input.providerSource,
    now: input.now,
    showEnv: input.showEnv,
    hubPin: ports.hub.pin(),
  }
}
