import type { JSONSchema7 } from 'json-schema';
import { JSON_SCHEMA_2020_12, translatePointerTokens } from '../../src/schema/json-schema-2020.js';

type Node = Record<string, unknown>;

const ARRAY_OF_SCHEMAS = new Set(['anyOf', 'oneOf', 'allOf']);
const MAP_OF_SCHEMAS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);
const ONE_SCHEMA = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function set(target: Node, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** True when a schema declares JSON Schema 2020-12 (as an MCP snapshot's schemas do). */
export function is2020(schema: unknown): boolean {
  const own = isNode(schema) ? schema.$schema : undefined;
  return typeof own === 'string' && own.replace(/#$/, '') === JSON_SCHEMA_2020_12;
}

/**
 * The draft-07 reading of a 2020-12 schema, so the comparison's rules (written for draft-07, the
 * definitions' dialect) see one shape: the inverse of `toJsonSchema2020` (src/schema/json-schema-2020.ts) —
 * `$defs` → `definitions`, `prefixItems`/`items` → `items` (a tuple)/`additionalItems`,
 * `dependentRequired`/`dependentSchemas` → `dependencies`, `$ref` fragments repointed. The root's
 * `$schema` is dropped.
 */
export function fromJsonSchema2020(schema: unknown): JSONSchema7 {
  return back(schema, true) as JSONSchema7;
}

function back(schema: unknown, root: boolean): unknown {
  if (!isNode(schema)) return schema;
  const out: Node = {};
  for (const key of Object.keys(schema)) if (!(root && key === '$schema')) backKey(schema, key, out);
  return out;
}

function backList(value: unknown[]): unknown[] {
  return value.map((item) => back(item, false));
}

/** One keyword of a 2020-12 schema, written into its draft-07 reading. */
function backKey(schema: Node, key: string, out: Node): void {
  const value = schema[key];
  if (key === '$ref' && typeof value === 'string') set(out, key, backRef(value));
  else if (key === 'prefixItems' && Array.isArray(value)) set(out, 'items', backList(value));
  else if (key === 'items' && Array.isArray(schema.prefixItems)) set(out, 'additionalItems', back(value, false));
  else if ((key === 'dependentRequired' || key === 'dependentSchemas') && isNode(value)) {
    const dependencies: Node = isNode(out.dependencies) ? out.dependencies : {};
    for (const name of Object.keys(value)) {
      const dependency = value[name];
      set(dependencies, name, Array.isArray(dependency) ? [...dependency] : back(dependency, false));
    }
    set(out, 'dependencies', dependencies);
  } else if (MAP_OF_SCHEMAS.has(key) && isNode(value)) {
    const map: Node = {};
    for (const name of Object.keys(value)) set(map, name, back(value[name], false));
    set(out, key === '$defs' && !Object.hasOwn(schema, 'definitions') ? 'definitions' : key, map);
  } else if (ARRAY_OF_SCHEMAS.has(key) && Array.isArray(value)) set(out, key, backList(value));
  else if (ONE_SCHEMA.has(key)) set(out, key, back(value, false));
  else set(out, key, value);
}

/** `#/$defs/X/prefixItems/0` → `#/definitions/X/items/0`; other refs unchanged. */
function backRef(ref: string): string {
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

/** The pointer in a 2020-12 text of a draft-07 pointer (positions in a snapshot). */
export function pointerIn2020(pointer: string): string {
  if (pointer === '') return pointer;
  return `/${translatePointerTokens(pointer.split('/').slice(1)).join('/')}`;
}
