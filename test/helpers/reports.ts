// Fan-out reports for the tests of their renderings (JSON, JUnit).
import {OutputTail, type FanOutReport} from '../../src/core/fleet/fan-out-report.js'

export function tailOf(lines: string[], maxBytes?: number): OutputTail {
  const tail = new OutputTail(maxBytes)
  for (const line of lines) tail.push(line)
  return tail
}

/** A representative fan-out: one target of each outcome, the failed one with output. */
export function representativeReport(): FanOutReport {
  const output = new OutputTail(256)
  for (let index = 1; index <= 8; index++) output.push(`deployment.apps/web-${index} configured`)
  output.push('\x1b[31mError from server (Forbidden):\x1b[0m deployments.apps "api" is forbidden')
  output.push('User "system:serviceaccount:fleet:deployer" cannot patch resource "deployments"')
  return {
    program: 'kubectl',
    startedAt: new Date('2026-03-14T09:26:53.589Z'),
    durationMs: 4180.4,
    targets: [
      {
        result: {profile: 'fleet-eu/prod-1', exitCode: 0, durationMs: 1234.5, started: true},
        output: tailOf(['deployment.apps/web unchanged']),
      },
      {result: {profile: 'fleet-eu/prod-2', exitCode: 1, durationMs: 2950.25, started: true}, output},
      {
        result: {
          profile: 'fleet-us/prod-3',
          exitCode: 5,
          durationMs: 12,
          started: false,
          error: 'credential plugin "gke-gcloud-auth-plugin" exited with status 1',
        },
      },
      {
        result: {
          profile: 'fleet-us/prod-4',
          exitCode: 1,
          durationMs: 0,
          started: false,
          cancelled: true,
          error: 'not started (--fail-fast)',
        },
      },
    ],
  }
}
