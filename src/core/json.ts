// Shapes of values parsed from JSON or YAML, before they are checked field by field.

/** A plain object (not an array, not null): the start of every check of a parsed document. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
