// A distribution registry (the CNCF registry, built by test/testenv/binaries.ts) on 127.0.0.1 at a
// free port, its storage in a temporary folder: where the release test pushes and signs the image.
import {spawn} from 'node:child_process'
import {createWriteStream} from 'node:fs'
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {freePorts} from '../testenv/testenv.js'

export interface Registry {
  /** 127.0.0.1:PORT */
  host: string
  stop(): Promise<void>
}

export async function startRegistry(binary: string, dir: string): Promise<Registry> {
  const port = (await freePorts(1))[0]!
  const host = `127.0.0.1:${port}`
  await mkdir(path.join(dir, 'storage'), {recursive: true})
  const config = path.join(dir, 'config.yml')
  await writeFile(
    config,
    [
      'version: 0.1',
      'log: {level: warn}',
      `storage: {filesystem: {rootdirectory: ${JSON.stringify(path.join(dir, 'storage'))}}, delete: {enabled: true}}`,
      `http: {addr: "${host}"}`,
      '',
    ].join('\n'),
  )
  const logFile = path.join(dir, 'registry.log')
  const log = createWriteStream(logFile)
  const child = spawn(binary, ['serve', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {PATH: process.env.PATH},
  })
  child.stdout.pipe(log)
  child.stderr.pipe(log)
  let exited = false
  child.on('exit', () => (exited = true))
  const deadline = Date.now() + 30_000
  for (;;) {
    if (exited) throw new Error(`the registry exited:\n${await readFile(logFile, 'utf8')}`)
    const up = await fetch(`http://${host}/v2/`).then(
      (response) => response.status === 200,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) {
      child.kill()
      throw new Error(`the registry did not answer on ${host}:\n${await readFile(logFile, 'utf8')}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return {
    host,
    stop: async () => {
      if (exited) return
      const gone = new Promise((resolve) => child.on('exit', resolve))
      child.kill('SIGTERM')
      await gone
    },
  }
}
