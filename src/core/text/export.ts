// The one way `-o json|yaml` output is made, so indentation, key order and escaping cannot drift
// between commands: kubectl's shapes, JSON indented by 4 spaces and YAML by 2 with sequences not
// indented under their key, each ending in a newline. The text is exact (never made printable):
// a program reads it. YAML is loaded only when asked for (export-yaml.ts), so a command that prints
// JSON never loads the YAML library.

export type ExportFormat = 'json' | 'yaml'

/** The shape kubectl prints several objects in. */
export function kubectlList(items: unknown[]): {
  apiVersion: 'v1'
  items: unknown[]
  kind: 'List'
  metadata: {resourceVersion: ''}
} {
  return {apiVersion: 'v1', items, kind: 'List', metadata: {resourceVersion: ''}}
}

/** `value` as kubectl's -o json prints it. */
export function exportJson(value: unknown): string {
  return `${JSON.stringify(value, null, 4)}\n`
}

/** One object of a JSON stream (--watch), on one line, so a reader can split the stream by lines. */
export function exportJsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`
}

/** How one format writes a whole document, and one object of a stream (--watch). */
export interface Exporter {
  /** `value` as -o json or -o yaml prints it. */
  document(value: unknown): string
  /** One object of a stream: JSON on one line, YAML as a document of its own. */
  streamed(value: unknown): string
}

/** The exporter of a format, YAML's library loaded only for it. */
export async function exporterOf(format: ExportFormat): Promise<Exporter> {
  if (format === 'json') return {document: exportJson, streamed: exportJsonLine}
  const {exportYaml} = await import('./export-yaml.js')
  return {document: exportYaml, streamed: (value) => `---\n${exportYaml(value)}`}
}

/** `value` as -o json or -o yaml prints it. */
export async function exportData(value: unknown, format: ExportFormat): Promise<string> {
  return (await exporterOf(format)).document(value)
}
