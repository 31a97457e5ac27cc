// Finding a plugin command the way starting it finds it (execvp, which client-go's exec.Command and
// Node's spawn both follow): a name with a slash is a path; a bare name is looked up in PATH, in
// order, and the first regular file this user may execute wins.
import {constants} from 'node:fs'
import {access, stat} from 'node:fs/promises'
import path from 'node:path'
import type {ExecutableLookup} from '../core/doctor/plugin.js'

/** `pathVariable` is the PATH the plugin is started with (cpcred's, or the one its provider sets). */
export async function findExecutable(
  command: string,
  pathVariable: string | undefined,
  cwd = process.cwd(),
): Promise<ExecutableLookup> {
  if (command.includes('/')) {
    const file = path.resolve(cwd, command)
    const found = await examine(file)
    return found.kind === 'missing' ? {kind: 'not-found', searched: [file]} : lookupOf(found, file, false)
  }
  // An empty PATH entry means the working directory, as in every shell.
  const directories = (pathVariable ?? '').split(path.delimiter).map((dir) => dir || '.')
  let notExecutable: ExecutableLookup | undefined
  for (const dir of directories) {
    const file = path.resolve(cwd, dir, command)
    const found = await examine(file)
    if (found.kind === 'executable') return {kind: 'found', path: file, fromPath: true}
    // execvp goes on past a file it may not run, and reports it only when nothing else is found.
    if (found.kind === 'not-executable') notExecutable ??= lookupOf(found, file, true)
  }
  return notExecutable ?? {kind: 'not-found', searched: pathVariable ? directories : []}
}

type Examined =
  {kind: 'executable'} | {kind: 'missing'} | {kind: 'not-a-file'} | {kind: 'not-executable'; mode: number}

async function examine(file: string): Promise<Examined> {
  let info
  try {
    info = await stat(file)
  } catch {
    return {kind: 'missing'}
  }
  if (!info.isFile()) return {kind: 'not-a-file'}
  try {
    await access(file, constants.X_OK)
    return {kind: 'executable'}
  } catch {
    return {kind: 'not-executable', mode: info.mode}
  }
}

function lookupOf(
  found: Exclude<Examined, {kind: 'missing'}>,
  file: string,
  fromPath: boolean,
): ExecutableLookup {
  switch (found.kind) {
    case 'executable':
      return {kind: 'found', path: file, fromPath}
    case 'not-a-file':
      return {kind: 'not-a-file', path: file}
    case 'not-executable':
      return {kind: 'not-executable', path: file, mode: found.mode}
  }
}
