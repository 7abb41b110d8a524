/*
 * The portable profile: a tool's served input schema rewritten into what every host of the table
 * takes as it is — one `type` per schema, `description`, `properties` (on every object), `required`,
 * a boolean `additionalProperties`, one `items` schema, `enum` — with everything else told in the
 * descriptions: combinators folded into one schema and their alternatives said in words, bounds,
 * formats and defaults stated, `$ref`s inlined, tuples merged into one `items`, `const` as a
 * one-value `enum`, "or null" said rather than typed. The result accepts every value the original
 * accepts (it may accept more): hosts that check calls against what they were shown (Gemini CLI,
 * Cursor) never refuse a valid call, and the server still validates each call with the full
 * definition, so the contract does not weaken. Tools are never renamed.
 *
 * It works in two steps: `shapeOf` reads a schema into a `Shape` — the little every host reads, plus
 * sentences — widening where the portable form cannot say something exactly (an intersection
 * becomes a merge, a union the smallest shape holding every branch); `emit` writes the shape out.
 */
import { isDeepStrictEqual } from 'node:util';
import { appendDescription, carriedText } from '../schema/keyword-sentences.js';
import { codeSpan } from '../text/markdown-text.js';
import { formatPointer, parseLocalRef, resolveLocalRef } from '../schema/json-pointer.js';
import { JSON_SCHEMA_2020_12 } from '../schema/json-schema-2020.js';
import { isObject, setOwn, walkSchema } from '../schema/walk.js';
import { INPUT_SCHEMA, JSON_TYPES, MAX_WALK_DEPTH, words } from './host-rules.js';
import { injectedArguments, VSCODE_DESCRIPTION_LIMIT } from './host-table.js';

/** A keyword of the served schema that the portable one no longer has as a keyword. */
interface PortableMove {
  /** Where it was: a pointer into the served tool entry (`/inputSchema/properties/query/oneOf`). */
  pointer: string;
  keyword: string;
  value: unknown;
  /** The sentence the portable schema's descriptions carry instead (absent: nothing to say, a `$ref` inlined). */
  prose?: string;
}

/** A place the portable schema cannot say in a form every host reads as it is, and why. */
interface Unportable {
  /** A pointer into the portable tool entry (`/inputSchema/properties/x`): hosts may still change what is at or below it. */
  pointer: string;
  reason: string;
}

/** The portable input schema of a tool, what moved into prose, and what has no portable form. */
export interface PortableSchema {
  schema: Record<string, unknown>;
  moved: PortableMove[];
  unportable: Unportable[];
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** What the portable form can hold of a schema, read as "accepts at least this". */
interface Shape {
  /** The JSON types accepted; absent: any. */
  types?: Set<JsonType>;
  /** The values accepted; absent: no such limit. */
  enum?: unknown[];
  properties: Map<string, Shape>;
  required: Set<string>;
  /** `additionalProperties: false`: only the names in `properties`. */
  closed: boolean;
  /** Each item's shape; absent: any item. */
  items?: Shape;
  description?: string;
  /** Sentences for the description: what the keywords the portable form drops said. */
  notes: string[];
  /** Accepts no value at all (`false`). */
  never?: boolean;
}

function anyShape(): Shape {
  return { properties: new Map(), required: new Set(), closed: false, notes: [] };
}

function neverShape(): Shape {
  return { ...anyShape(), never: true };
}

/** The schema keywords that read nothing but tooling: dropped without a word. */
const SILENT = words('$schema $id $comment $anchor $dynamicAnchor $vocabulary $defs definitions');

/** Sentences for the keywords `carriedText` has none for. */
const OWN_SENTENCES: ReadonlyMap<string, (value: unknown) => string | undefined> = new Map([
  ['title', (value) => (typeof value === 'string' ? `${value.replace(/[.\s]+$/, '')}.` : undefined)],
  ['deprecated', (value) => (value === true ? 'Deprecated.' : undefined)],
  ['readOnly', (value) => (value === true ? 'Read-only.' : undefined)],
  ['writeOnly', (value) => (value === true ? 'Write-only.' : undefined)],
  ['contentMediaType', (value) => (typeof value === 'string' ? `Content type: ${value}.` : undefined)],
  ['contentEncoding', (value) => (typeof value === 'string' ? `Encoding: ${value}.` : undefined)],
  ['dependentRequired', (value) => carriedText('dependencies', value)],
  [
    'examples',
    (value) => (Array.isArray(value) && value.length > 0 ? `Examples: ${value.map(short).join(', ')}.` : undefined),
  ],
]);

/** A value as short JSON for a sentence (cut with `…` past 80 characters). */
function short(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
}

/** The sentence for a keyword the portable form drops: its fixed sentence, else the keyword and its value. */
function sentenceFor(keyword: string, value: unknown): string | undefined {
  const own = OWN_SENTENCES.get(keyword);
  if (own !== undefined) return own(value);
  if (keyword.startsWith('x-')) return undefined;
  return carriedText(keyword, value) ?? `Also: ${codeSpan(`${keyword}: ${short(value)}`)}.`;
}

function pointerOf(pointer: string, ...tokens: Array<string | number>): string {
  return `${pointer}${formatPointer(tokens)}`;
}

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/* ---------------------------------------------------------------- combining shapes */

function accepts(types: Set<JsonType> | undefined, type: JsonType): boolean {
  return types === undefined || types.has(type) || (type === 'integer' && types.has('number'));
}

function canBe(shape: Shape, type: 'object' | 'array'): boolean {
  return !shape.never && accepts(shape.types, type);
}

function intersectTypes(a: Set<JsonType> | undefined, b: Set<JsonType> | undefined): Set<JsonType> | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const out = new Set<JsonType>();
  for (const type of [...a, ...b]) if (accepts(a, type) && accepts(b, type)) out.add(type);
  return out;
}

