// `cpcred list --watch`: the listing, then each change, until SIGINT or SIGTERM end it cleanly.
import type {HubPort} from '../usecases/ports.js'
import type {Wiring} from './wiring.js'
import type {ListProfilesInput, ListedProfiles} from '../usecases/list-profiles.js'
import {untilInterrupted} from './interrupt.js'
import type {ListPrinter} from './list-output.js'

export async function followUntilInterrupted(
  hub: HubPort,
  input: Omit<ListProfilesInput, 'onRestart'>,
  view: ListPrinter,
  wiring: Pick<Wiring, 'printer' | 'interrupts'>,
): Promise<void> {
  const {printer} = wiring
  const {followProfiles} = await import('../usecases/follow-profiles.js')
  let listing: ListedProfiles | undefined
  try {
    await untilInterrupted(wiring, (signal) =>
      followProfiles(
        hub,
        {...input, signal},
        {
          onList(first) {
            listing = first
            view.all(first)
          },
          onChange: (change) => view.change(change.profile, listing!),
          onProblem: (message, retryInMs) =>
            printer.warn(`${message}; retrying in ${(retryInMs / 1000).toFixed(1)}s`),
        },
      ),
    )
  } finally {
    await hub.close()
  }
}
