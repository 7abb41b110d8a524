// Module-resolution hook (node:module `register`): an `fs` / `node:fs` import from the conformance
// suite's bundle resolves to `fs-with-glob-sync.mjs` when this Node's fs has no `globSync`. Any other
// importer, and any Node that has `globSync`, gets the real module.
import * as fs from 'node:fs';

const SHIM = new URL('./fs-with-glob-sync.mjs', import.meta.url).href;
const SUITE = '/node_modules/@modelcontextprotocol/conformance/';

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    typeof fs.globSync !== 'function' &&
    context.parentURL?.includes(SUITE)
  )
    return { url: SHIM, shortCircuit: true };
  return nextResolve(specifier, context);
}
