// Where a plugin command runs from: a relative path in a provider file or an --access-provider flag
// is made absolute against a known directory, so every kubeconfig cpcred writes runs the same
// plugin wherever it lies (docs/providers.md, "Relative commands").
import path from 'node:path'
import {quote as quoteShellWords} from 'shell-quote'
import {parseAccessProviderFlag, type Provider} from './provider-file.js'

/**
 * A plugin command as it runs from anywhere: a relative path (`./bin/plugin`, `bin/plugin`) is
 * resolved against `baseDir` (the provider file's directory, or the working directory for an
 * --access-provider flag); an absolute path and a bare name (`kubelogin`, a PATH lookup, as in
 * kubeconfigs) stay as they are. client-go resolves a relative exec command against the directory
 * of the kubeconfig that holds it, so left relative it would name another file, or none.
 */
export function resolvePluginCommand(command: string, baseDir: string): string {
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
export function withResolvedCommands(providers: Provider[], baseDir: string): Provider[] {
  return providers.map((provider) => {
    const command = resolvePluginCommand(provider.execConfig.command, baseDir)
    return command === provider.execConfig.command
      ? provider
      : {...provider, execConfig: {...provider.execConfig, command}}
  })
}
