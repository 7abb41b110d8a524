/**
 * The helpers Ajv's standalone validators call (string length in code points, deep equality,
 * ajv-formats' formats), gathered in one object that generated validators import from the
 * runtime instead of `require`-ing three CommonJS modules each. In the published package the
 * runtime is one bundled file with these helpers inside, so the first call to a generated tool
 * loads no CommonJS module at all (P2 of the benchmarks: ~15 ms of a cold start on the 2-core
 * machine). String length and formats are Ajv's own functions; deep equality is `jsonEqual`.
 */
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';

/**
 * A CommonJS module's `exports.default`: Node hands `module.exports` as the default import while
 * bundlers that honour `__esModule` hand `exports.default` itself; either works here.
 */
function defaultExport<T>(module: T): T {
  return ((module as { default?: T }).default ?? module) as T;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Deep equality of JSON data as JSON Schema means it (`const`, `enum`, `uniqueItems`): same type,
 * numbers by value, arrays item by item, objects by their own keys in any order. Replaces Ajv's
 * `fast-deep-equal`, which calls an object's `toString`/`valueOf` when they are not Object's own —
 * so `uniqueItems` over `[{ "toString": "" }, { "toString": "" }]` threw `a.toString is not a
 * function` instead of answering (found by the standalone-vs-runtime property test).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a !== a && b !== b; // NaN
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const prototype = Object.getPrototypeOf(a);
  if (prototype !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof RegExp) return a.source === (b as RegExp).source && a.flags === (b as RegExp).flags;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!hasOwn.call(b, key) || !jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** What generated validators use; `require("ajv/dist/runtime/<name>").default` maps to the member of that name. */
export const validatorRuntime = Object.freeze({
  ucs2length: defaultExport(ucs2lengthModule),
  equal: jsonEqual,
  fullFormats,
});
