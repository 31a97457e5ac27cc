// Which command lines run without oclif, and from which bundle of dist/fast: the one list that the
// router (src/cli/router.ts), the fast-path chain (src/cli/fast-path.ts), the build
// (scripts/build-fast.ts) and bin/dev.mjs (src/cli/main.ts) read. Plain data, imported by the
// router's bundle, which must stay small.

/** The bundles of dist/fast: dist/fast/NAME.cjs is built from its source and what that imports. */
export const FAST_BUNDLES = {
  router: 'src/cli/router.ts',
  answer: 'src/cli/answer.ts',
  'fast-path': 'src/cli/fast-path.ts',
  exec: 'src/cli/exec.ts',
  'launcher-process': 'src/adapters/launcher-process.ts',
} as const

/** The bundles that run a command line: each exports `run(argv)`, which exits with its code. */
export type CommandBundle = 'fast-path' | 'exec'

/** The words that ask for a command's help, which oclif gives. */
export const HELP_FLAGS = ['--help', '-h']

/** The hidden command the shell completion scripts call (src/hooks/completion-scripts.ts). */
export const COMPLETE_COMMAND = '__complete'

/**
 * The commands that run without oclif (their --help is oclif's), the bundle each runs from, and
 * whether the last answer to the same question may be given first (dist/fast/answer.cjs).
 */
export const FAST_PATH_COMMANDS = {
  credential: {bundle: 'fast-path', answerable: true},
  list: {bundle: 'fast-path', answerable: false},
  ls: {bundle: 'fast-path', answerable: false},
  /** The built-in plugins only (src/cli/plugins/names.ts). */
  plugin: {bundle: 'fast-path', answerable: false},
  [COMPLETE_COMMAND]: {bundle: 'fast-path', answerable: false},
  exec: {bundle: 'exec', answerable: true},
} as const satisfies Record<string, {bundle: CommandBundle; answerable: boolean}>

export type FastPathCommand = keyof typeof FAST_PATH_COMMANDS

/** The commands one bundle runs. */
export type CommandsOf<B extends CommandBundle> = {
  [C in FastPathCommand]: (typeof FAST_PATH_COMMANDS)[C]['bundle'] extends B ? C : never
}[FastPathCommand]

export function isFastPathCommand(word: string): word is FastPathCommand {
  return Object.prototype.hasOwnProperty.call(FAST_PATH_COMMANDS, word)
}
