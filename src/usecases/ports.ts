// What use cases need from outside the process, declared once, by concern in src/usecases/ports/.
// Adapters implement these types; src/cli/wiring.ts builds the implementations and hands them to
// the use cases; unit tests hand them fakes (test/unit/usecase-*.test.ts). A use case imports
// nothing from src/adapters.
export type * from './ports/hub.js'
export type * from './ports/files.js'
export type * from './ports/profiles.js'
export type * from './ports/credentials.js'
export type * from './ports/targets.js'
export type * from './ports/doctor.js'
export type * from './ports/processes.js'
export type * from './ports/exec.js'
