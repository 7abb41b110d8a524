/*
 * The walks the host rules make over a served schema. Hosts walk schemas their own way — VS Code
 * Copilot's normalizer follows a dozen keywords and never enters `$defs`, Gemini CLI rewrites every
 * JSON object it meets, enum values included — so a rule names the walk its host makes.
 */
import { escapePointerSegment } from '../schema/json-pointer.js';
import { forEachSubschema, isObject } from '../schema/walk.js';

/** A subschema as a host meets it: a schema object, or `true`/`false`. */
export type SchemaNode = Record<string, unknown> | boolean;

/** Called for each subschema: the node, its JSON pointer, and the keyword it sits under (`''` for the root). */
type NodeVisitor = (node: SchemaNode, pointer: string, keyword: string) => void;

/** Deeper than this, a walk stops: a hand-written schema can nest without end, and no host reads that deep. */
export const MAX_WALK_DEPTH = 128;

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || isObject(value);
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
  const options = { booleans: true, through };
  const step = (node: SchemaNode, at: string, keyword: string, depth: number): void => {
    visit(node, at, keyword);
    if (typeof node === 'boolean' || depth >= MAX_WALK_DEPTH) return;
    forEachSubschema(
      node,
      at,
      (child, childPointer, place) => step(child as SchemaNode, childPointer, place.keyword, depth + 1),
      options,
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
