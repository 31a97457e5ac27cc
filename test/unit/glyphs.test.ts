import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ASCII_GLYPHS, UNICODE_GLYPHS, glyphsFor, unicodeTerminal} from '../../src/core/text/glyphs.js'

describe('glyphsFor: UTF-8 glyphs only where the terminal can show them', () => {
  it('follows the locale as POSIX resolves it: LC_ALL, then LC_CTYPE, then LANG', () => {
    assert.equal(unicodeTerminal({LANG: 'en_US.UTF-8'}), true)
    assert.equal(unicodeTerminal({LANG: 'C.utf8'}), true)
    assert.equal(unicodeTerminal({LC_ALL: 'C', LANG: 'en_US.UTF-8'}), false)
    assert.equal(unicodeTerminal({LC_CTYPE: 'en_US.UTF-8', LANG: 'C'}), true)
    assert.equal(unicodeTerminal({LC_ALL: '', LC_CTYPE: 'POSIX', LANG: 'en_US.UTF-8'}), false)
    assert.equal(unicodeTerminal({LANG: 'de_DE.ISO-8859-1'}), false)
    assert.equal(unicodeTerminal({}), false, 'no locale is the C locale')
  })

  it('a dumb terminal gets ASCII whatever the locale', () => {
    assert.equal(unicodeTerminal({TERM: 'dumb', LANG: 'en_US.UTF-8'}), false)
  })

  it('every ASCII stand-in is ASCII, and each set has the same glyphs', () => {
    assert.deepEqual(glyphsFor({LC_ALL: 'C'}), ASCII_GLYPHS)
    assert.deepEqual(glyphsFor({LANG: 'en_US.UTF-8'}), UNICODE_GLYPHS)
    assert.deepEqual(Object.keys(ASCII_GLYPHS).sort(), Object.keys(UNICODE_GLYPHS).sort())
    for (const glyph of Object.values(ASCII_GLYPHS)) assert.match(glyph, /^[\x20-\x7e]+$/)
  })
})
