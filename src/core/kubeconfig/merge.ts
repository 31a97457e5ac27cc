// kubectl's rules for reading kubeconfig files (client-go clientcmd): with several files, the
// first file that names a cluster, user or context wins, and the first non-empty current-context
// wins; relative file references resolve against the directory of the file that holds them. And the
// merge behind `cpcred kubeconfig --merge`: generated entries added to a kubeconfig the user has.
import path from 'node:path'
import {UsageError} from '../errors.js'
import {emptyKubeconfig, KUBECONFIG_LISTS, type KubeconfigDocument} from './document.js'
import {keepingSyncMark, sameOwner} from './owner.js'

export interface KubeconfigFile {
  /** Absolute path of the file. */
  path: string
  /** The parsed document (a kubeconfig v1 Config), or undefined for an empty file. */
  document: unknown
}

export interface NamedEntry {
  name: string
  [key: string]: unknown
}

export interface MergedKubeconfig {
  clusters: NamedEntry[]
  users: NamedEntry[]
  contexts: NamedEntry[]
  'current-context'?: string
  /** Which file each context came from, for messages. */
  contextSources: Record<string, string>
}

export interface ContextEntry {
  cluster?: string
  user?: string
  namespace?: string
}

/** Merges files in precedence order (the first wins), as kubectl does for KUBECONFIG. */
export function mergeKubeconfigs(files: KubeconfigFile[]): MergedKubeconfig {
  const merged: MergedKubeconfig = {clusters: [], users: [], contexts: [], contextSources: {}}
  const seen = {clusters: new Set<string>(), users: new Set<string>(), contexts: new Set<string>()}
  for (const file of files) {
    const document = asRecord(file.document, file.path, 'the file')
    const dir = path.dirname(file.path)
    for (const kind of ['clusters', 'users', 'contexts'] as const) {
      for (const entry of namedList(document[kind], file.path, kind)) {
        if (seen[kind].has(entry.name)) continue
        seen[kind].add(entry.name)
        merged[kind].push(resolveFileReferences(kind, entry, dir))
        if (kind === 'contexts') merged.contextSources[entry.name] = file.path
      }
    }
    const current = document['current-context']
    if (!merged['current-context'] && typeof current === 'string' && current !== '') {
      merged['current-context'] = current
    }
  }
  return merged
}

const fileReferences = {
  clusters: {key: 'cluster', fields: ['certificate-authority']},
  users: {key: 'user', fields: ['client-certificate', 'client-key', 'tokenFile']},
  contexts: {key: 'context', fields: []},
} as const

function resolveFileReferences(
  kind: keyof typeof fileReferences,
  entry: NamedEntry,
  dir: string,
): NamedEntry {
  const {key, fields} = fileReferences[kind]
  const body = entry[key]
  if (!body || typeof body !== 'object') return entry
  const resolved: Record<string, unknown> = {...(body as Record<string, unknown>)}
  for (const field of fields) {
    const value = resolved[field]
    if (typeof value === 'string' && value !== '' && !path.isAbsolute(value))
      resolved[field] = path.join(dir, value)
  }
  // client-go resolves an exec command only when it is a path, not a name looked up in PATH.
  const exec = resolved.exec as {command?: unknown} | undefined
  if (
    kind === 'users' &&
    exec &&
    typeof exec.command === 'string' &&
    exec.command.includes('/') &&
    !path.isAbsolute(exec.command)
  ) {
    resolved.exec = {...exec, command: path.join(dir, exec.command)}
  }
  return {...entry, [key]: resolved}
}

