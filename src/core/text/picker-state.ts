// What the profile picker does with each key, without a terminal: the typed search term filters
// the list (every printable key is part of the term, never a command, so typing `ap` cannot select
// the fleet), arrows move, space or tab toggle the highlighted entry in a multi-select, Ctrl-A
// toggles every entry the term shows, Enter picks. The prompt (src/adapters/picker.ts) only draws
// this state and feeds it keys.

export interface PickerKey {
  /** Node's key name (`up`, `backspace`, `a`); undefined for most punctuation. */
  name?: string
  /** The characters the key sent. */
  sequence?: string
  ctrl?: boolean
  meta?: boolean
}

export interface PickerState {
  /** What is typed so far. */
  term: string
  /** Position of the highlighted entry among the shown ones. */
  active: number
  /** Indexes (into all entries) of the selected ones, multi-select only. */
  selected: ReadonlySet<number>
}

export type PickerOutcome =
  | {kind: 'editing'; state: PickerState}
  /** Indexes into all entries, in list order. */
  | {kind: 'picked'; indexes: number[]}
  | {kind: 'cancelled'}

export const initialPickerState: PickerState = {term: '', active: 0, selected: new Set()}

/** Fuzzy match: the typed characters appear in order (as fzf's basic mode), ignoring case. */
export function fuzzyMatches(term: string, text: string): boolean {
  const haystack = text.toLowerCase()
  let at = 0
  for (const char of term.toLowerCase()) {
    at = haystack.indexOf(char, at) + 1
    if (at === 0) return false
  }
  return true
}

/**
 * Indexes of the entries the term shows, best first: names that start with it (`us` → us-east-1),
 * then entries that contain it, then fuzzy matches (`us` → eu-west-1); list order within each.
 */
export function shownEntries(keys: readonly string[], term: string): number[] {
  const needle = term.toLowerCase()
  const rank = (key: string): number | undefined => {
    const text = key.toLowerCase()
    if (text.slice(text.indexOf('/') + 1).startsWith(needle)) return 0
    if (text.includes(needle)) return 1
    return fuzzyMatches(needle, text) ? 2 : undefined
  }
  return keys
    .map((key, index) => ({index, rank: rank(key)}))
    .filter((entry): entry is {index: number; rank: number} => entry.rank !== undefined)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.index)
}

/**
 * The picker after one key. `keys` are the texts the term is matched against (NAMESPACE/NAME).
 * In a single select Enter picks the highlighted entry; in a multi-select it picks the selected
 * ones, or the highlighted one when none is selected (as fzf does).
 */
export function pickerStep(
  state: PickerState,
  key: PickerKey,
  keys: readonly string[],
  multiple: boolean,
): PickerOutcome {
  const shown = shownEntries(keys, state.term)
  const highlighted = shown[Math.min(state.active, shown.length - 1)]
  const editing = (next: Partial<PickerState>): PickerOutcome => ({
    kind: 'editing',
    state: {...state, ...next},
  })
  const withTerm = (term: string): PickerOutcome => editing({term, active: 0})

  if (key.ctrl && (key.name === 'c' || key.name === 'd')) return {kind: 'cancelled'}
  if (key.name === 'escape') return {kind: 'cancelled'}
  if (key.name === 'return' || key.name === 'enter') {
    if (multiple && state.selected.size > 0)
      return {kind: 'picked', indexes: [...state.selected].sort((a, b) => a - b)}
    return highlighted === undefined ? editing({}) : {kind: 'picked', indexes: [highlighted]}
  }
  if (key.name === 'up' || (key.ctrl && key.name === 'p'))
    return editing({active: shown.length === 0 ? 0 : (state.active - 1 + shown.length) % shown.length})
  if (key.name === 'down' || (key.ctrl && key.name === 'n'))
    return editing({active: shown.length === 0 ? 0 : (state.active + 1) % shown.length})
  if (key.name === 'backspace') return withTerm([...state.term].slice(0, -1).join(''))
  if (key.ctrl && (key.name === 'u' || key.name === 'w')) return withTerm('')
  if (multiple && (key.name === 'space' || key.name === 'tab')) {
    if (highlighted === undefined) return editing({})
    const selected = new Set(state.selected)
    if (!selected.delete(highlighted)) selected.add(highlighted)
    return editing({selected})
  }
  if (multiple && key.ctrl && key.name === 'a') {
    // All that the term shows; again, none of them.
    const selected = new Set(state.selected)
    const all = shown.every((index) => selected.has(index))
    for (const index of shown) {
      if (all) selected.delete(index)
      else selected.add(index)
    }
    return editing({selected})
  }
  const typed = key.sequence ?? ''
  if (!key.ctrl && !key.meta && typed.length === 1 && typed > ' ' && typed !== '\x7f')
    return withTerm(state.term + typed)
  return editing({})
}
