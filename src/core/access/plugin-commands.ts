// Where a plugin command runs from: a relative path in a provider file or an --access-provider flag
// is made absolute against a known directory, so every kubeconfig cpcred writes runs the same
// plugin wherever it lies (docs/providers.md, "Relative commands").
import path from 'node:path'
import {quote as quoteShellWords} from 'shell-quote'
import {parseAccessProviderFlag, type Provider} from './provider-file.js'

/**
 * The names a provider file gives cpcred itself by (docs/examples/providers.json runs the built-in
 * plugins as `cpcred plugin …`): the npm install puts `cpcred` on PATH, krew only `kubectl-cpcred`,
 * and the standalone archive may be run from its folder. Each means this very cpcred, however it
 * was installed, so the documented provider file works from every install route.
 */
export const SELF_COMMAND_NAMES: readonly string[] = ['cpcred', 'kubectl-cpcred']

/** The command this cpcred is run by, or a way to work it out when a provider first needs it. */
export type SelfCommand = string | (() => string)

/** Whether a provider's command names cpcred itself (a bare name of SELF_COMMAND_NAMES). */
export function namesSelf(command: string): boolean {
  return SELF_COMMAND_NAMES.includes(command)
}

/**
 * What to do about a plugin command that is not there: for a path to some cpcred (an install since
 * moved or removed), the name that always finds this one; else `otherwise`.
 */
export function missingCommandHint(command: string, otherwise: string): string {
  return namesSelf(path.basename(command)) && !namesSelf(command)
    ? `write "command": "cpcred" for cpcred's built-in plugins: cpcred runs itself for that name, whether it was installed with npm, krew or the archive (docs/providers.md)`
    : otherwise
}

/**
 * A plugin command as it runs from anywhere: a relative path (`./bin/plugin`, `bin/plugin`) is
 * resolved against `baseDir` (the provider file's directory, or the working directory for an
 * --access-provider flag); an absolute path and a bare name (`kubelogin`, a PATH lookup, as in
 * kubeconfigs) stay as they are. client-go resolves a relative exec command against the directory
 * of the kubeconfig that holds it, so left relative it would name another file, or none. A name of
 * cpcred itself becomes `self`, the command this cpcred is run by, when given.
 */
export function resolvePluginCommand(command: string, baseDir: string, self?: SelfCommand): string {
  if (self !== undefined && namesSelf(command)) return typeof self === 'string' ? self : self()
  return command.includes('/') && !path.isAbsolute(command) ? path.resolve(baseDir, command) : command
}

/**
 * An --access-provider value whose relative command is made absolute against `baseDir`, for a
 * kubeconfig that repeats the flag to `cpcred credential` (which kubectl runs from anywhere).
 */
export function resolveAccessProviderFlag(value: string, baseDir: string): string {
  const {name, execConfig} = parseAccessProviderFlag(value)
  const command = resolvePluginCommand(execConfig.command, baseDir)
  return command === execConfig.command
    ? value
    : `${name}=${quoteShellWords([command, ...(execConfig.args ?? [])])}`
}

/** The providers with their commands resolved (see resolvePluginCommand). */
export function withResolvedCommands(providers: Provider[], baseDir: string, self?: SelfCommand): Provider[] {
  return providers.map((provider) => {
    const command = resolvePluginCommand(provider.execConfig.command, baseDir, self)
    if (command === provider.execConfig.command && !(self !== undefined && namesSelf(command)))
      return provider
    const runsSelf =
      self !== undefined && namesSelf(provider.execConfig.command) ? {runsSelf: true as const} : {}
    return {...provider, ...runsSelf, execConfig: {...provider.execConfig, command}}
  })
}

/**
 * Whether a provider runs one of cpcred's own plugins (`cpcred plugin …`), which read the hub that
 * CPCRED_HUB_KUBECONFIG and CPCRED_HUB_CONTEXT pin, a list of files included.
 */
export function runsBuiltinPlugin(provider: Pick<Provider, 'runsSelf' | 'execConfig'>): boolean {
  return provider.runsSelf === true && provider.execConfig.args?.[0] === 'plugin'
}
