import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import type { McpToolAnnotations } from '../../src/mcp/tool.js';
import type { SourceFile } from '../load.js';
import { pointerIn2020 } from './dialect.js';
import type { DiffTool, SharedOrigin } from './sources.js';
import { findWitness } from './witness.js';

/** Which part of a tool a change is in. */
export type Side = 'input' | 'output' | 'tool';

/** A change's verdict: `breaking` fails callers, `compatible` does not. */
export type ChangeVerdict = 'breaking' | 'compatible';

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

/** Where a change is in one version's files, for `file:line:col`. */
export interface Position {
  source: SourceFile;
  pointer: string;
}

/** One change of a tool, with its verdict. */
export interface ToolChange {
  side: Side;
  /** JSON pointer into the tool definition (`/inputSchema/properties/limit/maximum`), or into `file` when it is set. */
  pointer: string;
  verdict: ChangeVerdict;
  message: string;
  /** Whole arguments (input) or a whole output that show the change: checked with the generated validators. */
  witness?: unknown;
  /** The shared schema file the change is in (`pointer` is then a pointer in that file). */
  file?: string;
  /** The pointer into the tool definition of the tool's `$ref` that reaches `file`. */
  via?: string;
  /** Both versions' positions (text output). */
  positions?: { before?: Position; after?: Position };
}

/** Comparison options. */
export interface CompareOptions {
  /** The schema is a tool's input: its root is only ever given an object (the arguments). */
  argumentsRoot?: boolean;
  /** An optional property added to an object that accepts extra properties is breaking (it narrows in set terms). */
  strictOpenObjects?: boolean;
}

type Schema = JSONSchema7;

interface Ctx {
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
}

/** Where a `$ref` led: the pointer of its target in the bundled schema, and the shared file it is a copy of. */
interface Hop {
  target: string;
  shared?: SharedOrigin;
}

/** The last `$ref` hop of a chain from `node` (local refs only). */
function hopOf(
  node: JSONSchema7Definition | undefined,
  root: Schema,
  shared: ReadonlyMap<string, SharedOrigin>,
): Hop | undefined {
  let hop: Hop | undefined;
  let current: unknown = node;
  for (let depth = 0; depth < 32; depth++) {
    const ref = (current as Schema | null)?.$ref;
    if (typeof current !== 'object' || typeof ref !== 'string' || !ref.startsWith('#/')) break;
    const target = ref.slice(1);
    const tokens = target
      .split('/')
      .slice(1)
      .map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
    const origin =
      tokens.length === 2 && (tokens[0] === 'definitions' || tokens[0] === '$defs')
        ? shared.get(tokens[1]!)
        : undefined;
    hop = origin === undefined ? { target } : { target, shared: origin };
    current = resolvePointer(root, target);
  }
  return hop;
}

function within(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(`${prefix}/`);
}

/** Where the logical `pointer` is in one version (`strict`: the crossing at `pointer` itself not followed: the `$ref` node). */
function placeOf(ctx: Ctx, side: 'before' | 'after', pointer: string, strict = false): Place {
  const hits: [string, Hop][] = [];
  for (const [at, hops] of ctx.crossings) {
    const hop = hops[side];
    if (hop !== undefined && within(pointer, at) && !(strict && at === pointer)) hits.push([at, hop]);
  }
  if (hits.length === 0) return { pointer };
  hits.sort((a, b) => a[0].length - b[0].length);
  const [at, hop] = hits.at(-1)!;
  const rest = pointer.slice(at.length);
  const place: Place = { pointer: hop.target + rest };
  const outer = hits.find(([, h]) => h.shared !== undefined);
  if (hop.shared !== undefined && outer !== undefined) {
    place.shared = { origin: hop.shared, pointer: hop.shared.pointer + rest };
    place.via = placeOf(ctx, side, outer[0], true).pointer;
  }
  return place;
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
    const target = resolvePointer(root, schema.$ref.slice(1));
    return deref(target as JSONSchema7Definition | undefined, root, depth + 1);
  }
  // A one-schema allOf is the schema itself.
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && onlyKeys(schema, ['allOf'])) {
    return deref(schema.allOf[0], root, depth + 1);
  }
  return schema;
}

function onlyKeys(schema: Schema, allowed: string[]): boolean {
  return Object.keys(schema).every((key) => allowed.includes(key) || METADATA.has(key));
}

