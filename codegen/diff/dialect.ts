import type { JSONSchema7 } from 'json-schema';
import { JSON_SCHEMA_2020_12, translatePointerTokens } from '../../src/schema/json-schema-2020.js';
import { cloneJson, isObject, setOwn, walkSchema, type SchemaNode } from '../../src/schema/walk.js';

/** True when a schema declares JSON Schema 2020-12 (as an MCP snapshot's schemas do). */
export function is2020(schema: unknown): boolean {
  const own = isObject(schema) ? schema.$schema : undefined;
  return typeof own === 'string' && own.replace(/#$/, '') === JSON_SCHEMA_2020_12;
}

/**
 * The draft-07 reading of a 2020-12 schema, so the comparison's rules (written for draft-07, the
 * definitions' dialect) see one shape: the inverse of `toJsonSchema2020` (src/schema/json-schema-2020.ts) —
 * `$defs` → `definitions`, `prefixItems`/`items` → `items` (a tuple)/`additionalItems`,
 * `dependentRequired`/`dependentSchemas` → `dependencies`, `$ref` fragments repointed. The root's
 * `$schema` is dropped. Every subschema is reached by the one walker, whose keyword table knows both
 * dialects' places of subschemas (`contentSchema` included).
 */
export function fromJsonSchema2020(schema: unknown): JSONSchema7 {
  const copy = cloneJson(schema);
  if (isObject(copy)) delete copy.$schema;
  // Each node is rewritten before the walker reads its subschemas, so it walks them under their draft-07 names.
  walkSchema(copy, '', backToDraft07);
  return copy as JSONSchema7;
}

/** Rewrites one schema object of a copy into its draft-07 reading, in place. */
function backToDraft07(node: SchemaNode): void {
  if (typeof node.$ref === 'string') node.$ref = backRef(node.$ref);
  if (isObject(node.$defs) && !Object.hasOwn(node, 'definitions')) rename(node, '$defs', 'definitions');
  if (Array.isArray(node.prefixItems)) {
    if (Object.hasOwn(node, 'items')) rename(node, 'items', 'additionalItems');
    rename(node, 'prefixItems', 'items');
  }
  for (const keyword of ['dependentRequired', 'dependentSchemas']) {
    const map = node[keyword];
    if (!isObject(map)) continue;
    const dependencies = isObject(node.dependencies) ? node.dependencies : {};
    for (const name of Object.keys(map)) setOwn(dependencies, name, map[name]);
    delete node[keyword];
    node.dependencies = dependencies;
  }
}

function rename(node: SchemaNode, from: string, to: string): void {
  node[to] = node[from];
  delete node[from];
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
