// Every command's seam: a pure parseX(argv, env) in its front that reads the words (and the
// environment, e.g. CPCRED_SHARD) into a request and refuses mistakes as usage errors, before the
// front touches the wiring. One table, a row per command; a command without a row fails here.
import assert from 'node:assert/strict'
import path from 'node:path'
import {describe, it} from 'node:test'
import {parseCacheClear} from '../../src/cli/cache-clear.js'
import {parseComplete} from '../../src/cli/complete.js'
import {parseCredential} from '../../src/cli/credential.js'
import {parseDescribe} from '../../src/cli/describe.js'
import {parseDoctor} from '../../src/cli/doctor.js'
import {parseExec} from '../../src/cli/exec.js'
import {COMMANDS, type CommandId} from '../../src/cli/command-table.js'
import {FRONTS, frontOf as oclifFront, type Front} from '../../src/cli/fronts.js'
import {parseGet} from '../../src/cli/get.js'
import {parseHubShow, parseHubUse} from '../../src/cli/hub.js'
import {parseKubeconfig} from '../../src/cli/kubeconfig.js'
import {parseLint} from '../../src/cli/lint.js'
import {parseList} from '../../src/cli/list.js'
import {parseBuiltinPlugin, runBuiltinPlugin} from '../../src/cli/plugins/run.js'
import {parseSecretreader} from '../../src/cli/plugins/secretreader.js'
import {parseTokenRequest} from '../../src/cli/plugins/token-request.js'
import {parseSync} from '../../src/cli/sync.js'
import {parseVersion} from '../../src/cli/version.js'
import type {Wiring} from '../../src/cli/wiring.js'
import {parseWhoami} from '../../src/cli/whoami.js'
import {ExitCode, UsageError} from '../../src/core/errors.js'

type Env = NodeJS.ProcessEnv

interface Accepted {
  argv: string[]
  env?: Env
  /** What the request must hold (a deep subset: keys not named here are not compared). */
  request: object
}

interface Refused {
  argv: string[]
  env?: Env
  /** The UsageError's exact message. */
  message: string
}

interface Seam {
  parse: (argv: string[], env?: Env) => unknown
  accepted: Accepted[]
  refused: Refused[]
}

const NO_SHARD = {shard: undefined, note: undefined}
const SHARD_NOTE = (value: string, index: number, count: number) => ({
  shard: {index, count},
  note: `Working on shard ${index}/${count} of the selection (CPCRED_SHARD=${value}).`,
})
const ONE_AT_A_TIME = 'one profile at a time, got 2: "a" "b"'
const NO_SHARD_SELECTION =
  '--shard splits what -l, --all or --placement select, and there is no such selection'
const PODS_FORM_ERROR =
  'there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (got "pod/a" "b")'
const EXEC_V1 = 'client.authentication.k8s.io/v1'
const EXEC_V1BETA1 = 'client.authentication.k8s.io/v1beta1'

