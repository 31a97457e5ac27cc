// The profile argument of the commands that work on one profile.
import {Args} from '@oclif/core'

export const profileArg = Args.string({
  name: 'PROFILE',
  description: 'NAME or NAMESPACE/NAME of a ClusterProfile (omit on a terminal to choose one)',
  required: false,
})
