import {FrontCommand} from '../cli/front-command.js'
import {LINT_FLAGS} from '../cli/lint.js'
import {oclifFlags} from '../cli/oclif-flags.js'

export default class Lint extends FrontCommand {
  static override usage = 'lint [PROFILE...] [FLAGS]'
  static override summary =
    'Check an inventory against KEP-4322 and the v1alpha2 ClusterProfile API, before its consumers move.'
  static override description = `Every profile selected (names, -l, or all of the namespace, or of every namespace with -A) is checked against upstream's rules: the v1alpha2 CRD's validation (server and proxy URLs, access provider names and count, the cluster manager's name), what v1alpha2 drops (credentialProviders, a certificate-authority path), the conformance suite's checks (the cluster-manager label, member ids, one profile per member cluster, ControlPlaneHealthy, Joined, the Kubernetes version) and the ClusterSet property that replaced the namespace label. One finding per profile and rule, grouped by inventory (namespace), each with its source, the field, what was found and what to do; for each member id several profiles share, which one acts (the oldest), which are ignored and what to delete.

Severities: error (breaks a consumer now), will-break (breaks once consumers read v1alpha2), warning (a SHOULD upstream). Exit code: 0 when no finding at or above --fail-on remains, 1 when one does, 2 for a usage error. The rules and their sources: docs/lint.md.`
  static override examples = [
    '<%= config.bin %> lint -n fleet',
    '<%= config.bin %> lint -A --fail-on will-break',
    '<%= config.bin %> lint -A --report junit=reports/lint.xml',
    '<%= config.bin %> lint fleet/eu-west-1 -o json',
  ]
  // The words are read by parseFlags (kubectl's grammar); these are for help.
  static override strict = false
  static override args = {}
  static override flags = oclifFlags(LINT_FLAGS)
}
