/*
 * The walks the host rules make over a served schema. Hosts walk schemas their own way — VS Code
 * Copilot's normalizer follows a dozen keywords and never enters `$defs`, Gemini CLI rewrites every
 * JSON object it meets, enum values included — so a rule names the walk its host makes.
 */
import { escapePointerSegment } from '../schema/json-pointer.js';
import { keywordsAt } from '../schema/keywords.js';
import { isObject } from '../schema/walk.js';

/** A subschema as a host meets it: a schema object, or `true`/`false`. */
export type SchemaNode = Record<string, unknown> | boolean;

/** Called for each subschema: the node, its JSON pointer, and the keyword it sits under (`''` for the root). */
type NodeVisitor = (node: SchemaNode, pointer: string, keyword: string) => void;

/** Deeper than this, a walk stops: a hand-written schema can nest without end, and no host reads that deep. */
export const MAX_WALK_DEPTH = 128;

/** Where a keyword holds subschemas: a map of them, one schema, or a list (`items` is either). */
type Place = 'map' | 'single' | 'list';

// Each subschema keyword's places, in the order a walk visits them: maps, then single schemas, then
// lists. Made once and looked up by the node's own keys: the host report walks every tool's schemas
// about thirty times, and trying every keyword on every node was a tenth of a generate (P3).
const ORDER: readonly (readonly [string, Place])[] = [
  ...[...keywordsAt('map'), ...keywordsAt('map-of-schema-or-names')].map((k) => [k, 'map'] as const),
  ...[...keywordsAt('schema'), ...keywordsAt('schema-or-list')].map((k) => [k, 'single'] as const),
  ...[...keywordsAt('list'), ...keywordsAt('schema-or-list')].map((k) => [k, 'list'] as const),
];
const PLACES = new Map<string, { rank: number; place: Place }[]>();
ORDER.forEach(([keyword, place], rank) => PLACES.set(keyword, [...(PLACES.get(keyword) ?? []), { rank, place }]));

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || isObject(value);
}

/** Every direct subschema of `node` (booleans included), under the keywords `through` lets pass (all when absent). */
function eachChild(
  node: Record<string, unknown>,
  pointer: string,
  through: ReadonlySet<string> | undefined,
  each: (child: SchemaNode, pointer: string, keyword: string) => void,
): void {
  const found: { rank: number; place: Place; keyword: string }[] = [];
  for (const keyword of Object.keys(node)) {
    if (through !== undefined && !through.has(keyword)) continue;
    for (const { rank, place } of PLACES.get(keyword) ?? []) found.push({ rank, place, keyword });
  }
  found.sort((a, b) => a.rank - b.rank);
  for (const { place, keyword } of found) {
    const value = node[keyword];
    if (place === 'map' && isObject(value)) {
      for (const name of Object.keys(value))
        if (isNode(value[name])) each(value[name], `${pointer}/${keyword}/${escapePointerSegment(name)}`, keyword);
    } else if (place === 'single' && isNode(value)) each(value, `${pointer}/${keyword}`, keyword);
    else if (place === 'list' && Array.isArray(value))
      for (let index = 0; index < value.length; index++)
        if (isNode(value[index])) each(value[index], `${pointer}/${keyword}/${index}`, keyword);
  }
}

/**
 * Calls `visit` for `schema` and every subschema below it (booleans included), parents first. With
 * `through`, only subschemas under those keywords are entered (a host whose walker skips `$defs`).
 */
export function visitSchemaNodes(
  schema: unknown,
  pointer: string,
  visit: NodeVisitor,
  through?: ReadonlySet<string>,
): void {
  const step = (node: SchemaNode, at: string, keyword: string, depth: number): void => {
    visit(node, at, keyword);
    if (typeof node === 'boolean' || depth >= MAX_WALK_DEPTH) return;
    eachChild(node, at, through, (child, childPointer, childKeyword) =>
      step(child, childPointer, childKeyword, depth + 1),
    );
  };
  if (isNode(schema)) step(schema, pointer, '', 0);
}

/** Calls `visit` for every JSON object anywhere in `value` (schemas and data alike), parents first. */
export function visitJsonObjects(
  value: unknown,
  pointer: string,
  visit: (object: Record<string, unknown>, pointer: string) => void,
  depth = 0,
): void {
  if (depth > MAX_WALK_DEPTH) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => visitJsonObjects(item, `${pointer}/${index}`, visit, depth + 1));
  } else if (isObject(value)) {
    visit(value, pointer);
    for (const key of Object.keys(value))
      visitJsonObjects(value[key], `${pointer}/${escapePointerSegment(key)}`, visit, depth + 1);
  }
}
