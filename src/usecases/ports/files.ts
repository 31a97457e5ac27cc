// The ports of the user's files that cpcred writes (kubeconfigs) or reads for kubectl (its kuberc),
// and of the lists shell completion offers.
import type {KubectlPolicy, LookPath} from '../../core/kubeconfig/kuberc.js'

// Kubeconfig files (kubeconfig, sync)

/** The user's kubeconfig files, as cpcred writes them (src/adapters/kubeconfig-files.ts). */
export interface KubeconfigFiles {
  read(file: string): Promise<string | undefined>
  /** Atomically, through symlinks, keeping an existing file's mode and owner (new files 0600). */
  write(file: string, content: string): Promise<void>
  withLock<T>(file: string, action: () => Promise<T>): Promise<T>
  /**
   * What the file is now, as stat says (device, inode, size, change and modification times): the same
   * stamp means the same content. Undefined when there is none to compare (no file, a pipe).
   */
  stamp(file: string): Promise<string | undefined>
}

/** kubectl's preferences that decide whether it runs a kubeconfig's exec command (src/adapters/kuberc.ts). */
export interface KubectlPreferences {
  /** The credential-plugin policy, from the kuberc kubectl finds; `kubercFlag` as kubectl's --kuberc. */
  policy(kubercFlag?: string): KubectlPolicy
  /** Where kubectl finds a command, as Go's exec.LookPath. */
  lookPath: LookPath
}

// ---------------------------------------------------------------------------------------------
// Shell completion (__complete)

/** The profile names offered at TAB for one hub, as last fetched. */
export interface CompletionList {
  fetchedAt: number
  /** NAMESPACE/NAME of each profile. */
  profiles: string[]
}

/** Short-lived lists of profile names per hub identity, renewed by one refresh at a time. */
export interface CompletionLists {
  read(hubIdentity: string): Promise<CompletionList | undefined>
  /** Waits up to `ms` for a list to appear (the first TAB for a hub). */
  waitFor(hubIdentity: string, ms: number): Promise<CompletionList | undefined>
  /** Young enough to be offered without a refresh. */
  isFresh(list: CompletionList | undefined): boolean
  write(hubIdentity: string, profiles: string[]): Promise<void>
  /** true for the one caller that may refresh now. */
  claimRefresh(hubIdentity: string): Promise<boolean>
  releaseRefresh(hubIdentity: string): Promise<void>
}

/** The hub a completion is for, known from the kubeconfig alone (no request). */
export interface CompletionHub {
  identity: string
  /** The context's namespace (or -n): names in it are offered without the namespace. */
  namespace: string
}

// ---------------------------------------------------------------------------------------------
// Reports (lint --report)

/** Where a command writes the reports CI reads (src/adapters/directories.ts, src/adapters/files.ts). */
export interface ReportFiles {
  /** Creates `dir` and its missing parents (0700); throws a CpcredError that says what is in the way. */
  makeDirectory(dir: string): void
  /** Writes a report atomically, never through a link at its path; an existing file keeps its mode. */
  writeReport(file: string, content: string): Promise<void>
}
