// The terminal edge: where output goes, whether a person is there, and whether to use colour.
import type {ChalkInstance} from 'chalk'

export interface Terminal {
  out(text: string): void
  err(text: string): void
  /** stdout is a terminal (tables, colour); false when piped (stable, plain output). */
  readonly stdoutIsTTY: boolean
  /** stdin and stdout are terminals: prompting is allowed. */
  readonly interactive: boolean
  /** Colour on stdout: only on a terminal, never with NO_COLOR or TERM=dumb. */
  readonly colour: boolean
}

export function processTerminal(env = process.env): Terminal {
  const stdoutIsTTY = Boolean(process.stdout.isTTY)
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    stdoutIsTTY,
    interactive: stdoutIsTTY && Boolean(process.stdin.isTTY),
    colour: stdoutIsTTY && !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb',
  }
}

/** A chalk whose level follows the terminal's colour decision, not chalk's own detection. */
export async function paint(terminal: Terminal): Promise<ChalkInstance> {
  const {Chalk} = await import('chalk')
  return new Chalk({level: terminal.colour ? 1 : 0})
}
