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

/**
 * kubectl's order of two sort values (its sorter's isLess, as kubectl 1.37 sorts): numbers as
 * numbers, the rest by their text, character by character (web-10 before web-2); a missing value
 * before any other.
 */
export function compareValues(a: unknown, b: unknown): number {
  if (a === undefined || a === null) return b === undefined || b === null ? 0 : -1
  if (b === undefined || b === null) return 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  const x = textOf(a)
  const y = textOf(b)
  return x < y ? -1 : x > y ? 1 : 0
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}
