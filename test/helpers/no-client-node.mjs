// node --import this file: a process in which @kubernetes/client-node cannot be imported, as in an
// install of cpcred (it is a devDependency: dist/vendor bundles the part of it that runs).
import {register} from 'node:module'

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === '@kubernetes/client-node' || specifier.startsWith('@kubernetes/client-node/'))
    throw new Error('@kubernetes/client-node is not installed with cpcred')
  return next(specifier, context)
}`)}`,
)
