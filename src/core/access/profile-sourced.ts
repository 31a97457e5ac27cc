// What a profile may add to how the consumer's plugin runs: the three reserved extensions, the shapes
// their values must have, and the consumer's policies that let them through (docs/design.md §2, following
// sigs.k8s.io/cluster-inventory-api/pkg/access). resolveAccess applies these rules and describe
// explains them; both read them here, so what describe says is what resolution does.
import {
  ADDITIONAL_ARGS_EXTENSION,
  ADDITIONAL_ENVS_EXTENSION,
  EXEC_EXTENSION,
  type ProfileCluster,
} from '../profiles/cluster-profile.js'
import {CpcredError, ExitCode} from '../errors.js'

export const RESERVED_EXTENSIONS = [
  EXEC_EXTENSION,
  ADDITIONAL_ARGS_EXTENSION,
  ADDITIONAL_ENVS_EXTENSION,
] as const

export function isReservedExtension(name: unknown): boolean {
  return (RESERVED_EXTENSIONS as readonly unknown[]).includes(name)
}

export interface ReservedExtensions {
  exec?: {value: unknown}
  args?: {value: unknown}
  envs?: {value: unknown}
}

/**
 * The three reserved extensions. A name that appears twice is an error rather than "last wins"
 * (client-go) or "applied twice" (the upstream library, for args): either would be a guess.
 */
export function reservedExtensions(key: string, cluster: ProfileCluster): ReservedExtensions {
  const found: ReservedExtensions = {}
  const slots = {
    [EXEC_EXTENSION]: 'exec',
    [ADDITIONAL_ARGS_EXTENSION]: 'args',
    [ADDITIONAL_ENVS_EXTENSION]: 'envs',
  } as const
  for (const extension of cluster.extensions ?? []) {
    const slot = slots[extension.name as keyof typeof slots]
    if (!slot) continue
    if (found[slot]) {
      throw malformedExtension(key, extension.name, "it appears more than once in the cluster's extensions")
    }
    found[slot] = {value: extension.extension}
  }
  return found
}

/** The policy leaves the profile's extension out: absent, "" and Ignore all mean Ignore. */
export function isIgnorePolicy(policy: string | undefined): boolean {
  return policy === undefined || policy === '' || policy === 'Ignore'
}

/**
 * Why an additional-args value is malformed, or null. The upstream library yaml-decodes the
 * extension's raw bytes into []string. From the API those bytes are the JSON of the value, so a JSON
 * list works and a string holding YAML does not; scalar items become their text, as yaml.v3 does.
 * Departure: a null item is refused (yaml.v3 would pass an empty argument), and a null extension
 * means "nothing to add", as it does upstream for args.
 */
export function additionalArgsProblem(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (!Array.isArray(value)) return `it must be a list of strings, not ${kindOf(value)}`
  const index = value.findIndex((item) => scalarText(item) === undefined)
  return index < 0 ? null : `item ${index} is ${kindOf(value[index])}, not a string`
}

/** As for args: the JSON of a string map, scalar values taken as their text; nulls and bad names refused. */
export function additionalEnvsProblem(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value !== 'object' || Array.isArray(value)) {
    return `it must be a map of variable names to strings, not ${kindOf(value)}`
  }
  for (const [name, item] of Object.entries(value)) {
    if (name === '' || name.includes('=') || name.includes('\0')) {
      return `${JSON.stringify(name)} is not a variable name`
    }
    if (scalarText(item) === undefined) return `${name} is ${kindOf(item)}, not a string`
  }
  return null
}

/** The arguments an additional-args value adds; a malformed one is the profile's error. */
export function decodeAdditionalArgs(key: string, value: unknown): string[] {
  const problem = additionalArgsProblem(value)
  if (problem !== null) throw malformedExtension(key, ADDITIONAL_ARGS_EXTENSION, problem)
  return Array.isArray(value) ? value.map((item) => scalarText(item) as string) : []
}

/** The variables an additional-envs value sets; a malformed one is the profile's error. */
export function decodeAdditionalEnvs(key: string, value: unknown): Map<string, string> {
  const problem = additionalEnvsProblem(value)
  if (problem !== null) throw malformedExtension(key, ADDITIONAL_ENVS_EXTENSION, problem)
  const envs = new Map<string, string>()
  if (value === null || value === undefined) return envs
  for (const [name, item] of Object.entries(value)) envs.set(name, scalarText(item) as string)
  return envs
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}

export function malformedExtension(key: string, extension: string, problem: string): CpcredError {
  return new CpcredError(`ClusterProfile ${key}: extension ${extension} is malformed: ${problem}`, {
    exitCode: ExitCode.Failure,
    hint: 'Ask the cluster manager that publishes this profile to fix the extension.',
  })
}
