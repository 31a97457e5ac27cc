#!/usr/bin/env node
// The cpcred command. What kubectl and CI run all the time (credential, exec, the built-in plugins,
// shell completion) comes from CommonJS bundles in dist/fast, loaded with require: no ES module
// loader and no oclif on the way (bin/package.json makes this file CommonJS for the same reason).
// Each bundle says whether the arguments are its own; everything else, and --help, goes to oclif.
'use strict'
const argv = process.argv.slice(2)
const bundle = new Map([
  ['credential', 'fast-path'],
  ['list', 'fast-path'],
  ['ls', 'fast-path'],
  ['plugin', 'fast-path'],
  ['__complete', 'fast-path'],
  ['exec', 'exec'],
]).get(argv[0])
// The last answer to the same `credential` or `exec` question, when nothing it depends on has changed.
const answered =
  (argv[0] === 'credential' || argv[0] === 'exec') && require('../dist/fast/answer.cjs').main(argv)
const fast = !answered && bundle && require(`../dist/fast/${bundle}.cjs`)
if (!answered && (!fast || !fast.main(argv))) import('../dist/cli/main.js').then((cli) => cli.run(argv))
