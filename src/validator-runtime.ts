/**
 * The helpers Ajv's standalone validators call (string length in code points, deep equality,
 * ajv-formats' formats), gathered in one object that generated validators import from the
 * runtime instead of `require`-ing three CommonJS modules each. In the published package the
 * runtime is one bundled file with these helpers inside, so the first call to a generated tool
 * loads no CommonJS module at all (P2 of the benchmarks: ~15 ms of a cold start on the 2-core
 * machine). The functions are Ajv's own, so a generated validator behaves exactly as Ajv's.
 */
import equalModule from 'ajv/dist/runtime/equal.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';

/**
 * A CommonJS module's `exports.default`: Node hands `module.exports` as the default import while
 * bundlers that honour `__esModule` hand `exports.default` itself; either works here.
 */
function defaultExport<T>(module: T): T {
  return ((module as { default?: T }).default ?? module) as T;
}

/** What generated validators use; `require("ajv/dist/runtime/<name>").default` maps to the member of that name. */
export const validatorRuntime = Object.freeze({
  ucs2length: defaultExport(ucs2lengthModule),
  equal: defaultExport(equalModule),
  fullFormats,
});
