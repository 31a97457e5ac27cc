// kubectl's credential-plugin policy as cpcred reads it: where the kuberc is, what it says, which
// commands kubectl would run, and the advice. The rules are kubectl v1.37's (src/core/kubeconfig/kuberc.ts).
import assert from 'node:assert/strict'
import {chmod, mkdir, mkdtemp, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {describe, it} from 'node:test'
import {parseAllDocuments} from 'yaml'
import {kubectlPreferences, lookPath} from '../../src/adapters/kuberc.js'
import {UsageError} from '../../src/core/errors.js'
import {
  allowAdvice,
  judgeCommand,
  kubercSetCommand,
  kubectlPolicy,
  locateKuberc,
  refusalWarnings,
  type KubectlPolicy,
} from '../../src/core/kubeconfig/kuberc.js'
import {judgeKubectlPolicy} from '../../src/core/doctor/kuberc.js'

const HOME = '/home/me'
const DEFAULT = '/home/me/.kube/kuberc'

describe('locateKuberc: as kubectl finds its kuberc', () => {
  const cases: [string, string | undefined, Record<string, string>, ReturnType<typeof locateKuberc>][] = [
    ['the default file', undefined, {}, {kind: 'file', file: DEFAULT, explicit: false}],
    ['KUBERC', undefined, {KUBERC: '/etc/kuberc'}, {kind: 'file', file: '/etc/kuberc', explicit: true}],
    [
      '--kuberc wins over KUBERC',
      '/x/rc',
      {KUBERC: '/etc/kuberc'},
      {kind: 'file', file: '/x/rc', explicit: true},
    ],
    [
      'KUBERC wins over a --kuberc naming the default',
      DEFAULT,
      {KUBERC: '/etc/kuberc'},
      {kind: 'file', file: '/etc/kuberc', explicit: true},
    ],
    ['KUBERC=off', undefined, {KUBERC: 'off'}, {kind: 'off', why: 'KUBERC=off'}],
    [
      'KUBECTL_KUBERC=false',
      undefined,
      {KUBECTL_KUBERC: 'False'},
      {kind: 'off', why: 'KUBECTL_KUBERC=false'},
    ],
    [
      'KUBECTL_KUBERC=false with --kuberc',
      '/x/rc',
      {KUBECTL_KUBERC: 'false'},
      {kind: 'off', why: 'KUBECTL_KUBERC=false'},
    ],
    [
      'KUBECTL_KUBERC=true changes nothing',
      undefined,
      {KUBECTL_KUBERC: 'true'},
      {kind: 'file', file: DEFAULT, explicit: false},
    ],
  ]
  for (const [name, flag, env, expected] of cases) {
    it(name, () => assert.deepEqual(locateKuberc(flag, env, HOME), expected))
  }

  it('refuses --kuberc with KUBERC=off, as kubectl does', () => {
    assert.throws(() => locateKuberc('/x/rc', {KUBERC: 'off'}, HOME), UsageError)
  })
})

const preference = (body: string) => `apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\n${body}`
const parse = (text: string) => parseAllDocuments(text).map((document) => document.toJS())

describe('kubectlPolicy: what the file says', () => {
  const defaultFile = {kind: 'file', file: DEFAULT, explicit: false} as const
  const explicitFile = {kind: 'file', file: '/etc/kuberc', explicit: true} as const
  const cases: [string, Parameters<typeof kubectlPolicy>[0], Partial<KubectlPolicy> & {kind: string}][] = [
    [
      'kuberc off',
      {location: {kind: 'off', why: 'KUBERC=off'}},
      {kind: 'policy', policy: 'AllowAll', why: 'KUBERC=off'},
    ],
    ['a missing default file', {location: defaultFile}, {kind: 'policy', policy: 'AllowAll'}],
    ['a missing explicit file', {location: explicitFile}, {kind: 'broken', file: '/etc/kuberc'}],
    [
      'no policy',
      {location: defaultFile, text: preference('defaults: []\n')},
      {kind: 'policy', policy: 'AllowAll', file: DEFAULT},
    ],
    [
      'AllowAll',
      {location: defaultFile, text: preference('credentialPluginPolicy: AllowAll\n')},
      {kind: 'policy', policy: 'AllowAll'},
    ],
    [
      'DenyAll',
      {location: defaultFile, text: preference('credentialPluginPolicy: DenyAll\n')},
      {kind: 'policy', policy: 'DenyAll', allowlist: []},
    ],
    [
      'Allowlist with command and the deprecated name',
      {
        location: defaultFile,
        text: preference(
          'credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: /usr/bin/a\n- name: b\n',
        ),
      },
      {kind: 'policy', policy: 'Allowlist', allowlist: ['/usr/bin/a', 'b']},
    ],
    [
      'the first Preference of several documents',
      {location: defaultFile, text: `kind: Other\n---\n${preference('credentialPluginPolicy: DenyAll\n')}`},
      {kind: 'policy', policy: 'DenyAll'},
    ],
    [
      'v1alpha1 has no policy',
      {location: defaultFile, text: 'apiVersion: kubectl.config.k8s.io/v1alpha1\nkind: Preference\n'},
      {kind: 'policy', policy: 'AllowAll'},
    ],
    [
      'a bad policy',
      {location: defaultFile, text: preference('credentialPluginPolicy: Sometimes\n')},
      {kind: 'broken'},
    ],
    [
      'an allowlist without Allowlist',
      {
        location: defaultFile,
        text: preference('credentialPluginPolicy: DenyAll\ncredentialPluginAllowlist:\n- command: a\n'),
      },
      {kind: 'broken'},
    ],
    [
      'an empty allowlist',
      {
        location: defaultFile,
        text: preference('credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist: []\n'),
      },
      {kind: 'broken'},
    ],
    [
      'Allowlist without a list',
      {location: defaultFile, text: preference('credentialPluginPolicy: Allowlist\n')},
      {kind: 'broken'},
    ],
    [
      'a path not normalized',
      {
        location: defaultFile,
        text: preference(
          'credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: /usr//bin/a\n',
        ),
      },
      {kind: 'broken'},
    ],
    [
      'no Preference in the default file: ignored',
      {location: defaultFile, text: 'kind: Other\n'},
      {kind: 'policy', policy: 'AllowAll'},
    ],
    ['no Preference in an explicit file', {location: explicitFile, text: 'kind: Other\n'}, {kind: 'broken'}],
  ]
  for (const [name, reading, expected] of cases) {
    it(name, () => {
      const policy = kubectlPolicy(reading, parse)
      for (const [key, value] of Object.entries(expected)) {
        assert.deepEqual(policy[key as keyof typeof policy], value, `${key} of ${JSON.stringify(policy)}`)
      }
    })
  }
})

describe('judgeCommand: whether kubectl runs a command (client-go checkAllowlistLocked)', () => {
  const paths: Record<string, string> = {
    kubelogin: '/usr/bin/kubelogin',
    '/usr/bin/kubelogin': '/usr/bin/kubelogin',
    '/opt/cpcred/bin/run.js': '/opt/cpcred/bin/run.js',
    '/usr/local/bin/kubelogin': '/usr/local/bin/kubelogin',
  }
  const look = (command: string) => paths[command]
  const allowlist = (...list: string[]): KubectlPolicy => ({
    kind: 'policy',
    policy: 'Allowlist',
    allowlist: list,
    file: DEFAULT,
  })
  const cases: [string, KubectlPolicy, string, boolean][] = [
    ['AllowAll runs anything', {kind: 'policy', policy: 'AllowAll', allowlist: []}, 'anything', true],
    [
      'DenyAll runs nothing',
      {kind: 'policy', policy: 'DenyAll', allowlist: [], file: DEFAULT},
      'kubelogin',
      false,
    ],
    ['a basename entry, a basename command', allowlist('kubelogin'), 'kubelogin', true],
    [
      'a basename entry, the absolute command it resolves to',
      allowlist('kubelogin'),
      '/usr/bin/kubelogin',
      true,
    ],
    [
      'an absolute entry, the basename command resolving to it',
      allowlist('/usr/bin/kubelogin'),
      'kubelogin',
      true,
    ],
    [
      'an absolute entry, another file of the same name',
      allowlist('/usr/local/bin/kubelogin'),
      'kubelogin',
      false,
    ],
    ['a verbatim entry needs no lookup', allowlist('not-installed'), 'not-installed', true],
    ['an unlisted command kubectl cannot find', allowlist('kubelogin'), 'not-installed', false],
    ["cpcred's command, not listed", allowlist('kubelogin'), '/opt/cpcred/bin/run.js', false],
    [
      "cpcred's command, listed",
      allowlist('kubelogin', '/opt/cpcred/bin/run.js'),
      '/opt/cpcred/bin/run.js',
      true,
    ],
    ['a command cleaned first', allowlist('/usr/bin/kubelogin'), '/usr/bin/../bin/kubelogin', true],
    ['a broken kuberc runs nothing', {kind: 'broken', file: DEFAULT, why: 'bad'}, 'kubelogin', false],
  ]
  for (const [name, policy, command, allowed] of cases) {
    it(name, () => assert.equal(judgeCommand(policy, command, look).allowed, allowed))
  }
})

describe('the advice', () => {
  it('an Allowlist: the entry to add, and kubectl kuberc set with every entry (it replaces the list)', () => {
    const policy: KubectlPolicy = {
      kind: 'policy',
      policy: 'Allowlist',
      allowlist: ['kubelogin'],
      file: DEFAULT,
    }
    assert.equal(
      allowAdvice(policy, ['/opt/cpcred/bin/run.js']),
      `add to credentialPluginAllowlist in ${DEFAULT}:\n  - command: "/opt/cpcred/bin/run.js"\n` +
        `or run (it rewrites the list with every entry): kubectl kuberc set --kuberc ${DEFAULT} --section credentialplugin --policy Allowlist --allowlist-entry command=kubelogin --allowlist-entry command=/opt/cpcred/bin/run.js`,
    )
  })

  it('DenyAll: switch to an Allowlist of the command', () => {
    const policy: KubectlPolicy = {kind: 'policy', policy: 'DenyAll', allowlist: [], file: DEFAULT}
    assert.match(
      allowAdvice(policy, ['kubelogin']),
      /replace credentialPluginPolicy: DenyAll with:\ncredentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n {2}- command: "kubelogin"\n/,
    )
  })

  it('quotes for the shell, and gives no command for an entry kubectl would split at a comma', () => {
    assert.equal(
      kubercSetCommand('/home/me/my rc', ["/opt/it's/p"]),
      `kubectl kuberc set --kuberc '/home/me/my rc' --section credentialplugin --policy Allowlist --allowlist-entry 'command=/opt/it'\\''s/p'`,
    )
    assert.equal(kubercSetCommand(DEFAULT, ['/opt/a,b']), undefined)
  })

  it('warns once per refused command, and not at all when all run', () => {
    const policy: KubectlPolicy = {
      kind: 'policy',
      policy: 'Allowlist',
      allowlist: ['kubelogin'],
      file: DEFAULT,
    }
    const look = (command: string) => (command.startsWith('/') ? command : `/usr/bin/${command}`)
    assert.deepEqual(refusalWarnings(policy, ['kubelogin'], look), [])
    const warnings = refusalWarnings(policy, ['kubelogin', '/opt/cpcred/bin/run.js'], look)
    assert.equal(warnings.length, 1)
    assert.match(
      warnings[0]!,
      /^kubectl will refuse to run \/opt\/cpcred\/bin\/run\.js, .* not on the credentialPluginAllowlist in \/home\/me\/\.kube\/kuberc\. To allow it, add to credentialPluginAllowlist/,
    )
  })
})

describe("doctor's kuberc check", () => {
  const look = (command: string) => command
  const plugin = {role: 'the plugin (--mode plugin)', command: '/usr/bin/p'}
  const cpcred = {role: "cpcred's command (--mode cpcred)", command: '/opt/cpcred/bin/run.js'}
  const allowlist = (...list: string[]): KubectlPolicy => ({
    kind: 'policy',
    policy: 'Allowlist',
    allowlist: list,
    file: DEFAULT,
  })

  it('ok without a kuberc', () => {
    const outcome = judgeKubectlPolicy(
      {kind: 'policy', policy: 'AllowAll', allowlist: [], why: `${DEFAULT} does not exist`},
      [plugin, cpcred],
      look,
    )
    assert.deepEqual(outcome, {
      status: 'ok',
      detail: `kubectl runs every credential plugin: no kuberc (${DEFAULT} does not exist)`,
    })
  })
  it('ok when both are listed', () => {
    assert.equal(
      judgeKubectlPolicy(allowlist('/usr/bin/p', '/opt/cpcred/bin/run.js'), [plugin, cpcred], look).status,
      'ok',
    )
  })
  it('warns when only one mode works, with the entry to add', () => {
    const outcome = judgeKubectlPolicy(allowlist('/usr/bin/p'), [plugin, cpcred], look)
    assert.equal(outcome.status, 'warn')
    assert.match(
      outcome.detail,
      /kubectl refuses cpcred's command \(--mode cpcred\) \/opt\/cpcred\/bin\/run\.js; it runs the plugin/,
    )
    assert.match(
      outcome.hint!,
      /^add \{command: "\/opt\/cpcred\/bin\/run\.js"\} to credentialPluginAllowlist in \/home\/me\/\.kube\/kuberc, or run: kubectl kuberc set /,
    )
  })
  it('fails (exit 5) when kubectl runs neither', () => {
    const outcome = judgeKubectlPolicy(
      {kind: 'policy', policy: 'DenyAll', allowlist: [], file: DEFAULT},
      [plugin, cpcred],
      look,
    )
    assert.equal(outcome.status, 'fail')
    assert.equal(outcome.exitCode, 5)
  })
  it('fails (exit 1) on a kuberc kubectl cannot load', () => {
    const outcome = judgeKubectlPolicy({kind: 'broken', file: DEFAULT, why: 'bad'}, [plugin], look)
    assert.equal(outcome.status, 'fail')
    assert.equal(outcome.exitCode, 1)
  })
})

describe('the adapter: files and PATH as kubectl reads them', () => {
  it('reads $KUBERC, ignores a missing ~/.kube/kuberc, and looks commands up like exec.LookPath', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cpcred-kuberc-'))
    const bin = path.join(dir, 'bin')
    await mkdir(bin)
    await writeFile(path.join(bin, 'p'), '#!/bin/sh\n')
    await chmod(path.join(bin, 'p'), 0o755)
    await writeFile(path.join(bin, 'not-x'), '')
    const rc = path.join(dir, 'rc')
    await writeFile(
      rc,
      preference('credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: p\n'),
    )
    const env = {HOME: dir, PATH: `relative:${bin}`}
    assert.deepEqual(kubectlPreferences(env, dir).policy(), {
      kind: 'policy',
      policy: 'AllowAll',
      allowlist: [],
      why: `${path.join(dir, '.kube', 'kuberc')} does not exist`,
    })
    const prefs = kubectlPreferences({...env, KUBERC: rc}, dir)
    assert.deepEqual(prefs.policy(), {kind: 'policy', policy: 'Allowlist', allowlist: ['p'], file: rc})
    assert.equal(prefs.lookPath('p'), path.join(bin, 'p'))
    assert.equal(prefs.lookPath('not-x'), undefined)
    assert.equal(prefs.lookPath(path.join(bin, 'p')), path.join(bin, 'p'))
    // Go refuses a command found through a relative PATH entry (ErrDot).
    await mkdir(path.join(dir, 'relative'))
    await writeFile(path.join(dir, 'relative', 'q'), '')
    await chmod(path.join(dir, 'relative', 'q'), 0o755)
    assert.equal(lookPath('q', `relative:${bin}`, dir), undefined)
    assert.equal(kubectlPreferences({...env, KUBERC: path.join(dir, 'missing')}, dir).policy().kind, 'broken')
  })
})
