// What may reach a terminal. Every string from the hub, a profile, a provider file or a plugin is
// untrusted: an ESC or C1 byte in a displayName could retitle the window, recolour or rewrite what
// the operator reads, a newline could forge a line, a bidi override could reorder one. Human-readable
// output passes through here, once, at the output boundary (src/adapters/printer.ts); -o json|yaml
// never does and stays exact.

/** Longest text shown for one value; the rest is cut, saying how much. */
export const MAX_PRINTABLE_LENGTH = 1024

/**
 * One value as a single printable line: C0 and C1 controls (newlines included), DEL and the
 * bidirectional controls shown as visible escapes (\x1b, \n, \u202e); other text left alone.
 */
export function printable(value: string, maxLength = MAX_PRINTABLE_LENGTH, ellipsis = '…'): string {
  // Most text needs nothing: no character escapeChar changes, and short enough in UTF-16 units
  // (never fewer than its characters) to be whole. A table of 5,000 rows is 35,000 such cells.
  if (value.length <= maxLength && !NEEDS_ESCAPE.test(value)) return value
  let out = ''
  let length = 0
  for (const char of value) {
    if (length === maxLength) return `${out}${ellipsis}(${[...value].length - maxLength} more characters)`
    out += escapeChar(char)
    length++
  }
  return out
}

/** Text of several lines: each line made printable on its own, the line breaks kept. */
export function printableLines(text: string, ellipsis?: string): string {
  // Most text needs nothing, and is looked at whole: a report of a fleet is tens of thousands of
  // lines, each of which would be tested (and the text split and joined again) for nothing.
  if (!NEEDS_ESCAPE_IN_LINES.test(text) && !hasLongerLine(text)) return text
  return text
    .split('\n')
    .map((line) => printable(line, MAX_PRINTABLE_LENGTH, ellipsis))
    .join('\n')
}

/** NEEDS_ESCAPE but a newline, which separates printableLines' lines (the unit tests compare the two). */
export const NEEDS_ESCAPE_IN_LINES =
  // eslint-disable-next-line no-control-regex
  /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

/** Whether a line is longer than printable's fast path takes whole (in UTF-16 units, as it counts). */
function hasLongerLine(text: string): boolean {
  for (let start = 0; ;) {
    const end = text.indexOf('\n', start)
    if ((end === -1 ? text.length : end) - start > MAX_PRINTABLE_LENGTH) return true
    if (end === -1) return false
    start = end + 1
  }
}

/** Every character escapeChar changes (keep the two in step: the unit tests compare them). */
// eslint-disable-next-line no-control-regex
export const NEEDS_ESCAPE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

export function escapeChar(char: string): string {
  const code = char.codePointAt(0)!
  if (char === '\n') return '\\n'
  if (char === '\r') return '\\r'
  if (char === '\t') return '\\t'
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `\\x${code.toString(16).padStart(2, '0')}`
  if (
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  ) {
    return `\\u${code.toString(16).padStart(4, '0')}`
  }
  return char
}

/**
 * A warning as cpcred says it on stderr, as kubectl does (`warning: …`), of text already made
 * printable: the printer and the answer path (which loads no printer) say it alike.
 */
export function warningLine(shown: string): string {
  return `warning: ${shown}\n`
}
