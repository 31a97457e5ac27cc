// Builds the bundles of dist/ that esbuild makes, one call each, as their options differ:
// - dist/fast (src/cli/command-table.ts lists them): CommonJS, one file each, so that the router
//   loads what a command line needs with require and nothing else; the packages of node_modules they
//   share stay outside them.
// - dist/vendor/auth-provider.cjs: the part of @kubernetes/client-node that cpcred runs (KubeConfig,
//   for legacy auth-provider users: src/adapters/kubeconfig-client.ts), with everything it imports, so
//   that the package (57 MiB with its dependencies) is not installed. Beside it, what went into it:
//   auth-provider.packages.json (name, version, license of each package, from esbuild's metafile; the
//   SBOMs of scripts/sbom.ts add them, as a scanner cannot see inside a bundle) and
//   auth-provider.LICENSES.txt (each package's license text, which Apache-2.0 and MIT ask to keep).
import {readFile, readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {build} from 'esbuild'
import {FAST_BUNDLES} from '../src/cli/command-table.js'
import {VENDOR_BUNDLE, vendorLicensesFile, vendorPackagesFile, type VendoredPackage} from './vendor.js'

await build({
  entryPoints: Object.entries(FAST_BUNDLES).map(([out, source]) => ({in: source, out})),
  bundle: true,
  format: 'cjs',
  outExtension: {'.js': '.cjs'},
  platform: 'node',
  target: 'node20',
  outdir: 'dist/fast',
  logLevel: 'warning',
  // The bundles are CommonJS: import.meta.url is the file's own URL, as in the ES modules of dist.
  define: {'import.meta.url': 'importMeta.url'},
  banner: {
    js: "const importMeta = {get url() { return require('node:url').pathToFileURL(__filename).href }};",
  },
  // Loaded from node_modules when a command needs them, not copied into every bundle.
  external: [
    '@oclif/core',
    '@inquirer/prompts',
    '@inquirer/core',
    'chalk',
    'proper-lockfile',
    'hpagent',
    'socks-proxy-agent',
    'proxy-from-env',
    'yaml',
    'js-yaml',
  ],
})

const vendor = await build({
  stdin: {contents: "export {KubeConfig} from '@kubernetes/client-node'", resolveDir: '.', loader: 'js'},
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  outfile: VENDOR_BUNDLE,
  metafile: true,
  logLevel: 'warning',
  // tr46 and whatwg-url (node-fetch's) require Node's punycode, which Node 22 warns about on stderr
  // when the caller is not in node_modules (the bundle is not): the package of the same code instead.
  alias: {punycode: 'punycode/'},
  // Optional native speed-ups of ws and node-fetch, required inside a try: absent, as in the package.
  external: ['bufferutil', 'utf-8-validate', 'encoding'],
})

/** The folder of the package that holds `file` (node_modules/NAME or node_modules/@SCOPE/NAME). */
function packageDir(file: string): string | undefined {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)
  return match?.[1]
}

const dirs = new Set<string>()
for (const output of Object.values(vendor.metafile.outputs))
  for (const [input, {bytesInOutput}] of Object.entries(output.inputs)) {
    const dir = packageDir(input)
    if (dir && bytesInOutput > 0) dirs.add(dir)
  }
const packages: (VendoredPackage & {dir: string})[] = []
for (const dir of dirs) {
  const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
    name: string
    version: string
    license?: string
  }
  if (!manifest.license) throw new Error(`${dir}/package.json names no license`)
  packages.push({name: manifest.name, version: manifest.version, license: manifest.license, dir})
}
packages.sort((a, b) => `${a.name}@${a.version}`.localeCompare(`${b.name}@${b.version}`))
await writeFile(
  vendorPackagesFile(VENDOR_BUNDLE),
  `${JSON.stringify(
    packages.map(({name, version, license}) => ({name, version, license})),
    null,
    2,
  )}\n`,
)
const notices = []
for (const {name, version, license, dir} of packages) {
  const files = (await readdir(dir)).filter((file) => /^(licen[cs]e|copying|notice)/i.test(file)).sort()
  const texts = await Promise.all(files.map((file) => readFile(path.join(dir, file), 'utf8')))
  notices.push(
    [
      `${name}@${version} (${license})`,
      ...(texts.length
        ? texts.map((text) => text.trim())
        : [`The package ships no license file; it is ${license}.`]),
    ].join('\n\n'),
  )
}
await writeFile(
  vendorLicensesFile(VENDOR_BUNDLE),
  `${path.basename(VENDOR_BUNDLE)} bundles these packages; their licenses follow.\n\n${notices.join(`\n\n${'-'.repeat(72)}\n\n`)}\n`,
)
