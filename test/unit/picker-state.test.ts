import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {
  initialPickerState,
  pickerStep,
  shownEntries,
  type PickerKey,
  type PickerOutcome,
  type PickerState,
} from '../../src/core/text/picker-state.js'

const fleet = ['fleet/ap-south-1', 'fleet/ap-east-1', 'fleet/eu-west-1', 'fleet/us-east-1', 'lab/apollo']

/** A key as Node's readline reports it. */
function key(text: string | PickerKey): PickerKey {
  if (typeof text !== 'string') return text
  const named: Record<string, PickerKey> = {
    enter: {name: 'return', sequence: '\r'},
    up: {name: 'up', sequence: '\x1b[A'},
    down: {name: 'down', sequence: '\x1b[B'},
    space: {name: 'space', sequence: ' '},
    tab: {name: 'tab', sequence: '\t'},
    backspace: {name: 'backspace', sequence: '\x7f'},
    escape: {name: 'escape', sequence: '\x1b'},
    'ctrl-a': {name: 'a', sequence: '\x01', ctrl: true},
    'ctrl-c': {name: 'c', sequence: '\x03', ctrl: true},
    'ctrl-d': {name: 'd', sequence: '\x04', ctrl: true},
    'ctrl-u': {name: 'u', sequence: '\x15', ctrl: true},
  }
  if (named[text]) return named[text]
  return {name: /^[a-z0-9]$/i.test(text) ? text.toLowerCase() : undefined, sequence: text}
}

/** Feeds keys (single characters, or names like `ctrl-a`) to the picker, as a person types them. */
function press(keys: (string | PickerKey)[], multiple: boolean, keysOf = fleet): PickerOutcome {
  let state: PickerState = initialPickerState
  for (const [position, typed] of keys.entries()) {
    const outcome = pickerStep(state, key(typed), keysOf, multiple)
    if (outcome.kind !== 'editing') {
      assert.equal(position, keys.length - 1, `the picker finished early, at ${typed}`)
      return outcome
    }
    state = outcome.state
  }
  return {kind: 'editing', state}
}

function editing(outcome: PickerOutcome): PickerState {
  assert.equal(outcome.kind, 'editing')
  return (outcome as {state: PickerState}).state
}

describe('shownEntries: what a term shows, best first', () => {
  it('names starting with the term, then entries containing it, then fuzzy matches', () => {
    assert.deepEqual(shownEntries(fleet, 'us'), [3, 2])
    assert.deepEqual(shownEntries(fleet, 'EAST'), [1, 3, 0])
    assert.deepEqual(shownEntries(fleet, 'lab/'), [4])
    assert.deepEqual(shownEntries(fleet, ''), [0, 1, 2, 3, 4])
    assert.deepEqual(shownEntries(fleet, 'zz'), [])
  })
})

describe('pickerStep: what each key does to the profile picker', () => {
  it('typing in a multi-select filters the list and selects nothing (`a` and `i` are letters)', () => {
    const state = editing(press(['a', 'p'], true))
    assert.equal(state.term, 'ap')
    assert.equal(state.selected.size, 0)
    assert.deepEqual(shownEntries(fleet, state.term), [0, 1, 4])
    assert.deepEqual(press(['a', 'p', 'enter'], true), {kind: 'picked', indexes: [0]})
    assert.equal(editing(press(['i'], true)).selected.size, 0)
  })

  it('space and tab toggle the highlighted entry among those shown', () => {
    assert.deepEqual(press(['e', 'u', 'space', 'enter'], true), {kind: 'picked', indexes: [2]})
    assert.deepEqual(press(['space', 'down', 'tab', 'down', 'space', 'up', 'space', 'enter'], true), {
      kind: 'picked',
      indexes: [0, 2],
    })
  })

  it('ctrl-a selects every entry the term shows, and again none of them', () => {
    assert.deepEqual(press(['a', 'p', '-', 'ctrl-a', 'enter'], true), {kind: 'picked', indexes: [0, 1]})
    assert.equal(editing(press(['a', 'p', '-', 'ctrl-a', 'ctrl-a'], true)).selected.size, 0)
    // What was selected under another term stays selected.
    assert.deepEqual(press(['u', 's', '-', 'space', 'ctrl-u', 'l', 'a', 'b', '/', 'ctrl-a', 'enter'], true), {
      kind: 'picked',
      indexes: [3, 4],
    })
  })

  it('enter with nothing selected takes the highlighted entry; with nothing shown it does nothing', () => {
    assert.deepEqual(press(['u', 's', 'enter'], true), {kind: 'picked', indexes: [3]})
    assert.deepEqual(press(['u', 's', 'down', 'enter'], true), {kind: 'picked', indexes: [2]})
    assert.equal(editing(press(['z', 'z', 'z', 'enter'], true)).term, 'zzz')
  })

  it('single select: search as you type, arrows move within the matches, space is no command', () => {
    assert.deepEqual(press(['a', 'p', 'down', 'enter'], false), {kind: 'picked', indexes: [1]})
    assert.deepEqual(
      press(['a', 'p', 'up', 'enter'], false),
      {kind: 'picked', indexes: [4]},
      'up wraps to the last match',
    )
    assert.equal(editing(press(['space'], false)).selected.size, 0)
  })

  it('backspace and ctrl-u edit the term, and the highlight goes back to the first match', () => {
    const state = editing(press(['e', 'u', 'x', 'backspace'], true))
    assert.equal(state.term, 'eu')
    assert.equal(state.active, 0)
    assert.equal(editing(press(['e', 'u', 'ctrl-u'], true)).term, '')
  })

  it('ctrl-c, ctrl-d and escape cancel', () => {
    for (const cancel of ['ctrl-c', 'ctrl-d', 'escape'])
      assert.deepEqual(press(['space', cancel], true), {kind: 'cancelled'})
  })

  it('other control keys change nothing', () => {
    const state = editing(
      press(['a', {name: 'left', sequence: '\x1b[D'}, {name: 'f1', sequence: '\x1bOP'}], true),
    )
    assert.equal(state.term, 'a')
  })
})
