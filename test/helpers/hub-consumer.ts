// A hub consumer for the tests: a ServiceAccount with exactly the RBAC rules a test gives it, and a
// kubeconfig that reaches the hub with its token.
import {kubeCall, type Connection} from '../testenv/http.js'
import {waitForAccess, type AccessProbe} from '../testenv/testenv.js'
import {createServiceAccount, serviceAccountToken, tempDir, testEnv, tokenKubeconfig} from './env.js'

export type Rule = {apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[]}

/**
 * A hub consumer: a ServiceAccount with exactly `rules` in `namespace`, and a kubeconfig that reaches the
 * hub with its token (context "hub", namespace `contextNamespace`). Waits until RBAC sees the binding.
 */
export async function hubConsumer(
  hub: Connection,
  namespace: string,
  name: string,
  rules: Rule[],
  contextNamespace: string,
  probe: AccessProbe,
): Promise<{kubeconfig: string; token: string}> {
  const {env} = await testEnv()
  await createServiceAccount(hub, namespace, name)
  const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`
  await kubeCall(hub, 'POST', `${rbac}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: {name},
    rules,
  })
  await kubeCall(hub, 'POST', `${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: {name},
    subjects: [{kind: 'ServiceAccount', name, namespace}],
    roleRef: {apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name},
  })
  await waitForAccess(hub, namespace, name, probe)
  const token = await serviceAccountToken(hub, namespace, name)
  const dir = await tempDir('cpcred-consumer-')
  const kubeconfig = await tokenKubeconfig(
    dir,
    'hub',
    env.hub.server,
    env.hub.caData,
    token,
    contextNamespace,
  )
  return {kubeconfig, token}
}
