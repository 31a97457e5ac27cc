// Where cpcred keeps its caches, in a module of its own: the answer fast path (credential-answers.ts)
// needs the place without loading the credential store. Every cache has its directory here.
import os from 'node:os'
import path from 'node:path'

/**
 * credentials: the credential cache (answers in its `answers` directory); hubs: hub summaries;
 * profiles: profile snapshots and served versions; completion: profile lists for TAB; discovery:
 * what each target server serves (`cpcred get`), as kubectl keeps it in ~/.kube/cache/discovery;
 * compile: V8's compiled code of cpcred's bundles, which Node keeps (adapters/compile-cache.ts).
 */
export type CacheName = 'credentials' | 'hubs' | 'profiles' | 'completion' | 'discovery' | 'compile'

/** `${XDG_CACHE_HOME:-~/.cache}/cpcred/NAME`; a relative XDG_CACHE_HOME is ignored, as the spec says. */
export function cacheDir(name: CacheName, env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.cache')
  return path.join(base, 'cpcred', name)
}

/** `${XDG_CACHE_HOME:-~/.cache}/cpcred/credentials`. */
export function defaultCredentialCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return cacheDir('credentials', env)
}
