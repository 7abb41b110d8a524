import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { DEFINITION_CONTAINERS, keywordsWhere, SCHEMA_KEYWORDS } from '../../src/schema/keywords.js';
import { forEachSubschema, mapSchema, setOwn, sortKeysDeep } from '../../src/schema/walk.js';
import { resolveLocalRef } from '../../src/schema/json-pointer.js';
import type { SharedOrigin } from './sources.js';

/*
 * What the keyword families of the schema comparison (./compare.ts and its rules in
 * ./compare-scalars.ts, ./compare-containers.ts, ./compare-composition.ts) share: the change and
 * context types, `$ref` following, a schema's types, canonical forms, sample values, and the rule
 * for a numeric bound.
 */

/** How a schema changed at one place, before the side decides the verdict. */
export type Direction = 'narrowed' | 'widened' | 'undecidable' | 'note';

/** One difference found by a rule at a pointer of the bundled schema. */
export interface SchemaChange {
  /** JSON pointer into the bundled schema (relative to `inputSchema`/`outputSchema`). */
  pointer: string;
  direction: Direction;
  message: string;
  /** A value (at `pointer`) the before schema accepts and the after one refuses (`narrowed`), or the reverse (`widened`). */
  witness?: unknown;
  /** Where the change is in each version's text: the pointer after following `$ref`s, and the shared file it is in. */
  before?: Place;
  after?: Place;
}

/** A position in one version: a pointer into the bundled schema as written, or into a shared file. */
export interface Place {
  /** The pointer into the bundled schema once each `$ref` on the way is followed (`/definitions/A/maximum`). */
  pointer: string;
  /** The shared file the change is in, and the pointer in it. */
  shared?: { origin: SharedOrigin; pointer: string };
  /** The pointer (into the bundled schema) of the tool's own `$ref` that reaches the shared file. */
  via?: string;
}

/** Comparison options. */
export interface CompareOptions {
  /**
   * Which side of a tool the schemas are: `input` (the arguments: the root is only ever given an object,
   * and the runtime coerces values that do not validate as sent) or `output` (no coercion).
   */
  side?: SchemaSide;
  /** An optional property added to an object that accepts extra properties is breaking (it narrows in set terms). */
  strictOpenObjects?: boolean;
  /** The schema pairs one comparison may walk (scratch walks included) before it stops (default 100,000). */
  maxComparisons?: number;
}

/** A draft-07 schema object (the comparison reads every side as draft-07). */
export type Schema = JSONSchema7;

/** What may stand where a schema goes: a schema, `true`/`false`, or nothing (a keyword one side lacks). */
export type Subschema = JSONSchema7Definition | undefined;

/** Which side of a tool two schemas are. */
export type SchemaSide = 'input' | 'output';

/** What one comparison carries through its walk: both roots, the options, what it found and where it went. */
export interface Ctx {
  beforeRoot: Schema;
  afterRoot: Schema;
  options: CompareOptions;
  out: SchemaChange[];
  /** `$ref` pairs already compared (cycles). */
  seen: Set<string>;
  /** Logical pointers where a side followed a `$ref`, and where it went. */
  crossings: Map<string, { before?: Hop; after?: Hop }>;
  beforeShared: ReadonlyMap<string, SharedOrigin>;
  afterShared: ReadonlyMap<string, SharedOrigin>;
  /** The walk itself (`compareSchemas` of ./compare.ts), for the rules that compare the schemas nested in theirs. */
  compare(before: Subschema, after: Subschema, pointer: string, ctx: Ctx): void;
  /** What the whole comparison may still spend and what it learnt, shared by its scratch walks. */
  work: Work;
  /** A walk that only counts changes (`changeCount`): it reports nothing of its own. */
  scratch?: boolean;
}

/** The budget and memory of one comparison (one side of one tool). */
export interface Work {
  /** Schema pairs it may still walk; at 0 every walk stops. */
  left: number;
  /** The budget it started with (for the message). */
  limit: number;
  /** The stop has been reported (once, where the walk that reports changes met it). */
  told: boolean;
  /** How many schema pairs the walks under way are nested in (the stack they use). */
  depth: number;
  /** The changes a scratch walk found between two (dereferenced) schemas, by the pair of their ids. */
  counts: Map<string, number>;
  ids: JsonIds;
}

