// `cpcred list --watch`: its use case (usecases/list-watch.ts) until SIGINT or SIGTERM end it cleanly.
import type {HubPort} from '../usecases/ports.js'
import type {ListProfilesInput} from '../usecases/list-profiles.js'
import {untilInterrupted} from './interrupt.js'
import type {ListPresenter} from './list-output.js'
import type {Wiring} from './wiring.js'

export async function followUntilInterrupted(
  hub: HubPort,
  input: Omit<ListProfilesInput, 'onRestart'>,
  view: ListPresenter,
  wiring: Pick<Wiring, 'notices' | 'printer' | 'interrupts'>,
): Promise<void> {
  const {listWatchCommand} = await import('../usecases/list-watch.js')
  await untilInterrupted(wiring, (signal) =>
    listWatchCommand({hub, notices: wiring.notices, view}, {...input, signal}),
  )
}
