// Flags shared by commands, spelled as kubectl spells them.
import {Flags} from '@oclif/core'

export const hubFlags = {
  kubeconfig: Flags.string({
    summary: 'Path to the hub kubeconfig file (default: KUBECONFIG, then ~/.kube/config).',
    helpGroup: 'HUB',
  }),
  context: Flags.string({summary: 'The hub kubeconfig context to use.', helpGroup: 'HUB'}),
  namespace: Flags.string({
    char: 'n',
    summary: "Namespace of the ClusterProfiles (default: the context's namespace).",
    helpGroup: 'HUB',
  }),
}

export const allNamespacesFlag = Flags.boolean({
  char: 'A',
  summary: 'Look in all namespaces.',
  exclusive: ['namespace'],
  helpGroup: 'HUB',
})

export const selectorFlag = Flags.string({
  char: 'l',
  summary: 'Label selector to filter ClusterProfiles on (e.g. -l env=prod,tier!=test).',
})

export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'yaml', 'name'] as const
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

/** -o for commands that print profiles. */
export const outputFlag = Flags.option({
  char: 'o',
  summary: 'Output format.',
  options: OUTPUT_FORMATS,
  default: 'table' as OutputFormat,
})()

export const providerFlags = {
  'provider-file': Flags.string({
    summary:
      'Provider file mapping provider names to exec plugins (default: $CPCRED_PROVIDER_FILE, then $XDG_CONFIG_HOME/cpcred/providers.json).',
    helpGroup: 'PROVIDERS',
  }),
  'access-provider': Flags.string({
    summary:
      "A provider given inline, as name='/path/to/plugin --flag value' (repeatable; overrides the file's entry of that name).",
    multiple: true,
    helpGroup: 'PROVIDERS',
  }),
}

/** Fan-out commands: which profiles (names come as arguments). */
export const targetFlags = {
  'all-namespaces': allNamespacesFlag,
  selector: selectorFlag,
  all: Flags.boolean({summary: 'Every profile in the namespace (or in all namespaces with -A).'}),
}

export const impersonationFlags = {
  as: Flags.string({summary: 'Impersonate this user on the target clusters.'}),
  'as-group': Flags.string({summary: 'Impersonate this group (repeatable; needs --as).', multiple: true}),
}
