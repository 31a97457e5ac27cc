import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {completionScriptPath, setupInstructions, setupLine} from '../../src/cli/completion-setup.js'

describe('completion setup: where the scripts live and the lines that load them', () => {
  it('keeps the scripts in the data directory, one per shell, as each shell names them', () => {
    assert.equal(completionScriptPath('/d', 'bash', 'cpcred'), '/d/completion/bash/cpcred.bash')
    assert.equal(completionScriptPath('/d', 'zsh', 'cpcred'), '/d/completion/zsh/_cpcred')
    assert.equal(completionScriptPath('/d', 'fish', 'cpcred'), '/d/completion/fish/cpcred.fish')
  })

  it('one line per shell, quoting the path, rebuilding a missing script quietly', () => {
    const bash = setupLine('bash', 'cpcred', "/home/o'neil/.local/share/cpcred")
    assert.equal(bash.split('\n').length, 2, 'one line, ending with a newline')
    assert.ok(bash.endsWith('\n'))
    assert.ok(bash.includes(`'/home/o'\\''neil/.local/share/cpcred/completion/bash/cpcred.bash'`), bash)
    assert.ok(bash.includes('cpcred autocomplete --refresh-cache >/dev/null 2>&1'), bash)
    const fish = setupLine('fish', 'cpcred', "/home/o'neil/share")
    assert.ok(fish.includes(`source '/home/o\\'neil/share/completion/fish/cpcred.fish'`), fish)
  })

  it('bash and zsh instructions add the line once, on a line of its own', () => {
    const text = setupInstructions('zsh', 'cpcred', 'cpcred autocomplete script zsh')
    assert.ok(text.includes('grep -qxF -- "$line" ~/.zshrc'), text)
    assert.ok(text.includes(`[ -z "$(tail -c1 ~/.zshrc 2>/dev/null)" ] || echo`), text)
    assert.doesNotMatch(text, /Enjoy|Setup Instructions for/)
  })
})
