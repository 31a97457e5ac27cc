// `cpcred describe`: the one profile asked for (or chosen on a terminal), with what its description
// needs from the hub. How it reads is core/describe's; this only gathers.
import type {Provider} from '../core/access/provider-file.js'
import type {DescribeInput} from '../core/describe/describe.js'
import type {TokenAccess} from '../core/describe/federation.js'
import {federatedServiceAccount} from '../core/access/service-account-token.js'
import {chooseProvider} from '../core/access/resolve-access.js'
import {decisionsReferencing} from '../core/fleet/placement.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {isCpcredError} from '../core/errors.js'
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

export interface DescribePorts {
  hub: ProfileDescriber
  chooser: Chooser
}

/** What `describe` shows: core/describe's input, gathered. */
export type DescribeOutcome = DescribeInput

export async function describeCommand(
  ports: DescribePorts,
  input: DescribeProfileInput,
): Promise<DescribeOutcome> {
  const profile = await oneProfile(ports.hub, input.profile, input.scope, ports.chooser)
  return {
    profile,
    clusterset: await ports.hub.clustersetOf(profile.metadata.namespace ?? ''),
    providers: input.providers,
    providerSource: input.providerSource,
    now: input.now,
    showEnv: input.showEnv,
    hubPin: ports.hub.pin(),
    placedBy: await placedBy(ports.hub, profile),
    tokenAccess: await tokenAccess(ports.hub, profile, input.providers),
  }
}

/**
 * For a chosen provider with a serviceAccountToken block: whose token it would be and whether the hub
 * identity may create it (a SelfSubjectAccessReview). Nothing is minted.
 */
async function tokenAccess(
  hub: ProfileDescriber,
  profile: ClusterProfile,
  providers: Provider[],
): Promise<TokenAccess | undefined> {
  const provider = chooseProvider(profile, providers)?.provider
  const block = provider?.serviceAccountToken
  if (!provider || !block) return undefined
  let account
  try {
    account = federatedServiceAccount(block, provider.name, hub.config?.inCluster?.serviceAccount)
  } catch (error) {
    if (!isCpcredError(error)) throw error
    return {podOwn: false}
  }
  const serviceAccount = `${account.namespace}/${account.name}`
  try {
    const answer = await hub.reviewTokenAccess?.(account.namespace, account.name)
    return {serviceAccount, podOwn: account.podOwn, allowed: answer?.allowed, reason: answer?.reason}
  } catch (error) {
    if (!isCpcredError(error)) throw error
    return {serviceAccount, podOwn: account.podOwn}
  }
}

/**
 * The PlacementDecisions in the profile's namespace that reference it. A courtesy: a hub without the
 * PlacementDecision CRD, or a reader not allowed to list them, shows none.
 */
async function placedBy(hub: ProfileDescriber, profile: ClusterProfile): Promise<string[] | undefined> {
  try {
    const {items: decisions} = await hub.listPlacementDecisions(profile.metadata.namespace ?? '')
    return decisionsReferencing(profile, decisions).map(
      (decision) => `${decision.metadata.namespace ?? ''}/${decision.metadata.name}`,
    )
  } catch (error) {
    if (!isCpcredError(error)) throw error
    return undefined
  }
}
