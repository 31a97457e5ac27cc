// Kubernetes object names (k8s.io/apimachinery validation, DNS-1123): the one place cpcred checks
// that a name could be one, for what a user types, what a plugin is asked to read, and what the hub
// serves before it becomes part of a path.

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

/** A DNS-1123 label: namespaces (at most 63 lower-case letters, digits and "-"). */
export function isDnsLabel(name: string): boolean {
  return name.length <= 63 && DNS_LABEL.test(name)
}

/** A DNS-1123 subdomain: the names of most objects (Secrets, ServiceAccounts, ClusterProfiles). */
export function isDnsSubdomain(name: string): boolean {
  return name.length <= 253 && DNS_SUBDOMAIN.test(name)
}
