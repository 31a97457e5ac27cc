// A hub consumer for the tests: a ServiceAccount with exactly the RBAC rules a test gives it, and a
// kubeconfig that reaches the hub with its token.
import type {Connection} from '../testenv/http.js'
import {serviceAccountWithRole, type AccessProbe, type RbacRule} from '../testenv/testenv.js'
import {serviceAccountToken, tempDir, testEnv, tokenKubeconfig} from './env.js'

/**
 * A hub consumer: a ServiceAccount with exactly `rules` in `namespace`, and a kubeconfig that reaches the
 * hub with its token (context "hub", namespace `contextNamespace`). Waits until RBAC sees the binding.
 */
export async function hubConsumer(
  hub: Connection,
  namespace: string,
  name: string,
  rules: RbacRule[],
  contextNamespace: string,
  probe: AccessProbe,
): Promise<{kubeconfig: string; token: string}> {
  const {env} = await testEnv()
  await serviceAccountWithRole(hub, namespace, name, rules, probe)
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
