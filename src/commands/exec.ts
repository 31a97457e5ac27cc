import {Command, Flags} from '@oclif/core'
import {EXEC_USAGE, runExec} from '../cli/exec.js'
import {hubFlags, impersonationFlags, providerFlags, targetFlags} from '../cli/flags.js'
export default class Exec extends Command {
  static override summary = 'Run a command against one or many target clusters with fresh credentials.'
  static override description = `The command runs with KUBECONFIG pointing at a private temporary kubeconfig for the target
(removed however the command ends), plus CPCRED_PROFILE and CPCRED_NAMESPACE. One target: the
command gets the terminal and cpcred exits with its code. Many targets (names, -l, --all): they run
in parallel with prefixed output and a summary; cpcred exits 0 only if every one succeeded.

${EXEC_USAGE}`
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
    'profile-max-age': Flags.string({
      summary: 'Use a profile read from the hub less than this long ago again (0s: always read it).',
      default: '30s',
    }),
    verbose: Flags.boolean({char: 'v', summary: 'Say what cpcred does (secrets are never printed).'}),
  }

  // kubectl-style parsing happens in src/cli/exec.ts (the fast path, without oclif); bin/run.js
  // only comes here for --help. The flags above are the same ones, for the help text.
  async run(): Promise<void> {
    this.exit(await runExec(this.argv))
  }
}
