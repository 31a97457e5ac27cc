// The rules `cpcred lint` checks an inventory against, each taken from upstream and citing where:
// KEP-4322 (kubernetes/enhancements keps/sig-multicluster/4322-cluster-inventory), the v1alpha2 API
// of kubernetes-sigs/cluster-inventory-api (apis/v1alpha2/clusterprofile_types.go, its kubebuilder
// and CEL markers, generated into config/crd/bases/multicluster.x-k8s.io_clusterprofiles.yaml) and
// that repository's conformance suite (conformance/clusterprofile.go). docs/lint.md is this table
// for people. A rule a v1alpha2 CRD enforces (`crd`) is held to a real apiserver's admission by
// test/integration/lint.test.ts. How each rule is checked on a profile: ./checks.ts.
import {CLUSTERSET_PROPERTY, CONTROL_PLANE_HEALTHY, MEMBER_ID_LABEL} from '../profiles/cluster-profile.js'

/**
 * error: breaks a consumer now; will-break: breaks under v1alpha2 or pkg/access reading it (a
 * profile that works today loses its access when consumers upgrade); warning: a SHOULD upstream.
 */
export const SEVERITIES = ['error', 'will-break', 'warning'] as const
export type Severity = (typeof SEVERITIES)[number]

/** Whether `severity` is at or above `threshold` (error > will-break > warning). */
export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold)
}

const KEP =
  'https://github.com/kubernetes/enhancements/tree/master/keps/sig-multicluster/4322-cluster-inventory'
const API = 'https://github.com/kubernetes-sigs/cluster-inventory-api/blob/main'
const TYPES = `${API}/apis/v1alpha2/clusterprofile_types.go`
const CONFORMANCE = `${API}/conformance/clusterprofile.go`

export const MANAGER_LABEL = 'x-k8s.io/cluster-manager'
export const JOINED = 'Joined'
/** The namespace label KEP-4322 no longer defines (kubernetes/enhancements PR 6237). */
export const LEGACY_CLUSTERSET_LABEL = 'multicluster.x-k8s.io/clusterset'

export interface LintRule {
  id: string
  severity: Severity
  /** Where upstream says it: a KEP section, a v1alpha2 field and its markers, a conformance spec. */
  source: string
  /** The upstream file or section, as a link. */
  url: string
  /** The field the rule looks at (one entry's path when it finds one). */
  field: string
  /** What it protects, for docs/lint.md. */
  protects: string
  /** The v1alpha2 CRD enforces it at admission (so lint is held to a real apiserver's answer). */
  crd?: boolean
}

