#!/usr/bin/env -S node --import tsx
// Runs the TypeScript sources directly, without a build (development only).
import {run} from '../src/cli/main.ts'

await run(process.argv.slice(2), {development: true})
