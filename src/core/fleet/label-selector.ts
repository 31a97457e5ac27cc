// The label selector syntax of -l, as the API server parses it (k8s.io/apimachinery labels.Parse),
// checked before any request: a mistake is the user's, a usage error naming the selector, not the
// server's parse error at exit 1 after a round trip.
import {UsageError} from '../errors.js'
import {isDnsSubdomain} from '../profiles/names.js'

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/

/** A syntax problem, caught below and returned as text. */
class SelectorProblem extends Error {}

type Token = {kind: 'word'; text: string} | {kind: 'op'; text: string}

const OPERATORS = ['==', '!=', '=', '!', '(', ')', ',', '>', '<']

function tokenize(selector: string): Token[] {
  const tokens: Token[] = []
  for (let at = 0; at < selector.length;) {
    if (/\s/.test(selector[at]!)) {
      at++
      continue
    }
    const op = OPERATORS.find((candidate) => selector.startsWith(candidate, at))
    if (op) {
      tokens.push({kind: 'op', text: op})
      at += op.length
      continue
    }
    let end = at
    while (
      end < selector.length &&
      !/\s/.test(selector[end]!) &&
      !OPERATORS.some((o) => selector.startsWith(o, end))
    ) {
      end++
    }
    tokens.push({kind: 'word', text: selector.slice(at, end)})
    at = end
  }
  return tokens
}

function keyProblem(key: string): string | undefined {
  const slash = key.indexOf('/')
  const [prefix, name] = slash === -1 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)]
  if (prefix !== undefined && !isDnsSubdomain(prefix)) {
    return `the label key prefix "${prefix}" is not a DNS subdomain`
  }
  if (name.length === 0 || name.length > 63 || !NAME.test(name)) {
    return `"${key}" is not a label key (up to 63 letters, digits, "-", "_", "." with an optional prefix/)`
  }
  return undefined
}

function valueProblem(value: string): string | undefined {
  if (value === '') return undefined
  if (value.length > 63 || !NAME.test(value)) {
    return `"${value}" is not a label value (up to 63 letters, digits, "-", "_", ".", starting and ending alphanumeric)`
  }
  return undefined
}

/** Why `selector` is not a label selector, or undefined when it is one. */
export function labelSelectorProblem(selector: string): string | undefined {
  const tokens = tokenize(selector)
  let at = 0
  const peek = () => tokens[at]
  const word = (what: string): string => {
    const token = tokens[at++]
    if (token?.kind !== 'word')
      throw new SelectorProblem(
        token ? `expected ${what}, found "${token.text}"` : `expected ${what} at the end`,
      )
    return token.text
  }
  try {
    if (tokens.length === 0) return undefined
    for (;;) {
      if (peek()?.kind === 'op' && peek()!.text === '!') {
        at++
        const key = word('a label key after "!"')
        const problem = keyProblem(key)
        if (problem) return problem
      } else {
        const key = word('a label key')
        const problem = keyProblem(key)
        if (problem) return problem
        const next = peek()
        if (next?.kind === 'op' && ['=', '==', '!='].includes(next.text)) {
          at++
          const value = peek()?.kind === 'word' ? word('a value') : ''
          const bad = valueProblem(value)
          if (bad) return bad
        } else if (next?.kind === 'op' && (next.text === '>' || next.text === '<')) {
          at++
          const value = word(`a number after "${next.text}"`)
          // A label value as well (so no sign), and an integer.
          if (!/^\d+$/.test(value))
            return `"${value}" after "${next.text}" is not a whole number of 0 or more`
        } else if (next?.kind === 'word' && (next.text === 'in' || next.text === 'notin')) {
          at++
          if (tokens[at]?.text !== '(') return `expected "(" after "${next.text}"`
          at++
          for (;;) {
            const value = peek()?.kind === 'word' ? word('a value') : ''
            const bad = valueProblem(value)
            if (bad) return bad
            const separator = tokens[at++]
            if (separator?.text === ')') break
            if (separator?.text !== ',') return `expected "," or ")" in the set of values of "${key}"`
          }
        } else if (next !== undefined && next.text !== ',') {
          return `unexpected "${next.text}" after "${key}"`
        }
      }
      const separator = tokens[at++]
      if (separator === undefined) return undefined
      if (separator.text !== ',') return `expected "," between requirements, found "${separator.text}"`
      if (peek() === undefined) return 'a trailing ","'
    }
  } catch (error) {
    if (error instanceof SelectorProblem) return error.message
    throw error
  }
}

/** Throws a usage error when -l's value is not a label selector. */
export function checkLabelSelector(selector: string | undefined, flag = '-l'): void {
  if (selector === undefined) return
  const problem = labelSelectorProblem(selector)
  if (problem === undefined) return
  throw new UsageError(
    `${flag} ${JSON.stringify(selector)} is not a label selector: ${problem}`,
    'write requirements separated by commas: key=value, key!=value, key in (a,b), key notin (a,b), key, !key',
  )
}
