// `cpcred get`'s pure rules: resource words against discovery, the request, the merged table (columns,
// cells, CLUSTER and NAMESPACE, wide, sorting, error rows), the objects and their annotation.
import assert from 'node:assert/strict'
import {followedRows} from '../../src/core/get/follow.js'
import {describe, it} from 'node:test'
import {UsageError} from '../../src/core/errors.js'
import {
  fromAggregatedDiscovery,
  fromResourceList,
  kindPrefix,
  preferredGroupVersions,
  resolveResource,
  resourceTypeNames,
  type ApiResource,
} from '../../src/core/get/discovery.js'
import {compareValues, parseJsonPath, valueAt} from '../../src/core/get/jsonpath.js'
import {answerObjects, CLUSTER_PROFILE_ANNOTATION, fleetList, nameLine} from '../../src/core/get/objects.js'
import {readGetItems, type GetQuery} from '../../src/core/get/query.js'
import {targetRequest, TABLE_ACCEPT} from '../../src/core/get/request.js'
import {
  asTable,
  cellText,
  mergeTables,
  needsObject,
  sortKey,
  tableLines,
  type ServerTable,
  type TargetAnswer,
} from '../../src/core/get/table.js'
import {InvalidNameError} from '../../src/core/profiles/names.js'

function resource(over: Partial<ApiResource> & Pick<ApiResource, 'resource' | 'kind'>): ApiResource {
  return {
    group: '',
    version: 'v1',
    singular: over.kind.toLowerCase(),
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ['get', 'list', 'watch'],
    ...over,
  }
}

