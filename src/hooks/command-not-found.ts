// `cpcred lsit`, `cpcred hub usee hub-a`: the usage error of cli/unknown-command.ts. oclif's
// not-found plugin suggested only on a terminal, and its colour codes reached the message as text.
import type {Hook} from '@oclif/core'
import {commandWords, unknownCommand} from '../cli/unknown-command.js'

const hook: Hook<'command_not_found'> = async function (options) {
  throw unknownCommand(options.config.bin, options.id.split(':'), commandWords(options.config))
}

export default hook
