// kubectl's kuberc, found and read the way kubectl finds it (src/core/kubeconfig/kuberc.ts), and
// commands looked up the way Go's exec.LookPath looks them up, which is how client-go compares a
// plugin with the credentialPluginAllowlist. Synchronous: one small file and a few stat calls.
import {readFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {loadAll} from 'js-yaml'
import {kubectlPolicy, locateKuberc, type KubercReading} from '../core/kubeconfig/kuberc.js'
import type {KubectlPreferences} from '../usecases/ports.js'
import {errorCode} from './files.js'
import {lookPath} from './look-path.js'

export {lookPath}

export function kubectlPreferences(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): KubectlPreferences {
  return {
    policy(kubercFlag) {
      // Go's homedir.HomeDir: $HOME first.
      const location = locateKuberc(kubercFlag, env, env.HOME || os.homedir())
      return kubectlPolicy(readKuberc(location, cwd), parseDocuments)
    },
    lookPath: (command) => lookPath(command, env.PATH, cwd),
  }
}

function readKuberc(location: KubercReading['location'], cwd: string): KubercReading {
  if (location.kind === 'off') return {location}
  try {
    return {location, text: readFileSync(path.resolve(cwd, location.file), 'utf8')}
  } catch (error) {
    const code = errorCode(error)
    if (code === 'ENOENT' || code === 'ENOTDIR') return {location}
    return {location, error: code ?? (error as Error).message}
  }
}

// js-yaml, as the hub kubeconfig is read (adapters/hub-config.ts): YAML 1.1, like Go's yaml.
function parseDocuments(text: string): unknown[] {
  return loadAll(text)
}
