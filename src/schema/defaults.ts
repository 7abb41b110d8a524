import type { Ajv, ValidateFunction } from 'ajv';
import { parsePointer, valueAt } from './json-pointer.js';
import { findIgnoredDefaults } from './dialect.js';
import { ANNOTATION_KEYWORDS, TOOLING_KEYWORDS } from './keywords.js';
import { copyJsonValue, isObject, type SchemaNode, walkSchema } from './walk.js';

/**
 * A `default` that does not validate, without coercion, against the schema that carries it. Ajv
 * would fill it in as written and the value would then fail (or, with coercion, be converted):
 * neither may happen, so such a default is never given to a validator.
 */
export interface DefaultMismatch {
  /** JSON pointer of the schema node that carries the `default`, inside the checked schema. */
  readonly pointer: string;
  /** The default as written. */
  readonly value: unknown;
  /** Where inside the default the first problem is (`''`: the default itself). */
  readonly instancePath: string;
  /** Ajv's message for that problem. */
  readonly message: string;
  /**
   * `default: null` where the schema does not allow `null`: the common idiom for "no default"
   * (pydantic, zod, hand-written). Left out of the validator (nothing is filled in) and reported
   * as a warning; any other mismatch is an error.
   */
  readonly noDefaultIdiom: boolean;
}

/** Numbers the documents `checkAlone` adds (and removes): deterministic, so generated code is byte-stable. */
let fragmentChecks = 0;

/**
 * Checks every `default` in `root` against its own schema, each once: a default Ajv never fills in
 * (`findIgnoredDefaults`) not at all, a plain one without a compile (`fitsPlainly`), any other alone
 * with `ajv` (or the function making it, called only when a default needs it), which must not
 * coerce (the one option set).
 */
export function findDefaultMismatches(given: Ajv | (() => Ajv), root: unknown): DefaultMismatch[] {
  const entries: { pointer: string; value: unknown }[] = [];
  // At most 256 deep: a hand-written schema may nest without end.
  walkSchema(
    root,
    '',
    (node: SchemaNode, pointer) => {
      if (Object.hasOwn(node, 'default') && !fitsPlainly(node, node.default))
        entries.push({ pointer, value: node.default });
    },
    256,
  );
  if (entries.length === 0) return [];
  // A default Ajv never fills in (at the root, inside anyOf, ...) cannot be filled in and rejected.
  const ignored = new Set(findIgnoredDefaults(root).map((entry) => entry.pointer));
  const checked = entries.filter((entry) => !ignored.has(entry.pointer));
  if (checked.length === 0) return [];
  // Only now an Ajv (given as a function, it is made only for a schema that needs one).
  const ajv = typeof given === 'function' ? given() : given;
  return checked.flatMap((entry) => checkAlone(ajv, root, entry));
}

/**
 * One default checked against its schema at its place in a copy of the root (so every local `$ref`
 * resolves) compiled as a fragment; defaults nested in its schema are filled into a copy of it, as the
 * validator would fill them. A schema that does not compile is left to its own compile to report.
 */
function checkAlone(ajv: Ajv, root: unknown, entry: { pointer: string; value: unknown }): DefaultMismatch[] {
  const document = withoutDefaults(root, [entry.pointer]) as Record<string, unknown>;
  // Ajv registers a root `$id` beside the key and `removeSchema(key)` would leave it behind.
  delete document.$id;
  delete document.$schema;
  const key = `toolsmith-default-check:${fragmentChecks++}`;
  try {
    let validate: ValidateFunction | undefined;
    try {
      ajv.addSchema(document, key);
      validate = ajv.getSchema(`${key}#${entry.pointer}`);
    } catch {
      return [];
    }
    if (validate === undefined || validate(copyJsonValue(entry.value))) return [];
    const first = validate.errors?.[0];
    const instancePath = first?.instancePath ?? '';
    const message = first?.message ?? 'is invalid';
    return [{ ...entry, instancePath, message, noDefaultIdiom: entry.value === null && instancePath === '' }];
  } finally {
    ajv.removeSchema(key);
  }
}

/** Keywords that never make a value invalid: the keyword table's annotations and tooling keywords (`$comment`). */
function isAnnotation(key: string): boolean {
  return ANNOTATION_KEYWORDS.has(key) || TOOLING_KEYWORDS.has(key) || key.startsWith('x-');
}

