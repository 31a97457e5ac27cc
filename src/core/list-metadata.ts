// A Kubernetes list's own metadata (its continue token and resourceVersion), read without parsing
// the list: the hub adapter asks for the next page of profiles while it parses this one.
import {isRecord} from './json.js'

export interface ListMetadata {
  continue?: string
  resourceVersion?: string
}

/**
 * A list's own metadata, read from the end of its JSON without parsing the items: the API server
 * writes a custom resource list with its keys in order, so `metadata` comes last. Parsing a page of
 * 500 profiles takes tens of milliseconds, and knowing the continue token first lets the next page
 * be asked for while this one is parsed. undefined when the text is not laid out so (then the whole
 * list is parsed first).
 */
export function trailingListMetadata(text: string): ListMetadata | undefined {
  const at = text.lastIndexOf('"metadata":')
  if (at === -1) return undefined
  const rest = text.slice(at + '"metadata":'.length).trimEnd()
  if (!rest.endsWith('}')) return undefined
  try {
    // Only the list's own metadata is followed by nothing but the list's closing brace.
    const metadata: unknown = JSON.parse(rest.slice(0, -1))
    return isRecord(metadata) ? (metadata as ListMetadata) : undefined
  } catch {
    return undefined
  }
}
