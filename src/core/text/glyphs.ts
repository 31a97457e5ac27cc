// The few non-ASCII characters cpcred draws on a terminal (check marks, the picker's pointer and
// boxes, an ellipsis), and their ASCII stand-ins. A terminal whose locale is not UTF-8 (LC_ALL=C,
// a bare container) or that calls itself dumb shows the UTF-8 bytes as mojibake, so every glyph is
// chosen here, from the environment, and nowhere else.

export interface Glyphs {
  ok: string
  fail: string
  /** The highlighted row of a list. */
  pointer: string
  checked: string
  unchecked: string
  ellipsis: string
  /** Between a name and its description. */
  dash: string
}

export const UNICODE_GLYPHS: Glyphs = {
  ok: '✓',
  fail: '✗',
  pointer: '❯',
  checked: '◉',
  unchecked: '◯',
  ellipsis: '…',
  dash: '—',
}

export const ASCII_GLYPHS: Glyphs = {
  ok: 'ok',
  fail: 'x',
  pointer: '>',
  checked: '[x]',
  unchecked: '[ ]',
  ellipsis: '...',
  dash: '-',
}

/**
 * Whether the terminal can show UTF-8: the locale as POSIX resolves it (the first of LC_ALL,
 * LC_CTYPE and LANG that is set; none means the C locale) names UTF-8, and TERM is not dumb.
 */
export function unicodeTerminal(env: NodeJS.ProcessEnv): boolean {
  if (env.TERM === 'dumb') return false
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((value) => value !== undefined && value !== '')
  return locale !== undefined && /utf-?8/i.test(locale)
}

export function glyphsFor(env: NodeJS.ProcessEnv): Glyphs {
  return unicodeTerminal(env) ? UNICODE_GLYPHS : ASCII_GLYPHS
}
