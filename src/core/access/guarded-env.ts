// Environment variables that choose which code a plugin runs, or which hub and identity it uses.
// Neither a profile (its additional-envs extension, profile-sourced.ts) nor a provider's
// serviceAccountToken.fileEnv (service-account-token.ts) may set them: one list, so the two cannot
// drift apart. docs/providers.md lists them for users.

const GUARDED_ENV_NAMES = [
  // PATH picks the executable for a bare command name; the others load libraries or scripts into
  // the plugin or the shell and interpreters it starts.
  /^PATH$/,
  /^LD_/,
  /^DYLD_/,
  /^NODE_OPTIONS$/,
  /^BASH_ENV$/,
  /^ENV$/,
  /^PYTHON(PATH|HOME|STARTUP)$/,
  /^PERL5(LIB|OPT)$/,
  /^RUBY(LIB|OPT)$/,
  /^GCONV_PATH$/,
  // Where a plugin finds its configuration and stored credentials (~/.aws, ~/.kube, ~/.config…).
  /^HOME$/,
  // Which hub (and hub credentials) a plugin reads: the hub pin's variables (hub-pin.ts).
  /^KUBECONFIG$/,
  /^CPCRED_HUB_/,
]

/** Whether `name` chooses which code runs or which hub and identity a plugin uses. */
export function isGuardedEnvName(name: string): boolean {
  return GUARDED_ENV_NAMES.some((pattern) => pattern.test(name))
}
