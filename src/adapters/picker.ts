// Interactive choice of profiles on the controlling terminal: a small prompt on @inquirer/core
// (loaded only when a person is asked) that draws src/core/text/picker-state.ts and feeds it keys.
// Typing always searches, in the single and the multi-select alike; only modifier keys act on
// several entries at once, and a run on more than a few clusters is confirmed first. Never used
// without a terminal: callers check Printer.interactive first.
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {profileKey} from '../core/profiles/cluster-profile.js'
import {CpcredError, QuietExit, signalExitCode} from '../core/errors.js'
import {glyphsFor, type Glyphs} from '../core/text/glyphs.js'
import {initialPickerState, pickerStep, shownEntries, type PickerKey} from '../core/text/picker-state.js'
import {printable} from '../core/text/printable.js'
import {healthOf} from '../core/profiles/profile-view.js'
import {withPromptTerminal, type PromptContext} from './prompt-terminal.js'

/** A multi-target run on more clusters than this is confirmed first. */
export const CONFIRM_ABOVE = 3

const PAGE_SIZE = 15

interface PickerConfig {
  message: string
  entries: {key: string; label: string}[]
  multiple: boolean
  glyphs: Glyphs
}

/** A pick, with the line that says what was chosen. */
type PickerResult = {kind: 'picked'; indexes: number[]; answer: string} | {kind: 'cancelled'}

/** Whether one of the consumer's providers can reach a profile; those it cannot are marked. */
export type Reachable = (profile: ClusterProfile) => boolean

export async function pickProfile(
  profiles: ClusterProfile[],
  message: string,
  {reachable}: {reachable?: Reachable} = {},
): Promise<ClusterProfile> {
  const [index] = await pick(profiles, message, false, reachable, () => Promise.resolve())
  return profiles[index!]!
}

/**
 * Several profiles, for a run on each. More than `confirmAbove` are confirmed with a line naming
 * the count, default No: a picker is the one place a single key can reach the whole fleet.
 */
export async function pickProfiles(
  profiles: ClusterProfile[],
  message: string,
  {confirmAbove = CONFIRM_ABOVE, reachable}: {confirmAbove?: number; reachable?: Reachable} = {},
): Promise<ClusterProfile[]> {
  const indexes = await pick(profiles, message, true, reachable, async (chosen, context, prompts) => {
    if (chosen.length <= confirmAbove) return
    const question = `Run on ${chosen.length} clusters?`
    // No is a cancel, as Esc and Ctrl-C are (gh exits all three alike): the answer stays on screen,
    // and 130 keeps `cpcred exec … && next` from going on as if the command had run.
    if (!(await prompts.confirm({message: question}, context()))) throw interrupted()
  })
  return indexes.map((index) => profiles[index]!)
}

type Prompts = Awaited<ReturnType<typeof loadPrompts>>

async function pick(
  profiles: ClusterProfile[],
  message: string,
  multiple: boolean,
  reachable: Reachable | undefined,
  confirm: (chosen: number[], context: () => PromptContext, prompts: Prompts) => Promise<void>,
): Promise<number[]> {
  if (profiles.length === 0)
    throw new CpcredError('there are no ClusterProfiles to choose from here', {hint: 'try -A'})
  const prompts = await loadPrompts()
  const glyphs = glyphsFor(process.env)
  const entries = profiles.map((profile) => ({
    key: profileKey(profile),
    label: describe(profile, glyphs, reachable?.(profile) ?? true),
  }))
  return withPromptTerminal(async (context) => {
    try {
      // Cleared when done, so a cancel leaves no list behind; a pick puts its answer line back.
      const result = await prompts.picker(
        {message, entries, multiple, glyphs},
        {...context(), clearPromptOnDone: true},
      )
      if (result.kind === 'cancelled') throw interrupted()
      context().output.end(`${result.answer}\n`)
      await confirm(result.indexes, context, prompts)
      return result.indexes
    } catch (error) {
      if ((error as Error).name === 'ExitPromptError') throw interrupted()
      throw error
    }
  })
}

/** Ctrl-C or Escape: cpcred ends as an interrupted command does (130), with nothing to add. */
function interrupted(): QuietExit {
  return new QuietExit(signalExitCode('SIGINT'))
}

/** A choice as the prompt draws it: the prompt writes to the terminal itself, so it gets printable text. */
function describe(profile: ClusterProfile, glyphs: Glyphs, reachable: boolean): string {
  const display = profile.spec?.displayName ? ` ${glyphs.dash} ${profile.spec.displayName}` : ''
  // Offered all the same (describe shows why), but a run on it fails: say so before it is chosen.
  const unreachable = reachable ? '' : ` ${glyphs.fail} no provider of yours`
  return printable(
    `${profileKey(profile)}${display} (healthy: ${healthOf(profile)})${unreachable}`,
    undefined,
    glyphs.ellipsis,
  )
}

async function loadPrompts() {
  const {createPrompt, useKeypress, usePagination, useState, isEnterKey} = await import('@inquirer/core')

  const picker = createPrompt<PickerResult, PickerConfig>((config, done) => {
    const [state, setState] = useState(initialPickerState)
    const keys = config.entries.map((entry) => entry.key)
    const shown = shownEntries(keys, state.term)
    const {glyphs, multiple} = config

    useKeypress((key, rl) => {
      // The search term lives in the picker's state; readline's own line editing is not used.
      rl.clearLine(0)
      const outcome = pickerStep(state, key as PickerKey, keys, multiple)
      if (outcome.kind === 'editing') return setState(outcome.state)
      if (outcome.kind !== 'picked') return done(outcome)
      const {indexes} = outcome
      // What was chosen stays on screen, in one short line however many it was.
      const chosen =
        indexes.length <= CONFIRM_ABOVE
          ? printable(indexes.map((index) => config.entries[index]!.key).join(', '))
          : `${indexes.length} clusters`
      done({...outcome, answer: `${config.message} ${chosen}`})
    })

    const page = usePagination({
      items: shown,
      active: Math.min(state.active, Math.max(shown.length - 1, 0)),
      pageSize: PAGE_SIZE,
      loop: false,
      renderItem: ({item, isActive}) => {
        const box = multiple ? `${state.selected.has(item) ? glyphs.checked : glyphs.unchecked} ` : ''
        return `${isActive ? glyphs.pointer : ' '} ${box}${config.entries[item]!.label}`
      },
    })
    const count = multiple ? ` (${state.selected.size} selected)` : ''
    const help = multiple
      ? 'type to filter, space or tab selects, ctrl-a selects all shown, enter runs'
      : 'type to filter, up/down to move, enter chooses'
    const list = shown.length > 0 ? page : `  no profile matches "${printable(state.term)}"`
    return [`? ${config.message}${count} ${printable(state.term)}`, `${list}\n${help}`]
  })

  const confirm = createPrompt<boolean, {message: string}>((config, done) => {
    const [typed, setTyped] = useState('')
    const [answer, setAnswer] = useState<boolean | undefined>(undefined)
    useKeypress((key, rl) => {
      if (!isEnterKey(key)) return setTyped(rl.line)
      const yes = /^y(es)?$/i.test(typed.trim())
      setAnswer(yes)
      done(yes)
    })
    if (answer !== undefined) return `${config.message} ${answer ? 'yes' : 'no'}`
    return `? ${config.message} (y/N) ${typed}`
  })

  return {picker, confirm}
}
