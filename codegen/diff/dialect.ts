import type { JSONSchema7 } from 'json-schema';
import { JSON_SCHEMA_2020_12, translatePointerTokens } from '../../src/json-schema-2020.js';

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
 * definitions' dialect) see one shape: the inverse of `toJsonSchema2020` (src/json-schema-2020.ts) —
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
  const tuple = Array.isArray(schema.prefixItems);
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (root && key === '$schema') continue;
    if (key === '$ref' && typeof value === 'string') set(out, key, backRef(value));
    else if (key === 'prefixItems' && Array.isArray(value))
      set(
        out,
        'items',
        value.map((item) => back(item, false)),
      );
    else if (key === 'items' && tuple) set(out, 'additionalItems', back(value, false));
    else if ((key === 'dependentRequired' || key === 'dependentSchemas') && isNode(value)) {
      const dependencies: Node = isNode(out.dependencies) ? out.dependencies : {};
      for (const name of Object.keys(value))
        set(
          dependencies,
          name,
          Array.isArray(value[name]) ? [...(value[name] as unknown[])] : back(value[name], false),
        );
      set(out, 'dependencies', dependencies);
    } else if (MAP_OF_SCHEMAS.has(key) && isNode(value)) {
      const map: Node = {};
      for (const name of Object.keys(value)) set(map, name, back(value[name], false));
      set(out, key === '$defs' && !Object.hasOwn(schema, 'definitions') ? 'definitions' : key, map);
    } else if (ARRAY_OF_SCHEMAS.has(key) && Array.isArray(value))
      set(
        out,
        key,
        value.map((item) => back(item, false)),
      );
    else if (ONE_SCHEMA.has(key)) set(out, key, back(value, false));
    else set(out, key, value);
  }
  return out;
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
