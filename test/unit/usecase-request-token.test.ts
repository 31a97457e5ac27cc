// tokenRequestCommand (`cpcred plugin token-request`) with a hand-written hub: what it asks for, the
// failures it names, and that it always closes the hub.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {explainFailure} from '../../src/core/failures.js'
import type {TokenRequestOptions} from '../../src/core/exec-credential/token-request.js'
import {tokenRequestCommand} from '../../src/usecases/request-token.js'
import type {
  HubCallHints,
  HubPort,
  HubSelection,
  TokenRequestAnswer,
  TokenRequestSpec,
} from '../../src/usecases/ports.js'
import {strictHub} from '../helpers/fake-hub.js'

const SERVER = 'https://spoke.example:6443'
const execInfo = (config: unknown = null) =>
  JSON.stringify({
    apiVersion: 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    spec: {interactive: false, cluster: {server: SERVER, config}},
  })

interface Seen {
  selection?: HubSelection
  asked?: {namespace: string; serviceAccount: string; spec: TokenRequestSpec; hints: HubCallHints}
  closed: boolean
}

function hubAnswering(answer: () => Promise<TokenRequestAnswer | undefined>, seen: Seen) {
  return async (selection: HubSelection): Promise<HubPort> => {
    seen.selection = selection
    return strictHub({
      async requestToken(namespace, serviceAccount, spec, hints) {
        seen.asked = {namespace, serviceAccount, spec, hints}
        return answer()
      },
      async close() {
        seen.closed = true
      },
    })
  }
}

async function rejected(promise: Promise<unknown>): Promise<CpcredError> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof CpcredError, `expected a CpcredError, got ${String(error)}`)
    return error
  }
  assert.fail('expected an error')
}

const options = (extra: Partial<TokenRequestOptions> = {}): TokenRequestOptions => ({
  verbose: false,
  ...extra,
})

