/**
 * The one schema walker, for the runtime and the generator (a draft-07 walk passes `JSONSchema7` as `TNode`):
 * where a schema's subschemas are (read from the keyword table, `keywords.ts`, so both
 * dialects' keywords are known) with the JSON pointer of each, and the JSON helpers every walk needs
 * (own properties only, `__proto__` kept as data).
 */
import { ToolsmithError } from '../errors.js';
import { escapePointerSegment } from './json-pointer.js';
import { keywordsWhere, SCHEMA_KEYWORDS, type SubschemaPosition } from './keywords.js';

/** A schema object as the walker hands it over (boolean schemas have no subschemas and are not visited). */
export type SchemaNode = Record<string, unknown>;

/** Where a subschema sits in its parent: the keyword, and the name (maps) or index (lists) under it. */
export interface SubschemaPlace {
  readonly keyword: string;
  readonly at?: string | number;
}

/**
 * Every subschema keyword → where its value holds subschemas, and its rank in walk order: the keyword
 * table's row order (maps, single schemas, lists, `items`, `dependencies`).
 */
const SUBSCHEMA_PLACES: ReadonlyMap<string, { readonly rank: number; readonly position: SubschemaPosition }> = new Map(
  keywordsWhere((info) => info.subschemas !== undefined).map((keyword, rank) => [
    keyword,
    { rank, position: SCHEMA_KEYWORDS.get(keyword)!.subschemas! },
  ]),
);

/** A plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets an own data property, even for keys such as `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Only `__proto__` has a setter on Object.prototype; any other key assigned creates an own data
  // property. (Defining every key made V8 keep these objects in slow dictionary mode.)
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Adds the entries of `entries` to the map at `target[key]`, made (after `target`'s other keys) when there is none. */
export function mergeEntries(target: Record<string, unknown>, key: string, entries: Record<string, unknown>): void {
  const current = target[key];
  const map = isObject(current) ? current : {};
  for (const name of Object.keys(entries)) setOwn(map, name, entries[name]);
  setOwn(target, key, map);
}

/** A copy of an object with each value replaced by `map(value, key)`, `{}` for a value that is no object (`__proto__` kept as data). */
export function mapValues(object: unknown, map: (value: unknown, key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isObject(object)) for (const key of Object.keys(object)) setOwn(out, key, map(object[key], key));
  return out;
}

/** Deepest nesting `copyJsonValue` accepts (also what stops it on a cyclic object). */
export const MAX_COPY_DEPTH = 512;

/** Throws `INVALID_REQUEST` when `depth` (of an object or array) is past `MAX_COPY_DEPTH`. */
function checkDepth(depth: number): void {
  if (depth > MAX_COPY_DEPTH)
    throw new ToolsmithError(
      'INVALID_REQUEST',
      `Value nests deeper than ${MAX_COPY_DEPTH} levels or contains a cycle.`,
    );
}

/**
 * Throws `INVALID_REQUEST`, as `copyJsonValue` does, when parsed JSON (which has no cycle) nests
 * deeper than `MAX_COPY_DEPTH`: the check without the copy, for a value its caller owns already.
 */
export function checkJsonDepth(value: object, depth = 0): void {
  checkDepth(depth);
  for (const child of Array.isArray(value) ? value : Object.values(value))
    if (child !== null && typeof child === 'object') checkJsonDepth(child, depth + 1);
}

/**
 * Copies JSON-like data (plain objects and arrays, recursively; other objects by reference): a call's
 * arguments, so a validator can coerce and fill defaults without touching the caller's value; a schema
 * a target or rule rewrites. An own `__proto__`
 * key is copied as data and never changes a prototype. Throws `INVALID_REQUEST` on a cycle or
 * nesting deeper than `MAX_COPY_DEPTH`.
 */
export function copyJsonValue<T>(value: T): T {
  return copyAt(value, 0);
}

