/**
 * The helpers Ajv's standalone validators call (string length in code points, deep equality,
 * ajv-formats' formats), gathered in one object that generated validators import from the
 * runtime instead of `require`-ing three CommonJS modules each. In the published package the
 * runtime is one bundled file with these helpers inside, so the first call to a generated tool
 * loads no CommonJS module at all (loading them is a measurable part of a cold start: P2 of the
 * benchmarks). String length and formats are Ajv's own functions; deep equality is `jsonEqual`.
 */
import { unescapePointerSegment } from './json-pointer.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';

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
    if (!Object.hasOwn(b, key) || !jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

/** What `coerceValue` answers when Ajv's rules do not convert the value to the type. */
export const NOT_COERCIBLE: unique symbol = Symbol('not coercible');

/**
 * Ajv's type coercion (`coerceTypes: true`, lib/compile/validate/dataType.ts) of one scalar to one
 * type: number/boolean/null → string; boolean, null or a numeric string → number (integer: whole);
 * `"true"`/`1` and `"false"`/`0`/`null` → boolean; `""`/`0`/`false` → null. Objects and arrays
 * never convert. Kept to Ajv's rules so a value coerces exactly as it always did — only where.
 */
export function coerceValue(value: unknown, type: string): unknown {
  const kind = typeof value;
  switch (type) {
    case 'string':
      if (kind === 'number' || kind === 'boolean') return String(value);
      if (value === null) return '';
      break;
    case 'number':
    case 'integer': {
      if (kind === 'boolean' || value === null) return Number(value);
      if (kind !== 'string' || value === '') break;
      const number = Number(value);
      if (Number.isNaN(number) || (type === 'integer' && number % 1 !== 0 && Number.isFinite(number))) break;
      return number;
    }
    case 'boolean':
      if (value === 'false' || value === 0 || value === null) return false;
      if (value === 'true' || value === 1) return true;
      break;
    case 'null':
      if (value === '' || value === 0 || value === false) return null;
      break;
  }
  return NOT_COERCIBLE;
}

/** Ajv's data context (the second parameter of every Ajv validate function). */
interface DataContext {
  readonly instancePath?: string;
  readonly parentData?: Record<string | number, unknown>;
  readonly parentDataProperty?: string | number;
  readonly rootData?: unknown;
}

/** One problem as an Ajv validator (generated or runtime) reports it; a `type` error carries `params.type`. */
export interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, any>;
  message?: string;
  schemaPath?: string;
}

/** A value the validator converted to the type its schema wants (`"212"` → `212` for a number). */
export interface ValueCoercion {
  /** JSON pointer to the value in the validated data. */
  readonly path: string;
  readonly from: unknown;
  readonly to: unknown;
}

/** An Ajv validate function, compiled or standalone, validating without coercion. */
export interface StrictValidate {
  // `any`: Ajv declares its own (wider) context type; this module only reads `parentData`.
  (data: unknown, dataContext?: any): boolean;
  errors?: readonly AjvError[] | null;
  /** Set by `coerceWhereNeeded` after each validation: the values it converted, or null when none. */
  coerced?: readonly ValueCoercion[] | null;
}

/** Most rounds of coerce-then-validate-again (each can reveal type errors under a condition that now holds). */
const MAX_COERCION_ROUNDS = 8;

/** Whether `error` was reported by a schema under the `oneOf` that reported `oneOf`, at or below its value. */
function isInside(error: AjvError, oneOf: AjvError): boolean {
  const at = oneOf.instancePath;
  const path = error.instancePath;
  if (!(path === at || (path.startsWith(at) && path.charCodeAt(at.length) === 47))) return false;
  return (
    error.schemaPath === undefined ||
    oneOf.schemaPath === undefined ||
    error.schemaPath.startsWith(`${oneOf.schemaPath}/`)
  );
}

/**
 * Coerces, in place, the values at the places `errors` report a wrong `type` — each to the first
 * type expected there that Ajv's rules convert it to — records in `undo` how to put them back and
 * in `changes` what changed. Returns the root (replaced when the root itself was coerced).
 */
function coerceAtTypeErrors(
  root: unknown,
  errors: readonly AjvError[],
  undo: Place[],
  changes: ValueCoercion[],
): unknown {
  for (const [path, types] of wantedTypes(errors)) {
    const place = locate(root, path);
    if (place === undefined || (place.value !== null && typeof place.value === 'object')) continue;
    for (const type of types) {
      const coerced = coerceValue(place.value, type);
      if (coerced === NOT_COERCIBLE) continue;
      changes.push({ path, from: place.value, to: coerced });
      if (place.holder === undefined) root = coerced;
      else {
        undo.push(place);
        place.holder[place.key] = coerced;
      }
      break;
    }
  }
  return root;
}

