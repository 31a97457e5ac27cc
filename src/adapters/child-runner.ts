// The ChildRunner port: a single target's command with the terminal (child-process.ts), a fan-out's
// through the launcher (target-launcher.ts). The answer fast path takes only the first
// (answered.ts), so that a warm `cpcred exec` does not load the launcher's side.
import type {ChildRunner} from '../usecases/ports.js'
import {childResult, terminalChildren} from './child-process.js'
import {launcher} from './target-launcher.js'

export const nodeChildRunner: ChildRunner = {
  ...terminalChildren,
  prefixed(request, onLine, stdin) {
    const target = launcher.launch(request, onLine, stdin)
    return {result: target.ended.then(childResult), kill: target.signal, stop: target.stop}
  },
  close: () => launcher.close(),
}