/** By command id: oclif's (FRONTS), and the fast path's words that are not one (the plugin router). */
const SEAMS: Record<string, Seam> = {
  list: {
    parse: parseList,
    accepted: [
      {
        argv: [],
        request: {
          flags: {output: 'text', watch: false, 'all-namespaces': false, 'chunk-size': 500, healthy: false},
          placement: undefined,
          placementKey: undefined,
          shard: NO_SHARD,
        },
      },
      {
        argv: ['-A', '-l', 'env=prod', '-o=wide', '--chunk-size', '50', '-w'],
        request: {
          flags: {
            'all-namespaces': true,
            selector: 'env=prod',
            output: 'wide',
            'chunk-size': 50,
            watch: true,
          },
        },
      },
      {argv: ['-otable', '-Aw'], request: {flags: {output: 'text', 'all-namespaces': true, watch: true}}},
      {argv: ['--placement', 'p1', '--healthy'], request: {placement: 'p1', flags: {healthy: true}}},
      {argv: ['--placement-key=k'], request: {placement: undefined, placementKey: 'k'}},
      {argv: ['--shard', '1/3'], env: {CPCRED_SHARD: '2/3'}, request: {shard: {shard: {index: 1, count: 3}}}},
      {argv: [], env: {CPCRED_SHARD: '2/4'}, request: {shard: SHARD_NOTE('2/4', 2, 4)}},
      {
        argv: ['--shard=auto'],
        env: {CI_NODE_INDEX: '2', CI_NODE_TOTAL: '3'},
        request: {shard: {shard: {index: 2, count: 3}, note: undefined}},
      },
    ],
    refused: [
      {argv: ['prod', 'test'], message: 'list takes no arguments, got "prod" "test"'},
      {argv: ['--placement', 'p', '-w'], message: '--watch follows profiles, not PlacementDecisions'},
      {
        argv: ['--placement', 'p', '-l', 'a=b'],
        message: '--placement cannot be combined with profile names, -l or --all',
      },
      {argv: ['--placement', 'Bad_Name'], message: '--placement "Bad_Name" is not a PlacementDecision name'},
      // The words first, then the placement, then -w with it.
      {argv: ['x', '--placement', 'Bad_Name', '-w'], message: 'list takes no arguments, got "x"'},
      {
        argv: ['--placement', 'Bad_Name', '-w'],
        message: '--placement "Bad_Name" is not a PlacementDecision name',
      },
      {argv: ['--shard', '0/3'], message: '--shard "0/3": INDEX must be from 1 to 3'},
      {argv: [], env: {CPCRED_SHARD: 'half'}, message: 'CPCRED_SHARD "half" is not INDEX/COUNT'},
      {argv: ['-n', 'x', '-A'], message: '--all-namespaces and --namespace cannot be used together'},
      {argv: ['--chunk-size', '0'], message: '--chunk-size "0" is not a whole number of 1 or more'},
      {argv: ['--watc'], message: 'unknown flag: --watc (did you mean --watch?)'},
      {argv: ['-Az'], message: 'unknown shorthand flag: -z in -Az'},
      {argv: ['-o'], message: 'flag needs an argument: -o'},
      {argv: ['-o', 'xml'], message: '--output "xml" is not one of text, wide, json, yaml, name'},
    ],
  },
  describe: {
    parse: parseDescribe,
    accepted: [
      {argv: [], request: {profile: undefined, flags: {output: 'text', 'show-env': false}}},
      {
        argv: ['fleet/a', '-A', '--show-env', '-o', 'yaml'],
        request: {profile: 'fleet/a', flags: {'all-namespaces': true, 'show-env': true, output: 'yaml'}},
      },
      {argv: ['--', '-a'], request: {profile: '-a'}},
    ],
    refused: [
      {argv: ['a', 'b'], message: ONE_AT_A_TIME},
      {argv: ['-o', 'wide'], message: '--output "wide" is not one of text, json, yaml'},
      {argv: ['--show-env=maybe'], message: '--show-env="maybe": a yes/no flag is true or false'},
    ],
  },
  kubeconfig: {
    parse: parseKubeconfig,
    accepted: [
      {
        argv: ['fleet/a', 'b', 'clusterprofile/c'],
        request: {
          refs: [{namespace: 'fleet', name: 'a'}, {name: 'b'}, {name: 'c'}],
          flags: {mode: 'plugin', merge: false, 'as-group': []},
          placement: {placement: undefined, placementKey: undefined, healthy: false},
          shard: NO_SHARD,
        },
      },
      {
        argv: ['--all', '--mode=cpcred', '--as', 'u', '--as-group', 'g1', '--as-group=g2', '--shard=2/2'],
        request: {
          refs: [],
          flags: {all: true, mode: 'cpcred', as: 'u', 'as-group': ['g1', 'g2']},
          shard: {shard: {index: 2, count: 2}, note: undefined},
        },
      },
      // Named profiles are not a selection a shard splits: CPCRED_SHARD does not apply.
      {argv: ['a'], env: {CPCRED_SHARD: '1/2'}, request: {shard: NO_SHARD}},
      {argv: ['-l', 'env=prod'], env: {CPCRED_SHARD: '1/2'}, request: {shard: SHARD_NOTE('1/2', 1, 2)}},
      {argv: ['--placement', 'p', '--healthy'], request: {placement: {placement: 'p', healthy: true}}},
    ],
    refused: [
      {argv: ['a', '--shard', '1/2'], message: NO_SHARD_SELECTION},
      {argv: ['a/b/c'], message: '"a/b/c" is not a profile name'},
      {argv: ['--as-group', 'g'], message: '--as-group needs --as'},
      {
        argv: ['--placement', 'p', 'a'],
        message: '--placement cannot be combined with profile names, -l or --all',
      },
      {argv: ['--mode', 'exec'], message: '--mode "exec" is not one of plugin, cpcred'},
      // The placement before the shard, the shard before the names.
      {
        argv: ['a', '--placement', 'p', '--shard', '1/2'],
        message: '--placement cannot be combined with profile names, -l or --all',
      },
      {argv: ['a/b/c', '--shard', '1/2'], message: NO_SHARD_SELECTION},
    ],
  },
  sync: {
    parse: parseSync,
    accepted: [
      {
        argv: ['--all'],
        request: {
          flags: {all: true, output: 'text', 'dry-run': false, watch: false, 'output-file': undefined},
          placement: {placement: undefined, placementKey: undefined, healthy: false},
          shard: NO_SHARD,
        },
      },
      {
        argv: ['-l', 'env=prod', '--dry-run', '-o', 'json', '--output-file', 'k.yaml'],
        request: {flags: {selector: 'env=prod', 'dry-run': true, output: 'json', 'output-file': 'k.yaml'}},
      },
      {argv: ['--placement-key', 'k', '-w'], request: {placement: {placementKey: 'k'}, flags: {watch: true}}},
      // sync always selects, so CPCRED_SHARD always applies.
      {argv: ['--all', '-A'], env: {CPCRED_SHARD: '3/3'}, request: {shard: SHARD_NOTE('3/3', 3, 3)}},
    ],
    refused: [
      {argv: ['a'], message: 'sync takes no arguments, got "a"'},
      {argv: [], message: 'say which profiles to keep in step'},
      // The arguments first, then the selection, then the file.
      {argv: ['a', '--output-file', '-'], message: 'sync takes no arguments, got "a"'},
      {argv: ['--output-file', '-'], message: 'say which profiles to keep in step'},
      {
        argv: ['--all', '--output-file', '-'],
        message: 'sync keeps a file in step, and - (stdout) is not one',
      },
      {argv: ['--all', '-w', '--dry-run'], message: '--watch and --dry-run cannot be used together'},
      {argv: ['--all', '--shard', '3/2'], message: '--shard "3/2": INDEX must be from 1 to 2'},
      {argv: ['--all'], env: {CPCRED_SHARD: 'auto'}, message: expectedAutoNone('CPCRED_SHARD auto')},
      {
        argv: ['--placement', 'p', '--all'],
        message: '--placement cannot be combined with profile names, -l or --all',
      },
    ],
  },
  doctor: {
    parse: parseDoctor,
    accepted: [
      {argv: [], request: {profile: undefined, can: undefined, flags: {output: 'text'}, shard: NO_SHARD}},
      {
        argv: ['a', '--can', 'get pods -n kube-system', '-o=json'],
        request: {
          profile: 'a',
          can: {
            verb: 'get',
            resource: 'pods',
            group: '',
            namespace: 'kube-system',
            text: 'get pods -n kube-system',
          },
          flags: {output: 'json'},
        },
      },
      {argv: ['-A'], env: {CPCRED_SHARD: '1/2'}, request: {shard: SHARD_NOTE('1/2', 1, 2)}},
      {argv: ['a'], env: {CPCRED_SHARD: '1/2'}, request: {shard: NO_SHARD}},
      {argv: ['-A', '--shard', '2/2'], request: {shard: {shard: {index: 2, count: 2}, note: undefined}}},
    ],
    refused: [
      {argv: ['a', 'b'], message: ONE_AT_A_TIME},
      {argv: ['--can', 'get'], message: '--can "get" is not VERB RESOURCE [-n NAMESPACE]'},
      {
        argv: ['--can', 'get pods/'],
        message: '--can "get pods/": "pods/" is not RESOURCE[.GROUP][/SUBRESOURCE]',
      },
      {argv: ['a', '--shard', '1/2'], message: NO_SHARD_SELECTION},
      {argv: ['-o', 'yaml'], message: '--output "yaml" is not one of text, json'},
      // The operands, then --can, then the shard.
      {argv: ['a', 'b', '--can', 'get'], message: ONE_AT_A_TIME},
      {
        argv: ['a', '--can', 'get', '--shard', '1/2'],
        message: '--can "get" is not VERB RESOURCE [-n NAMESPACE]',
      },
    ],
  },
  lint: {
    parse: parseLint,
    accepted: [
      {
        argv: [],
        request: {
          refs: [],
          failOn: 'error',
          reports: [],
          flags: {output: 'text', 'all-namespaces': false, selector: undefined, 'fail-on': 'error'},
        },
      },
      {
        argv: ['fleet/a', 'b', '-o', 'json', '--fail-on=will-break', '--report', 'junit=r/lint.xml'],
        request: {
          refs: [{namespace: 'fleet', name: 'a'}, {name: 'b'}],
          failOn: 'will-break',
          reports: [{kind: 'junit', file: path.resolve('r/lint.xml')}],
          flags: {output: 'json'},
        },
      },
      {
        argv: ['-A', '-l', 'env=prod', '--fail-on', 'warning', '--report=json=l.json'],
        request: {
          refs: [],
          failOn: 'warning',
          reports: [{kind: 'json', file: path.resolve('l.json')}],
          flags: {'all-namespaces': true, selector: 'env=prod'},
        },
      },
    ],
    refused: [
      {argv: ['--fail-on', 'info'], message: '--fail-on "info" is not one of error, will-break, warning'},
      {argv: ['-o', 'wide'], message: '--output "wide" is not one of text, json, yaml'},
      {argv: ['--report', 'xml=f'], message: '--report "xml=f" is not junit=FILE or json=FILE'},
      {argv: ['a/b/c'], message: '"a/b/c" is not a profile name'},
      {argv: ['a', '-l', 'env=prod'], message: 'lint takes profile names or -l, not both'},
    ],
  },
  whoami: {
    parse: parseWhoami,
    accepted: [
      {
        argv: [],
        request: {profile: undefined, flags: {output: 'text', 'no-cache': false, 'plugin-timeout': 120_000}},
      },
      {
        argv: ['fleet/a', '--no-cache', '--plugin-timeout', '5s', '-ojson'],
        request: {profile: 'fleet/a', flags: {'no-cache': true, 'plugin-timeout': 5000, output: 'json'}},
      },
    ],
    refused: [
      {argv: ['a', 'b'], message: ONE_AT_A_TIME},
      {argv: ['--plugin-timeout', 'soon'], message: '--plugin-timeout "soon" is not a duration'},
    ],
  },
  'cache:clear': {
    parse: parseCacheClear,
    accepted: [
      {argv: [], request: {profile: undefined, flags: {'access-provider': []}}},
      {argv: ['fleet/a', '--context', 'hub'], request: {profile: 'fleet/a', flags: {context: 'hub'}}},
    ],
    refused: [
      {argv: ['a', 'b'], message: ONE_AT_A_TIME},
      {argv: ['-A'], message: 'unknown shorthand flag: -A in -A'},
    ],
  },
  hub: {
    parse: parseHubShow,
    accepted: [
      {argv: [], request: {flags: {kubeconfig: undefined, context: undefined}}},
      {argv: ['--context=hub', '--kubeconfig', '/k'], request: {flags: {kubeconfig: '/k', context: 'hub'}}},
    ],
    refused: [
      {argv: ['x'], message: 'unexpected argument "x"'},
      {argv: ['-n', 'x'], message: 'unknown shorthand flag: -n in -n'},
    ],
  },
  'hub:use': {
    parse: parseHubUse,
    accepted: [
      {argv: ['hub'], request: {context: 'hub', flags: {unset: false, kubeconfig: undefined}}},
      {argv: ['--unset'], request: {context: undefined, flags: {unset: true}}},
      {argv: ['ctx', '--kubeconfig=/k'], request: {context: 'ctx', flags: {kubeconfig: '/k'}}},
    ],
    refused: [
      {argv: [], message: 'a context is required'},
      {argv: ['--kubeconfig', '/k'], message: 'a context is required'},
      {argv: ['--unset', 'x'], message: '--unset takes no context or --kubeconfig'},
      {argv: ['--unset', '--kubeconfig', '/k'], message: '--unset takes no context or --kubeconfig'},
      {argv: ['a', 'b'], message: ONE_AT_A_TIME},
    ],
  },
  credential: {
    parse: parseCredential,
    accepted: [
      {
        argv: ['fleet/a'],
        request: {
          ref: {namespace: 'fleet', name: 'a'},
          apiVersion: EXEC_V1,
          flags: {'profile-max-age': 30_000, 'plugin-timeout': 120_000, 'no-cache': false, verbose: false},
        },
      },
      {
        argv: ['a'],
        env: {KUBERNETES_EXEC_INFO: JSON.stringify({apiVersion: EXEC_V1BETA1, spec: {interactive: false}})},
        request: {ref: {name: 'a'}, apiVersion: EXEC_V1BETA1},
      },
      {
        argv: ['a', '-v', '--no-cache', '--cache-ttl=5m', '--api-version', 'v1alpha2'],
        request: {flags: {verbose: true, 'no-cache': true, 'cache-ttl': 300_000, 'api-version': 'v1alpha2'}},
      },
    ],
    refused: [
      {argv: [], message: 'a profile is required'},
      {argv: ['a', 'b'], message: 'expected one profile, got 2'},
      {
        argv: ['a'],
        env: {KUBERNETES_EXEC_INFO: '{}'},
        message: `KUBERNETES_EXEC_INFO does not name a supported ExecCredential apiVersion (${EXEC_V1}, ${EXEC_V1BETA1})`,
      },
      {argv: ['a/b/c'], message: '"a/b/c" is not a profile name'},
      // The words, then KUBERNETES_EXEC_INFO, then the profile's name.
      {argv: [], env: {KUBERNETES_EXEC_INFO: 'not json'}, message: 'a profile is required'},
      {
        argv: ['a/b/c'],
        env: {KUBERNETES_EXEC_INFO: 'not json'},
        message: `KUBERNETES_EXEC_INFO does not name a supported ExecCredential apiVersion (${EXEC_V1}, ${EXEC_V1BETA1})`,
      },
    ],
  },
  exec: {
    parse: parseExec,
    accepted: [
      {
        argv: ['a', 'ns/b', '--', 'kubectl', 'get', 'pods', '-n', 'y'],
        request: {
          names: ['a', 'ns/b'],
          command: ['kubectl', 'get', 'pods', '-n', 'y'],
          flags: {parallel: 4, stdin: 'copy', output: 'text', quiet: false},
          reports: [],
          shard: NO_SHARD,
        },
      },
      {
        argv: ['-l', 'env=prod', '--parallel=8', '-q', '--report', 'junit=r.xml', '--', 'true'],
        request: {
          names: [],
          flags: {selector: 'env=prod', parallel: 8, quiet: true},
          reports: [{kind: 'junit', file: path.resolve('r.xml')}],
        },
      },
      {argv: ['--all', '--', 'true'], env: {CPCRED_SHARD: '1/2'}, request: {shard: SHARD_NOTE('1/2', 1, 2)}},
      {argv: ['a', '--', 'true'], env: {CPCRED_SHARD: '1/2'}, request: {shard: NO_SHARD}},
    ],
    refused: [
      {argv: ['a'], message: 'no command to run'},
      {argv: ['a', '--'], message: 'no command to run'},
      {
        argv: ['a', '--timeout', '0s', '--', 'true'],
        message: '--timeout 0s would stop every command at once',
      },
      {argv: ['a', '--output-dir=', '--', 'true'], message: '--output-dir is empty'},
      {
        argv: ['a', '--report', 'xml=f', '--', 'true'],
        message: '--report "xml=f" is not junit=FILE or json=FILE',
      },
      {argv: ['a', '--shard', '1/2', '--', 'true'], message: NO_SHARD_SELECTION},
      {argv: ['a', '--bogus', '--', 'true'], message: 'unknown flag: --bogus'},
      {
        argv: ['a', '-n', 'x', '-A', '--', 'true'],
        message: '--all-namespaces and --namespace cannot be used together',
      },
      {
        argv: ['a', '--parallel', '0', '--', 'true'],
        message: '--parallel "0" is not a whole number of 1 or more',
      },
      // The flags before the missing command; the reports before the shard.
      {argv: ['a', '--bogus'], message: 'unknown flag: --bogus'},
      {
        argv: ['--report', 'x', '--shard', '1/2', '--', 'true'],
        message: '--report "x" is not junit=FILE or json=FILE',
      },
    ],
  },
  get: {
    parse: parseGet,
    accepted: [
      {
        argv: ['-A', '-l', 'env=prod', '--', 'pods', '-n', 'kube-system', '-l', 'app=web'],
        request: {
          names: [],
          flags: {'all-namespaces': true, selector: 'env=prod', parallel: 16},
          query: {
            items: [{resource: 'pods'}],
            namespace: 'kube-system',
            allNamespaces: false,
            selector: 'app=web',
            output: undefined,
            noHeaders: false,
          },
          reports: [],
          shard: NO_SHARD,
        },
      },
      {
        argv: ['fleet-prod/eu-west-1', 'fleet-prod/us-east-1', '--', 'deploy,sts', '-A'],
        request: {
          names: ['fleet-prod/eu-west-1', 'fleet-prod/us-east-1'],
          query: {items: [{resource: 'deploy'}, {resource: 'sts'}], allNamespaces: true},
        },
      },
      {
        argv: ['--placement', 'web', '--', 'nodes', '-owide', '--no-headers', '--sort-by', 'AGE'],
        request: {
          flags: {placement: 'web'},
          query: {items: [{resource: 'nodes'}], shape: 'table', noHeaders: true, sortBy: 'AGE'},
          format: 'wide',
          sortBy: {column: 'AGE'},
        },
      },
      {
        argv: ['a', '--', 'pods,svc', 'x', 'y', '--sort-by={.metadata.name}', '-o', 'json'],
        request: {
          query: {
            items: [
              {resource: 'pods', name: 'x'},
              {resource: 'pods', name: 'y'},
              {resource: 'svc', name: 'x'},
              {resource: 'svc', name: 'y'},
            ],
            shape: 'objects',
          },
          format: 'json',
          sortBy: {path: ['metadata', 'name'], text: '{.metadata.name}'},
        },
      },
      {
        argv: [
          '--all',
          '--report',
          'junit=r.xml',
          '--',
          'pod/a',
          'deployment.apps/b',
          '--field-selector=status.phase=Running',
        ],
        env: {CPCRED_SHARD: '1/2'},
        request: {
          query: {
            items: [
              {resource: 'pod', name: 'a'},
              {resource: 'deployment.apps', name: 'b'},
            ],
            fieldSelector: 'status.phase=Running',
          },
          reports: [{kind: 'junit', file: path.resolve('r.xml')}],
          shard: SHARD_NOTE('1/2', 1, 2),
        },
      },
      {argv: ['a', '--', 'pods', '-A'], request: {watch: false}},
      {argv: ['a', 'b', '--', 'pods', '-A', '--watch'], request: {watch: true, format: 'text'}},
      {argv: ['a', '--', 'pods', '-w', '-o', 'wide'], request: {watch: true, format: 'wide'}},
      {argv: ['a', '--', 'pods', '-w', '-o', 'name'], request: {watch: true, format: 'name'}},
      {
        argv: ['a', '--', 'pods', '-w', '-o', 'jsonl'],
        request: {watch: true, format: 'jsonl', query: {shape: 'objects'}},
      },
    ],
    refused: [
      {argv: ['a', 'pods'], message: "kubectl get's words go after --"},
      {argv: [], message: "kubectl get's words go after --"},
      {argv: ['a', '--'], message: 'no resource type to get'},
      {argv: ['a', '--', '-A'], message: 'no resource type to get'},
      {
        argv: ['a', '--', 'pods', 'x', '-A'],
        message: 'a resource cannot be retrieved by name across all namespaces',
      },
      {
        argv: ['a', '--', 'pods', '-o', 'xml'],
        message: '--output "xml" is not one of text, wide, name, json, yaml, jsonl',
      },
      {argv: ['a', '--', 'pods,svc', '--watch'], message: '--watch follows one resource type, got pods, svc'},
      {argv: ['a', '--', 'pods', 'x', '-w'], message: '--watch follows a list, not objects named'},
      {argv: ['a', '--', 'pod/x', '-w'], message: '--watch follows a list, not objects named'},
      {argv: ['a', '--', 'pods', '-w', '-o', 'json'], message: '--watch does not print -o json'},
      {argv: ['a', '--', 'pods', '-w', '-oyaml'], message: '--watch does not print -o yaml'},
      {
        argv: ['a', '--report', 'junit=r.xml', '--', 'pods', '-w'],
        message: '--watch does not end, so it writes no --report',
      },
      {
        argv: ['a', '--', 'pods', '-l', 'a b'],
        message: '-l "a b" is not a label selector: unexpected "b" after "a"',
      },
      {argv: ['a', '--', 'pods', '--sort-by', '.a..b'], message: '--sort-by ".a..b" is not a JSONPath'},
      {argv: ['a', '--', 'pod/a', 'b'], message: PODS_FORM_ERROR},
      {argv: ['a', '--', 'pods,', 'x'], message: '"pods," names an empty resource type'},
      {
        argv: ['a', '--timeout', '0s', '--', 'pods'],
        message: '--timeout 0s would give up on every target at once',
      },
      {
        argv: ['a', '--report', 'xml=f', '--', 'pods'],
        message: '--report "xml=f" is not junit=FILE or json=FILE',
      },
      {argv: ['a', '--shard', '1/2', '--', 'pods'], message: NO_SHARD_SELECTION},
      {argv: ['a', '--bogus', '--', 'pods'], message: 'unknown flag: --bogus'},
    ],
  },
  plugin: {
    parse: parseBuiltinPlugin,
    accepted: [
      {argv: ['secretreader', '-n', 'x'], request: {name: 'secretreader', argv: ['-n', 'x']}},
      {argv: ['token-request'], request: {name: 'token-request', argv: []}},
    ],
    refused: [
      {argv: ['nope', '-n', 'x'], message: 'unknown built-in plugin "nope"'},
      {argv: [], message: 'unknown built-in plugin ""'},
    ],
  },
  'plugin:secretreader': {
    parse: parseSecretreader,
    accepted: [
      {
        argv: ['-n', 'fleet', '--context=hub', '-v'],
        request: {namespace: 'fleet', context: 'hub', verbose: true, kubeconfig: undefined},
      },
      {argv: ['-n', ''], request: {namespace: undefined, verbose: false}},
    ],
    refused: [
      {argv: ['extra'], message: 'unexpected argument "extra"'},
      {argv: ['--token', 't'], message: 'unknown flag: --token'},
    ],
  },
  'plugin:token-request': {
    parse: parseTokenRequest,
    accepted: [
      {
        argv: ['--service-account', 'sa', '--expiration-seconds', '3600', '--audience', 'aud', '-n', 'ns'],
        request: {serviceAccount: 'sa', expirationSeconds: 3600, audience: 'aud', namespace: 'ns'},
      },
      {argv: [], request: {serviceAccount: undefined, expirationSeconds: undefined, verbose: false}},
    ],
    refused: [
      {argv: ['x'], message: 'unexpected argument "x"'},
      {
        argv: ['--expiration-seconds', 'soon'],
        message: '--expiration-seconds "soon" is not a whole number of seconds',
      },
    ],
  },
  version: {
    parse: parseVersion,
    accepted: [
      {argv: [], request: {flags: {output: 'text'}}},
      {argv: ['-o', 'json'], request: {flags: {output: 'json'}}},
      // Other words were never refused.
      {argv: ['extra'], request: {flags: {output: 'text'}}},
    ],
    refused: [
      {argv: ['-o', 'xml'], message: '--output "xml" is not one of text, json, yaml'},
      {argv: ['--bogus'], message: 'unknown flag: --bogus'},
    ],
  },
  __complete: {
    parse: parseComplete,
    accepted: [
      {argv: ['exec', 'a'], request: {kind: 'shell', words: ['exec', 'a']}},
      {argv: ['--kubectl', 'list', ''], request: {kind: 'kubectl', words: ['list', '']}},
      {argv: ['--refresh', '{"context":"hub"}'], request: {kind: 'refresh', selection: {context: 'hub'}}},
      {argv: ['--refresh'], request: {kind: 'refresh', selection: {}}},
    ],
    // Completion never says a word on the shell's line: it refuses nothing.
    refused: [],
  },
}

