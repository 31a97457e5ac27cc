// Running credential plugins (execa). The command and its arguments always come from the consumer's
// provider file or kubeconfig; secrets travel only through the child's stdout, never its argv.

export interface PluginRunRequest {
  command: string
  args: string[]
  /** Added to (and overriding) cpcred's own environment, as client-go does. */
  env: Record<string, string>
  /** Interactive plugins get the terminal: stdin and stderr pass through live. */
  interactive: boolean
  timeoutMs: number
  /** A plugin that prints more than this is broken; stop reading rather than fill memory. */
  maxStdoutBytes: number
}

export interface PluginRunResult {
  /** undefined when the process did not exit normally (not found, timed out, killed). */
  exitCode?: number
  stdout: string
  /** Captured stderr (empty for interactive runs, whose stderr went to the terminal). */
  stderr: string
  notFound: boolean
  timedOut: boolean
  outputTooLarge: boolean
  signal?: string
}

export interface PluginProcessRunner {
  run(request: PluginRunRequest): Promise<PluginRunResult>
}

export const execaPluginRunner: PluginProcessRunner = {
  async run(request) {
    const {execa} = await import('execa')
    const result = await execa(request.command, request.args, {
      env: request.env,
      extendEnv: true,
      stdin: request.interactive ? 'inherit' : 'ignore',
      stdout: 'pipe',
      stderr: request.interactive ? 'inherit' : 'pipe',
      timeout: request.timeoutMs,
      maxBuffer: {stdout: request.maxStdoutBytes, stderr: 1024 * 1024},
      forceKillAfterDelay: 2000,
      reject: false,
      stripFinalNewline: false,
    })
    return {
      exitCode: typeof result.exitCode === 'number' && !result.timedOut ? result.exitCode : undefined,
      stdout: typeof result.stdout === 'string' ? result.stdout : '',
      stderr: typeof result.stderr === 'string' ? result.stderr : '',
      notFound: result.code === 'ENOENT',
      timedOut: result.timedOut,
      outputTooLarge: result.isMaxBuffer,
      signal: result.signal ?? undefined,
    }
  },
}
