// Runs a command on a pseudo-terminal (util-linux `script`), so prompts that need a TTY can be
// driven by a test: wait for text on the screen, then type.
import {spawn} from 'node:child_process'

export interface TtySession {
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>
  type(keys: string): void
  exited: Promise<{code: number | null; output: string}>
  output(): string
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`

export function runOnTty(command: string[], env: NodeJS.ProcessEnv): TtySession {
  const child = spawn('script', ['-q', '-e', '-c', command.map(quote).join(' '), '/dev/null'], {
    env: {TERM: 'xterm', COLUMNS: '120', LINES: '40', ...env},
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<{code: number | null; output: string}>((resolve) =>
    child.on('exit', (code) => resolve({code, output})),
  )
  return {
    async waitFor(text, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      const seen = () => (typeof text === 'string' ? output.includes(text) : text.test(output))
      while (!seen()) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${text} on the terminal; it shows:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    type(keys) {
      child.stdin.write(keys)
    },
    exited,
    output: () => output,
  }
}