/** The default of `maxComparisons`: enough for any schema a person writes, reached only by machine-made nesting. */
const DEFAULT_MAX_COMPARISONS = 100_000;

/** A fresh budget and memory for one comparison. */
export function newWork(options: CompareOptions): Work {
  const limit = options.maxComparisons ?? DEFAULT_MAX_COMPARISONS;
  return { left: limit, limit, told: false, depth: 0, counts: new Map(), ids: jsonIds() };
}

/**
 * Takes one schema pair from the budget. With none left it answers false, and the first walk that
 * reports changes to meet the stop reports it, undecidable (so breaking) with the reason, at `pointer`.
 */
export function spend(ctx: Ctx, pointer: string): boolean {
  const { work } = ctx;
  if (work.left > 0) {
    work.left--;
    return true;
  }
  if (!ctx.scratch && !work.told) {
    work.told = true;
    const message = `not compared: the comparison stopped after ${work.limit} schema pairs (--max-comparisons), so what is left here counts as breaking`;
    found(ctx, pointer, 'undecidable', message);
  }
  return false;
}

/**
 * How many changes the walk finds between two schemas, on a scratch context (nothing reported), once
 * per pair of schemas (equal JSON, equal answer: each side's `$ref`s lead into one root): the pairing of
 * union branches asks it of many pairs, nested ones of the same pairs again. Infinity when the budget
 * ran out before the answer.
 */
export function changeCount(x: Subschema, y: Subschema, pointer: string, ctx: Ctx): number {
  const { ids, counts } = ctx.work;
  const pair = `${ids.of(deref(x, ctx.beforeRoot))} ${ids.of(deref(y, ctx.afterRoot))}`;
  const known = counts.get(pair);
  if (known !== undefined) return known;
  const scratch: Ctx = { ...ctx, out: [], seen: new Set(), crossings: new Map(), scratch: true };
  ctx.compare(x, y, pointer, scratch);
  if (ctx.work.left === 0) return Number.POSITIVE_INFINITY;
  counts.set(pair, scratch.out.length);
  return scratch.out.length;
}

/**
 * True when a keyword's two values mean the same: equal JSON with no `$ref` in it, or, for a keyword
 * that holds subschemas (where, the keyword table says), the same value around them and no change
 * between each pair of subschemas (what their `$ref`s lead to included).
 */
export function sameKeyword(keyword: string, x: unknown, y: unknown, pointer: string, ctx: Ctx): boolean {
  const { ids } = ctx.work;
  if (ids.of(x) === ids.of(y) && !ids.hasRef(x)) return true;
  if (x === undefined || y === undefined || SCHEMA_KEYWORDS.get(keyword)?.subschemas === undefined) return false;
  const parts = (value: unknown) => {
    const subschemas = new Map<string, Subschema>();
    forEachSubschema({ [keyword]: value }, pointer, (child, at) => subschemas.set(at, child as Subschema));
    const rest = mapSchema({ [keyword]: value }, '', (_node, at) => (at === '' ? undefined : {}));
    return { subschemas, rest: ids.of(rest) };
  };
  const [a, b] = [parts(x), parts(y)];
  if (a.rest !== b.rest || a.subschemas.size !== b.subschemas.size) return false;
  return [...a.subschemas].every(
    ([at, schema]) => b.subschemas.has(at) && changeCount(schema, b.subschemas.get(at), at, ctx) === 0,
  );
}

/** Ids of JSON values (`jsonIds`). */
type JsonIds = ReturnType<typeof jsonIds>;

/**
 * Ids of JSON values, each object's computed once from its keys and its children's ids: telling
 * whether two subschemas are the same costs their top level, not their size, however deep the walk
 * that asks goes. `of`: equal exactly when the values are equal JSON (object keys in any order);
 * `plain`: the id of a schema without the keywords that do not validate (`strip`); `hasRef`: a `$ref`
 * is somewhere in the value.
 */
