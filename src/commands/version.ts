import {FrontCommand} from '../cli/front-command.js'
import {oclifFlags} from '../cli/oclif-flags.js'
import {VERSION_FLAGS} from '../cli/version.js'

export default class Version extends FrontCommand {
  static override summary =
    'Show the version, commit and build date of this cpcred, the Node it runs on, the kubectl on PATH and where its docs are.'
  static override description = `Also \`cpcred --version\` and \`cpcred -v\`. The docs folder is where the hints' docs/… references lie in an installed copy.`
  static override examples = ['<%= config.bin %> version', '<%= config.bin %> version -o json']
  // The words are read by parseFlags (kubectl's grammar, as on the fast path); these are for help.
  static override flags = oclifFlags(VERSION_FLAGS)
}
