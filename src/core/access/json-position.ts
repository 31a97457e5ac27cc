// Where a JSON text that JSON.parse refused goes wrong: a line, a column and the problem in words,
// never the text itself (a provider file holds env values). jsonc-parser, VS Code's JSON parser,
// walks the grammar (RFC 8259: no comments, no trailing commas, JSON's four whitespace characters);
// this module keeps track of what the parser expected next and, inside the token it stopped at,
// finds the character at fault, so the column points at it rather than at the token's start.
//
// Loaded only for a file JSON.parse refused: `cpcred credential` reads the provider file on every
// kubectl call and must not pay for the parser.
import {createRequire} from 'node:module'
import type * as JsoncParser from 'jsonc-parser'

export interface JsonSyntaxError {
  line: number
  column: number
  /** `unexpected "x", expected ":"` and the like. */
  problem: string
}

/** What the parser wants next where it stopped. */
type Expecting = 'value' | 'key' | 'colon' | 'separator' | 'end'

const JSON_WHITESPACE = ' \t\n\r'

export function locateJsonSyntaxError(text: string): JsonSyntaxError {
  const jsonc = createRequire(import.meta.url)('jsonc-parser') as typeof JsoncParser
  const open: Array<'object' | 'array'> = []
  let expecting: Expecting = 'value'
  let stop: number | undefined
  // jsonc-parser takes Unicode spaces as whitespace; JSON does not, so the first one is an error too.
  const strayWhitespace = firstStrayWhitespace(jsonc, text)
  /** Freezes the state at the first error; every event at or after it is ignored. */
  const reached = (offset: number): boolean => {
    if (stop === undefined && strayWhitespace !== undefined && offset > strayWhitespace)
      stop = strayWhitespace
    return stop !== undefined
  }
  const valueDone = () => {
    expecting = open.length === 0 ? 'end' : 'separator'
  }
  jsonc.visit(
    text,
    {
      onObjectBegin: (offset) => {
        if (reached(offset)) return
        open.push('object')
        expecting = 'key'
      },
      onObjectProperty: (_name, offset) => {
        if (!reached(offset)) expecting = 'colon'
      },
      onArrayBegin: (offset) => {
        if (reached(offset)) return
        open.push('array')
        expecting = 'value'
      },
      onObjectEnd: (offset) => {
        // Also called for a object the text never closes, before the error is reported.
        if (reached(offset) || text[offset] !== '}') return
        open.pop()
        valueDone()
      },
      onArrayEnd: (offset) => {
        // Also called for a array the text never closes, before the error is reported.
        if (reached(offset) || text[offset] !== ']') return
        open.pop()
        valueDone()
      },
      onLiteralValue: (_value, offset) => {
        if (!reached(offset)) valueDone()
      },
      onSeparator: (separator, offset) => {
        if (reached(offset)) return
        expecting = separator === ':' || open.at(-1) === 'array' ? 'value' : 'key'
      },
      onError: (_error, offset) => {
        if (!reached(offset)) stop = offset
      },
    },
    {disallowComments: true, allowTrailingComma: false, allowEmptyContent: false},
  )
  stop ??= strayWhitespace ?? 0

  const expected = (state: Expecting) =>
    ({
      value: 'expected a value',
      key: 'expected a "quoted" field name',
      colon: 'expected ":"',
      separator: open.at(-1) === 'object' ? 'expected "," or "}"' : 'expected "," or "]"',
      end: 'after the end of the document',
    })[state]
  let at = stop
  let problem = expected(expecting)
  if (text[stop] === '"' && (expecting === 'value' || expecting === 'key')) {
    ;({at, problem} = insideString(text, stop))
  } else if (expecting === 'value' && /[-0-9tfn]/.test(text[stop] ?? '')) {
    const word = insideWord(text, stop)
    at = word.at
    problem = word.problem ?? expected(open.length === 0 ? 'end' : 'separator')
  }
  const found = at < text.length ? `unexpected ${JSON.stringify(text[at])}` : 'unexpected end of file'
  return {...lineAndColumn(text, at), problem: `${found}, ${problem}`}
}

/** The first whitespace outside strings that is not JSON's, if any. */
function firstStrayWhitespace(jsonc: typeof JsoncParser, text: string): number | undefined {
  const scanner = jsonc.createScanner(text, false)
  for (let kind = scanner.scan(); kind !== jsonc.SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind !== jsonc.SyntaxKind.Trivia && kind !== jsonc.SyntaxKind.LineBreakTrivia) continue
    const start = scanner.getTokenOffset()
    for (let at = start; at < start + scanner.getTokenLength(); at++) {
      if (!JSON_WHITESPACE.includes(text[at] as string)) return at
    }
  }
  return undefined
}

/** The character that breaks the string starting at `start` (a quote). */
function insideString(text: string, start: number): {at: number; problem: string} {
  for (let at = start + 1; at < text.length; at++) {
    const char = text[at] as string
    if (char === '"') break
    if (char < ' ') return {at, problem: 'control characters must be escaped in strings'}
    if (char !== '\\') continue
    at++
    const escape = text[at] ?? ''
    if (escape === 'u') {
      for (let digit = 0; digit < 4; digit++) {
        at++
        if (!/[0-9a-fA-F]/.test(text[at] ?? '')) return {at, problem: 'expected a hex digit'}
      }
    } else if (escape === '' || !'"\\/bfnrt'.includes(escape)) {
      return {at, problem: 'invalid escape'}
    }
  }
  return {at: text.length, problem: 'string not closed'}
}

/**
 * Where a literal or a number starting at `start` goes wrong: inside it, or just after the part
 * that is valid (then the problem is what may follow a value, and undefined here).
 */
function insideWord(text: string, start: number): {at: number; problem?: string} {
  const literal = ['true', 'false', 'null'].find((word) => word[0] === text[start])
  if (literal !== undefined) {
    for (let index = 0; index < literal.length; index++) {
      if (text[start + index] !== literal[index]) return {at: start + index, problem: `expected ${literal}`}
    }
    return {at: start + literal.length}
  }
  const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(start))
  return number ? {at: start + number[0].length} : {at: start, problem: 'expected a number'}
}

function lineAndColumn(text: string, offset: number): {line: number; column: number} {
  const before = text.slice(0, offset).split('\n')
  return {line: before.length, column: (before.at(-1)?.length ?? 0) + 1}
}
