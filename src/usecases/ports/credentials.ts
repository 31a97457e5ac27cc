// The ports of the credential pipeline and exec: what `credential`, `exec`, `whoami` and `cache
// clear` need. The hub as far as credentials care (who reads it, how plugins find it, one profile),
// the provider file, plugins, the credential cache, the answers kept for the next identical
// question, and what a command says on stderr while it works. The user's command and its private
// files are in processes.ts.
import type {Provider} from '../../core/access/provider-file.js'
import type {Credential} from '../../core/exec-credential/protocol.js'
import type {ClusterProfile} from '../../core/profiles/cluster-profile.js'
import type {HubPin} from '../../core/profiles/hub-pin.js'
import type {LifetimeRule} from '../../core/exec-credential/cache.js'
import type {Chooser, ProfileFinder} from './profiles.js'
import type {LoadedProviders, ProviderSelection} from '../../core/access/provider-selection.js'

/** Who reads the hub (every cache key carries it), how plugins find it, and its namespace. */
export interface HubIdentity {
  identity: string
  pin: HubPin
  /** -n, else the context's namespace, else "default". */
  namespace: string
}

/** The hub as the hot paths know it: its identity from a summary, connected only to read a profile. */
export interface ProfileHub extends HubIdentity {
  /**
   * The hub, connected, to read profiles from; closed by the caller. `remember`: the served version
   * may be kept (not with --no-cache); `idleTimeoutMs`: a silent hub is given up on after this long.
   */
  connect(options: {
    remember: boolean
    idleTimeoutMs?: number
  }): Promise<ProfileFinder & {close(): Promise<void>}>
  /** The failure says the hub is down (refused, timed out, 5xx), never a 401, 403 or TLS failure. */
  isOutage(error: unknown): boolean
}

/** The hub as commands that may pick a profile know it (whoami, cache clear). */
export interface SessionHub extends HubIdentity {
  /** Profiles by name, and pages of them to pick from. */
  profiles: ProfileFinder
  /** The person at a terminal who picks one when none is named (unreachable profiles marked). */
  chooser: Chooser
  close(): Promise<void>
}

/** A profile as read from the hub, and where and when that was. */
export interface ProfileSnapshot {
  profile: ClusterProfile
  file: string
  fetchedAt: number
  /** The identity of the hub it was read from. */
  hub: string
}

/** Recently read profiles, per hub identity. */
export interface ProfileSnapshotStore {
  last(hubIdentity: string, namespace: string, name: string): Promise<ProfileSnapshot | undefined>
  remember(hubIdentity: string, profile: ClusterProfile): Promise<ProfileSnapshot | undefined>
}

/** Which provider file and --access-provider flags: core's one definition. */
export type {ProviderSelection}

/** The consumer's providers as read, with what is wrong in them said as warnings. */
/**
 * The consumer's providers as read: the one shape every command gets them in (the provider file and
 * --access-provider merged, where they came from, the file's warnings). `providers` is empty when
 * there is no provider file (selecting targets needs no more).
 */
export interface ProvidersRead extends LoadedProviders {
  /** The providers; throws the usage error that says where to declare one when there is none. */
  required(): Provider[]
}

export interface ProviderSource {
  load(selection: ProviderSelection): Promise<ProvidersRead>
}

export interface PluginRunRequest {
  command: string
  args: string[]
  /** Added to (and overriding) cpcred's own environment, as client-go does. */
  env: Record<string, string>
  /** Interactive plugins get the terminal: stdin and stderr pass through live. */
  interactive: boolean
  timeoutMs: number
  /** A plugin that prints more than this is broken; stop it rather than fill memory. */
  maxStdoutBytes: number
}

export interface PluginRunResult {
  /** undefined when the process did not exit normally (not found, timed out, killed). */
  exitCode?: number
  stdout: string
  /** The end of what it wrote on stderr (empty for interactive runs, whose stderr is the terminal's). */
  stderr: string
  notFound: boolean
  /** The plugin could not be started for another reason (e.g. EACCES: not executable). */
  startError?: string
  timedOut: boolean
  outputTooLarge: boolean
  /** cpcred was asked to stop (this signal) while the plugin ran, and stopped it. */
  interrupted?: NodeJS.Signals
  signal?: string
}

/** Runs credential plugins, each in a process group of its own. */
export interface PluginProcessRunner {
  run(request: PluginRunRequest): Promise<PluginRunResult>
}

export interface CachedCredential {
  credential: Credential
  fromCache: boolean
  /** Until when the cache serves it (by the rule asked for), when it is in the cache. */
  cachedUntil?: Date
  /** When the plugin returned it. */
  obtainedAt?: Date
}

/** A credential by cache key: served when usable, else fetched (once, even with many callers). */
export interface CredentialCache {
  obtain(
    key: string,
    fetch: () => Promise<Credential>,
    ttlSeconds?: number,
    rule?: LifetimeRule,
  ): Promise<CachedCredential>
}

/** The credential cache on disk. */
export interface CredentialStore extends CredentialCache {
  readonly dir: string
  /** The file of a key's entry (an answer depends on it). */
  entryPath(key: string): string
  /** Removes the entries of these keys, or all; returns how many went. */
  clear(keys?: string[]): Promise<number>
}

/** What an answer kept for the next identical question depends on besides its signed inputs. */
export interface AnswerSource {
  cacheKey: string
  cachedUntil: Date
  snapshot: ProfileSnapshot
  profileMaxAgeMs: number
}

/**
 * The answer to this exact question (`credential` or `exec` with these words), kept for the next
 * one. Its input files are signed when it is begun, before they are read.
 */
export interface AnswerDraft {
  keep(payload: string, from: AnswerSource): Promise<void>
}

/**
 * The question a kept answer is for: the command and cpcred's own words (cli/answer-question.ts
 * makes it, for the lookup before any parsing and for the fronts alike).
 */
export interface AnswerQuestion {
  readonly command: 'credential' | 'exec'
  readonly words: readonly string[]
}

export interface AnswerBook {
  begin(question: AnswerQuestion, inputs: {kubeconfig?: string; providers: ProviderSelection}): AnswerDraft
}

/** What a command says on stderr while it works (the printer, for people). */
export interface Notices {
  warn(message: string): void
  /** A note (--verbose, cache problems). */
  note(message: string): void
  /** A plugin's own stderr, passed on as it is (made printable). */
  pluginStderr(text: string): void
}
