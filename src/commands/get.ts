import {FrontCommand} from '../cli/front-command.js'
import {GET_FLAGS} from '../cli/get.js'
import {oclifFlags} from '../cli/oclif-flags.js'

export default class Get extends FrontCommand {
  static override summary = 'One kubectl get table across many clusters, with a CLUSTER column.'
  static override description = `Profiles and cpcred's flags go before --, kubectl get's words after it: TYPE[,TYPE...] [NAME...] or TYPE/NAME..., -n/--namespace, -A/--all-namespaces, -l/--selector, --field-selector, -o wide|name|json|yaml|jsonl, --no-headers, --sort-by (a column such as AGE, or a JSONPath such as .metadata.name) and -w/--watch.

Each target is asked, with the credential exec would use, through cpcred's own HTTP client, for the table kubectl get shows (the server prints the columns, a CRD's included); the rows of every target come under one header, behind a CLUSTER column holding the profile (NAMESPACE/NAME). Resource types, short names and categories are resolved by each server's discovery, kept for 6 hours per server as kubectl keeps it.

-o json|yaml print one List whose items carry the profile they came from in the annotation multicluster.x-k8s.io/cluster-profile; -o jsonl prints each object on a line as its target answers; -o name prints "PROFILE KIND/NAME" lines.

-w/--watch prints the table, then a row per change on every target (-o name a line, -o jsonl an object), as kubectl get -w, until interrupted; a target that restarts or cannot be reached is watched again with backoff, and said on stderr.

A target that cannot be reached, refuses the credential or lacks the resource is a row "CLUSTER <error: reason>" (an entry of the List's status with -o json|yaml, a JUnit case with --report); the others still print, and cpcred exits 1. See docs/get.md.`
  static override usage = 'get [PROFILE...] [FLAGS] -- TYPE[,TYPE...] [NAME...] [KUBECTL GET FLAGS]'
  static override examples = [
    '<%= config.bin %> get -A -l env=prod -- pods -n kube-system -l app=web',
    '<%= config.bin %> get fleet-prod/eu-west-1 fleet-prod/us-east-1 -- deploy,sts -A',
    '<%= config.bin %> get -n fleet --placement web -- nodes -o wide',
    '<%= config.bin %> get --all -- pods -A --sort-by AGE',
    '<%= config.bin %> get --all -- deploy -A -o json',
    '<%= config.bin %> get fleet-prod/eu-west-1 fleet-prod/us-east-1 -- pods -n web --watch',
  ]
  static override strict = false
  static override flags = oclifFlags(GET_FLAGS)
}
