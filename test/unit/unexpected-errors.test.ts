// "This is unexpected … report it" is for cpcred's own bugs, never for data a hub, a provider file,
// a kubeconfig, a plugin or the operating system can produce. The error paths that could reach it
// are found by reading the source: a plain Error thrown, a JSON.parse outside a try, a process started
// anywhere but the one place that turns start failures into results. Each one that remains is listed
// here with the reason it cannot carry user-controlled input; a new one fails this test until it is
// classified (a CpcredError) or added with its reason.
import assert from 'node:assert/strict'
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {describe, it} from 'node:test'
import {fileURLToPath} from 'node:url'
import {printerFor} from '../../src/adapters/printer.js'
import {reportError} from '../../src/cli/report-error.js'
import {ExitCode} from '../../src/core/errors.js'

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))

/** file: the plain errors it may throw (by their text), and why no user input reaches the report. */
const PLAIN_ERRORS: Record<string, {texts: string[]; why: string}> = {
  'core/profiles/profile-view.ts': {
    texts: ['-o yaml without the YAML exporter'],
    why: 'a caller that renders -o yaml without loading the exporter: a bug of cpcred, no input in it',
  },
  'usecases/reflector.ts': {
    texts: ['the hub ended the watch at once'],
    why: 'thrown inside the watch loop and caught there as a retryable failure',
  },
  'core/kubeconfig/merge.ts': {
    texts: ['is not a kubeconfig', 'must be a list', 'has no name'],
    why: 'loadHubConfig, the only caller, turns them into a UsageError',
  },
  'core/kubeconfig/render.ts': {
    texts: ['hub.kubeconfigPaths is empty', 'hub.context is empty', 'needs cpcredCommand', 'is not absolute'],
    why: "the caller's contract: paths are resolved and the hub is loaded before rendering",
  },
  'core/exec-credential/cache.ts': {
    texts: ['a bigint has no JSON form', 'cache TTL must be'],
    why: 'values come from JSON (no bigint) and from flags already checked by the flag table',
  },
  'core/fleet/fan-out-report.ts': {texts: ['an output tail needs'], why: 'a constant of the caller'},
  'core/fleet/target-streams.ts': {
    texts: ['a stream capture needs a positive whole number'],
    why: 'the caps are constants of the caller',
  },
  'core/text/line-splitter.ts': {texts: ['a line splitter needs'], why: 'a constant of the caller'},
  'core/fleet/worker-pool.ts': {
    texts: ['a pool needs at least one worker'],
    why: 'a constant of the caller, or --parallel, which the flag table checks (min 1)',
  },
  'usecases/exec-target-files.ts': {
    texts: [
      'cpcred credential did not print an ExecCredential',
      'cpcred credential printed no token',
      'cpcred credential printed no client certificate',
    ],
    why: "a renewal's failure: the renewal loop catches it and warns once, the command runs on",
  },
  'adapters/credential-store.ts': {
    texts: ['cache TTL must be'],
    why: 'the TTL flag is checked by the flag table first',
  },
}

/** file: how many JSON.parse calls it may have outside a try block, and why. */
const UNGUARDED_PARSES: Record<string, {count: number; why: string}> = {
  'cli/complete.ts': {
    count: 2,
    why: "cpcred's own arguments to its background refresh, and its own manifest",
  },
  'cli/answer.ts': {count: 1, why: 'an answer cpcred wrote for itself, passed by the fast path'},
  'cli/main.ts': {count: 1, why: "cpcred's own package.json, read to name the bin for kubectl cpcred"},
}

/**
 * file: how many `new URL(` it may have outside a try block, and why its input is a URL already
 * judged: servers and proxies are checked where they enter (checkProfileCluster for profiles,
 * serverUrlProblem and proxyUrlProblem for the hub kubeconfig), so a bad one is a usage error there.
 */
const UNGUARDED_URLS: Record<string, {count: number; why: string}> = {
  'adapters/kube-client.ts': {count: 4, why: 'endpoint servers and proxy-url, checked where they entered'},
  'adapters/server-probe.ts': {
    count: 2,
    why: 'an endpoint server, checked where it entered, and a path on it',
  },
  'core/doctor/server-tls.ts': {count: 1, why: "a resolution's server, checked where the profile entered"},
  'cli/complete.ts': {count: 1, why: "cpcred's own manifest, relative to its module"},
  'cli/main.ts': {count: 1, why: "cpcred's own package root, relative to its module"},
  'adapters/build-info.ts': {count: 1, why: "cpcred's own package root, relative to its module"},
  'adapters/target-launcher.ts': {count: 1, why: "cpcred's own launcher bundle, relative to its module"},
}

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(path.join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [path.join(dir, entry.name)]
        : [],
  )
}

function code(file: string): string[] {
  // Lines of code without comments (a comment may mention JSON.parse or spawn).
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => (/^\s*(\/\/|\*|\/\*\*)/.test(line) ? '' : line))
}

