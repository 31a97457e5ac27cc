// Workload-identity federation for any plugin (a provider's serviceAccountToken block): a token of a
// hub ServiceAccount, minted by the hub's TokenRequest API for the audience the cloud trusts, handed
// to the plugin as a private file named by one variable, as a cloud CLI reads a projected token. The
// token is never in argv, the environment, a log or a file others may read (docs/design.md §5).
import {federatedServiceAccount, type ServiceAccountTokenBlock} from '../core/access/service-account-token.js'
import type {FederatedIdentity} from '../core/exec-credential/cache.js'
import type {Credential} from '../core/exec-credential/protocol.js'
import {serviceAccountUidOfToken} from '../core/kubeconfig/in-cluster.js'
import {jwtClaims} from '../core/exec-credential/jwt.js'
import {requestServiceAccountToken} from './request-token.js'
import {redactCredential} from './run-plugin.js'
import type {FederationHub, FederationPorts} from './ports.js'

/** A token minted for one run, and whom it names; `token` is handed only to the token file. */
export interface MintedToken {
  token: string
  expiresAt: Date
  expirationTimestamp: string
  identity: FederatedIdentity
  /** The ServiceAccount is the pod's own (the block names none). */
  podOwn: boolean
}

/** What --verbose and describe may say about a federated run: never the token. */
export interface FederationNote {
  serviceAccount: string
  audience: string
  fileEnv: string
  podOwn: boolean
  expirationTimestamp: string
}

export function federationNote(minted: MintedToken): FederationNote {
  const {identity} = minted
  return {
    serviceAccount: `${identity.namespace}/${identity.name}`,
    audience: identity.audience,
    fileEnv: identity.fileEnv,
    podOwn: minted.podOwn,
    expirationTimestamp: minted.expirationTimestamp,
  }
}

export function describeFederation(note: FederationNote): string {
  return (
    `token of ${note.podOwn ? "the pod's own " : ''}ServiceAccount ${note.serviceAccount}, audience ` +
    `"${note.audience}", in the file named by ${note.fileEnv}, expires ${note.expirationTimestamp}`
  )
}

/**
 * One run's federation: the hub opened once, a token minted once per provider and reused while the
 * run lasts (a fan-out over many targets of one provider asks the hub once), token files in the
 * run's private directory, removed after each plugin run and with the directory at the end.
 */
export class Federation {
  private hub?: Promise<FederationHub>
  private readonly minted = new Map<string, Promise<MintedToken>>()
  private swept?: Promise<unknown>

  constructor(private readonly ports: FederationPorts) {}

  /** A token of the provider's ServiceAccount for its audience (usage error first, then the hub). */
  mint(providerName: string, block: ServiceAccountTokenBlock): Promise<MintedToken> {
    let minting = this.minted.get(providerName)
    if (minting === undefined) {
      minting = this.mintNow(providerName, block)
      this.minted.set(providerName, minting)
    }
    return minting
  }

  private async mintNow(providerName: string, block: ServiceAccountTokenBlock): Promise<MintedToken> {
    const hub = await (this.hub ??= this.ports.openHub())
    const account = federatedServiceAccount(block, providerName, hub.config.inCluster?.serviceAccount)
    const credential = await requestServiceAccountToken(hub, account.namespace, account.name, {
      audiences: [block.audience],
      expirationSeconds: block.expirationSeconds,
    })
    const token = credential.token!
    // Not verified: the hub has just issued it. The UID tells a ServiceAccount made again apart.
    const uid =
      serviceAccountUidOfToken(token) ??
      jwtClaims(token)?.subject ??
      `system:serviceaccount:${account.namespace}:${account.name}`
    return {
      token,
      expiresAt: credential.expiresAt!,
      expirationTimestamp: credential.expirationTimestamp!,
      identity: {
        namespace: account.namespace,
        name: account.name,
        uid,
        audience: block.audience,
        fileEnv: block.fileEnv,
      },
      podOwn: account.podOwn,
    }
  }

  /**
   * Runs `plugin` with the minted token in a private file (0600, in the run's 0700 directory) whose
   * path is in the variable the block names; the file is removed when the plugin is done, whatever
   * happened. What the plugin returns may not outlive the token (capToToken).
   */
  async withTokenFile(
    minted: MintedToken,
    plugin: (env: Record<string, string>) => Promise<Credential>,
  ): Promise<Credential> {
    // What a run killed before it could clean up left behind goes first (housekeeping, never fails).
    await (this.swept ??= this.ports.files.sweepStale().catch(() => undefined))
    const file = await this.ports.files.create(minted.token, 'token')
    try {
      return capToToken(await plugin({[minted.identity.fileEnv]: file}), minted.expiresAt)
    } catch (error) {
      // A failing plugin's stderr is quoted in the error: the hub's token is cut out of it.
      if (error instanceof Error) error.message = redactCredential(error.message, {token: minted.token})
      throw error
    } finally {
      await this.ports.files.remove(file)
    }
  }

  /** Closes the hub connection and removes the run's private directory. */
  async close(): Promise<void> {
    const hub = await this.hub?.catch(() => undefined)
    this.hub = undefined
    await Promise.all([hub?.close(), this.ports.files.dispose()])
  }
}

/**
 * The credential a token was exchanged for, expiring no later than the token: served from the cache
 * past the token's expiry it would outlive the identity it was issued to (a ServiceAccount deleted,
 * its RBAC withdrawn). The cache's usual margin then applies to this expiry.
 */
export function capToToken(credential: Credential, tokenExpiresAt: Date): Credential {
  if (credential.expiresAt && credential.expiresAt.getTime() <= tokenExpiresAt.getTime()) return credential
  return {...credential, expiresAt: tokenExpiresAt, expirationTimestamp: rfc3339(tokenExpiresAt)}
}

function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}
