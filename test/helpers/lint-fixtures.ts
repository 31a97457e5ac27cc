// The fixtures of `cpcred lint`'s tests: a profile that keeps every rule (and the v1alpha2 CRD's
// schema, so the integration test can apply it), and the URL strings whose admission by the CRD's
// CEL rules the unit tests predict and the integration test asks a real apiserver about.
import type {ClusterProfile} from '../../src/core/profiles/cluster-profile.js'

export function cleanProfile(name = 'eu', namespace = 'fleet'): ClusterProfile {
  const condition = (type: string) => ({
    type,
    status: 'True',
    reason: 'Observed',
    message: `${type} as observed`,
    lastTransitionTime: '2026-01-01T00:00:00Z',
  })
  return {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {
      name,
      namespace,
      labels: {
        'x-k8s.io/cluster-manager': 'ocm',
        'multicluster.x-k8s.io/inventory-member-id': `${name}-1`,
      },
    },
    spec: {displayName: name, clusterManager: {name: 'ocm'}},
    status: {
      conditions: [condition('ControlPlaneHealthy'), condition('Joined')],
      version: {kubernetes: 'v1.34.1'},
      properties: [{name: 'clusterset.k8s.io', value: 'prod'}],
      accessProviders: [{name: 'idp', cluster: {server: `https://${name}.example:6443`}}],
    },
  }
}

export const CLEAN_PROFILE = (): ClusterProfile => cleanProfile()

/**
 * A URL, and whether the v1alpha2 CRD admits it as a server (isURL and a host) and as a proxy-url
 * (also http, https or socks5).
 */
export interface UrlCase {
  url: string
  server: boolean
  proxy: boolean
}

export const LINT_URL_CASES: readonly UrlCase[] = [
  {url: 'https://api.example.com:6443', server: true, proxy: true},
  {url: 'http://10.0.0.1', server: true, proxy: true},
  {url: 'https://[fd00::1]:6443/prefix', server: true, proxy: true},
  {url: 'socks5://proxy:1080', server: true, proxy: true},
  {url: 'https://user@api.example.com', server: true, proxy: true},
  {url: 'ftp://proxy:21', server: true, proxy: false},
  {url: 'api.example.com:6443', server: false, proxy: false},
  {url: '/only/a/path', server: false, proxy: false},
  {url: 'https://', server: false, proxy: false},
  // CEL's getHost() is URL.Host, port included: the apiserver admits a port without a host.
  {url: 'https://:6443', server: true, proxy: true},
  {url: 'https:///path', server: false, proxy: false},
  {url: 'https://host:port', server: false, proxy: false},
  {url: 'https://exa mple.com', server: false, proxy: false},
  {url: 'https://a.example/%zz', server: false, proxy: false},
  {url: 'mailto:admin@example.com', server: false, proxy: false},
  {url: 'not a url', server: false, proxy: false},
]