/** A shape holding every value both hold (at least the intersection: `allOf`, a `$ref` beside keywords). */
function intersect(a: Shape, b: Shape): Shape {
  if (a.never || b.never) return neverShape();
  const properties = new Map(a.properties);
  for (const [name, shape] of b.properties) {
    const mine = properties.get(name);
    properties.set(name, mine === undefined ? shape : intersect(mine, shape));
  }
  const out: Shape = {
    properties,
    required: new Set([...a.required, ...b.required]),
    closed: a.closed || b.closed,
    notes: [...new Set([...a.notes, ...b.notes])],
  };
  const types = intersectTypes(a.types, b.types);
  if (types !== undefined) out.types = types;
  if (a.enum !== undefined || b.enum !== undefined)
    out.enum =
      a.enum && b.enum
        ? a.enum.filter((value) => b.enum!.some((other) => isDeepStrictEqual(value, other)))
        : (a.enum ?? b.enum);
  if (a.items !== undefined || b.items !== undefined)
    out.items = a.items && b.items ? intersect(a.items, b.items) : (a.items ?? b.items);
  const description = a.description ?? b.description;
  if (description !== undefined) out.description = description;
  if (a.description !== undefined && b.description !== undefined && a.description !== b.description)
    out.notes.push(b.description);
  return out;
}

/** The property `name` of the union of `mine` (which has it) and `other` (which does not). */
function loneProperty(shape: Shape, other: Shape): Shape {
  return other.closed || !canBe(other, 'object') ? shape : anyShape();
}

/** A shape holding every value either holds (`anyOf`, `oneOf`, a type list). */
function unite(a: Shape, b: Shape): Shape {
  if (a.never) return b;
  if (b.never) return a;
  const objects = [a, b].filter((shape) => canBe(shape, 'object'));
  const properties = new Map<string, Shape>();
  for (const name of new Set([...a.properties.keys(), ...b.properties.keys()])) {
    const [mine, theirs] = [a.properties.get(name), b.properties.get(name)];
    properties.set(
      name,
      mine && theirs ? unite(mine, theirs) : mine ? loneProperty(mine, b) : loneProperty(theirs!, a),
    );
  }
  const required =
    objects.length === 2 ? [...a.required].filter((name) => b.required.has(name)) : (objects[0]?.required ?? []);
  const out: Shape = {
    properties,
    required: new Set(required),
    closed: objects.length > 0 && objects.every((shape) => shape.closed),
    notes: a.notes.join(' ') === b.notes.join(' ') ? [...a.notes] : [],
  };
  if (a.types !== undefined && b.types !== undefined) out.types = new Set([...a.types, ...b.types]);
  if (a.enum !== undefined && b.enum !== undefined)
    out.enum = [...a.enum, ...b.enum.filter((value) => !a.enum!.some((other) => isDeepStrictEqual(value, other)))];
  const arrays = [a, b].filter((shape) => canBe(shape, 'array'));
  const items = arrays.map((shape) => shape.items);
  if (items.length > 0 && items.every((item) => item !== undefined))
    out.items = items.reduce((left, right) => unite(left!, right!))!;
  if (a.description !== undefined && a.description === b.description) out.description = a.description;
  return out;
}

/* ---------------------------------------------------------------- reading a schema */

