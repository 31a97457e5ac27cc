// secretreaderCommand (`cpcred plugin secretreader`) with a hand-written hub: the Secret it reads, the
// failures it names, and that it always closes the hub.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {CpcredError, ExitCode} from '../../src/core/errors.js'
import {explainFailure} from '../../src/core/failures.js'
import {secretreaderCommand} from '../../src/usecases/read-secret-token.js'
import {strictHub} from '../helpers/fake-hub.js'
import type {HubCallHints, HubPort, HubSelection, SecretObject} from '../../src/usecases/ports.js'

const V1BETA1 = 'client.authentication.k8s.io/v1beta1'
const execInfo = (config: unknown) =>
  JSON.stringify({
    apiVersion: V1BETA1,
    kind: 'ExecCredential',
    spec: {interactive: false, cluster: {server: 'https://spoke.example:6443', config}},
  })

interface Seen {
  selection?: HubSelection
  read?: {namespace: string; name: string; hints: HubCallHints}
  closed: boolean
}

/** A hub whose only expected calls are getSecret and close. */
function hubAnswering(answer: () => Promise<SecretObject | undefined>, seen: Seen) {
  return async (selection: HubSelection): Promise<HubPort> => {
    seen.selection = selection
    return strictHub(
      {
        async getSecret(namespace, name, hints) {
          seen.read = {namespace, name, hints}
          return answer()
        },
        async close() {
          seen.closed = true
        },
      },
      {namespace: selection.namespace ?? 'fleet'},
    )
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

const options = {verbose: false}
const b64 = (text: string) => Buffer.from(text).toString('base64')

describe('secretreaderCommand', () => {
  it('fails before reaching the hub without exec info or without clusterName', async () => {
    const seen: Seen = {closed: false}
    const openHub = hubAnswering(async () => assert.fail('not read'), seen)
    const unset = await rejected(secretreaderCommand({openHub}, {options, execInfo: undefined, env: {}}))
    assert.equal(unset.exitCode, ExitCode.Usage)
    assert.match(unset.message, /KUBERNETES_EXEC_INFO is not set/)
    const noName = await rejected(secretreaderCommand({openHub}, {options, execInfo: execInfo({}), env: {}}))
    assert.match(noName.message, /no clusterName in spec.cluster.config/)
    assert.equal(seen.selection, undefined, 'the hub was not opened')
  })

  it('names a missing Secret, and closes the hub', async () => {
    const seen: Seen = {closed: false}
    const error = await rejected(
      secretreaderCommand(
        {openHub: hubAnswering(async () => undefined, seen)},
        {options, execInfo: execInfo({clusterName: 'eu'}), env: {}},
      ),
    )
    assert.equal(error.message, 'no Secret fleet/eu on the hub (context "hub", https://hub:6443)')
    assert.match(error.hint!, /Secret <namespace>\/<clusterName>/)
    assert.equal(seen.closed, true)
  })

  it('passes a refusal on as the hub explained it, with the RBAC it needs as the hint', async () => {
    const seen: Seen = {closed: false}
    const refused = explainFailure({kind: 'http', status: 403, message: 'forbidden'}, 'get', 'the hub')
    const error = await rejected(
      secretreaderCommand(
        {
          openHub: hubAnswering(async () => {
            throw refused
          }, seen),
        },
        {options, execInfo: execInfo({clusterName: 'eu'}), env: {}},
      ),
    )
    assert.equal(error, refused)
    assert.match(
      seen.read!.hints.forbiddenHint!,
      /"get" on secrets with resourceNames \["eu"\] in namespace "fleet"/,
    )
    assert.match(seen.read!.hints.unreachableHint!, /CPCRED_HUB_CONTEXT/)
    assert.equal(seen.closed, true)
  })

  it('fails on a Secret without a token', async () => {
    const error = await rejected(
      secretreaderCommand(
        {openHub: hubAnswering(async () => ({data: {other: b64('x')}}), {closed: false})},
        {options, execInfo: execInfo({clusterName: 'eu'}), env: {}},
      ),
    )
    assert.match(error.message, /has no "token" key \(its keys: "other"\)/)
  })

  it('answers the token in the apiVersion it was run with, from the pinned hub context', async () => {
    const seen: Seen = {closed: false}
    const answer = await secretreaderCommand(
      {openHub: hubAnswering(async () => ({data: {token: b64('tok-123\n')}}), seen)},
      {
        options: {verbose: true, namespace: 'team'},
        execInfo: execInfo({clusterName: 'eu'}),
        env: {CPCRED_HUB_CONTEXT: 'pinned'},
      },
    )
    // Chosen by the pin: the plugin never takes the hub `cpcred hub use` keeps.
    assert.deepEqual(seen.selection, {
      kubeconfig: undefined,
      context: 'pinned',
      namespace: 'team',
      source: 'env',
    })
    assert.deepEqual(seen.read && [seen.read.namespace, seen.read.name], ['team', 'eu'])
    assert.deepEqual(answer.credential, {token: 'tok-123'})
    assert.equal(answer.apiVersion, V1BETA1)
    assert.equal(
      answer.note,
      'secretreader: read the token of Secret team/eu on the hub (context "hub", https://hub:6443)',
    )
    assert.equal(seen.closed, true)
  })
})
