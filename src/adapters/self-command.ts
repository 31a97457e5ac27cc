// How kubectl starts this very cpcred from a kubeconfig (--mode cpcred) and how the kuberc advice
// names it. Never the real path of bin/run.js: that lies under one Node installation's
// lib/node_modules, which nvm or a package manager replaces on an upgrade.
import {realpathSync} from 'node:fs'
import path from 'node:path'
import {lookPath} from './look-path.js'

/**
 * The standalone archive starts cpcred through a shell launcher beside its own Node
 * (scripts/release.ts), which exports its own path in this variable: a kubeconfig must name the
 * launcher, since bin/run.js starts with `#!/usr/bin/env node` and the machine may have no Node.
 */
export const LAUNCHER_VARIABLE = 'CPCRED_LAUNCHER'

/**
 * The launcher, when cpcred was started by one (krew's link to it stays the same across upgrades);
 * `cpcred`, when the first cpcred on PATH is this installation (kubectl finds it the same way, so
 * it survives Node moving as long as PATH does); else the path cpcred was started by, its links
 * left as they are (the package manager's bin link, not what it points at).
 */
export function cpcredCommand(
  started: string = process.argv[1]!,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string[] {
  const launcher = env[LAUNCHER_VARIABLE]
  if (launcher && path.isAbsolute(launcher)) return [launcher]
  const self = realOrUndefined(started)
  const onPath = lookPath('cpcred', env.PATH, cwd)
  if (self !== undefined && onPath !== undefined && realOrUndefined(onPath) === self) return ['cpcred']
  return [path.resolve(cwd, started)]
}

function realOrUndefined(file: string): string | undefined {
  try {
    return realpathSync(file)
  } catch {
    return undefined
  }
}

/**
 * How this process starts this very cpcred again as its own child (a credential renewal, a
 * completion refresh, a completion target's kubeconfig): this Node and the script it runs, its
 * links resolved. Node cannot run what a kubeconfig names (cpcredCommand): that may be a bare
 * `cpcred` for PATH to find, or a shell launcher.
 */
export function selfInvocation(): [node: string, script: string] {
  return [process.execPath, realpathSync(process.argv[1]!)]
}

/** The name the user typed cpcred by: `kubectl-cpcred` when kubectl runs it as its plugin. */
export function invokedName(env: NodeJS.ProcessEnv = process.env): string {
  return path.basename(env[LAUNCHER_VARIABLE] || process.argv[1] || '')
}
