// A read-only directory beside the kubeconfig is said to be that, not blamed on a lock held by
// another cpcred. Root may write anywhere, so the check runs as nobody (setpriv), and is skipped
// where that is not possible.
import assert from 'node:assert/strict'
import {spawnSync} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'

const NOBODY = 65534
const setpriv = spawnSync('setpriv', ['--version'], {encoding: 'utf8'})
const canDrop = process.getuid?.() === 0 && setpriv.status === 0
const module = fileURLToPath(new URL('../../src/adapters/kubeconfig-files.ts', import.meta.url))

describe(
  'merging next to a directory that cannot be written',
  {skip: !canDrop && 'needs root and setpriv'},
  () => {
    it('says the directory is not writable, and does not blame another cpcred', () => {
      const root = mkdtempSync(path.join(os.tmpdir(), 'cpcred-readonly-kube-'))
      try {
        chmodSync(root, 0o755)
        const kube = path.join(root, '.kube')
        mkdirSync(kube)
        writeFileSync(path.join(kube, 'config'), 'apiVersion: v1\nkind: Config\n', {mode: 0o666})
        chmodSync(kube, 0o555)
        const script = `const {kubeconfigFiles} = await import(${JSON.stringify(module)})
await kubeconfigFiles.withLock(${JSON.stringify(path.join(kube, 'config'))}, async () => undefined).then(
  () => console.log('locked'),
  (error) => console.log(JSON.stringify({message: error.message, hint: error.hint})),
)`
        const result = spawnSync(
          'setpriv',
          [
            `--reuid=${NOBODY}`,
            `--regid=${NOBODY}`,
            '--clear-groups',
            process.execPath,
            '--import',
            'tsx',
            '--input-type=module',
            '-e',
            script,
          ],
          {encoding: 'utf8', env: {...process.env, HOME: root}},
        )
        assert.equal(result.status, 0, result.stderr)
        const reported = JSON.parse(result.stdout) as {message: string; hint: string}
        assert.match(reported.message, /\.kube is not writable \(permission denied\)$/)
        assert.doesNotMatch(`${reported.message} ${reported.hint}`, /another cpcred|lock/)
      } finally {
        chmodSync(path.join(root, '.kube'), 0o755)
        rmSync(root, {recursive: true, force: true})
      }
    })
  },
)