describe('tokenRequestCommand', () => {
  it('without a ServiceAccount, outside a pod: a usage error after reading the hub config, no request', async () => {
    const seen: Seen = {closed: false}
    const openHub = hubAnswering(async () => assert.fail('not asked'), seen)
    const noAccount = await rejected(
      tokenRequestCommand({openHub}, {options: options(), execInfo: execInfo(), env: {}}),
    )
    assert.equal(noAccount.exitCode, ExitCode.Usage)
    assert.match(noAccount.message, /no ServiceAccount to request a token for/)
    assert.equal(seen.asked, undefined)
    assert.equal(seen.closed, true)
  })

  it('without a ServiceAccount and without a hub to default to: the missing ServiceAccount is named', async () => {
    const openHub = async (): Promise<HubPort> => {
      throw new CpcredError('no kubeconfig found for the hub', {exitCode: ExitCode.Usage})
    }
    const error = await rejected(
      tokenRequestCommand({openHub}, {options: options(), execInfo: execInfo(), env: {}}),
    )
    assert.match(error.message, /no ServiceAccount to request a token for/)
  })

  it("in a pod, without a ServiceAccount named: the pod's own, in its namespace, audience the target", async () => {
    const seen: Seen = {closed: false}
    const openHub = async (selection: HubSelection): Promise<HubPort> => {
      seen.selection = selection
      return strictHub(
        {
          async requestToken(namespace, serviceAccount, spec, hints) {
            seen.asked = {namespace, serviceAccount, spec, hints}
            return {status: {token: 'tok', expirationTimestamp: '2030-01-01T00:00:00Z'}}
          },
          async close() {
            seen.closed = true
          },
        },
        {inCluster: {dir: '/sa', serviceAccount: {namespace: 'ci', name: 'runner'}}},
      )
    }
    const answer = await tokenRequestCommand(
      {openHub},
      {
        options: options({verbose: true}),
        execInfo: execInfo(),
        env: {KUBECONFIG: '', CPCRED_HUB_CONTEXT: 'in-cluster'},
      },
    )
    assert.equal(seen.selection?.inCluster, true)
    assert.equal(seen.asked?.namespace, 'ci')
    assert.equal(seen.asked?.serviceAccount, 'runner')
    assert.deepEqual(seen.asked?.spec.audiences, [SERVER])
    assert.match(answer.note!, /the pod's own ServiceAccount ci\/runner/)
    // A ServiceAccount named in the flags (or the profile) still wins.
    await tokenRequestCommand(
      {openHub},
      {options: options({serviceAccount: 'deployer', namespace: 'ops'}), execInfo: execInfo(), env: {}},
    )
    assert.equal(seen.asked?.serviceAccount, 'deployer')
    assert.equal(seen.asked?.namespace, 'ops')
  })

  it('fails before reaching the hub without an audience', async () => {
    const seen: Seen = {closed: false}
    const openHub = hubAnswering(async () => assert.fail('not asked'), seen)
    const noAudience = await rejected(
      tokenRequestCommand(
        {openHub},
        {options: options({serviceAccount: 'sa'}), execInfo: undefined, env: {}},
      ),
    )
    assert.match(noAudience.message, /no audience for the token/)
    assert.equal(seen.selection, undefined, 'the hub was not opened')
  })

  it('names a missing ServiceAccount, and closes the hub', async () => {
    const seen: Seen = {closed: false}
    const error = await rejected(
      tokenRequestCommand(
        {openHub: hubAnswering(async () => undefined, seen)},
        {options: options({serviceAccount: 'sa'}), execInfo: execInfo(), env: {}},
      ),
    )
    assert.equal(error.message, 'no ServiceAccount fleet/sa on the hub (context "hub", https://hub:6443)')
    assert.match(error.hint!, /create it on the hub/)
    assert.equal(seen.closed, true)
  })

  it('passes a refusal on as the hub explained it, with the RBAC it needs as the hint', async () => {
    const seen: Seen = {closed: false}
    const refused = explainFailure({kind: 'http', status: 403}, 'create', 'the hub')
    const error = await rejected(
      tokenRequestCommand(
        {
          openHub: hubAnswering(async () => {
            throw refused
          }, seen),
        },
        {options: options({serviceAccount: 'sa', namespace: 'ci'}), execInfo: execInfo(), env: {}},
      ),
    )
    assert.equal(error, refused)
    assert.match(
      seen.asked!.hints.forbiddenHint!,
      /"create" on serviceaccounts\/token with resourceNames \["sa"\] in namespace "ci"/,
    )
    assert.equal(seen.closed, true)
  })

  it('refuses an answer without an expiry (it would be cached forever)', async () => {
    const error = await rejected(
      tokenRequestCommand(
        {openHub: hubAnswering(async () => ({status: {token: 'tok'}}), {closed: false})},
        {options: options({serviceAccount: 'sa'}), execInfo: execInfo(), env: {}},
      ),
    )
    assert.match(error.message, /without a valid expirationTimestamp/)
  })

  it("asks for the target's URL as audience and answers with the hub's expiry", async () => {
    const seen: Seen = {closed: false}
    const answer = await tokenRequestCommand(
      {
        openHub: hubAnswering(
          async () => ({status: {token: 'tok', expirationTimestamp: '2099-01-01T00:00:00Z'}}),
          seen,
        ),
      },
      {
        options: options({verbose: true}),
        execInfo: execInfo({serviceAccount: 'deployer', namespace: 'ci', expirationSeconds: 1200}),
        env: {},
      },
    )
    assert.deepEqual(seen.asked && [seen.asked.namespace, seen.asked.serviceAccount, seen.asked.spec], [
      'ci',
      'deployer',
      {audiences: [SERVER], expirationSeconds: 1200},
    ])
    assert.equal(answer.credential.token, 'tok')
    assert.equal(answer.credential.expirationTimestamp, '2099-01-01T00:00:00Z')
    assert.equal(answer.apiVersion, 'client.authentication.k8s.io/v1')
    assert.match(
      answer.note!,
      /^token-request: token of ServiceAccount ci\/deployer on the hub .* \(from the target's server URL\)/,
    )
    assert.equal(seen.closed, true)
  })
})