const PODS = resource({resource: 'pods', kind: 'Pod', shortNames: ['po'], categories: ['all']})
const EVENTS = resource({resource: 'events', kind: 'Event', shortNames: ['ev']})
const NODES = resource({resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no']})
const DEPLOY = resource({
  group: 'apps',
  resource: 'deployments',
  kind: 'Deployment',
  shortNames: ['deploy'],
  categories: ['all'],
})
const NEW_EVENTS = resource({group: 'events.k8s.io', resource: 'events', kind: 'Event', shortNames: ['ev']})
const BINDINGS = resource({resource: 'bindings', kind: 'Binding', verbs: ['create']})
const WIDGETS_V2 = resource({group: 'example.com', version: 'v2', resource: 'widgets', kind: 'Widget'})
const WIDGETS_V1 = resource({group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget'})
const SERVED = [PODS, EVENTS, NODES, BINDINGS, DEPLOY, NEW_EVENTS, WIDGETS_V2, WIDGETS_V1]

describe('resource words against discovery (kubectl rules)', () => {
  const cases: [string, ApiResource[]][] = [
    ['pods', [PODS]],
    ['pod', [PODS]],
    ['Pod', [PODS]],
    ['PODS', [PODS]],
    ['po', [PODS]],
    ['deploy', [DEPLOY]],
    ['deployment', [DEPLOY]],
    ['deployments.apps', [DEPLOY]],
    ['deploy.apps', [DEPLOY]],
    ['deployments.v1.apps', [DEPLOY]],
    // The core group first, as kubectl's priority mapper.
    ['events', [EVENTS]],
    ['ev', [EVENTS]],
    ['events.events.k8s.io', [NEW_EVENTS]],
    // The group's preferred version, the first discovery lists.
    ['widgets', [WIDGETS_V2]],
    ['widgets.v1.example.com', [WIDGETS_V1]],
    // A category: each resource in it.
    ['all', [PODS, DEPLOY]],
    // Not listable, or not served.
    ['bindings', []],
    ['nothing', []],
    ['deployments.v2.apps', []],
  ]
  for (const [word, expected] of cases)
    it(`${word} → ${expected.map((r) => `${r.resource}.${r.version}.${r.group}`).join(',') || 'none'}`, () => {
      assert.deepEqual(resolveResource(word, SERVED), expected)
    })

  it('reads aggregated discovery (apidiscovery.k8s.io/v2), and says when an answer is not one', () => {
    const document = {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      items: [
        {
          metadata: {name: 'apps'},
          versions: [
            {
              version: 'v1',
              resources: [
                {
                  resource: 'deployments',
                  responseKind: {group: 'apps', version: 'v1', kind: 'Deployment'},
                  scope: 'Namespaced',
                  singularResource: 'deployment',
                  verbs: ['get', 'list'],
                  shortNames: ['deploy'],
                  categories: ['all'],
                },
              ],
            },
          ],
        },
      ],
    }
    assert.deepEqual(fromAggregatedDiscovery(document), [{...DEPLOY, verbs: ['get', 'list']}])
    assert.equal(fromAggregatedDiscovery({kind: 'APIGroupList', groups: []}), undefined)
  })

  it('reads the discovery before v2: APIGroupList and APIResourceList, subresources left out', () => {
    assert.deepEqual(
      preferredGroupVersions({
        groups: [{name: 'apps', preferredVersion: {groupVersion: 'apps/v1', version: 'v1'}}],
      }),
      [{group: 'apps', version: 'v1'}],
    )
    const list = {
      resources: [
        {
          name: 'nodes',
          singularName: 'node',
          namespaced: false,
          kind: 'Node',
          verbs: ['get', 'list', 'watch'],
          shortNames: ['no'],
        },
        {name: 'nodes/status', singularName: '', namespaced: false, kind: 'Node', verbs: ['get']},
      ],
    }
    assert.deepEqual(fromResourceList(list, '', 'v1'), [NODES])
  })

  it('names kinds as kubectl does in -o name and tables of several types', () => {
    assert.equal(kindPrefix(PODS), 'pod')
    assert.equal(kindPrefix(DEPLOY), 'deployment.apps')
    assert.equal(nameLine('fleet/eu', DEPLOY, 'web'), 'fleet/eu deployment.apps/web')
  })

  it('offers the types at TAB as kubectl api-resources -o name --verbs=get: once each, sorted', () => {
    assert.deepEqual(resourceTypeNames(SERVED), [
      'deployments.apps',
      'events',
      'events.events.k8s.io',
      'nodes',
      'pods',
      'widgets.example.com',
    ])
  })
})

describe('kubectl get operands', () => {
  it('reads TYPE[,TYPE] [NAME...] and TYPE/NAME...', () => {
    assert.deepEqual(readGetItems(['pods'], 'u'), [{resource: 'pods'}])
    assert.deepEqual(readGetItems(['po,svc', 'a'], 'u'), [
      {resource: 'po', name: 'a'},
      {resource: 'svc', name: 'a'},
    ])
    assert.deepEqual(readGetItems(['pod/a', 'svc/b'], 'u'), [
      {resource: 'pod', name: 'a'},
      {resource: 'svc', name: 'b'},
    ])
    assert.throws(() => readGetItems([], 'u'), UsageError)
    assert.throws(() => readGetItems(['pod/a/b'], 'u'), UsageError)
  })
})

describe('the request', () => {
  const query = (over: Partial<GetQuery> = {}): GetQuery => ({
    items: [],
    allNamespaces: false,
    noHeaders: false,
    shape: 'table',
    ...over,
  })
  it('asks for a Table in the namespace, across all with -A, with selectors', () => {
    assert.deepEqual(targetRequest(PODS, query(), {shape: 'table'}), {
      path: '/api/v1/namespaces/default/pods',
      query: {includeObject: 'Metadata'},
      accept: TABLE_ACCEPT,
    })
    assert.deepEqual(
      targetRequest(DEPLOY, query({allNamespaces: true, selector: 'app=web', fieldSelector: 'a=b'}), {
        shape: 'table',
        objectInRows: true,
      }),
      {
        path: '/apis/apps/v1/deployments',
        query: {labelSelector: 'app=web', fieldSelector: 'a=b', includeObject: 'Object'},
        accept: TABLE_ACCEPT,
      },
    )
    assert.deepEqual(targetRequest(NODES, query({namespace: 'x'}), {shape: 'objects', name: 'n1'}), {
      path: '/api/v1/nodes/n1',
      query: {},
      accept: 'application/json',
    })
    assert.equal(
      targetRequest(PODS, query({namespace: 'kube-system'}), {shape: 'table', name: 'p'}).path,
      '/api/v1/namespaces/kube-system/pods/p',
    )
  })

  it('never puts an unchecked name or a path-changing discovery entry in a path', () => {
    assert.throws(() => targetRequest(PODS, query(), {shape: 'table', name: '..'}), InvalidNameError)
    assert.throws(() => targetRequest(PODS, query({namespace: '../x'}), {shape: 'table'}), InvalidNameError)
    assert.throws(
      () => targetRequest({...PODS, resource: '../secrets'}, query(), {shape: 'table'}),
      /cannot be part of a path/,
    )
    assert.throws(
      () => targetRequest({...DEPLOY, group: 'a/b'}, query(), {shape: 'table'}),
      /cannot be part of a path/,
    )
  })
})

/** A pods Table as the server sends it (includeObject=Metadata). */
function podTable(rows: [string, string, string, number, string, string][]): ServerTable {
  return {
    columnDefinitions: [
      {name: 'Name', type: 'string', format: 'name', priority: 0},
      {name: 'Ready', type: 'string', priority: 0},
      {name: 'Status', type: 'string', priority: 0},
      {name: 'Restarts', type: 'string', priority: 0},
      {name: 'Age', type: 'string', priority: 0},
      {name: 'IP', type: 'string', priority: 1},
    ],
    rows: rows.map(([name, namespace, created, restarts, age, ip]) => ({
      cells: [name, '1/1', 'Running', restarts, age, ip],
      object: {kind: 'PartialObjectMetadata', metadata: {name, namespace, creationTimestamp: created}},
    })),
  }
}

describe('the merged table', () => {
  const eu = podTable([
    ['web-1', 'a', '2030-01-01T00:00:10Z', 0, '5m', '10.0.0.1'],
    ['web-10', 'b', '2030-01-01T00:00:00Z', 12, '6m', '10.0.0.2'],
  ])
  const us = podTable([['web-2', 'a', '2030-01-01T00:00:05Z', 3, '5m30s', '10.1.0.1']])
  const answers: TargetAnswer[] = [
    {cluster: 'fleet/eu', table: eu},
    {cluster: 'fleet/down', error: 'cannot reach the target: connection refused'},
    {cluster: 'fleet/us', table: us},
  ]

  it('puts CLUSTER first, keeps each target order, leaves wide columns out, and the failures last', () => {
    const merged = mergeTables(answers, {wide: false, withNamespace: false})
    assert.deepEqual(tableLines(merged, false), [
      ['CLUSTER', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      ['fleet/eu', 'web-1', '1/1', 'Running', '0', '5m'],
      ['fleet/eu', 'web-10', '1/1', 'Running', '12', '6m'],
      ['fleet/us', 'web-2', '1/1', 'Running', '3', '5m30s'],
      ['fleet/down', '<error: cannot reach the target: connection refused>'],
    ])
  })

  it('adds NAMESPACE with -A and the wide columns with -o wide; --no-headers drops the header', () => {
    const merged = mergeTables(answers.slice(0, 1), {wide: true, withNamespace: true})
    assert.deepEqual(tableLines(merged, true), [
      ['fleet/eu', 'a', 'web-1', '1/1', 'Running', '0', '5m', '10.0.0.1'],
      ['fleet/eu', 'b', 'web-10', '1/1', 'Running', '12', '6m', '10.0.0.2'],
    ])
    assert.deepEqual(merged.headers, [
      'CLUSTER',
      'NAMESPACE',
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
    ])
  })

  it('sorts across targets: by a column (numbers as numbers, AGE by creation), or by a JSONPath', () => {
    const names = (sortBy: string) =>
      mergeTables(answers, {wide: false, withNamespace: false, sortBy: sortKey(sortBy)}).rows.map(
        (row) => row[1],
      )
    assert.deepEqual(names('restarts'), ['web-1', 'web-2', 'web-10'])
    assert.deepEqual(names('AGE'), ['web-10', 'web-2', 'web-1'])
    assert.deepEqual(names('.metadata.name'), ['web-1', 'web-10', 'web-2'])
    assert.deepEqual(names('{.metadata.namespace}'), ['web-1', 'web-2', 'web-10'])
    assert.deepEqual(names('cluster'), ['web-1', 'web-10', 'web-2'])
    assert.throws(() => names('colour'), /--sort-by "colour" is not a column of the table/)
  })

  it('names objects KIND.GROUP/NAME in a table of several types', () => {
    const merged = mergeTables(answers.slice(2), {wide: false, withNamespace: false, kindPrefix: 'pod'})
    assert.equal(merged.rows[0]![1], 'pod/web-2')
  })

  it('gives columns only some targets have, and an empty cell where a target lacks one', () => {
    const older: ServerTable = {
      columnDefinitions: [
        {name: 'Name', type: 'string', format: 'name'},
        {name: 'Phase', type: 'string'},
      ],
      rows: [{cells: ['old', 'Bound']}],
    }
    const merged = mergeTables([answers[0]!, {cluster: 'fleet/old', table: older}], {
      wide: false,
      withNamespace: false,
    })
    assert.deepEqual(merged.headers, ['CLUSTER', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'PHASE'])
    assert.deepEqual(merged.rows[2], ['fleet/old', 'old', '', '', '', '', 'Bound'])
    assert.equal(merged.rows[0]![6], '')
  })

  it('prints nothing when no target has a row and none failed (kubectl prints no header then)', () => {
    assert.deepEqual(
      tableLines(
        mergeTables([{cluster: 'a', table: podTable([])}], {wide: false, withNamespace: false}),
        false,
      ),
      [],
    )
  })

  it('prints a cell as kubectl does', () => {
    assert.equal(cellText('one\ntwo'), 'one...')
    assert.equal(cellText('a\rb'), 'a...')
    assert.equal(cellText(null), '')
    assert.equal(cellText(3), '3')
    assert.equal(cellText(true), 'true')
    assert.equal(cellText({a: 1}), '{"a":1}')
  })

  it('reads a Table and nothing else as one', () => {
    assert.ok(asTable({kind: 'Table', columnDefinitions: [], rows: []}))
    assert.equal(asTable({kind: 'PodList', items: []}), undefined)
    assert.equal(asTable({kind: 'Table', columnDefinitions: [{}]}), undefined)
  })

  it("reads a watch's later events, which carry no columns, in the columns known; keys rows by NAMESPACE/NAME", () => {
    const columns = [{name: 'Name', format: 'name'}, {name: 'Age'}]
    const event = {
      kind: 'Table',
      metadata: {resourceVersion: '7'},
      rows: [{cells: ['web', '1s'], object: {metadata: {name: 'web', namespace: 'a', resourceVersion: '7'}}}],
    }
    assert.equal(asTable(event), undefined, 'without columns known, no Table')
    const table = asTable(event, columns)!
    assert.deepEqual(table.columnDefinitions, columns)
    assert.equal(table.resourceVersion, '7')
    const [item] = followedRows(table)
    assert.equal(item!.key, 'a/web')
    assert.equal(item!.metadata.resourceVersion, '7')
    assert.deepEqual(item!.table!.rows[0]!.cells, ['web', '1s'])
    // An event that carries its columns (a watch's first) keeps its own.
    const own = [{name: 'Name', format: 'name'}]
    assert.deepEqual(asTable({...event, columnDefinitions: own}, columns)!.columnDefinitions, own)
  })

  it('asks for whole objects only for a JSONPath outside metadata', () => {
    assert.equal(needsObject(sortKey('.status.phase')), true)
    assert.equal(needsObject(sortKey('metadata.name')), false)
    assert.equal(needsObject(sortKey('AGE')), false)
    assert.equal(needsObject(undefined), false)
  })
})

describe('JSONPath and order (--sort-by)', () => {
  it('reads kubectl relaxed paths', () => {
    assert.deepEqual(parseJsonPath('{.metadata.name}'), ['metadata', 'name'])
    assert.deepEqual(parseJsonPath('metadata.name'), ['metadata', 'name'])
    assert.deepEqual(parseJsonPath('.spec.containers[0].image'), ['spec', 'containers', 0, 'image'])
    assert.deepEqual(parseJsonPath(".metadata.labels['app.kubernetes.io/name']"), [
      'metadata',
      'labels',
      'app.kubernetes.io/name',
    ])
    for (const bad of ['.', '.a..b', '.a[x]', '.a.', '{}'])
      assert.throws(() => parseJsonPath(bad), UsageError, bad)
    assert.equal(valueAt({a: [{b: 2}]}, ['a', 0, 'b']), 2)
    assert.equal(valueAt({a: 1}, ['b']), undefined)
  })

  it("orders as kubectl's sorter: numbers as numbers, text character by character, missing first", () => {
    const sorted = ['web-10', 'web-2', 'web-1', 'a', 'web-'].sort(compareValues)
    assert.deepEqual(sorted, ['a', 'web-', 'web-1', 'web-10', 'web-2'])
    assert.ok(compareValues(2, 10) < 0)
    assert.ok(compareValues(undefined, 'a') < 0)
    assert.equal(compareValues('x', 'x'), 0)
  })
})

describe('the objects of -o json|yaml|jsonl', () => {
  it('sets apiVersion and kind on a list item and carries the profile in the annotation', () => {
    const list = {
      kind: 'DeploymentList',
      apiVersion: 'apps/v1',
      items: [{metadata: {name: 'web', annotations: {a: 'b'}}, spec: {}}],
    }
    const [object] = answerObjects(list, DEPLOY, 'fleet/eu')
    assert.deepEqual(object, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {name: 'web', annotations: {a: 'b', [CLUSTER_PROFILE_ANNOTATION]: 'fleet/eu'}},
      spec: {},
    })
    assert.deepEqual(Object.keys(object!).slice(0, 2), ['apiVersion', 'kind'])
    // One object asked for by name keeps its own.
    const [one] = answerObjects({apiVersion: 'v1', kind: 'Pod', metadata: {name: 'p'}}, PODS, 'fleet/us')
    assert.equal(
      (one!.metadata as {annotations: Record<string, string>}).annotations[CLUSTER_PROFILE_ANNOTATION],
      'fleet/us',
    )
  })

  it('is one List, with the failures in its status only when some target failed', () => {
    assert.deepEqual(fleetList([], []), {
      apiVersion: 'v1',
      items: [],
      kind: 'List',
      metadata: {resourceVersion: ''},
    })
    const failure = {cluster: 'fleet/down', message: 'cannot reach the target', exitCode: 3}
    assert.deepEqual(fleetList([], [failure]).status, {failures: [failure]})
  })
})
