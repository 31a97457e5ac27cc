// The YAML half of the exporter (export.ts), apart so that JSON output never loads the library.
import {stringify} from 'yaml'

/** `value` as kubectl's -o yaml prints it: 2 spaces, sequences level with their key, no folding. */
export function exportYaml(value: unknown): string {
  return stringify(value, {indent: 2, indentSeq: false, lineWidth: 0})
}
