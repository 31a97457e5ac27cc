// Where cpcred keeps credentials, in a module of its own: the answer fast path (credential-answers.ts)
// needs the place without loading the credential store.
import os from 'node:os'
import path from 'node:path'

/** `${XDG_CACHE_HOME:-~/.cache}/cpcred/credentials`; a relative XDG_CACHE_HOME is ignored, as the spec says. */
export function defaultCredentialCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.cache')
  return path.join(base, 'cpcred', 'credentials')
}
