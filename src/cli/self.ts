// The command that runs this cpcred again, from a kubeconfig kubectl reads later. The standalone
// archive starts cpcred through a shell launcher beside its own Node (scripts/release.ts), which
// exports its path as CPCRED_LAUNCHER: a kubeconfig must name the launcher, since the script Node
// runs has `#!/usr/bin/env node` and the machine may have no Node. The npm install names the script
// by its real path (stable across upgrades of the package).
import {realpathSync} from 'node:fs'
import path from 'node:path'

export const LAUNCHER_VARIABLE = 'CPCRED_LAUNCHER'

export function selfCommand(env: NodeJS.ProcessEnv = process.env): string {
  const launcher = env[LAUNCHER_VARIABLE]
  return launcher && path.isAbsolute(launcher) ? launcher : realpathSync(process.argv[1]!)
}

/** The name the user typed cpcred by: `kubectl-cpcred` when kubectl runs it as its plugin. */
export function invokedName(env: NodeJS.ProcessEnv = process.env): string {
  return path.basename(env[LAUNCHER_VARIABLE] || process.argv[1] || '')
}
