// Runs a program that shares this process's stdout, then opens process.stdout itself. Node's stream
// on a pipe makes the pipe non-blocking, for every process that shares it: what a Node-based CI runner
// or `npm run` does to the programs it starts. A full pipe then fails their writes with EAGAIN.
import {spawn} from 'node:child_process'
import os from 'node:os'

const [program, ...args] = process.argv.slice(2)
// spawn returns once the child has started (libuv waits for its exec), so the flag set below is the
// one the child sees while it writes.
const child = spawn(program, args, {stdio: 'inherit'})
process.stdout.write('')
child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)))
