import assert from 'node:assert/strict'
import {describe, it} from 'node:test'
import {judgeAccess, judgeRules, parseAccessQuestion} from '../../src/core/doctor/target-access.js'
import {ExitCode, UsageError} from '../../src/core/errors.js'

describe('doctor --can: one action, as kubectl auth can-i words it', () => {
  it('reads VERB RESOURCE[.GROUP][/SUBRESOURCE] and -n, --namespace or --namespace=', () => {
    assert.deepEqual(parseAccessQuestion('get pods'), {
      verb: 'get',
      resource: 'pods',
      group: '',
      namespace: 'default',
      text: 'get pods',
    })
    assert.deepEqual(parseAccessQuestion(' patch deployments.apps -n kube-system '), {
      verb: 'patch',
      resource: 'deployments',
      group: 'apps',
      namespace: 'kube-system',
      text: 'patch deployments.apps -n kube-system',
    })
    assert.equal(parseAccessQuestion('-n ops get pods/log').subresource, 'log')
    assert.equal(parseAccessQuestion('get pods -n ops').namespace, 'ops')
    assert.equal(parseAccessQuestion('get pods --namespace=ops').namespace, 'ops')
  })

  for (const bad of ['get', 'get pods extra', 'get pods -n', 'get pods -n=', 'get a/b/c', 'get /log']) {
    it(`refuses "${bad}" as a usage error that shows the form`, () => {
      assert.throws(
        () => parseAccessQuestion(bad),
        (error: unknown) =>
          error instanceof UsageError &&
          error.exitCode === ExitCode.Usage &&
          /VERB RESOURCE/.test(error.hint!),
      )
    })
  }

  it('a denial is a failure with exit code 4 and what to ask for', () => {
    const question = parseAccessQuestion('get pods -n kube-system')
    const outcome = judgeAccess(question, {allowed: false, reason: ''})
    assert.equal(outcome.status, 'fail')
    assert.equal(outcome.exitCode, ExitCode.Denied)
    assert.equal(outcome.detail, 'may not get pods in namespace kube-system')
    assert.match(outcome.hint!, /Role in kube-system .*allows get on pods/)
    const allowed = judgeAccess(parseAccessQuestion('patch deployments.apps/scale'), {
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "ops/ops"',
    })
    assert.equal(allowed.status, 'ok')
    assert.equal(
      allowed.detail,
      'may patch deployments.apps/scale in namespace default (RBAC: allowed by RoleBinding "ops/ops")',
    )
  })
})

describe('doctor target-access: the rules of a namespace', () => {
  const selfReview = {
    verbs: ['create'],
    apiGroups: ['authorization.k8s.io'],
    resources: ['selfsubjectaccessreviews'],
  }

  it('warns when the credential may only ask who it is', () => {
    const outcome = judgeRules(
      {resourceRules: [selfReview], nonResourceRules: [{verbs: ['get'], nonResourceURLs: ['/api']}]},
      'ops',
    )
    assert.equal(outcome.status, 'warn')
    assert.equal(outcome.detail, 'may do nothing in namespace ops but ask who it is')
    assert.match(outcome.hint!, /a Role in ops/)
  })

  it('lists what it may do, its groups named, and says when the list may be incomplete', () => {
    const outcome = judgeRules(
      {
        resourceRules: [
          selfReview,
          {verbs: ['get', 'list'], apiGroups: [''], resources: ['pods']},
          {verbs: ['patch'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web']},
        ],
        incomplete: true,
        evaluationError: 'webhook authorizer does not support user rule resolution',
      },
      'ops',
    )
    assert.equal(outcome.status, 'ok')
    assert.equal(
      outcome.detail,
      'in namespace ops may get,list pods; patch deployments.apps (only web); the list may be incomplete (webhook authorizer does not support user rule resolution): ask about one action with --can',
    )
  })
})
