// The flags commands share, spelled as kubectl spells them, as plain data (src/cli/flag-table.ts):
// the fast path reads them without oclif.
import {PROFILE_VERSIONS} from '../core/profiles/cluster-profile.js'
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  formatDuration,
  parseRequestTimeout,
  REQUEST_TIMEOUT_GRAMMAR,
} from '../core/duration.js'
import {checkLabelSelector} from '../core/fleet/label-selector.js'
import {DEFAULT_PLUGIN_TIMEOUT_MS} from '../usecases/run-plugin.js'
import type {HubSelection} from '../adapters/hub.js'
import type {FlagTable, FlagValues} from './flag-table.js'
import {NO_CACHE_FLAG, VERBOSE_FLAG} from './pipeline-flags.js'
import type {PipelineInput} from '../usecases/credential-pipeline.js'

export {VERBOSE_FLAG}

export const HUB_FLAGS = {
  kubeconfig: {
    kind: 'string',
    summary: 'Path to the hub kubeconfig file (default: KUBECONFIG, then ~/.kube/config).',
    helpGroup: 'HUB',
  },
  context: {kind: 'string', summary: 'The hub kubeconfig context to use.', helpGroup: 'HUB'},
  namespace: {
    kind: 'string',
    char: 'n',
    summary: "Namespace of the ClusterProfiles (default: the context's namespace).",
    helpGroup: 'HUB',
  },
  'api-version': {
    kind: 'option',
    summary:
      'Read ClusterProfiles in this version (default: v1alpha1 while the hub serves it, else v1alpha2).',
    options: PROFILE_VERSIONS,
    helpGroup: 'HUB',
  },
  // kubectl's flag, read by its grammar (clientcmd.ParseTimeout), with a default kubectl lacks.
  'request-timeout': {
    kind: 'string',
    summary: `How long to wait for one hub request before giving up (exit 3): ${REQUEST_TIMEOUT_GRAMMAR}. A watch is given this long to start, then runs until the hub ends it.`,
    default: formatDuration(DEFAULT_REQUEST_TIMEOUT_MS),
    check: (value) => void parseRequestTimeout(value),
    helpGroup: 'HUB',
  },
} as const satisfies FlagTable

/** The hub flags' values, as parseFlags gives them. */
export interface HubFlagValues {
  kubeconfig?: string
  context?: string
  namespace?: string
  'api-version'?: string
  'request-timeout'?: string
}

/** The hub as the hub flags select it. */
export function hubSelection(flags: HubFlagValues): HubSelection {
  return {
    kubeconfig: flags.kubeconfig,
    context: flags.context,
    namespace: flags.namespace,
    apiVersion: flags['api-version'],
    requestTimeoutMs:
      flags['request-timeout'] === undefined ? undefined : parseRequestTimeout(flags['request-timeout']),
  }
}

export const ALL_NAMESPACES_FLAG = {
  'all-namespaces': {
    kind: 'boolean',
    char: 'A',
    summary: 'Look in all namespaces.',
    exclusive: ['namespace'],
    helpGroup: 'HUB',
  },
} as const satisfies FlagTable

export const SELECTOR_FLAG = {
  selector: {
    kind: 'string',
    char: 'l',
    summary: 'Label selector to filter ClusterProfiles on (e.g. -l env=prod,tier!=test).',
    // Refused as the API server would refuse it, before any request.
    check: (selector) => checkLabelSelector(selector),
  },
} as const satisfies FlagTable

/** What every command's -o calls the format for people (a table, a report, a summary). */
export const TEXT_FORMAT = 'text'

/**
 * The one declaration of -o/--output: these formats, the first the default. `table`, the name list
 * and whoami gave the format for people before, is still read as text (scripts use it) but not shown.
 */
export function outputFlag<const F extends readonly [string, ...string[]]>(
  formats: F,
  summary = 'Output format.',
): {
  output: {kind: 'option'; char: 'o'; summary: string; options: F; default: F[0]; aliases: {table: 'text'}}
} {
  return {
    output: {
      kind: 'option',
      char: 'o',
      summary,
      options: formats,
      default: formats[0],
      aliases: {table: TEXT_FORMAT},
    },
  }
}

/** -o for commands that print one document: a report for people, or its data. */
export const DOCUMENT_OUTPUT_FLAG = outputFlag([TEXT_FORMAT, 'json', 'yaml']) satisfies FlagTable

export const PROVIDER_FLAGS = {
  'provider-file': {
    kind: 'string',
    summary:
      'Provider file mapping provider names to exec plugins (default: $CPCRED_PROVIDER_FILE, then $XDG_CONFIG_HOME/cpcred/providers.json).',
    helpGroup: 'PROVIDERS',
  },
  'access-provider': {
    kind: 'string',
    summary:
      "A provider given inline, as name='/path/to/plugin --flag value' (repeatable; overrides the file's entry of that name).",
    multiple: true,
    helpGroup: 'PROVIDERS',
  },
} as const satisfies FlagTable

/** One job's part of what -l, --all or --placement select (src/core/fleet/shard.ts). */
export const SHARD_FLAG = {
  shard: {
    kind: 'string',
    summary:
      "Only this job's part of what -l/--all/--placement select: INDEX/COUNT (e.g. 2/8), or auto from GitLab, Buildkite or CircleCI parallel jobs, or auto/COUNT in a Kubernetes Indexed Job (count also from $CPCRED_SHARD_COUNT) (default: $CPCRED_SHARD).",
  },
} as const satisfies FlagTable

