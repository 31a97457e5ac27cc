// src/core/failures.ts: one explanation per failure, for the ordinary error path (through
// kube-errors) and doctor alike, each keeping its status or connection code as data.
import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {ExitCode} from '../../src/core/errors.js'
import {
  ApiFailure,
  explainFailure,
  failureOf,
  httpStatusOf,
  hubRbacHint,
  INSTALL_CRD_HINT,
  PROFILE_API_NOT_SERVED,
  tlsFailureKind,
} from '../../src/core/failures.js'
import {KubeApiError, connectionError} from '../../src/adapters/kube-client.js'
import {translateKubeError} from '../../src/adapters/kube-errors.js'

const where = 'the hub (context "c", https://hub:6443)'
const unreachableHint = 'check that the hub is running and that --kubeconfig/--context select it'

describe('explainFailure', () => {
  it('gives a TLS verification failure the remedy of its kind, not "is it running"', () => {
    const tls = translateKubeError(
      connectionError(Object.assign(new Error('self signed'), {code: 'DEPTH_ZERO_SELF_SIGNED_CERT'})),
      'list',
      where,
      {unreachableHint},
    )
    assert.equal(
      tls.message,
      `cannot reach ${where}: TLS verification failed: its certificate is self-signed and not trusted`,
    )
    assert.equal(tls.exitCode, ExitCode.Unreachable)
    assert.match(tls.hint!, /certificate-authority-data/)
    assert.doesNotMatch(tls.hint!, /running/)
    const name = translateKubeError(
      connectionError(Object.assign(new Error('altname'), {code: 'ERR_TLS_CERT_ALTNAME_INVALID'})),
      'list',
      where,
      {unreachableHint},
    )
    assert.match(name.hint!, /tls-server-name/)
    // A refused connection is an outage: its hint is the caller's.
    const refused = translateKubeError(
      connectionError(Object.assign(new Error('refused'), {code: 'ECONNREFUSED'})),
      'list',
      where,
      {unreachableHint},
    )
    assert.equal(refused.hint, unreachableHint)
  })

  it('keeps the HTTP status as data, through a wrapping error', () => {
    const denied = translateKubeError(new KubeApiError(401, undefined, 'GET', '/x'), 'list', where, {
      user: 'me',
    })
    assert.ok(denied instanceof ApiFailure)
    assert.equal(denied.exitCode, ExitCode.Denied)
    assert.equal(denied.message, `${where} rejected the credentials of user "me" (401 Unauthorized)`)
    const wrapped = new Error('secretreader: …', {cause: denied})
    assert.equal(httpStatusOf(wrapped), 401)
    assert.equal(httpStatusOf(new Error('no failure')), undefined)
    assert.deepEqual(
      failureOf(explainFailure({kind: 'connection', code: 'ETIMEDOUT', reason: 'timed out'}, 'a', 'b')),
      {
        kind: 'connection',
        code: 'ETIMEDOUT',
        reason: 'timed out',
      },
    )
  })

  it('says the ClusterProfile API is not served with the one CRD hint, but not for a missing object', () => {
    const collection = explainFailure({kind: 'http', status: 404}, 'list', where, {
      notServed: PROFILE_API_NOT_SERVED,
    })
    assert.equal(collection.message, `${where} does not serve multicluster.x-k8s.io clusterprofiles`)
    assert.equal(collection.hint, INSTALL_CRD_HINT)
    assert.equal(collection.exitCode, ExitCode.Unreachable)
    const object = explainFailure({kind: 'http', status: 404, name: 'eu'}, 'get x', where, {
      notServed: PROFILE_API_NOT_SERVED,
    })
    assert.equal(object.message, `cannot get x on ${where}: HTTP 404`)
  })

  it("keeps the reason of a 403 and the caller's hint", () => {
    const forbidden = explainFailure(
      {
        kind: 'http',
        status: 403,
        message: 'secrets "eu" is forbidden: User "me" cannot get resource "secrets"',
      },
      'get Secret fleet/eu',
      where,
      {forbiddenHint: 'ask for get'},
    )
    assert.equal(
      forbidden.message,
      `cannot get Secret fleet/eu on ${where}: User "me" cannot get resource "secrets"`,
    )
    assert.equal(forbidden.hint, 'ask for get')
  })
})

describe('hubRbacHint', () => {
  const grant = 'RBAC verb "get" on secrets'
  it('outside a pod: the hub identity of the kubeconfig, and KUBECONFIG/--context to choose another', () => {
    assert.equal(
      hubRbacHint(grant, undefined, '; nothing more'),
      'the hub identity needs RBAC verb "get" on secrets (a Role and RoleBinding); nothing more. Or select another hub identity with KUBECONFIG/--context',
    )
  })
  it("in a pod: the pod's ServiceAccount, and serviceAccountName to choose another; never a kubeconfig context", () => {
    const hint = hubRbacHint(grant, {serviceAccount: {namespace: 'fleet', name: 'cpcred-fleet'}})
    assert.equal(
      hint,
      `the pod's ServiceAccount fleet/cpcred-fleet (the hub identity in a pod) needs RBAC verb "get" on secrets (a Role and RoleBinding to it). Or run the pod with a serviceAccountName that has it`,
    )
    assert.doesNotMatch(hubRbacHint(grant, {}), /KUBECONFIG|--context/)
  })
})

describe('tlsFailureKind', () => {
  it('sorts the codes Node reports by remedy', () => {
    assert.equal(tlsFailureKind('SELF_SIGNED_CERT_IN_CHAIN'), 'untrusted')
    assert.equal(tlsFailureKind('CERT_HAS_EXPIRED'), 'expired')
    assert.equal(tlsFailureKind('CERT_NOT_YET_VALID'), 'not-yet-valid')
    assert.equal(tlsFailureKind('ERR_TLS_CERT_ALTNAME_INVALID'), 'host-name')
    assert.equal(tlsFailureKind('ECONNREFUSED'), undefined)
    assert.equal(tlsFailureKind(undefined), undefined)
  })
})
