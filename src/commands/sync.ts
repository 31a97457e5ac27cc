import {FrontCommand} from '../cli/front-command.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {SYNC_FLAGS} from '../cli/sync.js'

export default class Sync extends FrontCommand {
  static override summary =
    'Keep a kubeconfig in step with the inventory: add, update and prune what cpcred wrote.'
  static override description = `Adds a context, cluster and user for every selected profile a provider of your provider file can reach, updates those whose profile changed (server, CA, extensions, provider), and prunes those whose profile is gone, no longer selected or no longer reachable.

Only entries cpcred wrote for this hub are touched: cpcred marks each one with a kubeconfig extension naming the hub and the profile. An entry you wrote is never changed, even under the same name: sync says so and skips that profile. The current context is changed only with --set-current; if it is pruned, sync says so and leaves it unset.

The file is written once, atomically, under the same lock as 'cpcred kubeconfig --merge', through symlinks, keeping its mode; and not at all when nothing changed. --watch keeps following the hub with the watch API and applies each change within moments, surviving watch expiry, dropped connections and hub restarts. With --placement or --placement-key it follows the PlacementDecisions too, so the kubeconfig follows the scheduler; with --healthy, a profile's health.`
  static override examples = [
    '<%= config.bin %> sync -A --all --dry-run',
    '<%= config.bin %> sync -n fleet-prod -l env=prod',
    '<%= config.bin %> sync -A --all --mode cpcred --output-file ~/.kube/fleet --watch',
    '<%= config.bin %> sync -A --all -o json',
    '<%= config.bin %> sync -n fleet-prod --placement web --healthy --watch',
  ]
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(SYNC_FLAGS)
}
