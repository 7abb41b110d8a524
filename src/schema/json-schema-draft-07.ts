/*
 * The draft-07 reading of a 2020-12 schema (the inverse of `toJsonSchema2020`, json-schema-2020.ts):
 * the provider manifests' builders and the diff's rules speak draft-07.
 */
import { schemaDialect } from './dialect.js';
import { copyJsonValue, isObject, mapSubschemas, mergeEntries, setOwn } from './walk.js';

/** The keywords whose entries end up in draft-07's `dependencies` (its own, and 2020-12's two halves of it). */
const DEPENDENCIES = new Set(['dependencies', 'dependentRequired', 'dependentSchemas']);

/**
 * The draft-07 form of a 2020-12 schema, same meaning where draft-07 has the words: `prefixItems`
 * → tuple `items` (and `items` beside it → `additionalItems`), `dependentRequired` and
 * `dependentSchemas` → `dependencies`, the root `$schema` dropped. Keywords draft-07 cannot say
 * (`unevaluatedProperties`, `$dynamicRef`) are kept for the reader to report. `$defs` stays
 * (draft-07 tools resolve `$ref`s into it, and pointers into the definition stay true) unless
 * `definitions` asks for draft-07's own name: then a `$defs` without a `definitions` beside it is
 * renamed and `$ref`s are repointed, so the draft-07 and the 2020-12 copy of a schema read alike
 * (the diff compares them).
 */
export function fromJsonSchema2020(schema: unknown, options: { definitions?: boolean } = {}): unknown {
  const out = convert(schema, options.definitions === true);
  if (isObject(out)) delete out.$schema;
  return out;
}

/**
 * `fromJsonSchema2020` of a schema that declares 2020-12, for the provider manifests (their builders
 * speak draft-07); a draft-07 schema is returned as it is.
 */
export function toDraft07<T extends object>(schema: T): T {
  return schemaDialect(schema) === '2020-12' ? (fromJsonSchema2020(schema) as T) : schema;
}

/** The draft-07 form of a schema object, keyword by keyword in source order, its subschemas converted first. */
function convert(node: unknown, definitions: boolean): unknown {
  if (!isObject(node)) return copyJsonValue(node);
  const converted = mapSubschemas(node, '', (child) => convert(child, definitions));
  const out: Record<string, unknown> = {};
  const tuple = Array.isArray(node.prefixItems);
  for (const key of Object.keys(converted)) {
    const value = converted[key];
    if (key === '$ref' && definitions && typeof value === 'string') setOwn(out, key, draft07Ref(value));
    else if (key === 'prefixItems' && tuple) setOwn(out, 'items', value);
    else if (key === 'items') setOwn(out, tuple ? 'additionalItems' : 'items', value);
    else if (DEPENDENCIES.has(key) && isObject(value)) mergeEntries(out, 'dependencies', value);
    else if (key === '$defs' && definitions && !Object.hasOwn(node, 'definitions') && isObject(value))
      setOwn(out, 'definitions', value);
    else setOwn(out, key, value);
  }
  return out;
}

/** `#/$defs/X/prefixItems/0` → `#/definitions/X/items/0`; other refs unchanged. */
function draft07Ref(ref: string): string {
  if (!ref.startsWith('#/')) return ref;
  const tokens = ref.slice(2).split('/');
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === '$defs' && i + 1 < tokens.length) out.push('definitions', tokens[++i]!);
    else if (token === 'prefixItems') out.push('items');
    else out.push(token);
  }
  return `#/${out.join('/')}`;
}
