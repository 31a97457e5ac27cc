#!/usr/bin/env node
// The cpcred command. The router (src/cli/router.ts, built into dist/fast/router.cjs) decides which
// code runs these arguments: a CommonJS bundle for what kubectl and CI run all the time, oclif for
// the rest. This file is CommonJS (bin/package.json) so that the hot path never starts the ES
// module loader.
'use strict'
require('../dist/fast/router.cjs').main(process.argv.slice(2))
