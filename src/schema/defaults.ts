import type { Ajv, ValidateFunction } from 'ajv';
import { parsePointer, valueAt } from './json-pointer.js';
import { findIgnoredDefaults } from './dialect.js';
import { ANNOTATION_KEYWORDS, DEFINITION_CONTAINERS, TOOLING_KEYWORDS } from './keywords.js';
import { cloneJson, hasOwn, isObject, type SchemaNode, setOwn, walkSchema } from './walk.js';

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

function mismatch(entry: { pointer: string; value: unknown }, instancePath: string, message: string): DefaultMismatch {
  return {
    pointer: entry.pointer,
    value: entry.value,
    instancePath,
    message,
    noDefaultIdiom: entry.value === null && instancePath === '',
  };
}

/** Numbers the documents the one-by-one check adds (and removes): deterministic, so generated code is byte-stable. */
let fragmentChecks = 0;

/**
 * Checks every `default` in `root` against its own schema with `ajv` (or the function making it,
 * called only when a default is not plain: `fitsPlainly`), which must not coerce (the one option
 * set), in one compile: each default's schema, without the `default`, becomes a
 * property of a wrapper that carries the root's `definitions`, so `#/definitions/…` refs resolve.
 * When the wrapper does not compile (a `$ref` to the root, say), each default is checked alone.
 * Defaults nested in a default's schema are filled into a copy, as the validator would fill them.
 */
export function findDefaultMismatches(given: Ajv | (() => Ajv), root: unknown): DefaultMismatch[] {
  let entries: { pointer: string; schema: Record<string, unknown>; value: unknown }[] = [];
  // A `$ref` other than `#/definitions/…` (or `#/$defs/…`) would resolve against the wrapper, not the root.
  let otherRefs = false;
  const collect = (node: SchemaNode, pointer: string): void => {
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#/definitions/') && !node.$ref.startsWith('#/$defs/'))
      otherRefs = true;
    if (!hasOwn(node, 'default')) return;
    const schema: Record<string, unknown> = {};
    for (const key of Object.keys(node))
      if (key !== 'default' && !(pointer === '' && (key === '$id' || key === '$schema')))
        setOwn(schema, key, node[key]);
    entries.push({ pointer, schema, value: node.default });
  };
  // At most 256 deep: a hand-written schema may nest without end.
  walkSchema(root, '', collect, 256);
  if (entries.length === 0) return [];
  // A default Ajv never fills in (`findIgnoredDefaults`: at the root, inside anyOf, ...) cannot be filled in and rejected.
  const ignored = new Set(findIgnoredDefaults(root).map((entry) => entry.pointer));
  entries = entries.filter((entry) => !ignored.has(entry.pointer));
  // Most defaults are a scalar under a few plain keywords: those are decided without a compile.
  if (entries.every((entry) => fitsPlainly(entry.schema, entry.value))) return [];
  // Only now an Ajv (given as a function, it is made only for a schema that needs one).
  const ajv = typeof given === 'function' ? given() : given;
  const wrapper: Record<string, unknown> = { type: 'object', properties: {} };
  entries.forEach((entry, index) => setOwn(wrapper.properties as Record<string, unknown>, String(index), entry.schema));
  for (const container of DEFINITION_CONTAINERS)
    if (isObject(root) && hasOwn(root, container)) setOwn(wrapper, container, root[container]);
  let validate: ValidateFunction | undefined;
  if (!otherRefs) {
    try {
      validate = ajv.compile(wrapper);
    } catch {
      // Checked one by one below.
    } finally {
      ajv.removeSchema(wrapper);
    }
  }
  if (validate !== undefined) {
    const data: Record<string, unknown> = {};
    entries.forEach((entry, index) => setOwn(data, String(index), cloneJson(entry.value)));
    if (validate(data)) return [];
    // The first error of each default: its index leads the error's path.
    const firsts = new Map<number, DefaultMismatch>();
    for (const error of validate.errors ?? []) {
      const match = /^\/(\d+)(.*)$/.exec(error.instancePath);
      const index = Number(match?.[1]);
      if (match !== null && !firsts.has(index))
        firsts.set(index, mismatch(entries[index]!, match[2]!, error.message ?? `fails "${error.keyword}"`));
    }
    return [...firsts.values()];
  }
  const found: DefaultMismatch[] = [];
  for (const entry of entries) {
    // Alone: the schema at its place in a copy of the root (so every local `$ref` resolves), as a fragment.
    const document = withoutDefaults(root, [entry.pointer]) as Record<string, unknown>;
    if (entry.pointer === '') {
      delete document.$id;
      delete document.$schema;
    }
    let single: ValidateFunction | undefined;
    const key = `toolsmith-default-check:${fragmentChecks++}`;
    try {
      ajv.addSchema(document, key);
      single = ajv.getSchema(`${key}#${entry.pointer}`);
    } catch {
      // The schema's own compile reports it.
    }
    try {
      if (single !== undefined && !single(cloneJson(entry.value))) {
        const first = single.errors?.[0];
        found.push(mismatch(entry, first?.instancePath ?? '', first?.message ?? 'is invalid'));
      }
    } finally {
      ajv.removeSchema(key);
    }
  }
  return found;
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
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
};

/** Whether a string or number meets one keyword; undefined when the keyword is not one decided here. */
function meetsKeyword(key: string, bound: unknown, value: unknown): boolean | undefined {
  if (isAnnotation(key)) return true;
  const number = typeof value === 'number' ? value : undefined;
  const text = typeof value === 'string' ? value : undefined;
  switch (key) {
    case 'type': {
      const types = Array.isArray(bound) ? bound : [bound];
      return types.some((type) => typeof type === 'string' && TYPE_TESTS[type]?.(value) === true);
    }
    case 'enum':
      return Array.isArray(bound) && bound.some((item) => item === value);
    case 'const':
      return bound === value;
    case 'minimum':
      return typeof bound === 'number' && (number === undefined || number >= bound);
    case 'maximum':
      return typeof bound === 'number' && (number === undefined || number <= bound);
    case 'exclusiveMinimum':
      return typeof bound === 'number' && (number === undefined || number > bound);
    case 'exclusiveMaximum':
      return typeof bound === 'number' && (number === undefined || number < bound);
    case 'minLength':
      return typeof bound === 'number' && (text === undefined || [...text].length >= bound);
    case 'maxLength':
      return typeof bound === 'number' && (text === undefined || [...text].length <= bound);
    case 'pattern':
      return typeof bound === 'string' && (text === undefined || testPattern(bound, text));
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
  const out = cloneJson(schema) as Record<string, unknown>;
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
