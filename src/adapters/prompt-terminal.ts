// Where a person is asked: the controlling terminal (/dev/tty), as kubectl-style tools and fzf do,
// so `cpcred exec -A -- cmd | tee log` still offers the picker while its output goes down the pipe.
// A prompt needs stdin to be a terminal too: `… | cpcred exec` has data there, not a person.
import {closeSync, openSync} from 'node:fs'
import {Writable} from 'node:stream'
import type {ReadStream, WriteStream} from 'node:tty'

const CONTROLLING_TERMINAL = '/dev/tty'

/** Whether the process has a controlling terminal it may open (none in CI, cron or a daemon). */
export function controllingTerminalAvailable(): boolean {
  try {
    closeSync(openSync(CONTROLLING_TERMINAL, 'r+'))
    return true
  } catch {
    return false
  }
}

/** What one prompt reads and draws on (an @inquirer/core prompt's context). */
export interface PromptContext {
  input: ReadStream
  output: Writable
}

/**
 * Runs `ask` with the controlling terminal opened for it, and closes the terminal afterwards.
 * `ask` may run several prompts in turn: each gets an output of its own, because a prompt ends
 * its output when it is done, and the terminal must outlive it.
 */
export async function withPromptTerminal<T>(ask: (context: () => PromptContext) => Promise<T>): Promise<T> {
  // node:tty loads net; only a prompt needs it.
  const tty = await import('node:tty')
  const input = new tty.ReadStream(openSync(CONTROLLING_TERMINAL, 'r'))
  let terminal: WriteStream
  try {
    terminal = new tty.WriteStream(openSync(CONTROLLING_TERMINAL, 'w'))
  } catch (error) {
    input.destroy()
    throw error
  }
  const context = (): PromptContext => ({input, output: drawingOn(terminal)})
  try {
    return await ask(context)
  } finally {
    if (input.isRaw) input.setRawMode(false)
    input.destroy()
    await new Promise<void>((resolve) => terminal.end(resolve))
  }
}

/** A stream onto the terminal that a prompt may end, sized as the terminal is. */
function drawingOn(terminal: WriteStream): Writable {
  const output = new Writable({
    write: (chunk: Buffer, _encoding, callback) => void terminal.write(chunk, callback),
  })
  return Object.defineProperties(output, {
    isTTY: {value: true},
    columns: {get: () => terminal.columns},
    rows: {get: () => terminal.rows},
  })
}