/** Whether line `index` is inside a try block (a `try {` earlier whose braces are still open). */
function insideTry(lines: string[], index: number): boolean {
  let depth = 0
  for (let at = index; at >= 0; at--) {
    const line = lines[at]!
    for (let char = line.length - 1; char >= 0; char--) {
      if (line[char] === '}') depth++
      else if (line[char] === '{') {
        if (depth === 0) {
          if (/\btry\s*$/.test(line.slice(0, char))) return true
        } else depth--
      }
    }
  }
  return false
}

describe('no user-controlled input reaches "This is unexpected … report it"', () => {
  const files = sourceFiles().map((file) => ({file, name: path.relative(SRC, file), lines: code(file)}))

  it('the text exists only where errors are reported, and in the doctor check that itself failed', () => {
    const holders = files
      .filter(({lines}) => lines.some((line) => line.includes('report it')))
      .map((f) => f.name)
    assert.deepEqual(holders.sort(), ['cli/report-error.ts', 'core/doctor/checks.ts'])
  })

  it('every plain Error thrown in src is listed with the reason it carries no user input', () => {
    const found: string[] = []
    for (const {name, lines} of files) {
      lines.forEach((line, index) => {
        if (!/throw new (Type|Range)?Error\(/.test(line)) return
        const statement = lines.slice(index, index + 3).join(' ')
        const listed = PLAIN_ERRORS[name]?.texts.some((text) => statement.includes(text))
        if (!listed) found.push(`${name}:${index + 1}: ${line.trim()}`)
      })
    }
    assert.deepEqual(
      found,
      [],
      'throw a CpcredError (classified, with an exit code) or list it with its reason',
    )
  })

  it('every JSON.parse outside a try block is listed with the reason its input is cpcred-made', () => {
    const counts = new Map<string, number>()
    for (const {name, lines} of files) {
      lines.forEach((line, index) => {
        if (line.includes('JSON.parse(') && !insideTry(lines, index))
          counts.set(name, (counts.get(name) ?? 0) + 1)
      })
    }
    const unlisted = [...counts].filter(([name, count]) => (UNGUARDED_PARSES[name]?.count ?? 0) < count)
    assert.deepEqual(unlisted, [], 'parse inside a try that throws a CpcredError, or list it with its reason')
  })

  it('every new URL outside a try block is listed with the reason its input was already judged', () => {
    const counts = new Map<string, number>()
    for (const {name, lines} of files) {
      lines.forEach((line, index) => {
        if (line.includes('new URL(') && !insideTry(lines, index))
          counts.set(name, (counts.get(name) ?? 0) + 1)
      })
    }
    const unlisted = [...counts].filter(([name, count]) => (UNGUARDED_URLS[name]?.count ?? 0) < count)
    assert.deepEqual(
      unlisted,
      [],
      'check the URL where it enters, parse it inside a try, or list it with its reason',
    )
  })

  it('processes start in one place, which turns every start failure into a result', () => {
    const starters = files
      .filter(({lines}) =>
        lines.some((line) => /\b(spawn|spawnSync|execFile|execFileSync|execSync)\(/.test(line)),
      )
      .map((f) => f.name)
      .sort()
    // complete.ts starts cpcred itself, detached, for a background refresh whose failure is silent;
    // credential-renewal.ts starts cpcred itself inside a promise, whose rejection (a throw from
    // spawn included) the renewal loop reports as a warning while the command runs on.
    // completion-targets.ts starts cpcred itself at TAB time inside a try: any failure is a miss;
    // build-info.ts asks kubectl its version inside a try: any failure is said in `cpcred version`.
    assert.deepEqual(starters, [
      'adapters/build-info.ts',
      'adapters/completion-targets.ts',
      'adapters/credential-renewal.ts',
      'adapters/process-group.ts',
      'cli/complete.ts',
    ])
    const group = readFileSync(path.join(SRC, 'adapters/process-group.ts'), 'utf8')
    assert.match(
      group,
      /try \{\s*child = spawn\(/,
      'spawn is guarded: Node throws E2BIG instead of emitting it',
    )
  })

  it('classifies operating-system limits as the environment, never as a bug', () => {
    for (const code of ['E2BIG', 'EMFILE', 'ENFILE', 'ENOMEM', 'EAGAIN', 'ENAMETOOLONG', 'ELOOP']) {
      let text = ''
      const sink = {write: (chunk: string) => (text += chunk)}
      const error = Object.assign(new Error(`spawn ${code}`), {code, syscall: 'spawn /bin/plugin'})
      const exit = reportError(error, printerFor({stdout: sink, stderr: sink}), {debug: false})
      assert.equal(exit, ExitCode.Failure, code)
      assert.doesNotMatch(text, /report it/, code)
      assert.doesNotMatch(text, new RegExp(`: ${code}$`, 'm'), `${code} is said in words`)
    }
  })
})
