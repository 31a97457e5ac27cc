// The one way `-o json|yaml` output is made, so indentation, key order and escaping cannot drift
// between commands: kubectl's shapes, JSON indented by 4 spaces and YAML by 2 with sequences not
// indented under their key, each ending in a newline. The text is exact (never made printable):
// a program reads it. YAML is loaded only when asked for (export-yaml.ts), so a command that prints
// JSON never loads the YAML library.

export type ExportFormat = 'json' | 'yaml'

/** `value` as kubectl's -o json prints it. */
export function exportJson(value: unknown): string {
  return `${JSON.stringify(value, null, 4)}\n`
}

/** One object of a JSON stream (--watch), on one line, so a reader can split the stream by lines. */
export function exportJsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`
}

/** `value` as -o json or -o yaml prints it. */
export async function exportData(value: unknown, format: ExportFormat): Promise<string> {
  return format === 'json' ? exportJson(value) : (await import('./export-yaml.js')).exportYaml(value)
}

/** One object of a stream (--watch): JSON on one line, YAML as a document of its own. */
export async function exportStreamed(value: unknown, format: ExportFormat): Promise<string> {
  return format === 'json'
    ? exportJsonLine(value)
    : `---\n${(await import('./export-yaml.js')).exportYaml(value)}`
}
