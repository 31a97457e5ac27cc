// The YAML readers cpcred's users read -o yaml with, beside the yaml package the tests parse with:
// js-yaml's default `load` (its default schema reads timestamps as dates) and PyYAML's safe_load
// (YAML 1.1: `no` is false, `012` is 10, `190:20:30` is 685230, `2026-01-01` a date).
import {spawnSync} from 'node:child_process'
import {load} from 'js-yaml'

/** Why the PyYAML tests skip, or false when python3 has PyYAML (.ci/run installs python3-yaml). */
export const pyyamlMissing: string | false =
  spawnSync('python3', ['-c', 'import yaml'], {encoding: 'utf8'}).status === 0
    ? false
    : 'PyYAML is not installed (apt-get install python3-yaml; .ci/run installs it)'

// Each text read by safe_load and written as JSON, or why it was refused or JSON cannot hold what it
// read (a date as a key): a JSON list of {json} or {error}.
const PYYAML_READER = `
import json, sys, yaml
out = []
for text in json.load(sys.stdin):
    try:
        value = yaml.safe_load(text)
        out.append({'json': json.dumps(value, default=lambda v: {'not JSON': type(v).__name__ + ' ' + str(v)})})
    except Exception as error:
        out.append({'error': repr(error)})
print(json.dumps(out))
`

export type Reading = {value: unknown} | {error: string}

/** PyYAML's reading of each text, in one python3 run. */
export function readWithPyYaml(texts: string[]): Reading[] {
  const result = spawnSync('python3', ['-c', PYYAML_READER], {
    input: JSON.stringify(texts),
    encoding: 'utf8',
    env: {...process.env, PYTHONIOENCODING: 'utf-8'},
  })
  if (result.status !== 0) throw new Error(`python3 failed: ${result.stderr}`)
  return (JSON.parse(result.stdout) as {json?: string; error?: string}[]).map((read) =>
    read.error === undefined ? {value: JSON.parse(read.json!)} : {error: read.error},
  )
}

/** js-yaml's default load of the text. */
export function readWithJsYaml(text: string): Reading {
  try {
    return {value: load(text)}
  } catch (error) {
    return {error: (error as Error).message}
  }
}
