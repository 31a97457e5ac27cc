// npm run docs: regenerates docs/commands.md from the commands' own help (`oclif readme`).
// npm run docs -- --check: fails when the committed file and the built commands disagree (npm test
// runs it, so help text and the reference cannot drift apart). Needs `npm run build` first.
import {execFileSync} from 'node:child_process'
import {copyFile, mkdtemp, readFile, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const committed = path.join(root, 'docs', 'commands.md')

function generate(file: string): void {
  execFileSync(
    path.join(root, 'node_modules', '.bin', 'oclif'),
    ['readme', '--readme-path', file, '--no-aliases', '--no-source-links'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true'},
    },
  )
}

async function main(): Promise<number> {
  if (!process.argv.includes('--check')) {
    generate(committed)
    return 0
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-docs-'))
  try {
    const fresh = path.join(dir, 'commands.md')
    await copyFile(committed, fresh)
    generate(fresh)
    if ((await readFile(fresh, 'utf8')) === (await readFile(committed, 'utf8'))) return 0
    console.error(
      "docs/commands.md is out of date with the commands' help: run `npm run build && npm run docs` and commit it",
    )
    return 1
  } finally {
    await rm(dir, {recursive: true, force: true})
  }
}

process.exit(await main())
