// The profile argument and the picker wiring shared by commands that work on one profile.
import {Args} from '@oclif/core'
import type {HubPort} from '../usecases/ports.js'
import type {Printer} from '../adapters/printer.js'
import type {ClusterProfile} from '../core/profiles/cluster-profile.js'
import {oneProfile} from '../usecases/find-profiles.js'
import {wire} from './wiring.js'

export const profileArg = Args.string({
  name: 'PROFILE',
  description: 'NAME or NAMESPACE/NAME of a ClusterProfile (omit on a terminal to choose one)',
  required: false,
})

/** The profile named on the command line or, on a terminal, picked from a list. */
export function chosenProfile(
  hub: HubPort,
  text: string | undefined,
  allNamespaces: boolean,
  printer: Printer,
): Promise<ClusterProfile> {
  return oneProfile(
    hub,
    text,
    {namespace: hub.config.namespace, allNamespaces},
    {
      interactive: printer.interactive,
      pickOne: async (profiles) => (await wire().picker()).pickProfile(profiles, 'Which ClusterProfile?'),
    },
  )
}