/** `copyJsonValue` of a value nested `depth` levels deep. */
function copyAt<T>(value: T, depth: number): T {
  if (value === null || typeof value !== 'object') return value;
  checkDepth(depth);
  if (Array.isArray(value)) {
    const length = value.length;
    const copy = new Array(length);
    for (let index = 0; index < length; index++) copy[index] = copyAt(value[index], depth + 1);
    return copy as T;
  }
  const prototype = Object.getPrototypeOf(value);
  // Date, Map, class instances: not JSON data, passed as they are.
  if (prototype !== Object.prototype && prototype !== null) return value;
  // Spread first (V8 clones a plain object's own enumerable properties in one step, and defines an
  // own `__proto__` key as data, like JSON.parse does), then copy nested objects and arrays.
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key in copy) {
    const child = copy[key];
    // `setOwn`: assigning `__proto__` would replace the copy's prototype.
    if (child !== null && typeof child === 'object' && Object.hasOwn(copy, key))
      setOwn(copy, key, copyAt(child, depth + 1));
  }
  return copy as T;
}

/** A JSON value with object keys sorted by code unit, recursively (for hashing and stable output). */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => sortKeysDeep(item)) as T;
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) setOwn(out, key, sortKeysDeep(value[key]));
  return out as T;
}

/** Keywords whose values are JSON data, never schemas: a `format`, `$ref` or `x-` key inside them means nothing. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples']);

/**
 * Every key of every object in a schema, with its value, outside the data keywords: wherever a keyword
 * may be (a superset: property names are keys too). Each object is read once, so a cyclic value ends.
 */
export function* schemaEntries(schema: unknown, seen: Set<object> = new Set()): Generator<[string, unknown]> {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  if (Array.isArray(schema)) {
    for (const item of schema) yield* schemaEntries(item, seen);
    return;
  }
  for (const key of Object.keys(schema)) {
    const value = (schema as Record<string, unknown>)[key];
    yield [key, value];
    if (!DATA_KEYWORDS.has(key)) yield* schemaEntries(value, seen);
  }
}

type Each = (child: unknown, pointer: string, place: SubschemaPlace) => void;

/** Which subschemas `forEachSubschema` hands over, beyond its default. */
export interface SubschemaOptions {
  /**
   * Hand over `true`/`false` wherever a schema may be (a host meets them), and nothing else: by default
   * map entries and list items are handed over as they are, single schemas only when they are objects.
   */
  readonly booleans?: boolean;
  /** Only the subschemas under these keywords (a host whose walker never enters `$defs`). */
  readonly through?: ReadonlySet<string>;
}

function isSchema(value: unknown): boolean {
  return typeof value === 'boolean' || isObject(value);
}

const anything = (): boolean => true;

/**
 * The subschema keywords among a node's own keys (those `through` lets pass), in walk order; undefined
 * for none. Looked up by the node's own keys, not by trying every keyword: walks are on generate's hot
 * path (P3).
 */
function subschemaKeywords(schema: SchemaNode, through: ReadonlySet<string> | undefined): string[] | undefined {
  let found: string[] | undefined;
  for (const key of Object.keys(schema))
    if (SUBSCHEMA_PLACES.has(key) && through?.has(key) !== false) (found ??= []).push(key);
  if (found !== undefined && found.length > 1)
    found.sort((a, b) => SUBSCHEMA_PLACES.get(a)!.rank - SUBSCHEMA_PLACES.get(b)!.rank);
  return found;
}

/**
 * Calls `each` for every direct subschema of a schema object, with its pointer and place, keyword by
 * keyword in walk order (maps, single schemas, lists, `items`, `dependencies`): map entries and list
 * items as they are (boolean schemas included), single schemas and `dependencies` entries only when they
 * are objects (`additionalProperties: false` holds no keywords to walk), unless `options` say otherwise.
 */
