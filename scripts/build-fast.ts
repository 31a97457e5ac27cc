// Builds the bundles of dist/fast (src/cli/command-table.ts lists them): CommonJS, one file
// each, so that the router loads what a command line needs with require and nothing else.
import {build} from 'esbuild'
import {FAST_BUNDLES} from '../src/cli/command-table.js'

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
    '@kubernetes/client-node',
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