/** Selecting by a scheduler's choice, and gating on health (core/fleet/placement.ts). */
export const PLACEMENT_FLAGS = {
  placement: {
    kind: 'string',
    summary:
      'The profiles a PlacementDecision in the namespace references (with every slice sharing its decision-key), in decision-index order.',
  },
  'placement-key': {
    kind: 'string',
    summary:
      'The profiles referenced by every PlacementDecision labelled multicluster.x-k8s.io/placement-key=KEY in the namespace, in decision-index order.',
    exclusive: ['placement'],
  },
  healthy: {
    kind: 'boolean',
    summary:
      'Only profiles whose ControlPlaneHealthy condition is True; the others are listed as skipped, with why.',
  },
} as const satisfies FlagTable

/** Fan-out commands: which profiles (names come as arguments). */
export const TARGET_FLAGS = {
  ...ALL_NAMESPACES_FLAG,
  ...SELECTOR_FLAG,
  ...SHARD_FLAG,
  all: {kind: 'boolean', summary: 'Every profile in the namespace (or in all namespaces with -A).'},
  'no-dedupe': {
    kind: 'boolean',
    summary:
      'Keep profiles that share an inventory-member-id in a namespace as separate targets (by default the oldest stands for their cluster, and none when the oldest tie).',
  },
} as const satisfies FlagTable

/** For CI: fewer selected targets than expected is a failure, not an empty success. */
export const MIN_TARGETS_FLAG = {
  'min-targets': {
    kind: 'integer',
    summary: 'Fail (exit 1) when fewer than this many profiles are selected, instead of succeeding on none.',
    min: 0,
    helpGroup: 'CI',
  },
} as const satisfies FlagTable

export const IMPERSONATION_FLAGS = {
  as: {kind: 'string', summary: 'Impersonate this user on the target clusters.'},
  'as-group': {
    kind: 'string',
    summary: 'Impersonate this group (repeatable; needs --as).',
    multiple: true,
    dependsOn: ['as'],
  },
} as const satisfies FlagTable

/** How credentials are obtained: the commands that run plugins (credential, exec). */
export const CREDENTIAL_RUN_FLAGS = {
  ...NO_CACHE_FLAG,
  'cache-ttl': {kind: 'duration', summary: 'Cache credentials that carry no expiry for this long (e.g. 5m).'},
  'plugin-timeout': {
    kind: 'duration',
    summary: 'Stop a credential plugin (and what it started) that runs longer than this.',
    default: formatDuration(DEFAULT_PLUGIN_TIMEOUT_MS),
  },
  'profile-max-age': {
    kind: 'duration',
    summary: 'Use a profile read from the hub less than this long ago again (0s: always read it).',
    default: '30s',
  },
  'profile-max-stale': {
    kind: 'duration',
    summary:
      'While the hub cannot be reached (refused, timed out, 5xx), use the last profile read from it up to this old, with a credential already cached (0s: never).',
    default: '24h',
  },
  'min-credential-lifetime': {
    kind: 'duration',
    summary:
      "Run the plugin again rather than hand out a cached credential that expires sooner than this (default: exec the lesser of 5m and half the credential's lifetime; credential 1m).",
  },
} as const satisfies FlagTable

/** The pipeline's part of what the flags of a command that runs plugins (credential, exec) say. */
export function pipelineInput(
  flags: FlagValues<typeof HUB_FLAGS & typeof CREDENTIAL_RUN_FLAGS & typeof VERBOSE_FLAG> & {
    'provider-file'?: string
    'access-provider'?: string[]
  },
): PipelineInput {
  return {
    kubeconfig: flags.kubeconfig,
    providers: {providerFile: flags['provider-file'], accessProviders: flags['access-provider']},
    noCache: flags['no-cache'],
    verbose: flags.verbose,
    profileMaxAgeMs: flags['profile-max-age'],
    profileMaxStaleMs: flags['profile-max-stale'],
    pluginTimeoutMs: flags['plugin-timeout'],
    cacheTtlMs: flags['cache-ttl'],
    minCredentialLifetimeMs: flags['min-credential-lifetime'],
  }
}

/** How the entries of a generated kubeconfig look (kubeconfig, sync). */
/** The kuberc kubectl reads (kubectl's --kuberc), for its credential-plugin policy. */
export const KUBERC_FLAG = {
  kuberc: {
    kind: 'string',
    summary:
      "The kuberc kubectl uses, as kubectl's --kuberc (default: KUBERC, else ~/.kube/kuberc), to check its credential-plugin policy.",
  },
} as const satisfies FlagTable

export const KUBECONFIG_ENTRY_FLAGS = {
  mode: {kind: 'option', summary: 'What the users run.', options: ['plugin', 'cpcred'], default: 'plugin'},
  'context-name': {
    kind: 'string',
    summary: 'Name template for contexts, clusters and users: {namespace}, {name}, {provider}.',
  },
  ...IMPERSONATION_FLAGS,
  'no-pin-hub': {
    kind: 'boolean',
    summary: 'Plugin mode: do not add KUBECONFIG/CPCRED_HUB_CONTEXT for plugins that read the hub.',
  },
  ...KUBERC_FLAG,
} as const satisfies FlagTable
