// What `cpcred get --watch` follows on each target: the rows of its Table (or its objects), each
// with the key the reflector tells them apart by (NAMESPACE/NAME) and the resourceVersion it
// resumes from; a change is shown as a one-row Table in the columns known so far (or the object).
import {isRecord} from '../json.js'
import type {KubeObject} from './objects.js'
import type {ServerTable, TableRow} from './table.js'

/** One followed row or object. */
export interface FollowedItem {
  metadata: {resourceVersion?: string}
  /** NAMESPACE/NAME (or NAME), as the reflector tells objects apart. */
  key: string
  /** The row, in its table's columns (a table's -o). */
  table?: ServerTable
  /** The object (-o jsonl). */
  object?: KubeObject
}

/** A Table's rows, each a followed item; the row's object (its metadata) says its key and version. */
export function followedRows(table: ServerTable): FollowedItem[] {
  return table.rows.map((row: TableRow) => {
    const metadata = metadataOf(row.object)
    return {
      metadata: {resourceVersion: stringOf(metadata.resourceVersion) ?? table.resourceVersion},
      key: keyOf(metadata) ?? String(row.cells[0] ?? ''),
      table: {columnDefinitions: table.columnDefinitions, rows: [row]},
    }
  })
}

/** Objects, each a followed item. */
export function followedObjects(objects: readonly KubeObject[]): FollowedItem[] {
  return objects.map((object) => {
    const metadata = metadataOf(object)
    return {
      metadata: {resourceVersion: stringOf(metadata.resourceVersion)},
      key: keyOf(metadata) ?? '',
      object,
    }
  })
}

/** A list's resourceVersion (metadata.resourceVersion), where a watch of it starts. */
export function listVersion(list: unknown): string | undefined {
  return stringOf(metadataOf(list).resourceVersion)
}

function metadataOf(value: unknown): Record<string, unknown> {
  return isRecord(value) && isRecord(value.metadata) ? value.metadata : {}
}

function keyOf(metadata: Record<string, unknown>): string | undefined {
  const name = stringOf(metadata.name)
  if (name === undefined) return undefined
  const namespace = stringOf(metadata.namespace)
  return namespace ? `${namespace}/${name}` : name
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}
