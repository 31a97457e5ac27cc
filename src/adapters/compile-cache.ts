// V8's compiled code of cpcred's bundles, kept by Node (module.enableCompileCache, Node 22.1 and
// later) in cpcred's private cache directory, so that a run does not compile the same 400 KB of
// JavaScript again: a tenth of a warm one-target `cpcred get`. Node checks each entry against the
// source it is for and its own version; a cache it cannot use is no error, the run compiles as
// before.
import module from 'node:module'
import {cacheDir} from './cache-dir.js'
import {ensurePrivateDir} from './directories.js'

export function keepCompiledCode(env: NodeJS.ProcessEnv = process.env): void {
  // The user's own choice (NODE_COMPILE_CACHE=dir, NODE_DISABLE_COMPILE_CACHE=1), which Node applies.
  if (env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return
  // Node 22.1 and later; the types this checkout builds with are Node 20's.
  const {enableCompileCache} = module as typeof module & {enableCompileCache?: (dir: string) => unknown}
  if (typeof enableCompileCache !== 'function') return
  const dir = cacheDir('compile', env)
  try {
    // Private, as every cpcred cache: code run from it must be the user's own.
    ensurePrivateDir(dir)
  } catch {
    // Someone else's directory, or none can be made: no compile cache, and nothing to say here;
    // the caches that hold credentials refuse it with a message of their own.
    return
  }
  enableCompileCache(dir)
}
