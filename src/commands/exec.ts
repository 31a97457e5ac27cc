import {FrontCommand} from '../cli/front-command.js'
import {EXEC_FLAGS} from '../cli/exec.js'
import {oclifFlags} from '../cli/oclif-flags.js'

export default class Exec extends FrontCommand {
  static override summary = 'Run a command against one or many target clusters with fresh credentials.'
  static override description = `The command runs with KUBECONFIG pointing at a private temporary kubeconfig for the target (removed however the command ends), plus CPCRED_PROFILE and CPCRED_NAMESPACE.

The command starts with a credential that has at least --min-credential-lifetime left (default: the lesser of 5m and half its lifetime), and the kubeconfig's user names private files holding the current credential (tokenFile, or client-certificate and client-key) that cpcred renews while the command runs: kubectl re-reads them on its own, so a long 'kubectl get -w', 'logs -f' or helm upgrade keeps working, and runs no credential plugin for them, so a kuberc credentialPluginPolicy of DenyAll or Allowlist does not refuse them. While the hub cannot be reached, one named target uses the profile as last read, up to --profile-max-stale, with a credential already cached, and says so on stderr.

One target: the command gets the terminal and cpcred exits with its code (128+n when it dies of signal n). Many targets (names, -l, --all): they run in parallel with prefixed output and a summary; cpcred exits 0 only if every one succeeded. Targets that need the same credential share one plugin run. When cpcred's stdin is not a terminal, every target's command reads all of it ('cat app.yaml | cpcred exec --all -- kubectl apply -f -'; up to 256 MiB, kept in a private file removed with the run); --stdin=none gives them /dev/null.

For CI (see docs/ci.md): --shard splits what -l/--all select across the CI system's parallel jobs; --report writes JUnit XML or JSON with one entry per target; --output-dir keeps each target's output as a log; --quiet shows only the summary; --timeout stops a hung target's command. With any of --report, --output-dir, --quiet or -o json even one target runs as a fan-out, so a shard of one reports like any other.`
  static override usage = 'exec [PROFILE...] [FLAGS] -- COMMAND [ARGS...]'
  static override examples = [
    '<%= config.bin %> exec fleet-prod/eu-west-1 -- kubectl get pods -A',
    '<%= config.bin %> exec -A -l env=prod --parallel 8 -- kubectl version',
    '<%= config.bin %> exec --all -n fleet -o json -- helm list -A',
    '$ cat app.yaml | <%= config.bin %> exec -A -l env=prod -- kubectl apply -f -',
    '<%= config.bin %> exec -n fleet --placement web-rollout --healthy --report junit=reports/fleet.xml -- kubectl apply -f app/',
    '<%= config.bin %> exec -A -l env=prod --shard 2/8 --parallel 16 --quiet --timeout 5m --report junit=reports/fleet.xml --output-dir logs -- kubectl apply -f app/',
  ]
  static override strict = false
  static override flags = oclifFlags(EXEC_FLAGS)
}