/** The fast path's words that name a command of the table by another id. */
/** The commands whose seam refuses no words. */
const REFUSES_NOTHING = ['__complete']

/** CPCRED_SHARD=auto with no CI's variables: parseShard's message, in its words. */
function expectedAutoNone(what: string): string {
  return `${what} found no parallel job's index: none of CI_NODE_INDEX, JOB_COMPLETION_INDEX, BUILDKITE_PARALLEL_JOB, CIRCLE_NODE_INDEX is set`
}

/** `actual` holds every key of `expected` with its value (arrays and leaves compared whole). */
function assertHolds(actual: unknown, expected: unknown, at: string): void {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    assert.ok(actual !== null && typeof actual === 'object', `${at} is an object, got ${String(actual)}`)
    for (const [key, value] of Object.entries(expected))
      assertHolds((actual as Record<string, unknown>)[key], value, `${at}.${key}`)
    return
  }
  assert.deepEqual(actual, expected, at)
}

function isUsageError(message: string) {
  return (error: unknown) => {
    assert.ok(error instanceof UsageError, `a UsageError, got ${String(error)}`)
    assert.equal(error.message, message)
    assert.equal(error.exitCode, ExitCode.Usage)
    return true
  }
}

const show = (argv: string[], env?: Env) =>
  `[${argv.map((word) => JSON.stringify(word)).join(' ')}]${env ? ` with ${JSON.stringify(env)}` : ''}`

