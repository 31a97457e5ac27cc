// The layer rule of docs/architecture.md, checked by `npm run lint`. Each layer imports only from
// the ones below it: commands and the fast path (src/commands, src/cli) → the wiring
// (src/cli/wiring.ts) → use cases (src/usecases, with their ports) → adapters → core; no cycles.
// docs/architecture.md explains the layers.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A cycle makes two modules one concern in two files; split out what both need.',
      severity: 'error',
      from: {path: '^src/'},
      to: {circular: true},
    },
    {
      name: 'core-is-pure',
      comment: 'src/core holds rules testable without a cluster: it imports nothing above it.',
      severity: 'error',
      from: {path: '^src/core/'},
      to: {path: '^src/(?!core/)'},
    },
    {
      name: 'adapters-implement-ports',
      comment:
        'Adapters implement the ports of src/usecases/ports.ts (src/usecases/ports/): they import their types, never a use case.',
      severity: 'error',
      from: {path: '^src/adapters/'},
      to: {path: '^src/(usecases/(?!ports(\\.ts$|/))|cli/|commands/|hooks/)'},
    },
    {
      name: 'usecases-reach-out-through-ports',
      comment:
        'A use case declares what it needs from outside as a port (src/usecases/ports.ts) and gets it from the wiring.',
      severity: 'error',
      from: {path: '^src/usecases/'},
      to: {path: '^src/(adapters|cli|commands|hooks)/'},
    },
    {
      name: 'fronts-reach-adapters-through-the-wiring',
      comment:
        'Commands and the fast path get adapters from src/cli/wiring.ts only (with wiring-fleet.ts, the part of it a run on many targets uses), so that every path is wired alike (type-only imports are fine); the router, which runs before any wiring, only turns on the compile cache.',
      severity: 'error',
      from: {
        path: '^src/(cli|commands|hooks)/',
        pathNot: '^src/cli/(wiring|wiring-fleet|answer|router)\\.ts$',
      },
      to: {path: '^src/adapters/', dependencyTypesNot: ['type-only']},
    },
    {
      name: 'the-answer-bundle-has-its-own-small-wiring',
      comment:
        'src/cli/answer.ts (a bundle of its own, run before any other on every credential and exec) takes its adapters from src/adapters/answered.ts: through wiring.ts, esbuild would put every adapter in it.',
      severity: 'error',
      from: {path: '^src/cli/answer\\.ts$'},
      to: {
        path: '^src/adapters/',
        pathNot: '^src/adapters/answered\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    doNotFollow: {path: 'node_modules'},
    tsPreCompilationDeps: true,
    tsConfig: {fileName: 'tsconfig.json'},
    enhancedResolveOptions: {extensions: ['.ts', '.js']},
  },
}
