// Go's exec.LookPath, as kubectl finds an exec plugin's command: in a module of its own, so that
// the credential path can name cpcred's own command without loading the kuberc reader.
import {accessSync, constants, statSync} from 'node:fs'
import path from 'node:path'

/**
 * Go's exec.LookPath: a name with a slash is itself when executable; a bare name is the first
 * executable in PATH, and only when that path is absolute (Go refuses one found through a relative
 * PATH entry, ErrDot).
 */
export function lookPath(command: string, pathVariable: string | undefined, cwd: string): string | undefined {
  if (command.includes('/')) return isExecutable(path.resolve(cwd, command)) ? command : undefined
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    const file = path.join(dir || '.', command)
    if (isExecutable(path.resolve(cwd, file))) return path.isAbsolute(file) ? file : undefined
  }
  return undefined
}

function isExecutable(file: string): boolean {
  try {
    if (statSync(file).isDirectory()) return false
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}
