// The one rule for YAML that cpcred writes, kubeconfigs (core/kubeconfig/text.ts) and -o yaml
// (export-yaml.ts) alike: every string reads back as that string in every reader a user has. Go's
// yaml (kubectl, client-go), PyYAML and Ruby read YAML 1.1, and js-yaml's default schema reads
// timestamps, so a string that YAML 1.2 prints plain (`no`, `on`, `0x1F`, `012`, `1e3`, `1_000`,
// `190:20:30`, `2026-01-01`, `2026-01-01T00:00:00Z`, `<<`, `=`) reads back as a bool, a number, a
// date, a merge key or a value key. Every string that could read as anything but itself is quoted,
// as kubectl quotes it, and characters a reader refuses even inside quotes (DEL, C1 controls,
// U+FEFF, U+FFFE/FFFF, lone surrogates) are written as escapes. The yaml package itself is passed in,
// so that this module loads nothing: kubeconfig's fast path (plain-yaml.ts) needs only the rule.
import type * as Yaml from 'yaml'

export type YamlModule = typeof Yaml

const MERGE_TAG = 'tag:yaml.org,2002:merge'

/**
 * Characters Go's yaml and PyYAML refuse anywhere in a file, even in a quoted scalar, and those YAML
 * 1.1 reads as line breaks (NEL, LS, PS), which a quoted scalar would fold into a space.
 */
export const UNREADABLE_IN_YAML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** Strings that would not read back as themselves from a plain (unquoted) scalar. */
const NEEDS_QUOTES = [
  // Control characters and line breaks: always double-quoted with escapes, never a block scalar.
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]/,
  // YAML 1.1's merge and value keys (PyYAML refuses a plain `=`).
  /^(?:<<|=)$/,
  // YAML 1.1 booleans and nulls (Go's yaml, PyYAML, js-yaml), any case.
  /^(?:y|n|yes|no|on|off|true|false|null|~)$/i,
  // Anything Go's strconv, YAML 1.1 or js-yaml reads as a number (underscores, 012, 0o17, 0b1,
  // 0x1p3, +Inf, NaN).
  /^[-+]?(?:0x[\da-f_]+|0o[0-7_]+|0b[01_]+|[\d_]+)$/i,
  /^[-+]?(?=\.?\d)[\d_]*\.?[\d_]*(?:e[-+]?[\d_]+)?$/i,
  /^[-+]?0x[\da-f_]*\.?[\da-f_]*p[-+]?[\d_]+$/i,
  /^[-+]?\.?(?:inf|infinity|nan)$/i,
  // YAML 1.1's base-60 numbers: PyYAML reads 190:20:30 as the int 685230.
  /^[-+]?\d[\d_]*(?::[0-5]?\d)+(?:\.[\d_]*)?$/,
  // YAML 1.1's timestamps and dates, which PyYAML and js-yaml's default schema read as dates.
  /^\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?$/,
]

/** Whether a string must be quoted to read back as itself. */
export const needsQuotes = (value: string): boolean => NEEDS_QUOTES.some((pattern) => pattern.test(value))

/** The characters no reader takes as they stand, as escapes (inside double quotes, where they are). */
export function escapeUnreadable(text: string): string {
  return text.replace(UNREADABLE_IN_YAML, (char) => {
    const code = char.charCodeAt(0)
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

/** Characters a block scalar cannot hold as they stand: every control character but tab and line feed. */
// eslint-disable-next-line no-control-regex
const NOT_IN_A_BLOCK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]/

/** Text of several lines that a literal block may hold. */
const isLines = (text: string) => text.includes('\n') && !NOT_IN_A_BLOCK.test(text)

export interface YamlStyle {
  /**
   * Text of several lines as a literal block (`|`), as kubectl's -o yaml writes it, where the yaml
   * package finds one that reads back exactly; else double-quoted with `\n` escapes, as kubeconfigs
   * are written (Go's yaml reads kubeconfigs). Either reads back as the same string.
   */
  lines: 'block' | 'quoted'
}

/**
 * `value` as YAML that reads back as exactly `value`: 2 spaces, sequences level with their key, no
 * folding, every string that needs it double-quoted, no anchors.
 */
export function emitYaml(yaml: YamlModule, value: unknown, style: YamlStyle = {lines: 'quoted'}): string {
  const {Document, visit} = yaml
  const doc = new Document(value, {
    version: '1.1',
    // The string "<<" is a string here, never a merge key (a YAML 1.1 reader would read a plain one as one).
    merge: false,
    customTags: (tags) => tags.filter((tag) => typeof tag === 'string' || tag.tag !== MERGE_TAG),
    aliasDuplicateObjects: false,
  })
  const blockLines = style.lines === 'block'
  visit(doc, {
    Scalar(_key, node) {
      const text = node.value
      if (typeof text === 'string' && needsQuotes(text) && !(blockLines && isLines(text))) {
        node.type = 'QUOTE_DOUBLE'
      }
    },
  })
  // Only double-quoted scalars can hold these characters (NEEDS_QUOTES put every string with one of
  // them there, keys included), and inside double quotes YAML reads the escape as the character.
  return escapeUnreadable(doc.toString({indent: 2, indentSeq: false, lineWidth: 0}))
}