/** What each JSON type name accepts (Ajv without coercion). */
const TYPE_TESTS: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  integer: (value) => typeof value === 'number' && Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
  array: Array.isArray,
  object: isObject,
};

/** The bounds decided here, on a number or on a string's length in code points: whether `value` is within `bound`. */
const BOUNDS = new Map<string, (value: unknown, bound: number) => boolean>([
  ['minimum', (value, bound) => typeof value !== 'number' || value >= bound],
  ['maximum', (value, bound) => typeof value !== 'number' || value <= bound],
  ['exclusiveMinimum', (value, bound) => typeof value !== 'number' || value > bound],
  ['exclusiveMaximum', (value, bound) => typeof value !== 'number' || value < bound],
  ['minLength', (value, bound) => typeof value !== 'string' || [...value].length >= bound],
  ['maxLength', (value, bound) => typeof value !== 'string' || [...value].length <= bound],
]);

/** Whether a string or number meets one keyword; undefined when the keyword is not one decided here. */
function meetsKeyword(key: string, bound: unknown, value: unknown): boolean | undefined {
  if (isAnnotation(key)) return true;
  const within = BOUNDS.get(key);
  if (within !== undefined) return typeof bound === 'number' && within(value, bound);
  switch (key) {
    case 'type':
      return [bound].flat().some((type) => typeof type === 'string' && TYPE_TESTS[type]?.(value) === true);
    case 'enum':
      return Array.isArray(bound) && bound.some((item) => item === value);
    case 'const':
      return bound === value;
    case 'pattern':
      return typeof bound === 'string' && (typeof value !== 'string' || testPattern(bound, value));
    default:
      return undefined;
  }
}

/** `pattern` as Ajv tests it (`unicodeRegExp`: the `u` flag); false for a pattern that does not compile, so the compile reports it. */
function testPattern(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/**
 * Whether `value` certainly validates against `schema` without a compile: a string, number,
 * boolean or null under only the keywords `meetsKeyword` decides (type, enum, const, bounds,
 * lengths in code points, pattern, annotations), or an empty array under array-only keywords.
 * False means "not decided here" (Ajv then checks every default), never "invalid".
 */
export function fitsPlainly(schema: Record<string, unknown>, value: unknown): boolean {
  if (Array.isArray(value) && value.length === 0) {
    return Object.keys(schema).every((key) => {
      const bound = schema[key];
      if (key === 'items' || key === 'uniqueItems' || key === 'maxItems') return true;
      if (key === 'minItems') return bound === 0;
      return key === 'type' ? meetsKeyword(key, bound, value) === true : isAnnotation(key);
    });
  }
  if (typeof value === 'object' && value !== null) return false;
  return Object.keys(schema).every((key) => meetsKeyword(key, schema[key], value) === true);
}

/**
 * A copy of `schema` without the `default`s at `pointers` (JSON pointers of the nodes carrying
 * them), for the validator only: the published schema keeps them as written.
 */
export function withoutDefaults<T>(schema: T, pointers: readonly string[]): T {
  if (pointers.length === 0) return schema;
  const out = copyJsonValue(schema) as Record<string, unknown>;
  for (const pointer of pointers) {
    const node = valueAt(out, parsePointer(pointer));
    if (isObject(node)) delete node.default;
  }
  return out as T;
}

/**
 * The schema a validator is compiled from, and the defaults that do not fit: `schema` itself when
 * every default fits, else a copy without the `default: null`s that do not fit (see
 * `DefaultMismatch.noDefaultIdiom`). The generator and the runtime both build validators this way.
 */
export function prepareValidatorSchema<T>(
  ajv: Ajv | (() => Ajv),
  schema: T,
): { schema: T; mismatches: DefaultMismatch[] } {
  const mismatches = findDefaultMismatches(ajv, schema);
  const idioms = mismatches.filter((entry) => entry.noDefaultIdiom).map((entry) => entry.pointer);
  return { schema: withoutDefaults(schema, idioms), mismatches };
}

/** `the default "x" at /properties/a/default does not match its own schema: /inner must be integer` */
export function describeDefaultMismatch(entry: DefaultMismatch): string {
  const shown = JSON.stringify(entry.value) ?? String(entry.value);
  return (
    `the default ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown} at ${entry.pointer}/default ` +
    `does not match its own schema: ${entry.instancePath || '/'} ${entry.message}`
  );
}