/** Every rule, in the order findings are listed. */
export const LINT_RULES = [
  {
    id: 'server-url',
    severity: 'error',
    source:
      "cluster-inventory-api apis/v1alpha2/clusterprofile_types.go, Cluster.server: +required, MaxLength=2048, XValidation isURL(self) && url(self).getHost() != ''",
    url: TYPES,
    field: 'status.accessProviders[].cluster.server',
    protects: 'every consumer connects to the server an access provider names; without a host it cannot',
    crd: true,
  },
  {
    id: 'proxy-url',
    severity: 'error',
    source:
      "cluster-inventory-api apis/v1alpha2/clusterprofile_types.go, Cluster.proxy-url: MaxLength=2048, XValidation self == '' || (isURL(self) && scheme in http, https, socks5 && host != '')",
    url: TYPES,
    field: 'status.accessProviders[].cluster.proxy-url',
    protects: 'client-go proxies only through http, https and socks5 proxies',
    crd: true,
  },
  {
    id: 'access-provider-names',
    severity: 'will-break',
    source:
      'cluster-inventory-api apis/v1alpha2/clusterprofile_types.go, ClusterProfileStatus.accessProviders: +listType=map, +listMapKey=name; AccessProvider.name MinLength=1, MaxLength=253',
    url: TYPES,
    field: 'status.accessProviders[].name',
    protects: 'a consumer chooses its provider by name: one entry per name, a name of 1 to 253 characters',
    crd: true,
  },
  {
    id: 'access-providers-max',
    severity: 'will-break',
    source:
      'cluster-inventory-api apis/v1alpha2/clusterprofile_types.go, ClusterProfileStatus.accessProviders: MaxItems=64',
    url: TYPES,
    field: 'status.accessProviders',
    protects: 'a status of more than 64 access providers is refused by v1alpha2',
    crd: true,
  },
  {
    id: 'credential-providers-only',
    severity: 'will-break',
    source:
      'cluster-inventory-api apis/v1alpha2/clusterprofile_types.go, ClusterProfileStatus: no credentialProviders (v1alpha1 deprecated it for accessProviders)',
    url: TYPES,
    field: 'status.credentialProviders[].name',
    protects:
      'a consumer reading v1alpha2 (pkg/access v0.2.0) sees only accessProviders: access offered only in credentialProviders disappears',
  },
  {
    id: 'certificate-authority-file',
    severity: 'will-break',
    source:
      'cluster-inventory-api apis/v1alpha2/clusterprofile_types.go, Cluster: certificate-authority-data only (no certificate-authority file path)',
    url: TYPES,
    field: 'status.accessProviders[].cluster.certificate-authority',
    protects:
      "a file path means nothing on the consumer's machine, and v1alpha2 drops the field: the CA must be certificate-authority-data",
  },
  {
    id: 'cluster-manager-name',
    severity: 'will-break',
    source:
      'cluster-inventory-api apis/v1alpha2/clusterprofile_types.go, ClusterManager.name: MinLength=1, MaxLength=63, XValidation !format.labelValue().validate(self).hasValue() (and immutable)',
    url: TYPES,
    field: 'spec.clusterManager.name',
    protects:
      'the manager name is matched against the x-k8s.io/cluster-manager label, so it must be a label value',
    crd: true,
  },
  {
    id: 'cluster-manager-label',
    severity: 'error',
    source: `cluster-inventory-api conformance/clusterprofile.go (required): the ${MANAGER_LABEL} label equals spec.clusterManager.name; KEP-4322 (keps/sig-multicluster/4322-cluster-inventory) §Cluster Manager`,
    url: `${CONFORMANCE}; ${KEP}#cluster-manager`,
    field: `metadata.labels["${MANAGER_LABEL}"]`,
    protects: `consumers select a manager's profiles with -l ${MANAGER_LABEL}=NAME`,
  },
  {
    id: 'member-id-empty',
    severity: 'error',
    source: `cluster-inventory-api conformance/clusterprofile.go (required): a ${MEMBER_ID_LABEL} label has a non-empty value; KEP-4322 (keps/sig-multicluster/4322-cluster-inventory) §Uniqueness of the ClusterProfile object`,
    url: `${CONFORMANCE}; ${KEP}#uniqueness-of-the-clusterprofile-object`,
    field: `metadata.labels["${MEMBER_ID_LABEL}"]`,
    protects: 'an empty member id counts as none: its duplicates are not recognised',
  },
  {
    id: 'member-id-duplicate-tie',
    severity: 'error',
    source:
      'KEP-4322 (keps/sig-multicluster/4322-cluster-inventory) §Uniqueness of the ClusterProfile object: a consumer acts on the oldest of the profiles sharing a member id, on none when the oldest tie',
    url: `${KEP}#uniqueness-of-the-clusterprofile-object`,
    field: `metadata.labels["${MEMBER_ID_LABEL}"]`,
    protects:
      'when the oldest duplicates were created at the same time no consumer acts on the member cluster',
  },
  {
    id: 'member-id-duplicate',
    severity: 'warning',
    source: `cluster-inventory-api conformance/clusterprofile.go (optional): one ClusterProfile per member cluster in an inventory; KEP-4322 (keps/sig-multicluster/4322-cluster-inventory) §Uniqueness of the ClusterProfile object`,
    url: `${CONFORMANCE}; ${KEP}#uniqueness-of-the-clusterprofile-object`,
    field: `metadata.labels["${MEMBER_ID_LABEL}"]`,
    protects:
      'consumers act on the oldest profile of a member cluster and ignore the others, and warn until they are gone',
  },
  {
    id: 'member-id-missing',
    severity: 'warning',
    source: `cluster-inventory-api conformance/clusterprofile.go (optional): the cluster manager should add the ${MEMBER_ID_LABEL} label`,
    url: CONFORMANCE,
    field: `metadata.labels["${MEMBER_ID_LABEL}"]`,
    protects: 'without it two managers publishing one cluster cannot be told to be one member cluster',
  },
  {
    id: 'control-plane-healthy',
    severity: 'warning',
    source: `cluster-inventory-api conformance/clusterprofile.go (optional): the ${CONTROL_PLANE_HEALTHY} condition is maintained; KEP-4322 (keps/sig-multicluster/4322-cluster-inventory) §Conditions`,
    url: `${CONFORMANCE}; ${KEP}#conditions`,
    field: `status.conditions[type=${CONTROL_PLANE_HEALTHY}]`,
    protects: '--healthy and every health column read this condition',
  },
  {
    id: 'joined-condition',
    severity: 'warning',
    source: `cluster-inventory-api conformance/clusterprofile.go (optional): the ${JOINED} condition is reported; KEP-4322 (keps/sig-multicluster/4322-cluster-inventory) §Conditions`,
    url: `${CONFORMANCE}; ${KEP}#conditions`,
    field: `status.conditions[type=${JOINED}]`,
    protects: 'consumers tell a cluster under management from one that left',
  },
  {
    id: 'kubernetes-version',
    severity: 'warning',
    source:
      'cluster-inventory-api conformance/clusterprofile.go (optional): status.version.kubernetes is reported; KEP-4322 (keps/sig-multicluster/4322-cluster-inventory) §Version',
    url: `${CONFORMANCE}; ${KEP}#version`,
    field: 'status.version.kubernetes',
    protects: 'consumers place and upgrade by the member cluster version',
  },
  {
    id: 'clusterset-namespace-label',
    severity: 'warning',
    source: `KEP-4322 (keps/sig-multicluster/4322-cluster-inventory) §Properties: ClusterSet membership is the ${CLUSTERSET_PROPERTY} property in status.properties (PR 6221); the namespace label ${LEGACY_CLUSTERSET_LABEL} is no longer in the KEP (PR 6237)`,
    url: `${KEP}#properties`,
    field: `status.properties[name=${CLUSTERSET_PROPERTY}]`,
    protects:
      'consumers following the KEP read ClusterSet membership from the property, not the namespace label',
  },
] as const satisfies readonly LintRule[]

export type RuleId = (typeof LINT_RULES)[number]['id']

export const RULES_BY_ID: ReadonlyMap<RuleId, LintRule> = new Map<RuleId, LintRule>(
  LINT_RULES.map((rule) => [rule.id, rule]),
)

/** One rule broken by one profile: where, what was found, and what to do. */
export interface LintFinding {
  namespace: string
  profile: string
  rule: RuleId
  severity: Severity
  /** The field, with the index of the entry when it is one (status.accessProviders[2].cluster.server). */
  field: string
  found: string
  fix: string
  source: string
  /** The upstream file or section, as a link. */
  url: string
}
