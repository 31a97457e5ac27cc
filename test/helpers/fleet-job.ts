// docs/examples/fleet-job.yaml as the tests apply it, and the JUnit reports its pods write.
import {XMLParser} from 'fast-xml-parser'

export const FLEET_JOB_FILE = 'fleet-job.yaml'

/**
 * The file with each ${NAME} replaced in its text, as envsubst does, so numbers stay numbers;
 * comment lines are left as they are.
 */
export function renderedFleetJob(text: string, variables: Record<string, string>): string {
  return text
    .split('\n')
    .map((line) =>
      line.trimStart().startsWith('#')
        ? line
        : line.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (_match, name: string) => {
            const value = variables[name]
            if (value === undefined) throw new Error(`${FLEET_JOB_FILE}: \${${name}} has no value`)
            return value
          }),
    )
    .join('\n')
}

export function junitTestcases(xml: string): {classname: string; name: string; failed: boolean}[] {
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testcase',
  }).parse(xml)
  const cases = (parsed.testsuites.testsuite.testcase ?? []) as Record<string, unknown>[]
  return cases.map((testcase) => ({
    classname: String(testcase.classname),
    name: String(testcase.name),
    failed: testcase.failure !== undefined || testcase.error !== undefined,
  }))
}
