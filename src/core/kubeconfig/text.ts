// The one place a kubeconfig becomes text and text becomes a kubeconfig (docs/design.md §5). kubectl reads
// kubeconfigs with Go's yaml (YAML 1.1 rules plus Go's number parsing), so a string that YAML 1.2
// prints plain (`no`, `on`, `0x1F`, `012`, `1e3`, `2026-01-01`, `<<`, `0o17`) reads back as a bool,
// a number, a date or a merge key, and the whole file stops loading. The YAML is written by the rule
// -o yaml is written by (core/text/yaml-scalars.ts): every string that could read as anything but
// itself is quoted, and characters Go's yaml refuses even inside quotes are written as escapes.
// Everything cpcred writes (stdout, --output-file, --merge, sync, exec's private files) goes through here.
import {UsageError} from '../errors.js'
import {emitYaml, needsQuotes, UNREADABLE_IN_YAML} from '../text/yaml-scalars.js'
import {plainSequenceItem} from './plain-yaml.js'

/**
 * Each sealed list item's YAML, kept for as long as the item (the same object) lives: a sync pass
 * that changes one entry of 10,000 emits that entry, not the whole document again. Only items
 * sealKubeconfig froze all the way down are here ('' until first emitted): they cannot change in
 * place, so the object itself says its text is current, without keeping or computing its JSON to
 * compare (20 MB for 10,000 entries).
 */
const emittedItems = new WeakMap<object, string>()

/** The top-level lists that hold a kubeconfig's entries, emitted one item at a time. */
const ENTRY_LISTS = new Set(['clusters', 'users', 'contexts'])

/**
 * The kubeconfig as YAML that kubectl reads back with exactly these values. A mapping is emitted a
 * top-level field at a time, and each entry of its lists on its own: the same bytes as emitting the
 * whole document at once (a block mapping's pairs and a block sequence's items are written each
 * independently of the others), without one YAML node tree for 10,000 entries.
 */
export async function emitKubeconfig(document: unknown): Promise<string> {
  const yaml = await import('yaml')
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    return emitYaml(yaml, document)
  }
  // A field without a value is left out, as the yaml package leaves it out of a mapping.
  const fields = Object.entries(document).filter(([, value]) => value !== undefined)
  if (fields.length === 0) return emitYaml(yaml, document)
  let text = ''
  for (const [key, value] of fields) {
    if (!ENTRY_LISTS.has(key) || !Array.isArray(value) || value.length === 0) {
      text += emitYaml(yaml, {[key]: value})
      continue
    }
    text += `${key}:\n`
    for (const item of value as unknown[]) {
      if (item === null || typeof item !== 'object') {
        text += emitYaml(yaml, [item])
        continue
      }
      const kept = emittedItems.get(item)
      if (kept) {
        text += kept
        continue
      }
      const emitted = plainSequenceItem(item, needsQuotes) ?? emitYaml(yaml, [item])
      if (kept === '') emittedItems.set(item, emitted)
      text += emitted
    }
  }
  return text
}

/**
 * Freezes each entry of the document's entry lists all the way down, so emitKubeconfig may keep its
 * YAML for as long as the entry lives: for a document that is emitted again and again (sync --watch,
 * a file read and written back). Changing a sealed entry in place throws; replace it instead.
 */
export function sealKubeconfig<T>(document: T): T {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return document
  for (const [key, value] of Object.entries(document)) {
    if (!ENTRY_LISTS.has(key) || !Array.isArray(value)) continue
    for (const item of value as unknown[]) {
      if (item === null || typeof item !== 'object' || emittedItems.has(item)) continue
      deepFreeze(item, new Set())
      emittedItems.set(item, '')
    }
  }
  return document
}

function deepFreeze(value: object, seen: Set<object>): void {
  // A document read from YAML aliases may hold the same object twice, or in itself.
  if (seen.has(value)) return
  seen.add(value)
  for (const field of Object.values(value))
    if (field !== null && typeof field === 'object') deepFreeze(field as object, seen)
  Object.freeze(value)
}

/** The whole document through the yaml package in one piece: what emitKubeconfig's bytes must equal. */
export async function emitKubeconfigAtOnce(document: unknown): Promise<string> {
  return emitYaml(await import('yaml'), document)
}

/**
 * A kubeconfig as JSON (valid YAML, so kubectl reads it) with no YAML library: for exec's private
 * files, on the path every command run by `cpcred exec` waits for.
 */
export function emitKubeconfigJson(document: unknown): string {
  // JSON.stringify escapes C0 controls itself; \u escapes are JSON and YAML alike.
  return `${JSON.stringify(document, null, 2).replace(UNREADABLE_IN_YAML, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`
}

/**
 * A kubeconfig's text as kubectl reads it: YAML 1.1 scalars (`yes` is true, `012` is 10), but a
 * date stays the string it is (client-go has no date fields; Go's yaml keeps it a string there).
 */
export async function parseKubeconfig(text: string, source: string): Promise<unknown> {
  const own = await readOwnText(text)
  if (own !== undefined) return own.document
  const {parse} = await import('yaml')
  try {
    return parse(text, {
      version: '1.1',
      customTags: (tags) =>
        tags.filter((tag) => typeof tag === 'string' || tag.tag !== 'tag:yaml.org,2002:timestamp'),
      maxAliasCount: 1000,
    })
  } catch (error) {
    throw new UsageError(`${source} is not valid YAML: ${(error as Error).message.split('\n')[0]}`)
  }
}

/**
 * A file exactly as emitKubeconfig writes it (sync's and --merge's own, unchanged since), read
 * quickly. The `yaml` package takes 20 to 35 s and 750 MB for a kubeconfig of 10,000 entries;
 * js-yaml 2 s, but it reads some YAML otherwise (see docs/performance.md). Its reading counts only
 * when emitting it gives back the very same text: emitKubeconfig writes every value so that it reads
 * back as itself, so then the text holds exactly that document. Anything else is read as before.
 */
async function readOwnText(text: string): Promise<{document: unknown} | undefined> {
  if (text === '') return undefined
  const {load, CORE_SCHEMA} = await import('js-yaml')
  let document: unknown
  try {
    document = load(text, {schema: CORE_SCHEMA})
  } catch {
    return undefined
  }
  // Sealed: the emit that checks it keeps each entry's text for the write that follows.
  return (await emitKubeconfig(sealKubeconfig(document))) === text ? {document} : undefined
}
