// Renewing the credential of a command `cpcred exec` runs (src/usecases/exec-one.ts): the renewal
// is `cpcred credential` for the target, run as a child of this cpcred with its environment. Its
// stdout is the ExecCredential; its stderr (a plugin's messages, a hub outage warning) is the
// user's; it never gets a terminal to prompt on, since the command owns it.
import {spawn} from 'node:child_process'
import type {RenewCredential} from '../usecases/ports.js'

export const renewCredential: RenewCredential = (command, options = {}) =>
  new Promise((resolve, reject) => {
    const env = {...process.env}
    // It asks as cpcred, not as kubectl's plugin: the ExecCredential version is the default (v1).
    delete env.KUBERNETES_EXEC_INFO
    const child = spawn(command[0]!, command.slice(1), {
      stdio: ['ignore', 'pipe', options.quiet ? 'ignore' : 'inherit'],
      env,
      signal: options.signal,
    })
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    // Stopped (the command ended) or not started: either way there is no credential.
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'))
      else
        reject(
          new Error(
            signal ? `cpcred credential was killed by ${signal}` : `cpcred credential exited ${code}`,
          ),
        )
    })
  })