/** Keywords that do not change what validates. */
const METADATA = new Set([
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

function resolvePointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Escapes one pointer segment. */
export function segment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The types a schema allows (all when it does not say); `integer` kept apart from `number`. */
function typesOf(schema: Schema): Set<string> {
  if (schema.type === undefined) return new Set(SCALAR_TYPES);
  const list = Array.isArray(schema.type) ? schema.type : [schema.type];
  const set = new Set<string>(list);
  if (set.has('number')) set.add('integer');
  return set;
}

function sampleOfType(type: string): unknown {
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

/**
 * True when the runtime's coercion (Ajv's scalar rules, applied only where a value does not validate as
 * sent) turns every value of type `from` into one of the types `to`: `null` → `""`/`0`/`false`,
 * a boolean → `"true"`/`1`, a number → its string. A string is not (only numeric or `"true"`-like ones
 * convert), nor an object or an array.
 */
function coercible(from: string, to: Set<string>): boolean {
  if (from === 'null') return ['string', 'number', 'integer', 'boolean'].some((t) => to.has(t));
  if (from === 'boolean') return to.has('string') || to.has('number') || to.has('integer');
  if (from === 'integer' || from === 'number') return to.has('string');
  return false;
}

/** A value of `type` that coercion does not turn into any of `to` (a witness of a lost type). */
function refusedSample(type: string, to: Set<string>): unknown {
  if (type === 'string') return 'x';
  if (type === 'integer') return to.has('boolean') ? 2 : 1;
  return sampleOfType(type);
}

function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** One rule: compares a keyword family of two (dereferenced) schemas at `pointer`. */
type Rule = (before: Schema, after: Schema, pointer: string, ctx: Ctx) => void;

const typeRule: Rule = (before, after, pointer, ctx) => {
  // Tool arguments are always an object (MCP's `arguments`, every adapter's): at the input root only objects count.
  const only = (types: Set<string>) =>
    pointer === '' && ctx.options.argumentsRoot ? new Set([...types].filter((t) => t === 'object')) : types;
  const a = only(typesOf(before));
  const b = only(typesOf(after));
  const lost = [...a].filter((t) => !b.has(t) && !(t === 'integer' && b.has('number')));
  const gained = [...b].filter((t) => !a.has(t) && !(t === 'integer' && a.has('number')));
  const refused = lost.filter((t) => !coercible(t, b));
  if (refused.length === 0 && lost.length > 0) {
    ctx.out.push({
      pointer: `${pointer}/type`,
      direction: 'note',
      message: `type ${fmtTypes(before)} → ${fmtTypes(after)}: ${lost.join(', ')} values are now coerced by the runtime`,
    });
  }
  if (refused.length > 0) {
    ctx.out.push({
      pointer: `${pointer}/type`,
      direction: 'narrowed',
      message: `type ${fmtTypes(before)} → ${fmtTypes(after)}: ${refused.join(', ')} values are now refused`,
      witness: refusedSample(refused[0]!, b),
    });
  }
  if (gained.length > 0) {
    ctx.out.push({
      pointer: `${pointer}/type`,
      direction: 'widened',
      message: `type ${fmtTypes(before)} → ${fmtTypes(after)}: ${gained.join(', ')} values are now accepted`,
      witness: sampleOfType(gained[0]!),
    });
  }
};

function fmtTypes(schema: Schema): string {
  if (schema.type === undefined) return 'any';
  return Array.isArray(schema.type) ? schema.type.join('|') : schema.type;
}

/** A numeric bound: `tighter` says which way narrows. */
function bound(
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

const num = (v: number) => v;
const str = (n: number) => 'a'.repeat(n);
const arr = (n: number) => Array.from({ length: n }, () => null);

const numberRules: Rule[] = [
  bound('minimum', true, num),
  bound('maximum', false, num),
  bound('exclusiveMinimum', true, num),
  bound('exclusiveMaximum', false, num),
  (before, after, pointer, ctx) => {
    const a = before.multipleOf;
    const b = after.multipleOf;
    if (a === b) return;
    if (
      b !== undefined &&
      (a === undefined || !Number.isInteger(b / a) || (a !== undefined && b / a !== 1 && !Number.isInteger(a / b)))
    ) {
      if (a === undefined || !Number.isInteger(a / b)) {
        ctx.out.push({
          pointer: `${pointer}/multipleOf`,
          direction: 'narrowed',
          message: `multipleOf ${a ?? 'none'} → ${b}`,
          witness: a ?? 1e-7,
        });
        return;
      }
    }
    ctx.out.push({
      pointer: `${pointer}/multipleOf`,
      direction: 'widened',
      message: `multipleOf ${a ?? 'none'} → ${b ?? 'none'}`,
    });
  },
];

const stringRules: Rule[] = [
  bound('minLength', true, str),
  bound('maxLength', false, str),
  (before, after, pointer, ctx) => {
    if (before.pattern === after.pattern) return;
    if (after.pattern === undefined) {
      ctx.out.push({
        pointer: `${pointer}/pattern`,
        direction: 'widened',
        message: `pattern ${before.pattern} removed`,
      });
    } else if (before.pattern === undefined) {
      ctx.out.push({
        pointer: `${pointer}/pattern`,
        direction: 'narrowed',
        message: `pattern ${after.pattern} added: strings not matching it are now refused`,
      });
    } else {
      ctx.out.push({
        pointer: `${pointer}/pattern`,
        direction: 'undecidable',
        message: `pattern ${before.pattern} → ${after.pattern}: cannot decide whether every string it matched still matches (treated as breaking)`,
      });
    }
  },
  (before, after, pointer, ctx) => {
    if (before.format === after.format) return;
    if (after.format === undefined) {
      ctx.out.push({ pointer: `${pointer}/format`, direction: 'widened', message: `format ${before.format} removed` });
    } else {
      ctx.out.push({
        pointer: `${pointer}/format`,
        direction: before.format === undefined ? 'narrowed' : 'undecidable',
        message:
          before.format === undefined
            ? `format ${after.format} added: strings that are not a valid ${after.format} are now refused`
            : `format ${before.format} → ${after.format}: strings valid as one may not be the other (treated as breaking)`,
        witness: before.format === undefined ? '%not a ' + after.format : undefined,
      });
    }
  },
];

const enumRule: Rule = (before, after, pointer, ctx) => {
  const a = valuesOf(before);
  const b = valuesOf(after);
  if (a === undefined && b === undefined) return;
  const at = `${pointer}/${after.const !== undefined || (b === undefined && before.const !== undefined) ? 'const' : 'enum'}`;
  if (b !== undefined) {
    const keep = new Set(b.map(stable));
    const lost = a === undefined ? undefined : a.filter((v) => !keep.has(stable(v)));
    if (a === undefined) {
      ctx.out.push({
        pointer: at,
        direction: 'narrowed',
        message: `values limited to ${b.map((v) => JSON.stringify(v)).join(', ')}`,
      });
    } else if (lost !== undefined && lost.length > 0) {
      ctx.out.push({
        pointer: at,
        direction: 'narrowed',
        message: `value ${lost.map((v) => JSON.stringify(v)).join(', ')} removed: it is now refused`,
        witness: lost[0],
      });
    }
  }
  if (a !== undefined) {
    const had = new Set(a.map(stable));
    const gained = b === undefined ? undefined : b.filter((v) => !had.has(stable(v)));
    if (b === undefined) {
      ctx.out.push({
        pointer: at,
        direction: 'widened',
        message: 'the value list was removed: any value of the type is accepted',
      });
    } else if (gained !== undefined && gained.length > 0) {
      ctx.out.push({
        pointer: at,
        direction: 'widened',
        message: `value ${gained.map((v) => JSON.stringify(v)).join(', ')} added`,
        witness: gained[0],
      });
    }
  }
};

function valuesOf(schema: Schema): unknown[] | undefined {
  if (schema.const !== undefined) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

const objectRule: Rule = (before, after, pointer, ctx) => {
  const ap = before.properties ?? {};
  const bp = after.properties ?? {};
  const ar = new Set(before.required ?? []);
  const br = new Set(after.required ?? []);
  const aClosed = before.additionalProperties === false;
  const bClosed = after.additionalProperties === false;
  for (const key of Object.keys(bp)) {
    if (!Object.hasOwn(ap, key)) {
      if (br.has(key)) continue; // reported below
      if (aClosed) {
        ctx.out.push({
          pointer: `${pointer}/properties/${segment(key)}`,
          direction: 'widened',
          message: `property ${key} added`,
        });
      } else if (before.additionalProperties === undefined || before.additionalProperties === true) {
        ctx.out.push({
          pointer: `${pointer}/properties/${segment(key)}`,
          direction: ctx.options.strictOpenObjects ? 'narrowed' : 'note',
          message: `optional property ${key} added to an object that accepts extra properties: a ${key} of another shape is now refused (callers do not send undeclared properties)`,
        });
      }
    }
  }
  for (const key of Object.keys(ap)) {
    const at = `${pointer}/properties/${segment(key)}`;
    if (!Object.hasOwn(bp, key)) {
      if (bClosed) {
        ctx.out.push({
          pointer: at,
          direction: 'narrowed',
          message: `property ${key} removed and extra properties are refused: arguments with ${key} are now refused`,
          witness: { [key]: sampleFor(ap[key]!, ctx.beforeRoot) },
        });
      } else if (ar.has(key)) {
        ctx.out.push({
          pointer: at,
          direction: 'widened',
          message: `required property ${key} removed: objects without it are now accepted`,
          witness: {},
        });
      } else {
        ctx.out.push({
          pointer: at,
          direction: 'widened',
          message: `property ${key} removed: any ${key} is now accepted`,
        });
      }
      continue;
    }
    compareSchemas(ap[key], bp[key], at, ctx);
  }
  requiredRule(before, after, pointer, ctx);
};

const requiredRule: Rule = (before, after, pointer, ctx) => {
  const ar = new Set(before.required ?? []);
  const br = new Set(after.required ?? []);
  const bp = after.properties ?? {};
  for (const key of br) {
    if (ar.has(key)) continue;
    const prop = deref(bp[key], ctx.afterRoot);
    const hasDefault = typeof prop === 'object' && prop.default !== undefined;
    ctx.out.push({
      pointer: `${pointer}/required`,
      direction: hasDefault ? 'note' : 'narrowed',
      message: hasDefault
        ? `${key} is now required, but has a default the runtime fills in`
        : `${key} is now required: arguments without it are now refused`,
      witness: hasDefault ? undefined : {},
    });
  }
  for (const key of ar) {
    if (br.has(key) || !Object.hasOwn(bp, key)) continue;
    ctx.out.push({
      pointer: `${pointer}/required`,
      direction: 'widened',
      message: `${key} is no longer required`,
      witness: {},
    });
  }
  // additionalProperties
  const aa = before.additionalProperties;
  const ba = after.additionalProperties;
  if (stable(aa) !== stable(ba)) {
    const at = `${pointer}/additionalProperties`;
    if (ba === false && aa !== false) {
      ctx.out.push({
        pointer: at,
        direction: 'narrowed',
        message: 'additionalProperties: false added: undeclared properties are now refused',
        witness: { __extra: 1 },
      });
    } else if (aa === false && ba !== false) {
      ctx.out.push({
        pointer: at,
        direction: 'widened',
        message: 'undeclared properties are now accepted',
        witness: { __extra: 1 },
      });
    } else if (typeof aa === 'object' || typeof ba === 'object') {
      compareSchemas(aa ?? true, ba ?? true, at, ctx);
    }
  }
  for (const key of ['minProperties', 'maxProperties'] as const)
    bound(key, key === 'minProperties', (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 1])))(
      before,
      after,
      pointer,
      ctx,
    );
};

const arrayRule: Rule = (before, after, pointer, ctx) => {
  bound('minItems', true, arr)(before, after, pointer, ctx);
  bound('maxItems', false, arr)(before, after, pointer, ctx);
  if (!before.uniqueItems && after.uniqueItems) {
    ctx.out.push({
      pointer: `${pointer}/uniqueItems`,
      direction: 'narrowed',
      message: 'items must now be unique',
      witness: [1, 1],
    });
  } else if (before.uniqueItems && !after.uniqueItems) {
    ctx.out.push({
      pointer: `${pointer}/uniqueItems`,
      direction: 'widened',
      message: 'items need no longer be unique',
      witness: [1, 1],
    });
  }
  const ai = before.items;
  const bi = after.items;
  if (Array.isArray(ai) || Array.isArray(bi)) {
    if (stable(ai) !== stable(bi)) {
      ctx.out.push({
        pointer: `${pointer}/items`,
        direction: 'undecidable',
        message: 'tuple items changed: cannot compare (treated as breaking)',
      });
    }
    return;
  }
  if (ai !== undefined || bi !== undefined) compareSchemas(ai ?? true, bi ?? true, `${pointer}/items`, ctx);
};

/** anyOf/oneOf: branches matched by canonical form; an added or removed branch is a widening or narrowing. */
function unionRule(keyword: 'anyOf' | 'oneOf'): Rule {
  return (before, after, pointer, ctx) => {
    const a = before[keyword];
    const b = after[keyword];
    if (a === undefined && b === undefined) return;
    const at = `${pointer}/${keyword}`;
    const canon = (s: JSONSchema7Definition, root: Schema) => stable(strip(deref(s, root)));
    const as = (a ?? []).map((s) => canon(s, ctx.beforeRoot));
    const bs = (b ?? []).map((s) => canon(s, ctx.afterRoot));
    if (a === undefined || b === undefined) {
      ctx.out.push({
        pointer: at,
        direction: 'undecidable',
        message: `${keyword} ${a === undefined ? 'added' : 'removed'}: cannot compare (treated as breaking)`,
      });
      return;
    }
    const removed = as.filter((s) => !bs.includes(s));
    const added = bs.filter((s) => !as.includes(s));
    if (removed.length === 0 && added.length === 0) return;
    if (removed.length === 1 && added.length === 1 && a.length === b.length) {
      // One branch edited: compare it in place.
      const i = as.indexOf(removed[0]!);
      const j = bs.indexOf(added[0]!);
      compareSchemas(a[i], b[j], `${at}/${j}`, ctx);
      return;
    }
    // A branch split or merged: each removed branch is compared in place with the closest added one of an
    // overlapping type (fewest changes); the rest are removed or added.
    for (const [i, j] of pairBranches(
      a,
      b,
      removed.map((r) => as.indexOf(r)),
      added.map((x) => bs.indexOf(x)),
      at,
      ctx,
    )) {
      compareSchemas(a[i], b[j], `${at}/${j}`, ctx);
      removed.splice(removed.indexOf(as[i]!), 1);
      added.splice(added.indexOf(bs[j]!), 1);
    }
    for (const s of removed) {
      if (keyword === 'oneOf' && b.length > 0) {
        ctx.out.push({
          pointer: `${at}/${as.indexOf(s)}`,
          direction: 'undecidable',
          message:
            'oneOf branch removed: a value it and another branch matched now passes, and values only it matched fail (treated as breaking)',
        });
      }
      ctx.out.push({
        pointer: `${at}/${as.indexOf(s)}`,
        direction: 'narrowed',
        message: `${keyword} branch removed: values only it matched are now refused`,
        witness: sampleFor(a[as.indexOf(s)]!, ctx.beforeRoot),
      });
    }
    for (const s of added) {
      const index = bs.indexOf(s);
      if (keyword === 'oneOf' && b.length > 1) {
        ctx.out.push({
          pointer: `${at}/${index}`,
          direction: 'undecidable',
          message:
            'oneOf branch added: a value matching it and another branch now fails (treated as breaking unless the branches are disjoint)',
        });
        ctx.out.push({
          pointer: `${at}/${index}`,
          direction: 'widened',
          message: 'oneOf branch added: values it alone matches are now accepted',
          witness: sampleFor(b[index]!, ctx.afterRoot),
        });
      } else {
        ctx.out.push({
          pointer: `${at}/${index}`,
          direction: 'widened',
          message: `${keyword} branch added: values it matches are now accepted`,
          witness: sampleFor(b[index]!, ctx.afterRoot),
        });
      }
    }
  };
}

/** How many changes `compareSchemas` finds between two branches (on a scratch context). */
function changeCount(x: JSONSchema7Definition, y: JSONSchema7Definition, pointer: string, ctx: Ctx): number {
  const scratch: Ctx = { ...ctx, out: [], seen: new Set(ctx.seen), crossings: new Map() };
  compareSchemas(x, y, pointer, scratch);
  return scratch.out.length;
}

/** Removed and added branch indexes paired by overlapping type and fewest changes (greedy, in order). */
function pairBranches(
  a: JSONSchema7Definition[],
  b: JSONSchema7Definition[],
  removed: number[],
  added: number[],
  at: string,
  ctx: Ctx,
): [number, number][] {
  const pairs: [number, number][] = [];
  const free = new Set(added);
  for (const i of removed) {
    const x = deref(a[i], ctx.beforeRoot);
    if (typeof x !== 'object') continue;
    let best: [number, number] | undefined;
    for (const j of free) {
      const y = deref(b[j], ctx.afterRoot);
      if (typeof y !== 'object' || ![...typesOf(x)].some((t) => typesOf(y).has(t))) continue;
      const count = changeCount(a[i]!, b[j]!, `${at}/${j}`, ctx);
      if (best === undefined || count < best[1]) best = [j, count];
    }
    if (best !== undefined) {
      pairs.push([i, best[0]]);
      free.delete(best[0]);
    }
  }
  return pairs;
}

/** The union keyword a schema is made of alone (`anyOf`/`oneOf` and metadata), if any. */
function unionOnly(schema: Schema): 'anyOf' | 'oneOf' | undefined {
  for (const keyword of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(schema[keyword]) && onlyKeys(schema, [keyword])) return keyword;
  return undefined;
}

/**
 * A schema that became a union of branches (or a union that became one schema): the single schema read
 * as a one-branch union, so its branches are paired rather than every keyword reported as lost.
 */
function asUnions(a: Schema, b: Schema): { keyword: 'anyOf' | 'oneOf'; a: Schema; b: Schema } | undefined {
  const ua = unionOnly(a);
  const ub = unionOnly(b);
  const plain = (s: Schema) => s.anyOf === undefined && s.oneOf === undefined;
  if (ub !== undefined && ua === undefined && plain(a)) return { keyword: ub, a: { [ub]: [a] }, b };
  if (ua !== undefined && ub === undefined && plain(b)) return { keyword: ua, a, b: { [ua]: [b] } };
  return undefined;
}

const allOfRule: Rule = (before, after, pointer, ctx) => {
  const a = before.allOf;
  const b = after.allOf;
  if (a === undefined && b === undefined) return;
  if (stable(a) === stable(b)) return;
  if (a !== undefined && b !== undefined && a.length === b.length) {
    a.forEach((s, i) => compareSchemas(s, b[i], `${pointer}/allOf/${i}`, ctx));
    return;
  }
  ctx.out.push({
    pointer: `${pointer}/allOf`,
    direction: 'undecidable',
    message: 'allOf members changed: cannot compare (treated as breaking)',
  });
};

const notRule: Rule = (before, after, pointer, ctx) => {
  if (stable(before.not) === stable(after.not)) return;
  ctx.out.push({
    pointer: `${pointer}/not`,
    direction: 'undecidable',
    message: 'not changed: cannot compare (treated as breaking)',
  });
};

/** The keyword families, each one small named rule, in report order. */
export const RULES: readonly { family: string; rule: Rule }[] = [
  { family: 'type', rule: typeRule },
  { family: 'enum/const', rule: enumRule },
  { family: 'numbers', rule: (a, b, p, c) => numberRules.forEach((r) => r(a, b, p, c)) },
  { family: 'strings', rule: (a, b, p, c) => stringRules.forEach((r) => r(a, b, p, c)) },
  { family: 'objects', rule: objectRule },
  { family: 'arrays', rule: arrayRule },
  { family: 'anyOf', rule: unionRule('anyOf') },
  { family: 'oneOf', rule: unionRule('oneOf') },
  { family: 'allOf', rule: allOfRule },
  { family: 'not', rule: notRule },
];

function strip(schema: Schema | boolean | undefined): unknown {
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

/** Compares two schema positions and appends what changed to `ctx.out`. */
function compareSchemas(
  before: JSONSchema7Definition | undefined,
  after: JSONSchema7Definition | undefined,
  pointer: string,
  ctx: Ctx,
): void {
  // A pair of `$ref` targets is compared once (recursive schemas end; the change is reported where first met).
  const refA = typeof before === 'object' ? before.$ref : undefined;
  const refB = typeof after === 'object' ? after.$ref : undefined;
  if (refA !== undefined || refB !== undefined) {
    const key = `${refA ?? `@${pointer}`}|${refB ?? `@${pointer}`}`;
    if (ctx.seen.has(key)) return;
    ctx.seen.add(key);
  }
  const hopBefore = hopOf(before, ctx.beforeRoot, ctx.beforeShared);
  const hopAfter = hopOf(after, ctx.afterRoot, ctx.afterShared);
  if (hopBefore !== undefined || hopAfter !== undefined)
    ctx.crossings.set(pointer, { before: hopBefore, after: hopAfter });
  const a = deref(before, ctx.beforeRoot);
  const b = deref(after, ctx.afterRoot);
  if (a === undefined || b === undefined) return;
  const same = stable(strip(a));
  if (same === stable(strip(b)) && !same.includes('"$ref"')) return;
  if (a === true || b === false) {
    if (a === b) return;
    if (b === false)
      ctx.out.push({ pointer, direction: 'narrowed', message: 'now refuses every value', witness: null });
    else ctx.out.push({ pointer, direction: 'narrowed', message: 'now constrained: values it allowed may be refused' });
    return;
  }
  if (b === true || a === false) {
    ctx.out.push({ pointer, direction: 'widened', message: 'now accepts any value' });
    return;
  }
  const unions = asUnions(a, b);
  if (unions !== undefined) {
    unionRule(unions.keyword)(unions.a, unions.b, pointer, ctx);
    return;
  }
  for (const { rule } of RULES) rule(a, b, pointer, ctx);
}

/**
 * The schema-level changes between two bundled schemas of one side, each with its place in either
 * version (`shared`: definition keys that are copies of shared types, per version).
 */
export function compareSchema(
  before: Schema,
  after: Schema,
  options: CompareOptions = {},
  shared: { before?: ReadonlyMap<string, SharedOrigin>; after?: ReadonlyMap<string, SharedOrigin> } = {},
): SchemaChange[] {
  const ctx: Ctx = {
    beforeRoot: before,
    afterRoot: after,
    options,
    out: [],
    seen: new Set(),
    crossings: new Map(),
    beforeShared: shared.before ?? new Map(),
    afterShared: shared.after ?? new Map(),
  };
  compareSchemas(before, after, '', ctx);
  for (const change of ctx.out) {
    change.before = placeOf(ctx, 'before', change.pointer);
    change.after = placeOf(ctx, 'after', change.pointer);
  }
  return ctx.out;
}

/** The verdict of a schema change on a side: input breaks when narrowed, output breaks when widened. */
export function verdictOf(side: 'input' | 'output', direction: Direction): ChangeVerdict {
  if (direction === 'undecidable') return 'breaking';
  if (direction === 'note') return 'compatible';
  return (side === 'input') === (direction === 'narrowed') ? 'breaking' : 'compatible';
}

/** The position of a schema change in one version's files. */
function positionIn(tool: DiffTool, key: string, place: Place | undefined): Position | undefined {
  if (place?.shared !== undefined) return { source: place.shared.origin.source, pointer: place.shared.pointer };
  if (tool.source === undefined) return undefined;
  const inSchema = place?.pointer ?? '';
  return { source: tool.source, pointer: `${tool.base}/${key}${tool.translated ? pointerIn2020(inSchema) : inSchema}` };
}

/** A tool-level position (`/hasSideEffects`, `/description`) in one version. */
export function toolPosition(tool: DiffTool | undefined, pointer: string): Position | undefined {
  return tool?.source === undefined ? undefined : { source: tool.source, pointer: `${tool.base}${pointer}` };
}

/** One side's schema changes as tool changes: shared-file places, witnesses, positions. */
function schemaChanges(
  before: DiffTool,
  after: DiffTool,
  side: 'input' | 'output',
  options: CompareOptions,
  changes: ToolChange[],
): void {
  const key = side === 'input' ? 'inputSchema' : 'outputSchema';
  const a = before[key]!;
  const b = after[key]!;
  // The same bundled schema (most tools of a diff): nothing to compare, no walk through its `$ref`s.
  if (a === b || JSON.stringify(a) === JSON.stringify(b)) return;
  const witnesses = findWitness(a, b, side);
  const shared = { before: before.shared, after: after.shared };
  for (const change of compareSchema(a, b, { ...options, argumentsRoot: side === 'input' }, shared)) {
    const verdict = verdictOf(side, change.direction);
    if (side === 'output' && change.direction === 'note') continue; // extra output properties are never sent unseen
    const item: ToolChange = { side, pointer: `/${key}${change.pointer}`, verdict, message: change.message };
    const place = change.after?.shared !== undefined ? change.after : change.before;
    if (place?.shared !== undefined) {
      item.file = place.shared.origin.file;
      item.pointer = place.shared.pointer;
      item.via = `/${key}${place.via ?? ''}`;
    }
    const witness = verdict === 'breaking' && change.direction !== 'note' ? witnesses.find(change) : undefined;
    if (witness !== undefined) {
      item.witness = witness;
      item.message += `: e.g. ${side === 'input' ? 'the arguments' : 'the output'} ${brief(witness)} ${
        side === 'input' ? 'were accepted and are now refused' : 'may now be returned and were invalid before'
      }`;
    }
    item.positions = { before: positionIn(before, key, change.before), after: positionIn(after, key, change.after) };
    changes.push(item);
  }
}

/** Compares one tool's two versions: its input and output schemas and its tool-level fields. */
export function compareTool(before: DiffTool, after: DiffTool, options: CompareOptions = {}): ToolChange[] {
  const changes: ToolChange[] = [];
  for (const side of ['input', 'output'] as const) {
    const key = side === 'input' ? 'inputSchema' : 'outputSchema';
    const a = before[key];
    const b = after[key];
    if (a === undefined && b === undefined) continue;
    if (a === undefined || b === undefined) {
      changes.push({
        side,
        pointer: `/${key}`,
        verdict: side === 'output' && a === undefined ? 'compatible' : 'breaking',
        message: a === undefined ? `${key} added` : `${key} removed: callers relying on a checked output lose it`,
        positions: { before: toolPosition(before, `/${key}`), after: toolPosition(after, `/${key}`) },
      });
      continue;
    }
    schemaChanges(before, after, side, options, changes);
    if (a !== b) defaultChanges(a, b, `/${key}`, side, changes);
  }
  toolLevelChanges(before, after, changes);
  for (const change of changes)
    change.positions ??= { before: toolPosition(before, change.pointer), after: toolPosition(after, change.pointer) };
  return changes;
}

function brief(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** MCP's defaults for absent hints (`ToolAnnotations` in the MCP schema). */
const HINT_DEFAULTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;
/** The value of each hint that lets a host run the tool with less care. */
const SAFE_HINT = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const HINT_MEANING = {
  readOnlyHint: 'hosts that run read-only tools without asking must now ask',
  destructiveHint: 'hosts that run non-destructive tools without asking must now ask',
  idempotentHint: 'callers that retry it must no longer assume a retry is harmless',
  openWorldHint: 'it now reaches outside the host (the network, other systems)',
} as const;

/** Annotation hints that changed: one that makes the tool less safe to run unasked is breaking. */
function annotationChanges(
  a: McpToolAnnotations,
  b: McpToolAnnotations,
  effective: boolean,
  changes: ToolChange[],
): void {
  for (const hint of Object.keys(HINT_DEFAULTS) as (keyof typeof HINT_DEFAULTS)[]) {
    if (!effective && a[hint] === undefined && b[hint] === undefined) continue;
    const x = a[hint] ?? HINT_DEFAULTS[hint];
    const y = b[hint] ?? HINT_DEFAULTS[hint];
    if (x === y) continue;
    const riskier = x === SAFE_HINT[hint];
    changes.push({
      side: 'tool',
      pointer: `/annotations/${hint}`,
      verdict: riskier ? 'breaking' : 'compatible',
      message: `${hint} ${x} → ${y}${riskier ? `: ${HINT_MEANING[hint]}` : ''}`,
    });
  }
}

/** The tool-level changes: side effects, capabilities, timeout, annotations, description. */
function toolLevelChanges(before: DiffTool, after: DiffTool, changes: ToolChange[]): void {
  const snapshot = before.kind === 'snapshot' || after.kind === 'snapshot';
  if (snapshot) {
    // A snapshot says what MCP lists: the hints, completed with MCP's defaults; not capabilities nor timeouts.
    annotationChanges(before.annotations, after.annotations, true, changes);
  } else {
    sideEffectChanges(before, after, changes);
    annotationChanges(before.ownAnnotations, after.ownAnnotations, false, changes);
  }
  if (before.description !== after.description) {
    changes.push({
      side: 'tool',
      pointer: '/description',
      verdict: 'compatible',
      message: 'description changed: models see a new description',
    });
  }
}

function sideEffectChanges(before: DiffTool, after: DiffTool, changes: ToolChange[]): void {
  if (!before.hasSideEffects && after.hasSideEffects) {
    changes.push({
      side: 'tool',
      pointer: '/hasSideEffects',
      verdict: 'breaking',
      message: 'the tool now has side effects: callers that run it without approval must now ask',
    });
  } else if (before.hasSideEffects && !after.hasSideEffects) {
    changes.push({
      side: 'tool',
      pointer: '/hasSideEffects',
      verdict: 'compatible',
      message: 'the tool no longer has side effects',
    });
  }
  const was = before.requiredCapabilities ?? [];
  const now = after.requiredCapabilities ?? [];
  const gained = now.filter((c) => !was.includes(c));
  const lost = was.filter((c) => !now.includes(c));
  if (gained.length > 0)
    changes.push({
      side: 'tool',
      pointer: '/requiredCapabilities',
      verdict: 'breaking',
      message: `now requires ${gained.join(', ')}: callers without it can no longer run the tool`,
    });
  if (lost.length > 0)
    changes.push({
      side: 'tool',
      pointer: '/requiredCapabilities',
      verdict: 'compatible',
      message: `no longer requires ${lost.join(', ')}`,
    });
  if (before.timeoutMs !== after.timeoutMs) {
    const shorter =
      after.timeoutMs !== undefined && (before.timeoutMs === undefined || after.timeoutMs < before.timeoutMs);
    changes.push({
      side: 'tool',
      pointer: '/timeoutMs',
      verdict: shorter ? 'breaking' : 'compatible',
      message: `timeout ${before.timeoutMs ?? 'none'} → ${after.timeoutMs ?? 'none'} ms${shorter ? ': calls that finished in time may now time out' : ''}`,
    });
  }
}

/** Reports changed `default`s of top-level input/output properties (callers that omit them get another value). */
function defaultChanges(
  before: Schema,
  after: Schema,
  base: string,
  side: 'input' | 'output',
  changes: ToolChange[],
): void {
  const ap = (deref(before, before) as Schema | undefined)?.properties ?? {};
  const bp = (deref(after, after) as Schema | undefined)?.properties ?? {};
  for (const key of Object.keys(ap)) {
    if (!Object.hasOwn(bp, key)) continue;
    const a = deref(ap[key], before);
    const b = deref(bp[key], after);
    if (typeof a !== 'object' || typeof b !== 'object') continue;
    if (stable(a.default) === stable(b.default)) continue;
    changes.push({
      side,
      pointer: `${base}/properties/${segment(key)}/default`,
      verdict: 'compatible',
      message: `default ${JSON.stringify(a.default) ?? 'none'} → ${JSON.stringify(b.default) ?? 'none'}: callers that omit ${key} now get another value`,
    });
  }
}

/** True when two tools' schemas are the same (a rename candidate). */
export function sameSchemas(a: DiffTool, b: DiffTool): boolean {
  return (
    stable(strip2(a.inputSchema)) === stable(strip2(b.inputSchema)) &&
    stable(strip2(a.outputSchema)) === stable(strip2(b.outputSchema))
  );
}

function strip2(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strip2);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' || key === 'title' || key === 'examples') continue;
    out[key] = strip2(value);
  }
  return out;
}
