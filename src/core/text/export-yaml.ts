// The YAML half of the exporter (export.ts), apart so that JSON output never loads the library.
import * as yaml from 'yaml'
import {emitYaml} from './yaml-scalars.js'

/**
 * `value` as kubectl's -o yaml prints it: 2 spaces, sequences level with their key, no folding, and
 * every string that a YAML 1.1 reader (PyYAML, Go's yaml v2) or js-yaml would read as a bool, number
 * or date quoted (yaml-scalars.ts, the rule kubeconfigs are written by), so it reads back as -o json;
 * text of several lines as a literal block, as kubectl writes it.
 */
export function exportYaml(value: unknown): string {
  return emitYaml(yaml, value, {lines: 'block'})
}
