// The ports of a target cluster, reached with a credential: who it says you are (whoami) and what
// you may do there (doctor --can).
import type {ClusterConnection} from '../../core/access/connection.js'
import type {Resolution} from '../../core/access/resolve-access.js'
import type {Credential} from '../../core/exec-credential/protocol.js'
import type {AccessQuestion, AccessStatus, RulesStatus} from '../../core/doctor/target-access.js'
import type {Endpoint} from './hub.js'

/** A target cluster, reached with a credential (whoami's SelfSubjectReview). */
export interface TargetPort {
  endpoint(cluster: ClusterConnection): Promise<Endpoint>
  /** Who the target says the credential makes you; a 401 or 404 is an ApiFailure with that status. */
  reviewSelf(resolution: Resolution, credential: Credential): Promise<SelfSubjectReview>
  /** What the credential may do in a namespace of the target (SelfSubjectRulesReview). */
  reviewRules(resolution: Resolution, credential: Credential, namespace: string): Promise<RulesStatus>
  /** Whether the credential may do one action on the target (SelfSubjectAccessReview). */
  reviewAccess(
    resolution: Resolution,
    credential: Credential,
    question: AccessQuestion,
  ): Promise<AccessStatus>
}

/** Talks to a profile's cluster with a credential (whoami). */
export interface SelfSubjectReview {
  apiVersion: string
  kind: string
  status: {userInfo: {username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]>}}
}
