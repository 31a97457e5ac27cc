// The release's SLSA v1 provenance: an in-toto Statement whose subjects are every artifact SHA256SUMS
// lists (name and sha256, the same lines), and whose predicate says how they were built: the commit,
// the lockfile's digest, the pinned Node packages and kubectl, the Debian base and its packages (each
// by its .deb's sha256), and the command. scripts/release-sign.ts signs it with the release key (a DSSE envelope in a sigstore
// bundle, `cosign verify-blob-attestation --type slsaprovenance1` checks it: docs/verifying.md).
import {createHash} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {KUBERNETES_VERSION} from '../test/testenv/binaries.js'

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1'
export const SLSA_PROVENANCE_V1 = 'https://slsa.dev/provenance/v1'
/** What the predicate's buildType names: this repository's release build, version 1 of its shape. */
export const BUILD_TYPE = 'https://cpcred.invalid/release-build/v1'
export const provenanceName = (version: string) => `cpcred-${version}.intoto.json`

export interface ResourceDescriptor {
  name?: string
  uri?: string
  digest?: Record<string, string>
  annotations?: Record<string, string>
}

export interface ProvenanceInput {
  version: string
  /** The commit built ("-dirty" when the tree had changes), from scripts/stamp.ts. */
  commit: string
  epoch: number
  /** SHA256SUMS's text: the subjects. */
  checksums: string
  /** The checkout: its package-lock.json is digested. */
  root: string
  command: string
  node: {version: string; packages: {name: string; integrity: string}[]}
  /**
   * The Debian suite and the packages the image keeps, with their versions (from its SBOM) and the
   * sha256 of each one's .deb (checked against Debian's Packages index: scripts/deb-digests.ts).
   */
  debian?: {suite: string; packages: {name: string; version: string; arch: string; sha256: string}[]}
  builderId: string
}

/** The subjects: SHA256SUMS's lines, in its order. */
export function subjectsOf(checksums: string): ResourceDescriptor[] {
  return checksums
    .trim()
    .split('\n')
    .map((line) => {
      const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line)
      if (!match) throw new Error(`not a SHA256SUMS line: ${line}`)
      return {name: match[2]!, digest: {sha256: match[1]!}}
    })
}

/** sha512-BASE64 (npm's integrity) as the hex digest in-toto's DigestSet wants. */
function integrityHex(integrity: string): string {
  const [algorithm, base64] = integrity.split('-', 2)
  if (algorithm !== 'sha512' || !base64) throw new Error(`not a sha512 integrity: ${integrity}`)
  return Buffer.from(base64, 'base64').toString('hex')
}

export async function provenanceStatement(input: ProvenanceInput): Promise<unknown> {
  const lockfile = await readFile(path.join(input.root, 'package-lock.json'))
  const commit = input.commit.replace(/-dirty$/, '')
  const resolvedDependencies: ResourceDescriptor[] = [
    {
      name: 'source',
      uri: `git+file:cpcred@${commit}`,
      digest: {gitCommit: commit},
      ...(input.commit.endsWith('-dirty') ? {annotations: {tree: 'dirty'}} : {}),
    },
    {
      name: 'package-lock.json',
      digest: {sha256: createHash('sha256').update(lockfile).digest('hex')},
    },
    ...input.node.packages.map((pkg) => ({
      name: `node ${input.node.version}`,
      uri: `pkg:npm/${pkg.name}@${input.node.version}`,
      digest: {sha512: integrityHex(pkg.integrity)},
    })),
    {
      name: `kubectl ${KUBERNETES_VERSION}`,
      uri: `pkg:golang/k8s.io/kubectl@${KUBERNETES_VERSION.replace(/^v1\./, 'v0.')}`,
      // Built from the Go module proxy by test/testenv/binaries.ts; its go.sum pins every module.
      digest: {
        sha256: createHash('sha256')
          .update(await readFile(path.join(input.root, 'test/testenv/go/kubectl/go.sum')))
          .digest('hex'),
      },
      annotations: {digestOf: 'test/testenv/go/kubectl/go.sum'},
    },
    ...(input.debian?.packages ?? []).map(
      // The .deb's sha256, the one Debian's signed Packages index gives for it; the purl finds it there.
      (pkg): ResourceDescriptor => ({
        name: `debian ${input.debian!.suite} ${pkg.name}`,
        uri: `pkg:deb/debian/${pkg.name}@${pkg.version}?arch=${pkg.arch}&distro=debian-${input.debian!.suite}`,
        digest: {sha256: pkg.sha256},
      }),
    ),
  ]
  return {
    _type: STATEMENT_TYPE,
    subject: subjectsOf(input.checksums),
    predicateType: SLSA_PROVENANCE_V1,
    predicate: {
      buildDefinition: {
        buildType: BUILD_TYPE,
        externalParameters: {
          command: input.command,
          source: {uri: `git+file:cpcred@${commit}`, digest: {gitCommit: commit}},
          version: input.version,
        },
        internalParameters: {
          SOURCE_DATE_EPOCH: input.epoch,
          ...(input.debian ? {debianSuite: input.debian.suite} : {}),
        },
        resolvedDependencies,
      },
      runDetails: {
        builder: {id: input.builderId},
        metadata: {invocationId: `cpcred-${input.version}-${commit}`},
      },
    },
  }
}
