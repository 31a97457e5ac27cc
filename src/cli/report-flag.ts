// `--report KIND=FILE`, as exec and lint read it: the one grammar of a report request.
import path from 'node:path'
import {UsageError} from '../core/errors.js'
import type {ReportRequest} from '../usecases/exec-many.js'

/** `junit=FILE` or `json=FILE`; the file's directory is created when the reports are written. */
export function parseReportRequest(text: string): ReportRequest {
  const match = /^(\w+)=(.+)$/.exec(text)
  const kind = match?.[1]
  if (!match || (kind !== 'junit' && kind !== 'json')) {
    throw new UsageError(
      `--report "${text}" is not junit=FILE or json=FILE`,
      'e.g. --report junit=reports/fleet.xml',
    )
  }
  return {kind, file: path.resolve(match[2]!)}
}
