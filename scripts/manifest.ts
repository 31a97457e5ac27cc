// npm run build's last step: `oclif manifest`, with its commands in a fixed order. oclif lists them in
// the order its directory crawl found the files, which is not the same from one run to the next, so
// two builds of one commit packed different bytes and the release was not reproducible. oclif reads
// the manifest by command id, so the order is ours to fix.
import {execFileSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const file = path.join(root, 'oclif.manifest.json')

execFileSync(path.join(root, 'node_modules', '.bin', 'oclif'), ['manifest'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true'},
})
const manifest = JSON.parse(readFileSync(file, 'utf8')) as {commands: Record<string, unknown>}
const ids = Object.keys(manifest.commands).sort()
manifest.commands = Object.fromEntries(ids.map((id) => [id, manifest.commands[id]]))
// The same layout oclif writes.
writeFileSync(file, JSON.stringify(manifest, null, 2))
