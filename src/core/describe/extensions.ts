// What describe says about a profile entry's extensions: each value (additional-envs redacted),
// what the consumer's provider of the same name does with a reserved one, and why resolution would
// refuse it. The rules are resolution's own (access/profile-sourced.ts); only the words are here.
import {
  ADDITIONAL_ARGS_EXTENSION,
  ADDITIONAL_ENVS_EXTENSION,
  EXEC_EXTENSION,
} from '../profiles/cluster-profile.js'
import type {Provider} from '../access/provider-file.js'
import {
  additionalArgsProblem,
  additionalEnvsProblem,
  isIgnorePolicy,
  isReservedExtension,
  kindOf,
} from '../access/profile-sourced.js'
import {redactEnvExtension} from './redact.js'
import {NONE} from './values.js'

export interface ExtensionDescription {
  name: string
  /** The value; additional-envs values are redacted unless showEnv. */
  value: unknown
  /** What happens to it for this entry's provider; null for extensions cpcred does not read. */
  effect: string | null
  /** Why resolution would refuse it, or null. */
  problem: string | null
}

export function describeExtensions(
  entryName: string,
  extensions: unknown,
  context: {provider: Provider | undefined; showEnv: boolean},
): ExtensionDescription[] {
  if (extensions === undefined || extensions === null) return []
  if (!Array.isArray(extensions)) {
    return [
      {
        name: NONE,
        value: null,
        effect: null,
        problem: `extensions must be a list, not ${kindOf(extensions)}`,
      },
    ]
  }
  const counts = new Map<unknown, number>()
  for (const extension of extensions) counts.set(extension?.name, (counts.get(extension?.name) ?? 0) + 1)
  return extensions.map((extension): ExtensionDescription => {
    const name = typeof extension?.name === 'string' && extension.name !== '' ? extension.name : NONE
    const value: unknown = extension?.extension
    const shown = name === ADDITIONAL_ENVS_EXTENSION && !context.showEnv ? redactEnvExtension(value) : value
    const reserved = isReservedExtension(name)
    const duplicate =
      reserved && (counts.get(name) ?? 0) > 1
        ? 'appears more than once, so resolution refuses this entry'
        : null
    const {effect, problem} = extensionEffect(name, value, entryName, context.provider)
    return {name, value: shown, effect, problem: duplicate ?? problem}
  })
}

/**
 * What the consumer's provider of the same name does with a reserved extension. The shape checks are
 * resolveAccess's own, so an entry that is not chosen (or a policy that ignores the extension) still
 * shows what resolution would refuse.
 */
function extensionEffect(
  name: string,
  value: unknown,
  entryName: string,
  provider: Provider | undefined,
): {effect: string | null; problem: string | null} {
  const missing = `the provider file has no "${entryName}"`
  switch (name) {
    case EXEC_EXTENSION: {
      if (!provider) {
        return {
          effect: `passed to the plugin as ExecCredential.spec.cluster.config when its provider sets provideClusterInfo; ${missing}`,
          problem: null,
        }
      }
      return {
        effect: provider.execConfig.provideClusterInfo
          ? 'passed to the plugin as ExecCredential.spec.cluster.config'
          : `not passed to the plugin: provider "${provider.name}" has provideClusterInfo false`,
        problem: null,
      }
    }
    case ADDITIONAL_ARGS_EXTENSION: {
      const problem = additionalArgsProblem(value)
      const policy = provider?.profileSourcedCLIArgsPolicy
      let effect: string
      if (!provider) {
        effect = `appended to the plugin's arguments only under profileSourcedCLIArgsPolicy Append; ${missing}`
      } else if (policy === 'Append') {
        effect = `appended to the plugin's arguments (provider "${provider.name}" has profileSourcedCLIArgsPolicy Append)`
      } else if (isIgnorePolicy(policy)) {
        effect = `ignored: provider "${provider.name}" has ${policyInWords('profileSourcedCLIArgsPolicy', policy)}`
      } else {
        effect = `provider "${provider.name}" has an unknown profileSourcedCLIArgsPolicy ${JSON.stringify(policy)}, so resolution fails`
      }
      return {effect, problem: problem && `malformed: ${problem}`}
    }
    case ADDITIONAL_ENVS_EXTENSION: {
      const problem = additionalEnvsProblem(value)
      const policy = provider?.profileSourcedEnvVarsPolicy
      let effect: string
      if (!provider) {
        effect =
          "added to the plugin's environment only under profileSourcedEnvVarsPolicy AppendIfNotExists or " +
          `Replace; ${missing}`
      } else if (policy === 'AppendIfNotExists') {
        effect =
          `added to the plugin's environment where provider "${provider.name}" does not set the name itself ` +
          '(profileSourcedEnvVarsPolicy AppendIfNotExists)'
      } else if (policy === 'Replace') {
        effect =
          `added to the plugin's environment, replacing provider "${provider.name}"'s own values ` +
          '(profileSourcedEnvVarsPolicy Replace)'
      } else if (isIgnorePolicy(policy)) {
        effect = `ignored: provider "${provider.name}" has ${policyInWords('profileSourcedEnvVarsPolicy', policy)}`
      } else {
        effect = `provider "${provider.name}" has an unknown profileSourcedEnvVarsPolicy ${JSON.stringify(policy)}, so resolution fails`
      }
      return {effect, problem: problem && `malformed: ${problem}`}
    }
    default:
      return {effect: null, problem: null}
  }
}

function policyInWords(field: string, policy: string | undefined): string {
  if (policy === undefined) return `no ${field} (Ignore)`
  if (policy === '') return `${field} "" (Ignore)`
  return `${field} ${policy}`
}
