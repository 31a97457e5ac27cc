// kubectl's rules for reading kubeconfig files (client-go clientcmd): with several files, the
// first file that names a cluster, user or context wins, and the first non-empty current-context
// wins; relative file references resolve against the directory of the file that holds them.
import path from 'node:path'

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
