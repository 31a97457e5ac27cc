// The one place where adapters are built and handed to use cases. Every front end (the fast-path
// commands in src/cli and the oclif classes in src/commands) calls `wire()` and gets the ports it
// needs from it; no front end imports an adapter itself (the layer rule in .dependency-cruiser.cjs).
// Members are getters that import their adapter on first use, so a command loads only what it
// touches: `cpcred credential` runs on every kubectl call and must not pay for the rest.
import {processPrinter, type Printer} from '../adapters/printer.js'
import type {CompletionCache} from '../adapters/completion-cache.js'

export interface Wiring {
  /** This process's output boundary (stdout/stderr through the output sink). */
  readonly printer: Printer

  // ─── Private caches (adapters/cache-store.ts), each in its directory (adapters/cache-dir.ts) ───
  /** The profile names offered at TAB, per hub identity. */
  completionCache(): Promise<CompletionCache>
}

export function wire(env: NodeJS.ProcessEnv = process.env): Wiring {
  let printer: Printer | undefined
  return {
    get printer() {
      return (printer ??= processPrinter(env))
    },

    // Private caches.
    async completionCache() {
      const [{CompletionCache}, {cacheDir}] = await Promise.all([
        import('../adapters/completion-cache.js'),
        import('../adapters/cache-dir.js'),
      ])
      return new CompletionCache(cacheDir('completion', env))
    },
  }
}
