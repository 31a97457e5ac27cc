// The fish script's command table (the rest of it is proven in a real fish by
// test/integration/completion.test.ts): which words it offers after which, and quoting that fish reads
// back as the text it was given.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {completionEntries, fishCompletionScript, fishQuote} from '../../src/cli/fish-completion.js'

describe('fish completion script', () => {
  it('offers the visible commands, their aliases and topics, with one-line summaries', () => {
    const entries = completionEntries({
      bin: 'cpcred',
      commands: [
        {id: 'list', aliases: ['ls'], summary: 'List the profiles.\nMore text.'},
        {id: 'cache:clear', description: 'Remove cached credentials.'},
        {id: 'help', description: 'Display help for <%= config.bin %>.'},
        {id: 'autocomplete:create', hidden: true, summary: 'internal'},
      ],
      topics: [
        {name: 'cache', description: 'The credential cache.'},
        {name: 'autocomplete', hidden: true},
      ],
    })
    assert.deepEqual(entries, [
      {id: 'list', summary: 'List the profiles.'},
      {id: 'ls', summary: 'List the profiles.'},
      {id: 'cache:clear', summary: 'Remove cached credentials.'},
      {id: 'help', summary: 'Display help for cpcred.'},
      {id: 'cache', summary: 'The credential cache.'},
    ])
  })

  it('groups the words by the words before them, each word once', () => {
    const script = fishCompletionScript('cpcred', [
      {id: 'list', summary: 'List.'},
      {id: 'cache:clear', summary: 'Clear.'},
      {id: 'cache', summary: 'The cache.'},
      {id: 'cache', summary: 'A second summary is not offered.'},
    ])
    assert.match(script, /case ''\n\s+printf '%s\\t%s\\n' 'cache' 'The cache\.' 'list' 'List\.'\n/)
    assert.match(script, /case 'cache'\n\s+printf '%s\\t%s\\n' 'clear' 'Clear\.'\n/)
    assert.doesNotMatch(script, /second summary/)
    assert.match(script, /^complete -c cpcred -f -a '\(__cpcred_complete\)'$/m)
  })

  it("quotes as fish reads single quotes: only \\ and ' are escaped", () => {
    assert.equal(fishQuote(`the target's URL`), `'the target\\'s URL'`)
    assert.equal(fishQuote('a\\b $HOME (x) *'), `'a\\\\b $HOME (x) *'`)
    const script = fishCompletionScript('cpcred', [{id: 'x', summary: "it's\ttabbed\nand two lines"}])
    assert.match(script, /'x' 'it\\'s tabbed and two lines'/)
  })
})