/**
 * The types wanted at each place a `type` error names, in the order the schema asks for them (first
 * branch first). A `oneOf` that failed because several branches accept the value as it is forces no
 * branch's type on the values inside it (Ajv reports those branches in `params.passingSchemas`).
 */
function wantedTypes(errors: readonly AjvError[]): Map<string, string[]> {
  let accepted: AjvError[] | undefined;
  for (const error of errors)
    if (error.keyword === 'oneOf' && Array.isArray(error.params.passingSchemas)) (accepted ??= []).push(error);
  const wanted = new Map<string, string[]>();
  for (const error of errors) {
    if (error.keyword !== 'type') continue;
    if (accepted !== undefined && accepted.some((oneOf) => isInside(error, oneOf))) continue;
    const type = error.params.type as string | string[] | undefined;
    const types = Array.isArray(type) ? type : typeof type === 'string' ? type.split(',') : [];
    wanted.set(error.instancePath, [...(wanted.get(error.instancePath) ?? []), ...types]);
  }
  return wanted;
}

/** A value found by an instance path, with the object and key holding it (no holder: the root). */
interface Place {
  holder: Record<string, unknown> | undefined;
  key: string;
  value: unknown;
}

/** The value at an Ajv instance path (`/a/0/b`), or undefined when the path leads through a missing key or a scalar. */
function locate(root: unknown, path: string): Place | undefined {
  const place: Place = { holder: undefined, key: '', value: root };
  if (path === '') return place;
  const segments = path.split('/');
  for (let index = 1; index < segments.length; index++) {
    if (place.value === null || typeof place.value !== 'object') return undefined;
    const holder = place.value as Record<string, unknown>;
    const key = unescapePointerSegment(segments[index]!);
    if (!Object.hasOwn(holder, key)) return undefined;
    place.holder = holder;
    place.key = key;
    place.value = holder[key];
  }
  return place;
}

/**
 * Wraps a non-coercing Ajv validator so it coerces **only where the value does not validate as
 * sent**: it validates first (a value that fits is never changed — the one call on the common
 * path); when that fails it converts, by Ajv's rules, only the values at the places that reported
 * a wrong `type`, each to the first type the schema expects there, and validates again. A value
 * that another `anyOf`/`oneOf` branch accepts as it is reports no error, so it is never converted.
 * Still invalid: the coerced values are put back (defaults filled stay) and the last errors are
 * given. A coerced root is passed on through `parentData` as Ajv does. After each call, `coerced`
 * lists the values it converted (null when none), for the caller to report.
 *
 * Why not Ajv's `coerceTypes`: it converts at every `type` it meets, in every branch, before
 * knowing whether another branch accepts the value (`null` for `anyOf: [string, null]` became `""`).
 */
export function coerceWhereNeeded<F extends StrictValidate>(strict: F): F {
  const validate: StrictValidate = function validate(data: unknown, dataContext?: DataContext): boolean {
    if (strict(data, dataContext)) {
      validate.errors = null;
      validate.coerced = null;
      return true;
    }
    return coerceAndRetry(strict, validate, data, dataContext);
  };
  validate.errors = null;
  validate.coerced = null;
  return validate as F;
}

function coerceAndRetry(
  strict: StrictValidate,
  outer: StrictValidate,
  data: unknown,
  dataContext: DataContext | undefined,
): boolean {
  const undo: Place[] = [];
  const changes: ValueCoercion[] = [];
  let root = data;
  let errors = strict.errors;
  outer.coerced = null;
  for (let round = 0; round < MAX_COERCION_ROUNDS && errors; round++) {
    const converted = changes.length;
    root = coerceAtTypeErrors(root, errors, undo, changes);
    if (changes.length === converted) break;
    if (strict(root, dataContext)) {
      if (root !== data && dataContext?.parentData !== undefined)
        dataContext.parentData[dataContext.parentDataProperty!] = root;
      outer.errors = null;
      outer.coerced = changes;
      return true;
    }
    errors = strict.errors;
  }
  for (const { holder, key, value } of undo.reverse()) holder![key] = value;
  outer.errors = errors ?? null;
  return false;
}

/** What generated validators use; `require("ajv/dist/runtime/<name>").default` maps to the member of that name. */
export const validatorRuntime = Object.freeze({
  // A CommonJS module's `exports.default`: Node hands `module.exports` as the default import while
  // bundlers that honour `__esModule` hand `exports.default` itself; either works here.
  ucs2length: (ucs2lengthModule as unknown as { default?: typeof ucs2lengthModule }).default ?? ucs2lengthModule,
  equal: jsonEqual,
  fullFormats,
  coerceWhereNeeded,
});