function jsonIds() {
  const table = new Map<string, number>();
  const ids = new WeakMap<object, number>();
  const plainIds = new WeakMap<object, number>();
  /** The ids of the values with a `$ref` somewhere in them. */
  const withRef = new Set<number>();
  const intern = (key: string) => {
    let id = table.get(key);
    if (id === undefined) table.set(key, (id = table.size));
    return id;
  };
  const of = (value: unknown): number => {
    if (typeof value !== 'object' || value === null) return intern(JSON.stringify(value) ?? 'undefined');
    let id = ids.get(value);
    if (id === undefined) {
      const node = value as Record<string, unknown>;
      const names = Array.isArray(value) ? [...value.keys()] : Object.keys(node).sort();
      const children = names.map((name) => of(node[name]));
      const key = Array.isArray(value)
        ? `[${children.join(',')}]`
        : `{${names.map((name, k) => `${JSON.stringify(name)}:${children[k]}`).join(',')}}`;
      ids.set(value, (id = intern(key)));
      if (typeof node.$ref === 'string' || children.some((child) => withRef.has(child))) withRef.add(id);
    }
    return id;
  };
  const plain = (schema: Schema | boolean): number => {
    if (typeof schema !== 'object') return of(schema);
    let id = plainIds.get(schema);
    if (id === undefined) plainIds.set(schema, (id = of(strip(schema))));
    return id;
  };
  return { of, plain, hasRef: (value: unknown) => withRef.has(of(value)) };
}

/** Where a `$ref` led: the pointer of its target in the bundled schema, and the shared file it is a copy of. */
export interface Hop {
  target: string;
  shared?: SharedOrigin;
}

const SCALAR_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'] as const;

/** Follows local `$ref`s (`#/definitions/X`) of a bundled schema. */
export function deref(schema: Subschema, root: Schema, depth = 0): Schema | boolean | undefined {
  if (schema === undefined || typeof schema === 'boolean') return schema;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#') && depth < 32) {
    const target = resolveLocalRef(root, schema.$ref);
    return deref(target as Subschema, root, depth + 1);
  }
  // A one-schema allOf is the schema itself.
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && onlyKeys(schema, ['allOf'])) {
    return deref(schema.allOf[0], root, depth + 1);
  }
  return schema;
}

/** True when `schema` has no keyword but `allowed` ones and metadata. */
export function onlyKeys(schema: Schema, allowed: string[]): boolean {
  return Object.keys(schema).every((key) => allowed.includes(key) || METADATA.has(key));
}

/**
 * Keywords that do not change what validates: the keyword table's annotations and tooling keywords,
 * and the definitions a `$ref` reads (compared where a `$ref` leads). Not `default`: the runtime fills
 * it in, so a one-schema `allOf` beside a `default` is not read as its member alone.
 */
const METADATA: ReadonlySet<string> = new Set([
  ...keywordsWhere((info, keyword) => (info.kind === 'annotation' || info.kind === 'tooling') && keyword !== 'default'),
  ...DEFINITION_CONTAINERS,
]);

/** The types a schema allows (all when it does not say); `integer` kept apart from `number`. */
export function typesOf(schema: Schema): Set<string> {
  if (schema.type === undefined) return new Set(SCALAR_TYPES);
  const list = Array.isArray(schema.type) ? schema.type : [schema.type];
  const set = new Set<string>(list);
  if (set.has('number')) set.add('integer');
  return set;
}

const SAMPLES: ReadonlyMap<string, unknown> = new Map(
  Object.entries({ string: 'x', number: 0.5, integer: 1, boolean: true, null: null }),
);

/** A value of one JSON type (`integer` apart from `number`). */
export function sampleOfType(type: string): unknown {
  return type === 'object' ? {} : SAMPLES.has(type) ? SAMPLES.get(type) : [];
}

/** Canonical JSON text (object keys sorted), for telling small values apart (enum values, defaults). */
export function stable(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value));
}