export function forEachSubschema(schema: SchemaNode, pointer: string, each: Each, options?: SubschemaOptions): void {
  const found = subschemaKeywords(schema, options?.through);
  if (found === undefined) return;
  const entry = options?.booleans === true ? isSchema : anything;
  const single = options?.booleans === true ? isSchema : isObject;
  for (const keyword of found) {
    const value = schema[keyword];
    const position = SUBSCHEMA_PLACES.get(keyword)!.position;
    if (position === 'schema' || (position === 'schema-or-list' && !Array.isArray(value))) {
      if (single(value)) each(value, `${pointer}/${keyword}`, { keyword });
    } else if (position === 'list' || position === 'schema-or-list') {
      if (!Array.isArray(value)) continue;
      for (let index = 0; index < value.length; index++)
        if (entry(value[index])) each(value[index], `${pointer}/${keyword}/${index}`, { keyword, at: index });
    } else if (isObject(value)) {
      const test = position === 'map' ? entry : single;
      for (const name of Object.keys(value))
        if (test(value[name]))
          each(value[name], `${pointer}/${keyword}/${escapePointerSegment(name)}`, { keyword, at: name });
    }
  }
}

/**
 * Calls `visit` for a schema and every subschema below it, with its JSON pointer and place (the
 * root's keyword is `''`). `maxDepth` stops a walk of a hand-written schema that nests without end.
 */
export function walkSchema<TNode extends object = SchemaNode>(
  schema: unknown,
  pointer: string,
  visit: (schema: TNode, pointer: string, place: SubschemaPlace) => void,
  maxDepth = Number.POSITIVE_INFINITY,
): void {
  const step = (node: unknown, at: string, place: SubschemaPlace, depth: number): void => {
    if (!isObject(node) || depth > maxDepth) return;
    visit(node as TNode, at, place);
    forEachSubschema(node, at, (child, childPointer, childPlace) => step(child, childPointer, childPlace, depth + 1));
  };
  step(schema, pointer, { keyword: '' }, 0);
}

/**
 * A copy of a schema object with each direct subschema replaced by `map(child, pointer)` (the subschemas
 * `forEachSubschema` hands over, in its order) and every other value copied (`__proto__` kept as data),
 * in the schema's own key order. A subschema is handed to `map` as it is, never copied here: a walk
 * that maps every level copies each node once.
 */
export function mapSubschemas(
  schema: SchemaNode,
  pointer: string,
  map: (child: unknown, pointer: string) => unknown,
): SchemaNode {
  // keyword → its mapped subschemas by name or index (a single schema's under `undefined`).
  const mapped = new Map<string, Map<string | number | undefined, unknown>>();
  forEachSubschema(schema, pointer, (child, childPointer, { keyword, at }) => {
    const places = mapped.get(keyword) ?? new Map<string | number | undefined, unknown>();
    mapped.set(keyword, places.set(at, map(child, childPointer)));
  });
  return mapValues(schema, (value, keyword) => {
    const places = mapped.get(keyword);
    if (places === undefined) return copyJsonValue(value);
    if (places.has(undefined)) return places.get(undefined);
    const entry = (item: unknown, at: string | number) => (places.has(at) ? places.get(at) : copyJsonValue(item));
    return Array.isArray(value) ? value.map(entry) : mapValues(value, entry);
  });
}

/**
 * A copy of a schema in which `transform` may replace any subschema (called top-down; return
 * `undefined` to copy the node and recurse into its subschemas). Data keywords (`enum`, `const`,
 * `default`, `examples`) are copied verbatim, never transformed.
 */
export function mapSchema<TNode extends object = SchemaNode, TOut = unknown>(
  schema: unknown,
  pointer: string,
  transform: (schema: TNode, pointer: string) => TOut | undefined,
): TOut {
  if (!isObject(schema)) return copyJsonValue(schema) as TOut;
  const replaced = transform(schema as TNode, pointer);
  if (replaced !== undefined) return replaced;
  return mapSubschemas(schema, pointer, (child, childPointer) => mapSchema(child, childPointer, transform)) as TOut;
}
