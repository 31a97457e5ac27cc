// The upstream Cluster Inventory API CRDs, from the published Go module sigs.k8s.io/cluster-inventory-api
// (config/crd/bases), taken through the Go module proxy and cached like the test clusters' sources:
// the reference the test hub's own manifests are checked against.
import {execFileSync} from 'node:child_process'
import os from 'node:os'
import path from 'node:path'

export const CLUSTER_INVENTORY_API = 'sigs.k8s.io/cluster-inventory-api@v0.1.2'

let moduleDir: string | undefined

/** The path of an upstream CRD file (`multicluster.x-k8s.io_clusterprofiles.yaml`, …). */
export function upstreamCrd(file: string): string {
  moduleDir ??= (
    JSON.parse(
      execFileSync('go', ['mod', 'download', '-json', CLUSTER_INVENTORY_API], {
        cwd: os.tmpdir(),
        env: {...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local'},
        encoding: 'utf8',
      }),
    ) as {Dir: string}
  ).Dir
  return path.join(moduleDir, 'config', 'crd', 'bases', file)
}