/** Reports a change a rule found at `pointer` (with a value that shows it, when it knows one). */
export function found(ctx: Ctx, pointer: string, direction: Direction, message: string, witness?: unknown): void {
  ctx.out.push(witness === undefined ? { pointer, direction, message } : { pointer, direction, message, witness });
}

/** One rule: compares a keyword family of two (dereferenced) schemas at `pointer`. */
export type Rule = (before: Schema, after: Schema, pointer: string, ctx: Ctx) => void;

/** The keywords whose value is a number (`maximum`, `minLength`, …). */
type NumericKeyword = { [K in keyof Schema]-?: NonNullable<Schema[K]> extends number ? K : never }[keyof Schema];

/**
 * A numeric bound (`maximum`, `minLength`, `maxItems`, …): tighter (or newly present) narrows, with the
 * first value refused that the old bound allowed as its witness; looser widens.
 */
export function bound(key: NumericKeyword): Rule {
  const isMin = key.startsWith('min') || key === 'exclusiveMinimum';
  const exclusive = key.startsWith('exclusive');
  return (before, after, pointer, ctx) => {
    const a = before[key] as number | undefined;
    const b = after[key] as number | undefined;
    if (a === b) return;
    const message = `${key} ${a ?? 'none'} → ${b ?? 'none'}`;
    if (b === undefined || (a !== undefined && (isMin ? b <= a : b >= a)))
      return found(ctx, `${pointer}/${key}`, 'widened', `${message}: more values are accepted`);
    const edge = a !== undefined ? (exclusive ? (isMin ? a + 1e-9 : a - 1e-9) : a) : isMin ? b - 1 : b + 1;
    // The value next to the new bound (the first one refused), kept inside the old bound.
    const step = exclusive ? 0 : 1;
    const value = isMin ? Math.max(edge, b - step) : Math.min(edge, b + step);
    found(ctx, `${pointer}/${key}`, 'narrowed', `${message}: values it allowed are now refused`, sized(key, value));
  };
}

/** A value at bound `key`'s `size`: the number itself, or a string, an array or an object of about that size. */
function sized(key: NumericKeyword, size: number): unknown {
  if (key.endsWith('imum')) return size;
  const n = Math.max(0, Math.round(size));
  if (key.endsWith('Length')) return 'a'.repeat(n);
  if (key.endsWith('Items')) return Array.from({ length: n }, () => null);
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 1]));
}

/** A schema without what does not validate (metadata, `default`, `x-` keys); a one-type list read as that type. */
export function strip(schema: Schema | boolean | undefined): unknown {
  if (typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (METADATA.has(key) || key === 'default' || key.startsWith('x-')) continue;
    setOwn(out, key, key === 'type' && Array.isArray(value) && value.length === 1 ? value[0] : value);
  }
  return out;
}

/** A plain value a schema probably accepts (required properties and minimum items filled, a few levels deep). */
export function sampleFor(schema: JSONSchema7Definition, root: Schema, depth = 0): unknown {
  const s = deref(schema, root);
  if (typeof s !== 'object') return null;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const branch = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (s.type === undefined && branch !== undefined && depth < 8) return sampleFor(branch, root, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.properties ? 'object' : undefined));
  if (type === 'string') return 'a'.repeat(Math.max(1, s.minLength ?? 1));
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'object' && depth < 8) return filled(s, root, depth + 1);
  if (type === 'array' && depth < 8 && (s.minItems ?? 0) > 0 && s.items !== undefined && !Array.isArray(s.items))
    return Array.from({ length: s.minItems! }, () => sampleFor(s.items as JSONSchema7Definition, root, depth + 1));
  return type === undefined ? 1 : sampleOfType(type);
}

/** An object of `schema` with only its required properties, each given a sample value. */
export function filled(schema: Schema, root: Schema, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Required names are user text: a property's schema is read only when the schema itself has it.
  const properties = schema.properties ?? {};
  for (const key of schema.required ?? [])
    setOwn(out, key, Object.hasOwn(properties, key) ? sampleFor(properties[key]!, root, depth) : 1);
  return out;
}