describe('every command has a seam', () => {
  it('every oclif command (FRONTS) has a row in the table', () => {
    const missing = Object.keys(FRONTS).filter((id) => !Object.hasOwn(SEAMS, id))
    assert.deepEqual(missing, [], 'add a parseX and its cases for these commands')
  })

  it('every command of the command table with a front has a row in the table', () => {
    const missing = (Object.keys(COMMANDS) as CommandId[])
      .filter((id) => !('ownRun' in COMMANDS[id]))
      .filter((id) => !Object.hasOwn(SEAMS, id))
    assert.deepEqual(missing, [], 'add a parseX and its cases for these commands')
  })

  it('each row is a parseX with cases of both kinds', () => {
    for (const [id, seam] of Object.entries(SEAMS)) {
      assert.match(seam.parse.name, /^parse[A-Z]\w*$/, id)
      assert.ok(seam.accepted.length > 0, `${id}: no accepted words`)
      if (!REFUSES_NOTHING.includes(id)) assert.ok(seam.refused.length > 0, `${id}: no refused words`)
    }
  })
})

describe('parseX: words into a request', () => {
  for (const [id, seam] of Object.entries(SEAMS)) {
    it(`${id}: reads the words, defaults, forms and operands`, () => {
      for (const {argv, env, request} of seam.accepted)
        assertHolds(seam.parse(argv, env), request, `${id} ${show(argv, env)}`)
    })
  }
})

