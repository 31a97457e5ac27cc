// oclif's help, with cpcred's answer for a subject that names no command or topic: `cpcred help exce`
// suggests `exec` as `cpcred exce` does (oclif said only "Command exce not found.").
import {Help} from '@oclif/core'
import {commandWords, unknownCommand} from './unknown-command.js'

export default class CpcredHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    const words = argv.filter((word) => !word.startsWith('-'))
    const subject = words.join(':')
    const known =
      words.length === 0 ||
      this.config.findCommand(subject) !== undefined ||
      this.config.findTopic(subject) !== undefined
    if (!known) throw unknownCommand(this.config.bin, words, commandWords(this.config))
    return super.showHelp(argv)
  }
}
