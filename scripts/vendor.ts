// Where the build puts the part of @kubernetes/client-node that cpcred runs, and what it writes beside
// it (scripts/build-fast.ts writes them, scripts/sbom.ts and the release tests read them).

/** The bundle, relative to the package's root (src/adapters/kubeconfig-client.ts loads it). */
export const VENDOR_BUNDLE = 'dist/vendor/auth-provider.cjs'

/** One package esbuild put into a bundle. */
export interface VendoredPackage {
  name: string
  version: string
  /** The SPDX expression of its package.json. */
  license: string
}

/** The JSON list of the VendoredPackages in `bundle`. */
export const vendorPackagesFile = (bundle: string) => bundle.replace(/\.cjs$/, '.packages.json')
/** The license texts of the packages in `bundle`. */
export const vendorLicensesFile = (bundle: string) => bundle.replace(/\.cjs$/, '.LICENSES.txt')
