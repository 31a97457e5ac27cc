// node --import this file: a process in which @kubernetes/client-node cannot be imported or
// required, as in an install of cpcred (it is a devDependency: dist/vendor bundles the part of it
// that runs). Node 22.15 and later hook require and import in this thread (registerHooks; 26
// deprecates register); Node 20's register hooks import.
import * as nodeModule from 'node:module'

const refused = (specifier) =>
  specifier === '@kubernetes/client-node' || specifier.startsWith('@kubernetes/client-node/')
const message = '@kubernetes/client-node is not installed with cpcred'

if (nodeModule.registerHooks)
  nodeModule.registerHooks({
    resolve(specifier, context, next) {
      if (refused(specifier)) throw new Error(message)
      return next(specifier, context)
    },
  })
else
  nodeModule.register(
    `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if ((${refused.toString()})(specifier)) throw new Error(${JSON.stringify(message)})
  return next(specifier, context)
}`)}`,
  )