interface ReadContext {
  root: unknown;
  moved: PortableMove[];
  /** `$ref`s being read, to stop at a schema that refers to itself. */
  active: string[];
}

/** What a branch of a combinator is, in a few words: "an object with `key`", "null", its description. */
function summary(shape: Shape): string {
  if (shape.description !== undefined) return shape.description.split(/(?<=[.!?])\s/)[0]!.replace(/[.\s]+$/, '');
  if (shape.enum !== undefined) return `one of ${shape.enum.map(short).join(', ')}`;
  const types = shape.types === undefined ? ['any value'] : [...shape.types].map((type) => typeWords(type));
  let text = types.join(' or ');
  const names = shape.required.size > 0 ? [...shape.required] : [...shape.properties.keys()];
  if (canBe(shape, 'object') && names.length > 0) text += ` with ${names.map(codeSpan).join(', ')}`;
  return shape.notes.length > 0 ? `${text} (${shape.notes.join(' ')})` : text;
}

/** `a string`, `an integer`, `null`. */
function typeWords(type: JsonType): string {
  return type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** The union of a combinator's branches, with the sentence that names them. */
function readBranches(
  keyword: 'anyOf' | 'oneOf',
  branches: unknown[],
  pointer: string,
  context: ReadContext,
  depth: number,
): Shape {
  const shapes = branches.map((branch, index) =>
    shapeOf(branch, pointerOf(pointer, keyword, index), context, depth + 1),
  );
  const united = shapes.reduce((left, right) => unite(left, right), neverShape());
  const live = shapes.filter((shape) => !shape.never);
  const prose = `${keyword === 'oneOf' ? 'Exactly one of' : 'One or more of'}: ${live.map(summary).join('; ')}.`;
  context.moved.push({ pointer: pointerOf(pointer, keyword), keyword, value: branches, prose });
  united.notes.push(prose);
  return united;
}

/** The shape of a tuple: one `items` holding every position's schema (and the rest's, when more items may follow). */
function readTuple(
  node: Record<string, unknown>,
  positions: unknown[],
  keyword: 'items' | 'prefixItems',
  pointer: string,
  context: ReadContext,
  depth: number,
): Shape {
  const restKeyword = keyword === 'items' ? 'additionalItems' : 'items';
  const shapes = positions.map((item, index) => shapeOf(item, pointerOf(pointer, keyword, index), context, depth + 1));
  const bounded = typeof node.maxItems === 'number' && node.maxItems <= positions.length;
  const rest = node[restKeyword];
  const restShape =
    bounded || rest === false
      ? undefined
      : rest === undefined
        ? anyShape()
        : shapeOf(rest, pointerOf(pointer, restKeyword), context, depth + 1);
  const prose = `${positions.map((_, index) => `Item ${index + 1}: ${summary(shapes[index]!)}`).join('; ')}.`;
  context.moved.push({ pointer: pointerOf(pointer, keyword), keyword, value: positions, prose });
  const all = restShape === undefined ? shapes : [...shapes, restShape];
  const items = all.reduce((left, right) => unite(left, right), neverShape());
  return { ...anyShape(), items: items.never ? anyShape() : items, notes: [prose] };
}

/** The shape `$ref` points at, read once per chain (a schema that refers to itself stops at its type). */
function readRef(ref: string, pointer: string, context: ReadContext, depth: number): Shape {
  const target = resolveLocalRef(context.root, ref);
  context.moved.push({ pointer: pointerOf(pointer, '$ref'), keyword: '$ref', value: ref });
  if (target === undefined) return { ...anyShape(), notes: [`Same shape as ${codeSpan(ref)}.`] };
  if (context.active.includes(ref)) {
    const shape: Shape = { ...anyShape(), notes: [`Same shape as ${codeSpan(ref.replace(/^.*\//, ''))}.`] };
    const type = isObject(target) ? target.type : undefined;
    if (typeof type === 'string' && JSON_TYPES.has(type)) shape.types = new Set([type as JsonType]);
    return shape;
  }
  context.active.push(ref);
  const segments = parseLocalRef(ref) ?? [];
  const shape = shapeOf(target, pointerOf(INPUT_SCHEMA, ...segments), context, depth + 1);
  context.active.pop();
  return shape;
}

/** Reads one keyword of `node` into `own` (or into `parts`, shapes `own` is intersected with). */
function readKeyword(
  node: Record<string, unknown>,
  keyword: string,
  pointer: string,
  context: ReadContext,
  depth: number,
  own: Shape,
  parts: Shape[],
): void {
  const value = node[keyword];
  const at = pointerOf(pointer, keyword);
  switch (keyword) {
    case 'type': {
      const types = (Array.isArray(value) ? value : [value]).filter((type) => JSON_TYPES.has(type as string));
      own.types = new Set(types as JsonType[]);
      return;
    }
    case 'enum':
      if (Array.isArray(value)) own.enum = [...value];
      return;
    case 'const':
      own.enum = [value];
      return;
    case 'description':
      if (typeof value === 'string') own.description = value;
      return;
    case 'required':
      if (Array.isArray(value)) for (const name of value) if (typeof name === 'string') own.required.add(name);
      return;
    case 'properties':
      if (isObject(value))
        for (const name of Object.keys(value))
          own.properties.set(name, shapeOf(value[name], pointerOf(at, name), context, depth + 1));
      return;
    case 'additionalProperties':
      if (value === false) own.closed = true;
      else if (isObject(value)) {
        const prose = `Other properties are allowed: ${summary(shapeOf(value, at, context, depth + 1))}.`;
        context.moved.push({ pointer: at, keyword, value, prose });
        own.notes.push(prose);
      }
      return;
    case 'items':
      if (Array.isArray(node.prefixItems)) return; // the rest of a 2020-12 tuple, read with it
      if (Array.isArray(value)) parts.push(readTuple(node, value, 'items', pointer, context, depth));
      else if (value === false) {
        own.items = anyShape();
        own.notes.push('Always empty.');
        context.moved.push({ pointer: at, keyword, value, prose: 'Always empty.' });
      } else own.items = shapeOf(value, at, context, depth + 1);
      return;
    case 'prefixItems':
      if (Array.isArray(value)) parts.push(readTuple(node, value, 'prefixItems', pointer, context, depth));
      return;
    case 'additionalItems':
      return; // read with its tuple
    case 'allOf':
      if (Array.isArray(value)) {
        value.forEach((branch, index) => parts.push(shapeOf(branch, pointerOf(at, index), context, depth + 1)));
        context.moved.push({ pointer: at, keyword, value });
      }
      return;
    case 'anyOf':
    case 'oneOf':
      if (Array.isArray(value)) parts.push(readBranches(keyword, value, pointer, context, depth));
      return;
    case '$ref':
      if (typeof value === 'string') parts.push(readRef(value, pointer, context, depth));
      return;
    default:
      readDropped(keyword, value, at, context, own);
  }
}

/** A keyword the portable form has no place for: its sentence goes to the description (silent for tooling). */
function readDropped(keyword: string, value: unknown, at: string, context: ReadContext, own: Shape): void {
  if (SILENT.has(keyword)) return;
  const prose = sentenceFor(keyword, value);
  context.moved.push(prose === undefined ? { pointer: at, keyword, value } : { pointer: at, keyword, value, prose });
  if (prose !== undefined) own.notes.push(prose);
}

/** Reads a schema (an object or `true`/`false`) into its shape. */
function shapeOf(node: unknown, pointer: string, context: ReadContext, depth = 0): Shape {
  if (node === false) return neverShape();
  if (!isObject(node) || depth > MAX_WALK_DEPTH) return anyShape();
  const own = anyShape();
  const parts: Shape[] = [];
  for (const keyword of Object.keys(node)) readKeyword(node, keyword, pointer, context, depth, own, parts);
  // Names a pattern matches are allowed beside `additionalProperties: false`; without the pattern the object stays open.
  if (isObject(node.patternProperties) && Object.keys(node.patternProperties).length > 0) own.closed = false;
  return parts.reduce((shape, part) => intersect(shape, part), own);
}

/* ---------------------------------------------------------------- writing the portable schema */

/** `integer` and `number` together say `number`. */
function typeList(types: Set<JsonType>): JsonType[] {
  const list = [...types].filter((type) => !(type === 'integer' && types.has('number')));
  const order: JsonType[] = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
  return list.sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** The one `type` of a shape (from its types, else from its `enum`'s values), or undefined. */
function singleType(shape: Shape): { type?: JsonType; several?: JsonType[] } {
  if (shape.types !== undefined) {
    const list = typeList(shape.types);
    return list.length === 1 ? { type: list[0]! } : { several: list };
  }
  if (shape.enum !== undefined && shape.enum.length > 0) {
    const kinds = new Set(shape.enum.map(jsonTypeOf));
    const list = typeList(kinds);
    return list.length === 1 ? { type: list[0]! } : {};
  }
  return {};
}

function emit(shape: Shape, pointer: string, unportable: Unportable[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const notes = [...shape.notes];
  if (shape.never) {
    unportable.push({ pointer, reason: 'accepts no value, which the portable form cannot say' });
    return { description: appendDescription(shape.description, ['Never valid.']) };
  }
  const { type, several } = singleType(shape);
  if (type !== undefined) out.type = type;
  else {
    const kinds = several?.map(typeWords).join(' or ') ?? '';
    if (kinds !== '') notes.unshift(`${kinds[0]!.toUpperCase()}${kinds.slice(1)}.`);
    unportable.push({
      pointer,
      reason:
        several !== undefined && several.length > 1
          ? `accepts ${several.join(' or ')}: no one \`type\` says it, and hosts read type lists and combinators differently`
          : 'accepts values of any type: hosts that need a `type` give it one of their own',
    });
  }
  if (shape.description !== undefined || notes.length > 0)
    out.description = appendDescription(shape.description, notes);
  if (shape.enum !== undefined) out.enum = shape.enum;
  if (
    canBe(shape, 'object') &&
    (type === 'object' || shape.properties.size > 0 || shape.required.size > 0 || shape.closed)
  )
    emitObject(shape, pointer, out, unportable);
  if (canBe(shape, 'array') && type === 'array')
    out.items = emit(shape.items ?? anyShape(), pointerOf(pointer, 'items'), unportable);
  return out;
}

/** `properties` (always, on an object), `required` (only declared names), `additionalProperties: false`. */
function emitObject(shape: Shape, pointer: string, out: Record<string, unknown>, unportable: Unportable[]): void {
  const properties: Record<string, unknown> = {};
  const extra: string[] = [];
  for (const [name, property] of shape.properties) {
    if (property.never) extra.push(`Never give ${codeSpan(name)}.`);
    else setOwn(properties, name, emit(property, pointerOf(pointer, 'properties', name), unportable));
  }
  out.properties = properties;
  const required = [...shape.required].filter((name) => Object.hasOwn(properties, name));
  const undeclared = [...shape.required].filter(
    (name) => !Object.hasOwn(properties, name) && !shape.properties.get(name)?.never,
  );
  if (undeclared.length > 0) extra.push(`Always give ${undeclared.map(codeSpan).join(', ')}.`);
  if (required.length > 0) out.required = required;
  if (shape.closed) out.additionalProperties = false;
  if (extra.length > 0) out.description = appendDescription(out.description, extra);
}

/**
 * The portable form of a served input schema (either dialect): what every host of the table takes
 * as it is, accepting every value the original accepts, with what moved into prose and what has no
 * portable form (`unportable`: hosts may still change what is there). Never renames anything.
 */
export function portableInputSchema(inputSchema: unknown): PortableSchema {
  const moved: PortableMove[] = [];
  const unportable: Unportable[] = [];
  const shape = shapeOf(inputSchema, INPUT_SCHEMA, { root: inputSchema, moved, active: [] });
  const body = emit(shape, INPUT_SCHEMA, unportable);
  if (body.type !== 'object') {
    unportable.push({ pointer: INPUT_SCHEMA, reason: 'the root is not `type: "object"`, which every host expects' });
  } else if (!isObject(body.properties)) body.properties = {};
  const schema: Record<string, unknown> = { $schema: JSON_SCHEMA_2020_12, ...body };
  findLongDescriptions(schema, unportable);
  for (const argument of injectedArguments())
    if (isObject(body.properties) && Object.hasOwn(body.properties, argument.name))
      unportable.push({
        pointer: pointerOf(INPUT_SCHEMA, 'properties', argument.name),
        reason: `${argument.host} sends ${codeSpan(argument.name)} for itself and replaces the tool's own`,
      });
  return { schema, moved: onceEach(moved), unportable: onceEach(unportable) };
}

/** The entries of `list` not seen before (a definition read at each use is reported once). */
function onceEach<T>(list: T[]): T[] {
  return [...new Map(list.map((entry) => [JSON.stringify(entry), entry])).values()];
}

/** Descriptions VS Code Copilot cuts for gpt-4 models: the prose made them too long to carry whole. */
function findLongDescriptions(schema: Record<string, unknown>, unportable: Unportable[]): void {
  walkSchema(schema, INPUT_SCHEMA, (node, pointer) => {
    if (typeof node.description === 'string' && node.description.length > VSCODE_DESCRIPTION_LIMIT)
      unportable.push({
        pointer: `${pointer}/description`,
        reason: `a description over ${VSCODE_DESCRIPTION_LIMIT} characters`,
      });
  });
}