describe('parseX: refused words', () => {
  for (const [id, seam] of Object.entries(SEAMS)) {
    if (seam.refused.length === 0) continue
    it(`${id}: refuses with the exact usage error`, () => {
      for (const {argv, env, message} of seam.refused)
        assert.throws(() => seam.parse(argv, env), isUsageError(message), `${id} ${show(argv, env)}`)
    })
  }
})

/** A wiring that has only an environment: the front may touch nothing else before it has parsed. */
function untouchedWiring(env: Env): Wiring {
  return new Proxy({} as Wiring, {
    get(_target, key) {
      if (key === 'env') return env
      throw new Error(`the front touched wiring.${String(key)} before refusing the words`)
    },
  })
}

/** The front that runs each row's words (the plugin router has no oclif command of its own). */
async function frontOf(id: string): Promise<Front | undefined> {
  if (id === 'plugin') return (wiring, argv) => runBuiltinPlugin(wiring, argv)
  const load = oclifFront(id)
  return load && (await load())
}

describe('the fronts refuse through their seam, before touching the wiring', () => {
  for (const [id, seam] of Object.entries(SEAMS)) {
    if (seam.refused.length === 0) continue
    it(`${id}: runX refuses what parseX refuses, with the wiring untouched`, async () => {
      const front = await frontOf(id)
      assert.ok(front, `${id} has a front`)
      // A built-in plugin's errors carry its name (plugins/run.ts).
      const named = id.startsWith('plugin:') ? `${id.slice('plugin:'.length)}: ` : ''
      for (const {argv, env = {}, message} of seam.refused)
        await assert.rejects(
          front(untouchedWiring(env), argv),
          (error: unknown) => {
            assert.ok(
              error instanceof Error && error.name === 'UsageError',
              `a UsageError, got ${String(error)}`,
            )
            assert.equal(error.message, `${named}${message}`)
            return true
          },
          `${id} ${show(argv, env)}`,
        )
    })
  }
})
