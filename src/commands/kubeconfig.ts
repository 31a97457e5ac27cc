import {FrontCommand} from '../cli/front-command.js'
import {KUBECONFIG_FLAGS} from '../cli/kubeconfig.js'
import {oclifFlags} from '../cli/oclif-flags.js'

export default class Kubeconfig extends FrontCommand {
  static override summary = 'Write a kubeconfig with one context per profile, using the matching exec plugin.'
  static override usage = 'kubeconfig [PROFILE...] [FLAGS]'
  static override description = `--mode plugin (default): each user runs the matched plugin directly, exactly as the upstream Cluster Inventory access library would; the hub is pinned in its env (KUBECONFIG, CPCRED_HUB_CONTEXT) for plugins that read it. --mode cpcred: each user runs 'cpcred credential', which re-reads the profile and uses the credential cache. A provider with a serviceAccountToken block always gets a 'cpcred credential' entry (said on stderr): only cpcred can hand its plugin the hub's token.

--merge adds the entries to an existing kubeconfig and, run again, updates the ones cpcred wrote for the same profile and hub (a cpcred/profile extension in each entry names them); any other entry of the same name is refused unless --overwrite. --merge and --output-file write through symlinks to the real file, atomically, keeping its mode and owner; new files are 0600.`
  static override examples = [
    '<%= config.bin %> kubeconfig fleet-prod/eu-west-1 > eu-west-1.kubeconfig',
    '<%= config.bin %> kubeconfig -A -l env=prod --merge --set-current',
    '<%= config.bin %> kubeconfig --all -n fleet --mode cpcred --output-file ~/.kube/fleet',
  ]
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override strict = false
  static override args = {}
  static override flags = oclifFlags(KUBECONFIG_FLAGS)
}
