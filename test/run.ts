// `npm test`: unit tests, then integration tests against one real hub + spoke for the whole run.
// The environment is built (first run only), started in a private temporary directory, shared by
// every test file through CPCRED_TESTENV, and stopped on every exit path.
import {spawn} from 'node:child_process'
import {mkdtemp, readdir} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {down, up} from './testenv/testenv.js'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')

async function testFiles(dir: string): Promise<string[]> {
  const names = await readdir(path.join(root, dir))
  return names
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => path.join(dir, name))
}

async function main(): Promise<number> {
  const only = process.argv.slice(2)
  const files = only.length
    ? only
    : [...(await testFiles('test/unit')), ...(await testFiles('test/integration'))]
  const needsEnv = files.some((file) => file.includes('integration'))

  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-testenv-'))
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    if (needsEnv) await down(dir)
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void stop().then(() => process.exit(130)))
  }
  try {
    if (needsEnv) {
      const started = Date.now()
      await up(dir, (line) => console.error(`testenv: ${line}`))
      console.error(`testenv: up in ${((Date.now() - started) / 1000).toFixed(1)}s (${dir})`)
    }
    return await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
        cwd: root,
        stdio: 'inherit',
        env: {...process.env, CPCRED_TESTENV: dir, NO_COLOR: '1'},
      })
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)))
    })
  } finally {
    await stop()
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`test run failed: ${error.stack ?? error}`)
    process.exit(1)
  },
)