function asRecord(value: unknown, file: string, what: string): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${file}: ${what} is not a kubeconfig (expected a mapping)`)
  }
  return value as Record<string, unknown>
}

function namedList(value: unknown, file: string, kind: string): NamedEntry[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new Error(`${file}: ${kind} must be a list`)
  return value.map((entry, index) => {
    if (!entry || typeof entry !== 'object' || typeof (entry as NamedEntry).name !== 'string') {
      throw new Error(`${file}: ${kind}[${index}] has no name`)
    }
    return entry as NamedEntry
  })
}

export function findNamed(list: NamedEntry[], name: string): NamedEntry | undefined {
  return list.find((entry) => entry.name === name)
}

/** The paths kubectl reads: --kubeconfig alone, else KUBECONFIG's list, else ~/.kube/config. */
export function kubeconfigPaths(
  flag: string | undefined,
  envValue: string | undefined,
  home: string,
): {paths: string[]; explicit: boolean} {
  if (flag) return {paths: [path.resolve(flag)], explicit: true}
  if (envValue) {
    const paths = [
      ...new Set(
        envValue
          .split(path.delimiter)
          .filter((p) => p !== '')
          .map((p) => path.resolve(p)),
      ),
    ]
    return {paths, explicit: false}
  }
  return {paths: [path.join(home, '.kube', 'config')], explicit: false}
}

export interface MergeIntoKubeconfigOptions {
  /** Replace entries of the same names that cpcred did not write for the same profile and hub (`--overwrite`). */
  overwrite: boolean
  /** Make the generated kubeconfig's current context the current one (`--set-current`). */
  setCurrent: boolean
  /** Where `existing` came from, for messages. */
  source?: string
}

export interface MergeIntoKubeconfigResult {
  document: Record<string, unknown>
  /** `cluster <name>`, `user <name>`, `context <name>` for each entry appended. */
  added: string[]
  /** The same for each entry cpcred wrote for the same profile and hub, updated in place. */
  updated: string[]
  /** The same for each other existing entry replaced in place (`overwrite`). */
  replaced: string[]
}

/**
 * `--merge`: the existing kubeconfig with the generated entries added. Everything else, its other
 * entries, their order and its other top-level fields, stays as it was. An entry of the same name
 * that cpcred wrote for the same profile of the same hub (its owner mark says so) is updated where it
 * stands, as `aws eks update-kubeconfig` does; any other is refused unless `overwrite`.
 */
export function mergeIntoKubeconfig(
  existing: unknown,
  generated: KubeconfigDocument,
  options: MergeIntoKubeconfigOptions,
): MergeIntoKubeconfigResult {
  const source = options.source ?? 'the existing kubeconfig'
  const base = existingKubeconfig(existing, source)
  const document: Record<string, unknown> = {...base}
  const added: string[] = []
  const updated: string[] = []
  const replaced: string[] = []
  const clashes: string[] = []

  for (const {key, kind} of KUBECONFIG_LISTS) {
    const list = [...kubeconfigEntries(base[key], source, key)]
    for (const entry of generated[key] as NamedEntry[]) {
      const index = list.findIndex((existingEntry) => existingEntry.name === entry.name)
      if (index === -1) {
        list.push(entry)
        added.push(`${kind} ${entry.name}`)
      } else if (sameOwner(key, list[index]!, entry)) {
        list[index] = keepingSyncMark(key, list[index]!, entry)
        updated.push(`${kind} ${entry.name}`)
      } else if (options.overwrite) {
        list[index] = entry
        replaced.push(`${kind} ${entry.name}`)
      } else {
        clashes.push(`${kind} "${entry.name}"`)
      }
    }
    document[key] = list
  }
  if (clashes.length > 0) {
    const them = clashes.length === 1 ? 'it' : 'them'
    throw new UsageError(
      `${source} already has ${clashes.join(', ')}, which cpcred did not write for the same profile and hub; ` +
        `refusing to replace ${them}`,
      `Pass --overwrite to replace ${them}, or choose other names with --context-name.`,
    )
  }
  if (options.setCurrent && generated['current-context'] !== '') {
    document['current-context'] = generated['current-context']
  }
  return {document, added, updated, replaced}
}

/** An empty file starts from kubectl's skeleton; anything else must look like a kubeconfig. */
export function existingKubeconfig(existing: unknown, source: string): Record<string, unknown> {
  if (existing === undefined || existing === null || existing === '') return {...emptyKubeconfig()}
  if (typeof existing !== 'object' || Array.isArray(existing)) {
    throw new UsageError(
      `${source} is not a kubeconfig: expected a mapping with clusters, users and contexts, found ${Array.isArray(existing) ? 'a list' : `a ${typeof existing}`}`,
      'Pass another file with --kubeconfig/KUBECONFIG, or write to a new file with --output-file.',
    )
  }
  const document = existing as Record<string, unknown>
  if (document.kind !== undefined && document.kind !== 'Config') {
    throw new UsageError(
      `${source} is not a kubeconfig: its kind is ${JSON.stringify(document.kind)}, not "Config"`,
      'Pass another file with --kubeconfig/KUBECONFIG, or write to a new file with --output-file.',
    )
  }
  if (document.apiVersion !== undefined && document.apiVersion !== 'v1') {
    throw new UsageError(
      `${source} is not a kubeconfig v1: its apiVersion is ${JSON.stringify(document.apiVersion)}, not "v1"`,
    )
  }
  for (const {key} of KUBECONFIG_LISTS) kubeconfigEntries(document[key], source, key)
  return document
}

/** As client-go reads them: a list of named entries, each name once (clientcmd refuses duplicates). */
function kubeconfigEntries(value: unknown, source: string, key: string): NamedEntry[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new UsageError(`${source} is not a valid kubeconfig: ${key} is not a list`)
  const seen = new Set<string>()
  return value.map((entry: unknown, index) => {
    const name = (entry as {name?: unknown} | null)?.name
    if (!entry || typeof entry !== 'object' || Array.isArray(entry) || typeof name !== 'string') {
      throw new UsageError(`${source} is not a valid kubeconfig: ${key}[${index}] has no name`)
    }
    if (seen.has(name)) {
      throw new UsageError(
        `${source} is not a valid kubeconfig: ${key} has "${name}" twice, which kubectl refuses too`,
        'Remove one of them first.',
      )
    }
    seen.add(name)
    return entry as NamedEntry
  })
}
