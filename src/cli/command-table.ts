// Every command of cpcred, and which code runs it: the one table that the router (src/cli/router.ts),
// the fast-path chain (src/cli/fast-path.ts), the fronts of the oclif side (src/cli/fronts.ts, typed
// by it), the build of dist/fast (scripts/build-fast.ts) and bin/dev.mjs (src/cli/main.ts) read.
// Plain data, imported by the router's bundle, which must stay small; each command's code is loaded
// from fast-path.ts or fronts.ts, whose tables the compiler holds in step with this one.

import type {Wiring} from './wiring.js'

/** The one signature of a front: the words after the command's name, in the run's wiring. */
export type Front = (wiring: Wiring, argv: string[]) => Promise<number | void>

/** The bundles of dist/fast: dist/fast/NAME.cjs is built from its source and what that imports. */
export const FAST_BUNDLES = {
  router: 'src/cli/router.ts',
  answer: 'src/cli/answer.ts',
  'fast-path': 'src/cli/fast-path.ts',
  exec: 'src/cli/exec.ts',
  lint: 'src/cli/lint.ts',
  get: 'src/cli/get.ts',
  'launcher-process': 'src/adapters/launcher-process.ts',
} as const

/** The bundles that run a command line: each exports `run(argv)`, which exits with its code. */
export type CommandBundle = 'fast-path' | 'exec' | 'get' | 'lint'

/** Which code runs a command line: a bundle of dist/fast (no oclif on the way), or oclif. */
export type Runner = CommandBundle | 'oclif'

/** The words that ask for a command's help, which oclif gives. */
export const HELP_FLAGS = ['--help', '-h']

/** The hidden command the shell completion scripts call (src/hooks/completion-scripts.ts). */
export const COMPLETE_COMMAND = '__complete'

interface CommandEntry {
  /**
   * What kubectl and CI run all the time comes from a bundle of dist/fast; the rest from oclif,
   * which gives every command's --help.
   */
  runs: Runner
  /** Other first words for it (the oclif class names them too). */
  aliases?: readonly string[]
  /** Its oclif class runs it itself (oclif's autocomplete needs oclif's config), with no front. */
  ownRun?: true
  /** No oclif class: the completion scripts call it, people never do. */
  hidden?: true
}

/**
 * Every command by oclif's id (a topic's commands are `topic:name`). `plugin` stands for the
 * built-in plugins, `plugin:NAME` to oclif, each named once in src/cli/plugins/names.ts.
 */
export const COMMANDS = {
  autocomplete: {runs: 'oclif', ownRun: true},
  'autocomplete:script': {runs: 'oclif', ownRun: true},
  'cache:clear': {runs: 'oclif'},
  credential: {runs: 'fast-path'},
  describe: {runs: 'oclif'},
  doctor: {runs: 'oclif'},
  exec: {runs: 'exec'},
  get: {runs: 'get'},
  hub: {runs: 'oclif'},
  'hub:use': {runs: 'oclif'},
  kubeconfig: {runs: 'oclif'},
  lint: {runs: 'lint'},
  list: {runs: 'fast-path', aliases: ['ls']},
  plugin: {runs: 'fast-path'},
  sync: {runs: 'oclif'},
  version: {runs: 'oclif'},
  whoami: {runs: 'oclif'},
  [COMPLETE_COMMAND]: {runs: 'fast-path', hidden: true},
} as const satisfies Record<string, CommandEntry>

export type CommandId = keyof typeof COMMANDS

/** The commands one bundle runs. */
export type CommandsOf<R extends Runner> = {
  [C in CommandId]: (typeof COMMANDS)[C]['runs'] extends R ? C : never
}[CommandId]

/** The commands with a front of their own (every oclif command but autocomplete's, and no hidden one). */
export type FrontedCommand = {
  [C in CommandId]: (typeof COMMANDS)[C] extends {ownRun: true} | {hidden: true} ? never : C
}[CommandId]

const BY_WORD: ReadonlyMap<string, CommandId> = new Map(
  Object.entries(COMMANDS).flatMap(([id, entry]) =>
    [id, ...('aliases' in entry ? entry.aliases : [])].map((word) => [word, id as CommandId]),
  ),
)

/** The command a command line's first word names, aliases read; undefined for oclif to answer. */
export function commandOf(word: string | undefined): CommandId | undefined {
  return BY_WORD.get(word ?? '')
}
