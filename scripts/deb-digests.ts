// The image's Debian packages pinned by the sha256 of their .deb files. mmdebstrap downloads the
// .debs through apt, which checks them against Debian's signed Packages index, then deletes them;
// DEB_DIGESTS_HOOK records, while they are still there, each .deb's name, version, arch and sha256,
// and the index's stanzas of those packages, into the root filesystem (so into the cached tarball).
// readDebDigests checks the two against each other (a .deb whose sha256 is not the one the index
// gives fails the build); the provenance (scripts/provenance.ts) and the image's SBOMs
// (scripts/sbom.ts) carry the digests.

/** Where the hook leaves its record in the root filesystem (the image's layer leaves it out). */
export const DEB_RECORD_DIR = 'var/lib/cpcred-debs'

/**
 * mmdebstrap --extract-hook: "$1" is the root. `debs`: a stanza per downloaded .deb (its Package,
 * Version and Architecture fields and the file's SHA256); `packages-index`: the stanzas of the
 * Packages lists apt fetched (every suite's) for those package names, cut to the fields read here.
 */
export const DEB_DIGESTS_HOOK = [
  `mkdir -p "$1/${DEB_RECORD_DIR}"`,
  `for deb in "$1"/var/cache/apt/archives/*.deb; do dpkg-deb --field "$deb" Package Version Architecture && printf 'SHA256: %s\\n\\n' "$(sha256sum < "$deb" | cut -d ' ' -f 1)"; done > "$1/${DEB_RECORD_DIR}/debs"`,
  `names=$(for deb in "$1"/var/cache/apt/archives/*.deb; do dpkg-deb --field "$deb" Package; done)`,
  `awk -v names="$names" 'BEGIN { RS = ""; n = split(names, list, " "); for (i = 1; i <= n; i++) want[list[i]] = 1 } { kept = ""; name = ""; m = split($0, lines, "\\n"); for (i = 1; i <= m; i++) { if (lines[i] ~ /^(Package|Version|Architecture|Filename|SHA256): /) kept = kept lines[i] "\\n"; if (lines[i] ~ /^Package: /) name = substr(lines[i], 10) } if (name in want) printf "%s\\n", kept }' "$1"/var/lib/apt/lists/*_Packages > "$1/${DEB_RECORD_DIR}/packages-index"`,
].join(' && ')

/** One downloaded .deb: what dpkg names it, and its file's sha256 (hex). */
export interface DebDigest {
  name: string
  version: string
  arch: string
  sha256: string
  /** Where the Packages index puts it in the archive (pool/main/…). */
  filename: string
}

/** One stanza of a Packages index, as the hook keeps it. */
export interface PackagesEntry {
  name: string
  version: string
  arch: string
  filename: string
  sha256: string
}

/** A Debian control file's stanzas (dpkg status, Packages), each as its fields; continuation lines are left out. */
export function parseStanzas(text: string): Record<string, string>[] {
  const stanzas: Record<string, string>[] = []
  for (const block of text.split(/\n[ \t]*\n/)) {
    const fields: Record<string, string> = {}
    for (const line of block.split('\n')) {
      const match = /^([A-Za-z0-9][A-Za-z0-9-]*):[ \t]*(.*)$/.exec(line)
      if (match) fields[match[1]!] = match[2]!.trim()
    }
    if (Object.keys(fields).length) stanzas.push(fields)
  }
  return stanzas
}

const SHA256 = /^[0-9a-f]{64}$/

/** The Packages index's stanzas: each package's version, arch, pool file and that file's SHA256. */
export function parsePackagesIndex(text: string): PackagesEntry[] {
  return parseStanzas(text).map((fields) => {
    const entry = {
      name: fields.Package ?? '',
      version: fields.Version ?? '',
      arch: fields.Architecture ?? '',
      filename: fields.Filename ?? '',
      sha256: (fields.SHA256 ?? '').toLowerCase(),
    }
    if (!entry.name || !entry.version || !entry.arch || !entry.filename || !SHA256.test(entry.sha256))
      throw new Error(
        `a Packages stanza without Package, Version, Architecture, Filename or SHA256: ${JSON.stringify(fields)}`,
      )
    return entry
  })
}

/**
 * The hook's record checked: each .deb of `debs` against the index's stanza of the same package,
 * version and arch (apt's lists hold one per suite that has it: all must agree). Throws when a .deb
 * has no stanza or another sha256; returns the .debs sorted by name and arch.
 */
export function readDebDigests(debs: string, index: string): DebDigest[] {
  const entries = parsePackagesIndex(index)
  const found: DebDigest[] = []
  for (const fields of parseStanzas(debs)) {
    const {Package: name, Version: version, Architecture: arch} = fields
    const sha256 = (fields.SHA256 ?? '').toLowerCase()
    if (!name || !version || !arch || !SHA256.test(sha256))
      throw new Error(
        `a .deb record without Package, Version, Architecture or SHA256: ${JSON.stringify(fields)}`,
      )
    const listed = entries.filter(
      (entry) => entry.name === name && entry.version === version && entry.arch === arch,
    )
    if (listed.length === 0)
      throw new Error(
        `${name} ${version} (${arch}): no stanza in Debian's Packages index for the downloaded .deb`,
      )
    for (const entry of listed)
      if (entry.sha256 !== sha256)
        throw new Error(
          `${name} ${version} (${arch}): the downloaded .deb's sha256 is ${sha256}, Debian's Packages index gives ${entry.sha256} for ${entry.filename}`,
        )
    found.push({name, version, arch, sha256, filename: listed[0]!.filename})
  }
  if (found.length === 0) throw new Error('the .deb record lists no package')
  return found.sort((a, b) => (a.name === b.name ? cmp(a.arch, b.arch) : cmp(a.name, b.name)))
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** What one platform's Debian base was made from: its .debs, and the index's stanzas of them. */
export interface DebRecord {
  debs: DebDigest[]
  index: PackagesEntry[]
}

/** The hook's record of one root filesystem (its `debs` and `packages-index` files), checked. */
export function readDebRecord(debs: string, index: string): DebRecord {
  const checked = readDebDigests(debs, index)
  return {
    debs: checked,
    index: parsePackagesIndex(index).filter((entry) =>
      checked.some(
        (deb) => deb.name === entry.name && deb.version === entry.version && deb.arch === entry.arch,
      ),
    ),
  }
}

/** The recorded .deb of a package the SBOM names (name, version, arch); throws when there is none. */
export function debOf(debs: DebDigest[], pkg: {name: string; version: string; arch: string}): DebDigest {
  const deb = debs.find(
    (item) => item.name === pkg.name && item.version === pkg.version && item.arch === pkg.arch,
  )
  if (!deb)
    throw new Error(
      `the image's Debian package ${pkg.name} ${pkg.version} (${pkg.arch}) has no recorded .deb`,
    )
  return deb
}
