// What most commands start with: the hub (kubectl's selection rules) and the consumer's providers,
// read side by side, with provider-file warnings said once.
import {Hub} from '../adapters/hub.js'
import {checkLabelSelector} from '../core/fleet/label-selector.js'
import {hubSelection} from './flags.js'
import {loadProviders, type LoadedProviders} from '../adapters/providers.js'
import type {Printer} from '../adapters/printer.js'
import {wire} from './wiring.js'

export interface SessionFlags {
  kubeconfig?: string
  context?: string
  namespace?: string
  'api-version'?: string
  'provider-file'?: string
  'access-provider'?: string[]
  selector?: string
}

export async function openSession(
  flags: SessionFlags,
  printer: Printer,
): Promise<{hub: Hub; providers: LoadedProviders}> {
  checkLabelSelector(flags.selector)
  const [hub, providers] = await Promise.all([
    Hub.connect(hubSelection(flags), {runExecPlugin: wire().runExecPlugin}),
    loadProviders({providerFile: flags['provider-file'], accessProviders: flags['access-provider']}),
  ])
  for (const warning of providers.warnings) printer.warn(warning)
  return {hub, providers}
}
