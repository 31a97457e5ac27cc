// The base class of cpcred's oclif commands, and the composition root of a run oclif starts: it
// builds the run's wiring once and hands it to the command's front (fronts.ts). A command class
// holds only its help text and flag table; none has a run() of its own but autocomplete's, which
// stands in front of @oclif/plugin-autocomplete's command and needs oclif's config.
import {Command} from '@oclif/core'
import {CpcredError} from '../core/errors.js'
import {runToExitWith} from './exit.js'
import {frontOf} from './fronts.js'
import {wire, type Wiring} from './wiring.js'

export abstract class FrontCommand extends Command {
  #wiring: Wiring | undefined

  /** This run's wiring, built on first use. */
  protected get wiring(): Wiring {
    return (this.#wiring ??= wire(process.env))
  }

  async run(): Promise<void> {
    const load = frontOf(this.id)
    if (!load) throw new CpcredError(`no front for the command "${this.id}"`)
    const front = await load()
    const code = await this.ending(() => front(this.wiring, this.argv))
    if (code) this.exit(code)
  }

  /**
   * Runs the command; a failure ends the run here, through this run's printer (so a status line the
   * command showed is cleared) and dying of the signal the command died of.
   */
  protected async ending<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command()
    } catch (error) {
      return runToExitWith(
        () => Promise.reject(error),
        async () => this.wiring,
      )
    }
  }
}
