import {Command, Flags} from '@oclif/core'
import {nodeChildRunner, forwardingSignals} from '../adapters/child-process.js'
import {CredentialStore, defaultCredentialCacheDir} from '../adapters/credential-store.js'
import {fanOutView} from '../adapters/fan-out-view.js'
import {execaPluginRunner} from '../adapters/process.js'
import {requireProviders} from '../adapters/providers.js'
import {tempKubeconfigs} from '../adapters/temp-kubeconfigs.js'
import {paint, processTerminal} from '../adapters/terminal.js'
import {profileKey} from '../core/cluster-profile.js'
import {parseDuration} from '../core/duration.js'
import {ExitCode, UsageError} from '../core/errors.js'
import {hubFlags, impersonationFlags, providerFlags, targetFlags} from '../cli/flags.js'
import {listProfiles} from '../usecases/list-profiles.js'
import {parseProfileRef, selectProfiles} from '../usecases/find-profiles.js'
import {execMany, execOne, type ExecDeps} from '../usecases/exec-command.js'
import {openSession} from '../cli/session.js'

export default class Exec extends Command {
  static override summary = 'Run a command against one or many target clusters with fresh credentials.'
  static override description = `The command runs with KUBECONFIG pointing at a private temporary kubeconfig for the target
(removed however the command ends), plus CPCRED_PROFILE and CPCRED_NAMESPACE. One target: the
command gets the terminal and cpcred exits with its code. Many targets (names, -l, --all): they run
in parallel with prefixed output and a summary; cpcred exits 0 only if every one succeeded.`
  static override examples = [
    '<%= config.bin %> exec fleet-prod/eu-west-1 -- kubectl get pods -A',
    '<%= config.bin %> exec -A -l env=prod --parallel 8 -- kubectl version',
    '<%= config.bin %> exec --all -n fleet -o json -- helm list -A',
  ]
  static override strict = false
  static override flags = {
    ...hubFlags,
    ...targetFlags,
    ...providerFlags,
    parallel: Flags.integer({summary: 'How many targets run at once.', default: 4, min: 1}),
    'fail-fast': Flags.boolean({
      summary: 'Stop starting targets after the first failure, and stop the running ones.',
    }),
    output: Flags.option({
      char: 'o',
      summary: 'Summary format for many targets.',
      options: ['text', 'json'] as const,
      default: 'text' as const,
    })(),
    ...impersonationFlags,
    'no-cache': Flags.boolean({
      summary: 'Always run the plugin; neither read nor write the credential cache.',
    }),
    'cache-ttl': Flags.string({summary: 'Cache credentials that carry no expiry for this long (e.g. 5m).'}),
    'plugin-timeout': Flags.string({
      summary: 'Stop a credential plugin that runs longer than this.',
      default: '2m',
    }),
    verbose: Flags.boolean({char: 'v', summary: 'Say what cpcred does (secrets are never printed).'}),
  }

  async run(): Promise<void> {
    const separator = this.argv.indexOf('--')
    const command = separator === -1 ? [] : this.argv.slice(separator + 1)
    const {argv: names, flags} = await this.parse(
      Exec,
      separator === -1 ? this.argv : this.argv.slice(0, separator),
    )
    if (command.length === 0) {
      throw new UsageError('no command to run', 'put it after --, e.g. cpcred exec NAME -- kubectl get pods')
    }
    if (flags['as-group']?.length && !flags.as) throw new UsageError('--as-group needs --as')
    const terminal = processTerminal()
    const chalk = await paint(terminal)
    const {hub, providers: loaded} = await openSession(flags, terminal)
    const scope = {namespace: hub.config.namespace, allNamespaces: flags['all-namespaces']}
    let profiles = await selectProfiles(hub, {
      ...scope,
      refs: (names as string[]).map(parseProfileRef),
      selector: flags.selector,
      all: flags.all,
    })
    if (profiles.length === 0) {
      if (names.length || flags.selector || flags.all) {
        terminal.err(
          flags.selector ? `No ClusterProfiles match -l ${flags.selector}.\n` : 'No ClusterProfiles found.\n',
        )
        return
      }
      if (!terminal.interactive) {
        throw new UsageError(
          'no target given',
          'name profiles before --, or use -l SELECTOR or --all (there is no terminal to choose on)',
        )
      }
      const {pickProfiles} = await import('../adapters/picker.js')
      const inScope = await listProfiles(hub, {namespace: scope.allNamespaces ? undefined : scope.namespace})
      profiles = await pickProfiles(inScope.profiles, 'Run on which clusters? (space selects, enter runs)')
    }

    const warned = new Set<string>()
    const deps: ExecDeps = {
      plugins: execaPluginRunner,
      cache: flags['no-cache']
        ? undefined
        : new CredentialStore(defaultCredentialCacheDir(), {
            onProblem: (message) => flags.verbose && terminal.err(`cache: ${message}\n`),
          }),
      children: nodeChildRunner,
      temp: tempKubeconfigs(),
      now: () => performance.now(),
      forwardingSignals,
    }
    const input = {
      command,
      providers: requireProviders(loaded),
      hubIdentity: hub.identity(),
      hubPin: hub.pin(),
      stdinIsTTY: Boolean(process.stdin.isTTY),
      pluginTimeoutMs: parseDuration(flags['plugin-timeout'], '--plugin-timeout'),
      cacheTtlSeconds:
        flags['cache-ttl'] === undefined
          ? undefined
          : parseDuration(flags['cache-ttl'], '--cache-ttl') / 1000,
      as: flags.as,
      asGroups: flags['as-group'] ?? [],
      onWarning: (message: string) => {
        if (!warned.has(message)) terminal.err(`warning: ${message}\n`)
        warned.add(message)
      },
      onPluginStderr: (text: string) => terminal.err(text),
      onVerbose: flags.verbose ? (message: string) => terminal.err(`cpcred: ${message}\n`) : undefined,
    }
    await hub.client.close()

    if (profiles.length === 1 && names.length <= 1 && !flags.selector && !flags.all) {
      this.exit(await execOne(deps, input, profiles[0]!))
    }
    const view = fanOutView({
      profiles: profiles.map(profileKey),
      chalk,
      out: terminal.out,
      err: terminal.err,
      progress: Boolean(process.stderr.isTTY),
      json: flags.output === 'json',
    })
    const results = await execMany(deps, input, profiles, {
      parallel: flags.parallel,
      failFast: flags['fail-fast'],
      onLine: view.line,
      onDone: view.done,
    })
    view.finish(results)
    if (results.some((result) => result.exitCode !== 0)) this.exit(ExitCode.Failure)
  }
}
