// kubectl describe's layout: two spaces per level, and cells aligned the way its tabwriter
// (padding 2) aligns them, per block of consecutive lines. The printer makes every value printable.
import type {Cells} from '../text/format.js'
import {NONE, text} from './values.js'
import {isRecord} from '../json.js'

/** kubectl describe hides it too: it repeats the whole object. */
const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration'
/** kubectl describe's maxAnnotationLen. */
const MAX_ANNOTATION_LENGTH = 140

export class DescribeWriter {
  private readonly rows: string[][] = []

  line(level: number, value: string): void {
    this.rows.push([indent(level) + value])
  }

  heading(level: number, title: string): void {
    this.rows.push([`${indent(level)}${title}:`])
  }

  field(level: number, key: string, value: string | undefined | null): void {
    this.rows.push([`${indent(level)}${key}:`, value || NONE])
  }

  /** Several values under one key, one per line, as kubectl prints labels. */
  list(level: number, key: string, values: string[]): void {
    if (values.length === 0) {
      this.field(level, key, '')
      return
    }
    values.forEach((value, index) => {
      this.rows.push([index === 0 ? `${indent(level)}${key}:` : indent(level), value])
    })
  }

  labels(level: number, key: string, labels: Record<string, string> | undefined): void {
    const entries = isRecord(labels) ? Object.entries(labels).sort(([a], [b]) => compare(a, b)) : []
    this.list(
      level,
      key,
      entries.map(([name, value]) => `${name}=${text(value)}`),
    )
  }

  /** As kubectl's printAnnotationsMultiline: long or multi-line values go below their key, shortened. */
  annotations(level: number, key: string, annotations: Record<string, string> | undefined): void {
    const entries = (isRecord(annotations) ? Object.entries(annotations) : [])
      .filter(([name]) => name !== LAST_APPLIED_ANNOTATION)
      .sort(([a], [b]) => compare(a, b))
    if (entries.length === 0) {
      this.field(level, key, '')
      return
    }
    const values: string[] = []
    for (const [name, raw] of entries) {
      const value = text(raw).replace(/\n$/, '')
      if (value.length + name.length + 2 > MAX_ANNOTATION_LENGTH || value.includes('\n')) {
        values.push(`${name}:`)
        for (const part of value.split('\n')) values.push(`  ${shorten(part, MAX_ANNOTATION_LENGTH - 2)}`)
      } else {
        values.push(`${name}: ${value}`)
      }
    }
    this.list(level, key, values)
  }

  /** A titled table with kubectl describe's dashed underline, or `<none>` when there are no rows. */
  table(level: number, title: string, headers: string[], rows: string[][]): void {
    if (rows.length === 0) {
      this.field(level, title, '')
      return
    }
    this.heading(level, title)
    const prefix = indent(level + 1)
    for (const cells of [headers, headers.map((header) => '-'.repeat(header.length)), ...rows]) {
      this.rows.push(cells.map((cell, index) => (index === 0 ? prefix : '') + cell))
    }
  }

  cells(): Cells {
    return {rows: this.rows, padding: 2, minWidth: 0, trimEnd: true}
  }
}

function indent(level: number): string {
  return '  '.repeat(level)
}

function shorten(value: string, length: number): string {
  return value.length > length ? `${value.slice(0, length)}...` : value
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
