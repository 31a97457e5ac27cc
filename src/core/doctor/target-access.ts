// Doctor's authorization link: what the credential may do on the target. A target that accepts the
// credential (target-auth) can still forbid the command; kubectl's `auth can-i` asks the same two
// questions: a SelfSubjectRulesReview for a namespace, and a SelfSubjectAccessReview for one action.
import {ExitCode, UsageError} from '../errors.js'
import {fail, ok, warn, type CheckOutcome} from './checks.js'

/** The namespace the rules are listed for when --can names none. */
export const DEFAULT_TARGET_NAMESPACE = 'default'

/** One action, as `--can 'VERB RESOURCE[.GROUP][/SUBRESOURCE] [-n NAMESPACE]'` asks about it. */
export interface AccessQuestion {
  verb: string
  resource: string
  group: string
  subresource?: string
  namespace: string
  /** As the user wrote it, for the answer. */
  text: string
}

/** authorization.k8s.io/v1 SelfSubjectRulesReview's status, the parts doctor reads. */
export interface RulesStatus {
  resourceRules?: {verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]}[]
  nonResourceRules?: {verbs: string[]; nonResourceURLs?: string[]}[]
  incomplete?: boolean
  evaluationError?: string
}

/** authorization.k8s.io/v1 SelfSubjectAccessReview's status. */
export interface AccessStatus {
  allowed: boolean
  denied?: boolean
  reason?: string
  evaluationError?: string
}

const CAN_USAGE = "give --can 'VERB RESOURCE [-n NAMESPACE]', e.g. --can 'get pods -n kube-system'"

export function parseAccessQuestion(text: string): AccessQuestion {
  const words = text.trim().split(/\s+/).filter(Boolean)
  let namespace: string | undefined
  const rest: string[] = []
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!
    const joined = /^(?:-n|--namespace)=(.*)$/.exec(word)
    if (joined) namespace = joined[1]
    else if (word === '-n' || word === '--namespace') namespace = words[++index]
    else rest.push(word)
  }
  if (rest.length !== 2 || namespace === '' || (namespace === undefined && words.some(isNamespaceFlag))) {
    throw new UsageError(`--can "${text}" is not VERB RESOURCE [-n NAMESPACE]`, CAN_USAGE)
  }
  const [verb, target] = rest as [string, string]
  const [typed, subresource, extra] = target.split('/')
  if (!typed || extra !== undefined || subresource === '') {
    throw new UsageError(`--can "${text}": "${target}" is not RESOURCE[.GROUP][/SUBRESOURCE]`, CAN_USAGE)
  }
  const dot = typed.indexOf('.')
  return {
    verb,
    resource: dot === -1 ? typed : typed.slice(0, dot),
    group: dot === -1 ? '' : typed.slice(dot + 1),
    ...(subresource === undefined ? {} : {subresource}),
    namespace: namespace ?? DEFAULT_TARGET_NAMESPACE,
    text: text.trim(),
  }
}

const isNamespaceFlag = (word: string) => word === '-n' || word === '--namespace'

/** `get, list pods` for a rule; its group when not the core one. */
function ruleText(rule: NonNullable<RulesStatus['resourceRules']>[number]): string {
  const groups = (rule.apiGroups ?? []).filter((group) => group !== '')
  const resources = (rule.resources ?? []).map((resource) =>
    groups.length === 0 || resource === '*' ? resource : `${resource}.${groups.join('|')}`,
  )
  const names = rule.resourceNames?.length ? ` (only ${rule.resourceNames.join(', ')})` : ''
  return `${rule.verbs.join(',')} ${resources.join(',')}${names}`
}

/** Rules every authenticated user has (asking who it is and what it may): not a grant of its own. */
function isSelfReview(rule: NonNullable<RulesStatus['resourceRules']>[number]): boolean {
  const groups = rule.apiGroups ?? []
  return groups.every((group) => group === 'authorization.k8s.io' || group === 'authentication.k8s.io')
}

const SHOWN_RULES = 6

/** What the credential may do in `namespace`, from its SelfSubjectRulesReview. */
export function judgeRules(status: RulesStatus, namespace: string): CheckOutcome {
  const granted = (status.resourceRules ?? []).filter((rule) => !isSelfReview(rule))
  const incomplete = status.incomplete
    ? `; the list may be incomplete (${status.evaluationError || 'the target has an authorizer that cannot list rules'}): ask about one action with --can`
    : ''
  if (granted.length === 0) {
    return warn(
      `may do nothing in namespace ${namespace} but ask who it is${incomplete}`,
      `ask the target's administrator for a Role in ${namespace} (or a ClusterRole) bound to this identity; --can 'VERB RESOURCE -n NS' asks about another namespace`,
    )
  }
  const shown = granted.slice(0, SHOWN_RULES).map(ruleText)
  const more = granted.length > SHOWN_RULES ? ` and ${granted.length - SHOWN_RULES} more rules` : ''
  return ok(`in namespace ${namespace} may ${shown.join('; ')}${more}${incomplete}`)
}

/** The answer to --can: a denial is a failure of its own class (4), as kubectl's Forbidden is. */
export function judgeAccess(question: AccessQuestion, status: AccessStatus): CheckOutcome {
  const asked = `${question.verb} ${resourceText(question)} in namespace ${question.namespace}`
  if (status.allowed) return ok(`may ${asked}${status.reason ? ` (${status.reason})` : ''}`)
  const why = status.reason || status.evaluationError
  return fail(
    ExitCode.Denied,
    `may not ${asked}${why ? `: ${why}` : ''}`,
    `ask the target's administrator for a Role in ${question.namespace} (or a ClusterRole) that allows ${question.verb} on ${resourceText(question)} for this identity`,
  )
}

function resourceText(question: AccessQuestion): string {
  const typed = question.group ? `${question.resource}.${question.group}` : question.resource
  return question.subresource ? `${typed}/${question.subresource}` : typed
}
