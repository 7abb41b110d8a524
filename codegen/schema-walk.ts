import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { escapePointerSegment, unescapePointerSegment } from './pointer.js';

/** Keywords whose value is a map of name → schema (draft-07's and 2020-12's: a walk serves both dialects). */
export const SCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependentSchemas',
] as const;
/** Keywords whose value is one schema. */
export const SCHEMA_KEYWORDS = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
] as const;
/** Keywords whose value is an array of schemas. */
export const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** The keywords that hold a schema's definitions: draft-07's `definitions` and 2020-12's `$defs` (Ajv resolves `$ref`s into both, in both dialects). */
export const DEFINITION_CONTAINERS = ['definitions', '$defs'] as const;

/** Every keyword draft-07 defines (validation, annotation and core). */
export const DRAFT7_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$ref',
  '$comment',
  'title',
  'description',
  'default',
  'readOnly',
  'writeOnly',
  'examples',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'additionalItems',
  'items',
  'maxItems',
  'minItems',
  'uniqueItems',
  'contains',
  'maxProperties',
  'minProperties',
  'required',
  'additionalProperties',
  'definitions',
  'properties',
  'patternProperties',
  'dependencies',
  'propertyNames',
  'const',
  'enum',
  'type',
  'format',
  'contentMediaType',
  'contentEncoding',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
]);

/** True for an own property (never an inherited `constructor` or `__proto__`). */
export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** Sets an own data property, even for keys such as `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Only `__proto__` has a setter on Object.prototype; any other key assigned creates an own data
  // property. (Defining every key made V8 keep these objects in slow dictionary mode.)
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A deep copy of JSON data that keeps `__proto__` keys as plain own properties. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneJson(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(out, key, cloneJson((value as Record<string, unknown>)[key]));
    return out as T;
  }
  return value;
}

/** A JSON value with object keys sorted by code unit, recursively (for hashing and stable output). */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => sortKeysDeep(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      setOwn(out, key, sortKeysDeep((value as Record<string, unknown>)[key]));
    return out as T;
  }
  return value;
}

/** Calls `visit` for a schema and every subschema below it, with its JSON pointer. */
export function walkSchema(
  schema: JSONSchema7Definition,
  pointer: string,
  visit: (schema: JSONSchema7, pointer: string) => void,
): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  visit(schema, pointer);
  forEachChild(schema, pointer, (child, childPointer) => walkSchema(child, childPointer, visit));
}

/** Calls `each` for every direct subschema of a schema. */
export function forEachChild(
  schema: JSONSchema7,
  pointer: string,
  each: (child: JSONSchema7Definition, pointer: string) => void,
): void {
  const record = schema as Record<string, unknown>;
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = record[keyword];
    if (hasOwn(record, keyword) && isObject(map)) {
      for (const key of Object.keys(map))
        each(map[key] as JSONSchema7Definition, `${pointer}/${keyword}/${escapePointerSegment(key)}`);
    }
  }
  for (const keyword of SCHEMA_KEYWORDS) {
    if (hasOwn(record, keyword) && isObject(record[keyword]))
      each(record[keyword] as JSONSchema7Definition, `${pointer}/${keyword}`);
  }
  for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
    const list = record[keyword];
    if (hasOwn(record, keyword) && Array.isArray(list))
      list.forEach((child, index) => each(child as JSONSchema7Definition, `${pointer}/${keyword}/${index}`));
  }
  if (hasOwn(record, 'items')) {
    const items = record.items;
    if (Array.isArray(items))
      items.forEach((child, index) => each(child as JSONSchema7Definition, `${pointer}/items/${index}`));
    else if (isObject(items)) each(items as JSONSchema7Definition, `${pointer}/items`);
  }
  if (hasOwn(record, 'dependencies') && isObject(record.dependencies)) {
    const dependencies = record.dependencies as Record<string, unknown>;
    for (const key of Object.keys(dependencies)) {
      if (isObject(dependencies[key]))
        each(dependencies[key] as JSONSchema7Definition, `${pointer}/dependencies/${escapePointerSegment(key)}`);
    }
  }
}

/**
 * A copy of a schema in which `transform` may replace any subschema (called top-down; return
 * `undefined` to copy the node and recurse into its subschemas). Data keywords (`enum`, `const`,
 * `default`, `examples`) are copied verbatim, never transformed.
 */
export function mapSchema(
  schema: JSONSchema7Definition,
  pointer: string,
  transform: (schema: JSONSchema7, pointer: string) => JSONSchema7Definition | undefined,
): JSONSchema7Definition {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return cloneJson(schema);
  const replaced = transform(schema, pointer);
  if (replaced !== undefined) return replaced;
  const out: Record<string, unknown> = {};
  const record = schema as Record<string, unknown>;
  for (const key of Object.keys(record)) setOwn(out, key, cloneJson(record[key]));
  forEachChild(schema, pointer, (child, childPointer) => {
    const mapped = mapSchema(child, childPointer, transform);
    const segments = childPointer.slice(pointer.length + 1).split('/');
    let target: any = out;
    for (let i = 0; i < segments.length - 1; i++) target = target[unescapePointerSegment(segments[i]!)];
    const last = unescapePointerSegment(segments[segments.length - 1]!);
    if (Array.isArray(target)) target[Number(last)] = mapped;
    else setOwn(target, last, mapped);
  });
  return out as JSONSchema7;
}

/** A plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
