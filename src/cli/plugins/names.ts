// The built-in plugins, named in one place: bin/run.js routes them past oclif before any plugin code
// is loaded, so this module imports nothing.
export const BUILTIN_PLUGINS = ['secretreader', 'token-request'] as const
export type BuiltinPlugin = (typeof BUILTIN_PLUGINS)[number]

export function isBuiltinPlugin(name: string | undefined): name is BuiltinPlugin {
  return (BUILTIN_PLUGINS as readonly string[]).includes(name ?? '')
}
