// A hand-written HubPort for use-case tests: only the calls a test gives it are answered; any other
// call fails the test.
import assert from 'node:assert/strict'
import type {HubConfig, HubPort} from '../../src/usecases/ports.js'

export const FAKE_HUB_CONFIG: HubConfig = {
  merged: {clusters: [], users: [], contexts: [], contextSources: {}},
  files: [],
  context: 'hub',
  server: 'https://hub:6443',
  user: 'reader',
  namespace: 'fleet',
}

export function strictHub(answers: Partial<HubPort>, config: Partial<HubConfig> = {}): HubPort {
  const unexpected = (name: string) => async () => assert.fail(`unexpected hub call: ${name}`)
  return {
    config: {...FAKE_HUB_CONFIG, ...config},
    endpoint: {server: FAKE_HUB_CONFIG.server},
    identity: () => 'hub-identity',
    pin: () => ({kubeconfigPaths: [], context: 'hub'}),
    describe: () => `the hub (context "hub", ${FAKE_HUB_CONFIG.server})`,
    apiVersion: unexpected('apiVersion'),
    profileApi: unexpected('profileApi'),
    reviewProfileAccess: unexpected('reviewProfileAccess'),
    reviewTokenAccess: unexpected('reviewTokenAccess'),
    reviewSelf: unexpected('reviewSelf'),
    getSecret: unexpected('getSecret'),
    requestToken: unexpected('requestToken'),
    listProfilePage: unexpected('listProfilePage'),
    watchProfiles: unexpected('watchProfiles'),
    getProfile: unexpected('getProfile'),
    listNamespaceLabels: unexpected('listNamespaceLabels'),
    clustersetOf: unexpected('clustersetOf'),
    getPlacementDecision: unexpected('getPlacementDecision'),
    listPlacementDecisions: unexpected('listPlacementDecisions'),
    watchPlacementDecisions: unexpected('watchPlacementDecisions'),
    close: unexpected('close'),
    ...answers,
  }
}
