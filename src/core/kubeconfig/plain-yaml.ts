// A kubeconfig entry written without the yaml package, when every key and value in it is one that
// package writes as it stands (a plain scalar, no quotes, no escapes): what cpcred renders nearly
// always is. The text is byte for byte what text.ts's emitter writes (block style, sequences not
// indented under their key, two spaces); anything else returns undefined and goes to that emitter.

/**
 * Strings that are plain in any YAML reader and read back as themselves: a letter, `_` or `/` first
 * (or `-`/`--` before a letter, as in `--flag`), then no space, quote, `#`, `,`, brackets or braces,
 * and no `:` at the end. Words YAML 1.1 or Go read as something else (`no`, `NaN`) are quoted by
 * the emitter: `quoted` says which.
 */
const PLAIN = /^(?:--?[A-Za-z]|[A-Za-z_/])[\w./:@~+=-]*$/

/** A float of YAML 1.1 with no digits before its exponent (`e1`), which the yaml package quotes. */
const EXPONENT = /^[eE][-+]?\d+$/

/** Whether the emitter quotes a string that is otherwise plain (text.ts's list of such words). */
type Quoted = (value: string) => boolean

function plainString(value: string, quoted: Quoted): boolean {
  return PLAIN.test(value) && !value.endsWith(':') && !EXPONENT.test(value) && !quoted(value)
}

function scalar(value: unknown, quoted: Quoted): string | undefined {
  if (typeof value === 'string') return plainString(value, quoted) ? value : undefined
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : undefined
  if (value === null) return 'null'
  return undefined
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype

/** Lines of a mapping's pairs at `indent`, or undefined when any part is not plain. */
function mappingLines(value: Record<string, unknown>, indent: string, quoted: Quoted): string | undefined {
  let text = ''
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue
    // A key over 1,024 characters is written as an explicit `? key`.
    if (key.length > 256 || !plainString(key, quoted)) return undefined
    const body = valueAfter(field, indent, `${indent}${key}:`, quoted)
    if (body === undefined) return undefined
    text += body
  }
  return text
}

/** `value` written after `head` (a key and its colon): inline when a scalar or empty, else below. */
function valueAfter(value: unknown, indent: string, head: string, quoted: Quoted): string | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return `${head} []\n`
    const items = sequenceLines(value, indent, quoted)
    return items === undefined ? undefined : `${head}\n${items}`
  }
  if (isMapping(value)) {
    if (Object.values(value).every((field) => field === undefined)) return `${head} {}\n`
    const pairs = mappingLines(value, `${indent}  `, quoted)
    return pairs === undefined ? undefined : `${head}\n${pairs}`
  }
  const text = scalar(value, quoted)
  return text === undefined ? undefined : `${head} ${text}\n`
}

/** Lines of a sequence's items at `indent`, or undefined when any part is not plain. */
function sequenceLines(items: unknown[], indent: string, quoted: Quoted): string | undefined {
  let text = ''
  for (const item of items) {
    const lines = itemLines(item, indent, quoted)
    if (lines === undefined) return undefined
    text += lines
  }
  return text
}

function itemLines(item: unknown, indent: string, quoted: Quoted): string | undefined {
  const inner = `${indent}  `
  let lines: string | undefined
  if (Array.isArray(item)) {
    if (item.length === 0) return `${indent}- []\n`
    lines = sequenceLines(item, inner, quoted)
  } else if (isMapping(item)) {
    if (Object.values(item).every((field) => field === undefined)) return `${indent}- {}\n`
    lines = mappingLines(item, inner, quoted)
  } else {
    const text = scalar(item, quoted)
    return text === undefined ? undefined : `${indent}- ${text}\n`
  }
  // The item's first line starts on the dash's line.
  return lines === undefined ? undefined : `${indent}- ${lines.slice(inner.length)}`
}

/** The YAML of a one-item sequence holding `item`, as the emitter writes it, or undefined. */
export function plainSequenceItem(item: unknown, needsQuotes: Quoted): string | undefined {
  return itemLines(item, '', needsQuotes)
}
