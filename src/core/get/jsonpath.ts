// The JSONPath of kubectl's --sort-by, in its relaxed form (k8s.io/kubectl's RelaxedJSONPathExpression):
// `{.metadata.name}`, `.metadata.name` and `metadata.name` are one path; fields by dots, list items by
// [N], keys with dots by ['a.b']. Enough for sorting; not a general JSONPath.
import {UsageError} from '../errors.js'
import {isRecord} from '../json.js'

export type PathStep = string | number

/** The steps of a relaxed JSONPath; a UsageError says what is wrong with one that is not. */
export function parseJsonPath(text: string): PathStep[] {
  let path = text.trim()
  if (path.startsWith('{') && path.endsWith('}')) path = path.slice(1, -1).trim()
  if (path.startsWith('.')) path = path.slice(1)
  const steps: PathStep[] = []
  const bad = () =>
    new UsageError(
      `--sort-by ${JSON.stringify(text)} is not a JSONPath`,
      'e.g. --sort-by=.metadata.name or --sort-by=.status.startTime',
    )
  let at = 0
  while (at < path.length) {
    if (path[at] === '[') {
      const close = path.indexOf(']', at)
      if (close === -1) throw bad()
      const inside = path.slice(at + 1, close)
      if (/^\d+$/.test(inside)) steps.push(Number(inside))
      else if (/^'[^']*'$/.test(inside) || /^"[^"]*"$/.test(inside)) steps.push(inside.slice(1, -1))
      else throw bad()
      at = close + 1
      if (path[at] === '.') at++
      continue
    }
    let end = at
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end++
    const field = path.slice(at, end)
    if (field === '' || !/^[\w-]+$/.test(field)) throw bad()
    steps.push(field)
    at = path[end] === '.' ? end + 1 : end
    if (path[end] === '.' && at === path.length) throw bad()
  }
  if (steps.length === 0) throw bad()
  return steps
}

/** The value at `steps` in `value`, or undefined where a step finds nothing. */
export function valueAt(value: unknown, steps: readonly PathStep[]): unknown {
  let current = value
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined
      current = current[step]
    } else {
      if (!isRecord(current) || !Object.hasOwn(current, step)) return undefined
      current = current[step]
    }
  }
  return current
}

/** sortorder.NaturalLess, which kubectl's --sort-by uses for strings: runs of digits compare as numbers. */
export function naturalCompare(a: string, b: string): number {
  let i = 0
  let j = 0
  const digit = (code: number) => code >= 48 && code <= 57
  while (i < a.length && j < b.length) {
    const c1 = a.charCodeAt(i)
    const c2 = b.charCodeAt(j)
    const d1 = digit(c1)
    const d2 = digit(c2)
    if (d1 !== d2) return d1 ? -1 : 1
    if (!d1) {
      if (c1 !== c2) return c1 < c2 ? -1 : 1
      i++
      j++
      continue
    }
    while (i < a.length && a[i] === '0') i++
    while (j < b.length && b[j] === '0') j++
    const start1 = i
    const start2 = j
    while (i < a.length && digit(a.charCodeAt(i))) i++
    while (j < b.length && digit(b.charCodeAt(j))) j++
    if (i - start1 !== j - start2) return i - start1 < j - start2 ? -1 : 1
    const n1 = a.slice(start1, i)
    const n2 = b.slice(start2, j)
    if (n1 !== n2) return n1 < n2 ? -1 : 1
    if (start1 !== start2) return start1 < start2 ? -1 : 1
  }
  return a.length - i === b.length - j ? 0 : a.length - i < b.length - j ? -1 : 1
}

/**
 * kubectl's order of two sort values: numbers as numbers, the rest by their text (naturally); a
 * missing value before any other.
 */
export function compareValues(a: unknown, b: unknown): number {
  if (a === undefined || a === null) return b === undefined || b === null ? 0 : -1
  if (b === undefined || b === null) return 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return naturalCompare(textOf(a), textOf(b))
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}
