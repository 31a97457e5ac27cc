// The names of the entries `cpcred kubeconfig` and `sync` write: one per profile, from the
// --context-name template, and the order kubectl sorts them in.
import {UsageError} from '../errors.js'

const PLACEHOLDERS = ['namespace', 'name', 'provider'] as const
type Placeholder = (typeof PLACEHOLDERS)[number]

/**
 * One name per profile, used for its context, cluster and user alike, so a name that is free as a
 * context is free everywhere when merging. The default `<namespace>/<name>` is what users already
 * type for a profile, is unique on a hub, and needs no prefix: kubeconfig names are free-form.
 */
export function entryNames(
  entries: {profile: string; provider: string}[],
  template = '{namespace}/{name}',
): string[] {
  const render = compileNameTemplate(template)
  const owners = new Map<string, string>()
  return entries.map((resolution) => {
    const slash = resolution.profile.indexOf('/')
    const name = render({
      namespace: resolution.profile.slice(0, slash),
      name: resolution.profile.slice(slash + 1),
      provider: resolution.provider,
    })
    if (name === '') {
      throw new UsageError(
        `--context-name "${template}" gives ClusterProfile ${resolution.profile} an empty name`,
        'Use a template with {namespace} and {name}, e.g. "{namespace}-{name}".',
      )
    }
    const owner = owners.get(name)
    if (owner !== undefined) {
      throw new UsageError(
        `--context-name "${template}" gives ClusterProfiles ${owner} and ${resolution.profile} the same name "${name}"`,
        'Use a template that tells them apart, e.g. with both {namespace} and {name}.',
      )
    }
    owners.set(name, resolution.profile)
    return name
  })
}

function compileNameTemplate(template: string): (values: Record<Placeholder, string>) => string {
  const parts: Array<string | {placeholder: Placeholder}> = []
  let last = 0
  for (const match of template.matchAll(/\{([^{}]*)\}|[{}]/g)) {
    const found = match[1]
    if (found === undefined) {
      throw new UsageError(
        `--context-name "${template}" has an unmatched "${match[0]}" at position ${match.index + 1}`,
        `Placeholders are ${PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}.`,
      )
    }
    if (!(PLACEHOLDERS as readonly string[]).includes(found)) {
      throw new UsageError(
        `--context-name "${template}" has an unknown placeholder {${found}}`,
        `Placeholders are ${PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}.`,
      )
    }
    parts.push(template.slice(last, match.index), {placeholder: found as Placeholder})
    last = match.index + match[0].length
  }
  parts.push(template.slice(last))
  return (values) =>
    parts.map((part) => (typeof part === 'string' ? part : values[part.placeholder])).join('')
}

/** Go's string order (bytes of UTF-8), which is how client-go sorts names. */
export function byName(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b))
}
