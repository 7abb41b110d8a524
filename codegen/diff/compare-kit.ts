import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
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
  /** The schema is a tool's input: its root is only ever given an object (the arguments). */
  argumentsRoot?: boolean;
  /** An optional property added to an object that accepts extra properties is breaking (it narrows in set terms). */
  strictOpenObjects?: boolean;
}

export type Schema = JSONSchema7;

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
  compare(
    before: JSONSchema7Definition | undefined,
    after: JSONSchema7Definition | undefined,
    pointer: string,
    ctx: Ctx,
  ): void;
}

/** Where a `$ref` led: the pointer of its target in the bundled schema, and the shared file it is a copy of. */
export interface Hop {
  target: string;
  shared?: SharedOrigin;
}

const SCALAR_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'] as const;

/** Follows local `$ref`s (`#/definitions/X`) of a bundled schema. */
export function deref(
  schema: JSONSchema7Definition | undefined,
  root: Schema,
  depth = 0,
): Schema | boolean | undefined {
  if (schema === undefined || typeof schema === 'boolean') return schema;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#') && depth < 32) {
    const target = resolveLocalRef(root, schema.$ref);
    return deref(target as JSONSchema7Definition | undefined, root, depth + 1);
  }
  // A one-schema allOf is the schema itself.
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && onlyKeys(schema, ['allOf'])) {
    return deref(schema.allOf[0], root, depth + 1);
  }
  return schema;
}

export function onlyKeys(schema: Schema, allowed: string[]): boolean {
  return Object.keys(schema).every((key) => allowed.includes(key) || METADATA.has(key));
}

/** Keywords that do not change what validates. */
export const METADATA = new Set([
  'description',
  'title',
  'examples',
  '$comment',
  '$schema',
  '$id',
  'definitions',
  '$defs',
  'readOnly',
  'writeOnly',
]);

/** The types a schema allows (all when it does not say); `integer` kept apart from `number`. */
export function typesOf(schema: Schema): Set<string> {
  if (schema.type === undefined) return new Set(SCALAR_TYPES);
  const list = Array.isArray(schema.type) ? schema.type : [schema.type];
  const set = new Set<string>(list);
  if (set.has('number')) set.add('integer');
  return set;
}

export function sampleOfType(type: string): unknown {
  switch (type) {
    case 'string':
      return 'x';
    case 'number':
      return 0.5;
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'object':
      return {};
    default:
      return [];
  }
}

export function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** One rule: compares a keyword family of two (dereferenced) schemas at `pointer`. */
export type Rule = (before: Schema, after: Schema, pointer: string, ctx: Ctx) => void;

/** A numeric bound: `tighter` says which way narrows. */
export function bound(
  key:
    | 'minimum'
    | 'maximum'
    | 'exclusiveMinimum'
    | 'exclusiveMaximum'
    | 'minLength'
    | 'maxLength'
    | 'minItems'
    | 'maxItems'
    | 'minProperties'
    | 'maxProperties',
  isMin: boolean,
  witnessOf: (value: number) => unknown,
): Rule {
  return (before, after, pointer, ctx) => {
    const a = before[key] as number | undefined;
    const b = after[key] as number | undefined;
    if (a === b) return;
    const at = `${pointer}/${key}`;
    const exclusive = key.startsWith('exclusive');
    // Narrowed when after's bound is tighter (or newly present).
    const narrowed = b !== undefined && (a === undefined || (isMin ? b > a : b < a));
    const show = (v: number | undefined) => (v === undefined ? 'none' : String(v));
    const message = `${key} ${show(a)} → ${show(b)}`;
    if (narrowed) {
      const edge = a !== undefined ? (exclusive ? (isMin ? a + 1e-9 : a - 1e-9) : a) : isMin ? b - 1 : b + 1;
      // The value next to the new bound (the first one refused), kept inside the old bound.
      const step = exclusive ? 0 : 1;
      const w = isMin ? Math.max(edge, b - step) : Math.min(edge, b + step);
      const value =
        key.includes('Length') || key.includes('Items') || key.includes('Properties') ? Math.max(0, Math.round(w)) : w;
      ctx.out.push({
        pointer: at,
        direction: 'narrowed',
        message: `${message}: values it allowed are now refused`,
        witness: witnessOf(value),
      });
    } else {
      ctx.out.push({ pointer: at, direction: 'widened', message: `${message}: more values are accepted` });
    }
  };
}

export function strip(schema: Schema | boolean | undefined): unknown {
  if (typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (METADATA.has(key) || key === 'default' || key.startsWith('x-')) continue;
    out[key] = key === 'type' && Array.isArray(value) && value.length === 1 ? value[0] : value;
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
  if (type === 'object' && depth < 8) {
    const out: Record<string, unknown> = {};
    for (const key of s.required ?? [])
      Object.defineProperty(out, key, {
        value: s.properties?.[key] === undefined ? 1 : sampleFor(s.properties[key]!, root, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  if (type === 'array' && depth < 8 && (s.minItems ?? 0) > 0 && s.items !== undefined && !Array.isArray(s.items))
    return Array.from({ length: s.minItems! }, () => sampleFor(s.items as JSONSchema7Definition, root, depth + 1));
  return type === undefined ? 1 : sampleOfType(type);
}
