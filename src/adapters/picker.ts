// Interactive choice of profiles on a terminal (@inquirer/prompts, loaded only when a person is
// asked). Never used without a TTY: callers check Terminal.interactive first.
import {profileKey, type ClusterProfile} from '../core/cluster-profile.js'
import {CpcredError} from '../core/errors.js'
import {printable} from '../core/printable.js'
import {healthOf} from '../core/profile-view.js'

/** Fuzzy match: the typed characters appear in order (as fzf's basic mode). */
export function fuzzyMatches(term: string, text: string): boolean {
  let at = 0
  for (const char of term.toLowerCase()) {
    at = text.indexOf(char, at) + 1
    if (at === 0) return false
  }
  return true
}

/** A choice as the prompt draws it: inquirer writes to the terminal itself, so it gets printable text. */
function describe(profile: ClusterProfile): string {
  const display = profile.spec?.displayName ? ` — ${profile.spec.displayName}` : ''
  return printable(`${profileKey(profile)}${display} (healthy: ${healthOf(profile)})`)
}

export async function pickProfile(profiles: ClusterProfile[], message: string): Promise<ClusterProfile> {
  if (profiles.length === 0)
    throw new CpcredError('there are no ClusterProfiles to choose from here', {hint: 'try -A'})
  const {search} = await import('@inquirer/prompts')
  return cancellable(() =>
    search<ClusterProfile>({
      message,
      pageSize: 15,
      source: async (term) =>
        profiles
          .filter((profile) => !term || fuzzyMatches(term, profileKey(profile).toLowerCase()))
          .map((profile) => ({value: profile, name: describe(profile)})),
    }),
  )
}

export async function pickProfiles(profiles: ClusterProfile[], message: string): Promise<ClusterProfile[]> {
  if (profiles.length === 0)
    throw new CpcredError('there are no ClusterProfiles to choose from here', {hint: 'try -A'})
  const {checkbox} = await import('@inquirer/prompts')
  const chosen = await cancellable(() =>
    checkbox<ClusterProfile>({
      message,
      pageSize: 15,
      required: true,
      choices: profiles.map((profile) => ({value: profile, name: describe(profile)})),
    }),
  )
  return chosen
}

async function cancellable<T>(prompt: () => Promise<T>): Promise<T> {
  try {
    return await prompt()
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError') throw new CpcredError('cancelled')
    throw error
  }
}
