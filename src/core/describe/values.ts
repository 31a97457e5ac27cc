// How describe reads the loose values a hub may serve: a wrong shape shows as empty or as text,
// never as a crash.

export const NONE = '<none>'
/** Extension values can be whole documents; -o json has them in full. */
const MAX_EXTENSION_VALUE_LENGTH = 120

export function compactJson(value: unknown): string {
  if (value === undefined) return NONE
  const json = JSON.stringify(value) ?? String(value)
  return json.length > MAX_EXTENSION_VALUE_LENGTH
    ? `${json.slice(0, MAX_EXTENSION_VALUE_LENGTH - 3)}... (${json.length} characters; -o json shows all)`
    : json
}

/** Status lists come from the hub; a wrong shape shows as empty rather than crashing describe. */
export function arrayOf<T>(value: unknown): Array<T | undefined> {
  return Array.isArray(value) ? (value as T[]) : []
}

export function text(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}

export function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

export function nonEmptyText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}
