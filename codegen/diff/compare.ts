import { MCP_HINT_DEFAULTS, MCP_HINTS, mcpAnnotations, type McpHint } from '../../src/mcp/tool.js';
import type { SourceFile } from '../load.js';
import { keywordsOfKind } from '../../src/schema/keywords.js';
import { definitionKey, escapePointerSegment, resolveLocalRef } from '../../src/schema/json-pointer.js';
import { translatePointerTokens } from '../../src/schema/json-schema-2020.js';
import type { DiffTool, SharedOrigin } from './sources.js';
import { findWitness } from './witness.js';
import { deref, found, newWork, sameKeyword, spend, stable, strip } from './compare-kit.js';
import type {
  CompareOptions,
  Ctx,
  Direction,
  Hop,
  Place,
  Rule,
  Schema,
  SchemaChange,
  SchemaSide,
  Subschema,
} from './compare-kit.js';
import { allOfRule, asUnions, notRule, unionRule } from './compare-composition.js';
import { arrayRule, objectRule } from './compare-containers.js';
import { enumRule, numberRule, stringRule, typeRule } from './compare-scalars.js';

/** Which part of a tool a change is in (`errors`: its declared errors, compared by compare-errors.ts). */
type Side = SchemaSide | 'errors' | 'tool';

/** A change's verdict: `breaking` fails callers, `compatible` does not. */
export type ChangeVerdict = 'breaking' | 'compatible';

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

/** The last `$ref` hop of a chain from `node` (local refs only). */
function hopOf(node: Subschema, root: Schema, shared: ReadonlyMap<string, SharedOrigin>): Hop | undefined {
  let hop: Hop | undefined;
  let current: unknown = node;
  for (let depth = 0; depth < 32; depth++) {
    const ref = (current as Schema | null)?.$ref;
    if (typeof current !== 'object' || typeof ref !== 'string' || !ref.startsWith('#/')) break;
    const key = definitionKey(ref);
    hop = { target: ref.slice(1), shared: key === undefined ? undefined : shared.get(key) };
    current = resolveLocalRef(root, ref);
  }
  return hop;
}

/** Where the logical `pointer` is in one version (`strict`: the crossing at `pointer` itself not followed: the `$ref` node). */
function placeOf(ctx: Ctx, side: 'before' | 'after', pointer: string, strict = false): Place {
  const hits: [string, Hop][] = [];
  for (const [at, hops] of ctx.crossings) {
    const hop = hops[side];
    const within = pointer === at || pointer.startsWith(`${at}/`);
    if (hop !== undefined && within && !(strict && at === pointer)) hits.push([at, hop]);
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

/** The keyword families, each one small named rule with the keywords it compares, in report order. */
const RULES: readonly { rule: Rule; keywords: readonly string[] }[] = [
  { rule: typeRule, keywords: ['type'] },
  { rule: enumRule, keywords: ['enum', 'const'] },
  { rule: numberRule, keywords: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] },
  { rule: stringRule, keywords: ['minLength', 'maxLength', 'pattern', 'format'] },
  { rule: objectRule, keywords: ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'] },
  { rule: arrayRule, keywords: ['items', 'minItems', 'maxItems', 'uniqueItems'] },
  { rule: unionRule('anyOf'), keywords: ['anyOf'] },
  { rule: unionRule('oneOf'), keywords: ['oneOf'] },
  { rule: allOfRule, keywords: ['allOf'] },
  { rule: notRule, keywords: ['not'] },
];

/**
 * The keywords that change what validates (the keyword table's validation and applicator rows) but
 * that no rule compares, as each declares the ones it does (`$ref` is followed, not compared).
 */
const UNCOMPARED_KEYWORDS: ReadonlySet<string> = new Set(
  [...keywordsOfKind('validation'), ...keywordsOfKind('applicator')].filter(
    (keyword) => keyword !== '$ref' && !RULES.some((entry) => entry.keywords.includes(keyword)),
  ),
);

/**
 * The validating keywords that differ between `a` and `b` and that no rule compares
 * (`propertyNames`, `patternProperties`, `dependencies`, `if`/`then`/`else`, `contains`, …): each is
 * reported undecidable, so breaking, never left out as unchanged. Their subschemas are compared
 * through their `$ref`s: a definition they reach that changed is a change of theirs.
 */
function uncomparedChanges(a: Schema, b: Schema, pointer: string, ctx: Ctx): void {
  for (const keyword of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (!UNCOMPARED_KEYWORDS.has(keyword)) continue;
    const [before, after] = [(a as Record<string, unknown>)[keyword], (b as Record<string, unknown>)[keyword]];
    if (sameKeyword(keyword, before, after, pointer, ctx)) continue;
    const what = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
    const message = `${keyword} ${what}: toolsmith diff does not compare ${keyword}, so the change counts as breaking`;
    found(ctx, `${pointer}/${escapePointerSegment(keyword)}`, 'undecidable', message);
  }
}

/** How deep the walk follows nested schemas (through `$ref`s: a file nests at most 64 levels): deeper is undecidable. */
const MAX_NESTING = 256;

/** Compares two schema positions and appends what changed to `ctx.out`. */
function compareSchemas(before: Subschema, after: Subschema, pointer: string, ctx: Ctx): void {
  // A pair of `$ref` targets is compared once (recursive schemas end; the change is reported where first met).
  const refA = typeof before === 'object' ? before.$ref : undefined;
  const refB = typeof after === 'object' ? after.$ref : undefined;
  if (refA !== undefined || refB !== undefined) {
    const key = `${refA ?? `@${pointer}`}|${refB ?? `@${pointer}`}`;
    if (ctx.seen.has(key)) return;
    ctx.seen.add(key);
  }
  if (!spend(ctx, pointer)) return;
  if (ctx.work.depth === MAX_NESTING) {
    const message = `not compared: schemas nest more than ${MAX_NESTING} deep here (through $refs), so what is below counts as breaking`;
    return found(ctx, pointer, 'undecidable', message);
  }
  const hopBefore = hopOf(before, ctx.beforeRoot, ctx.beforeShared);
  const hopAfter = hopOf(after, ctx.afterRoot, ctx.afterShared);
  if (hopBefore !== undefined || hopAfter !== undefined)
    ctx.crossings.set(pointer, { before: hopBefore, after: hopAfter });
  const a = deref(before, ctx.beforeRoot);
  const b = deref(after, ctx.afterRoot);
  if (a === undefined || b === undefined) return;
  // The same schema, once what does not validate is set aside, and no `$ref` whose target may differ.
  const { ids } = ctx.work;
  if (ids.plain(a) === ids.plain(b) && !ids.hasRef(strip(a))) return;
  ctx.work.depth++;
  compareNodes(a, b, pointer, ctx);
  ctx.work.depth--;
}

/** Compares two dereferenced schemas that differ: every rule, then the keywords no rule compares. */
function compareNodes(a: Schema | boolean, b: Schema | boolean, pointer: string, ctx: Ctx): void {
  if (a === true || b === false) {
    if (a === b) return;
    if (b === false) found(ctx, pointer, 'narrowed', 'now refuses every value', null);
    else found(ctx, pointer, 'narrowed', 'now constrained: values it allowed may be refused');
    return;
  }
  if (b === true || a === false) return found(ctx, pointer, 'widened', 'now accepts any value');
  const unions = asUnions(a, b);
  if (unions !== undefined) return unionRule(unions.keyword)(unions.a, unions.b, pointer, ctx);
  // A `$ref` outside the bundled schema is never fetched: where it changed, what it validates is unknown.
  const [outsideA, outsideB] = [a.$ref, b.$ref].map((ref) => (ref?.startsWith('#') ? undefined : ref));
  if (outsideA !== outsideB) {
    const message = `$ref ${outsideA ?? 'none'} → ${outsideB ?? 'none'}: not fetched, so the change counts as breaking`;
    found(ctx, `${pointer}/$ref`, 'undecidable', message);
  }
  for (const { rule } of RULES) rule(a, b, pointer, ctx);
  uncomparedChanges(a, b, pointer, ctx);
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
    compare: compareSchemas,
    work: newWork(options),
  };
  compareSchemas(before, after, '', ctx);
  for (const change of ctx.out) {
    change.before = placeOf(ctx, 'before', change.pointer);
    change.after = placeOf(ctx, 'after', change.pointer);
  }
  return ctx.out;
}

/** The verdict of a schema change on a side: input breaks when narrowed, output breaks when widened. */
export function verdictOf(side: SchemaSide, direction: Direction): ChangeVerdict {
  if (direction === 'undecidable') return 'breaking';
  if (direction === 'note') return 'compatible';
  return (side === 'input') === (direction === 'narrowed') ? 'breaking' : 'compatible';
}

/** The position of a schema change in one version's files. */
function positionIn(tool: DiffTool, key: string, place: Place | undefined): Position | undefined {
  if (place?.shared !== undefined) return { source: place.shared.origin.source, pointer: place.shared.pointer };
  // A schema translated from 2020-12 is placed in its own text: `$defs` where the comparison read `definitions`.
  const tokens = (place?.pointer ?? '').split('/').slice(1);
  return toolPosition(tool, ['', key, ...(tool.translated ? translatePointerTokens(tokens) : tokens)].join('/'));
}

/** A tool-level position (`/hasSideEffects`, `/description`) in one version. */
export function toolPosition(tool: DiffTool | undefined, pointer: string): Position | undefined {
  return tool?.source === undefined ? undefined : { source: tool.source, pointer: `${tool.base}${pointer}` };
}

/**
 * One side's changes: its schema added or removed, else the schema's changes (shared-file places,
 * witnesses, positions) and its top-level properties' changed defaults.
 */
function sideChanges(before: DiffTool, after: DiffTool, side: SchemaSide, options: CompareOptions): ToolChange[] {
  const key = `${side}Schema` as const;
  const a = before[key];
  const b = after[key];
  // The same bundled schema (most tools of a diff): nothing to compare, no walk through its `$ref`s.
  if (a === b || JSON.stringify(a) === JSON.stringify(b)) return [];
  if (a === undefined || b === undefined) {
    const message = a === undefined ? `${key} added` : `${key} removed: callers relying on a checked output lose it`;
    return [toolChange(`/${key}`, side === 'input' || a !== undefined, message, side)];
  }
  const witnessOf = findWitness(a, b, side);
  const changes: ToolChange[] = [];
  for (const change of compareSchema(a, b, { ...options, side }, { before: before.shared, after: after.shared })) {
    if (side === 'output' && change.direction === 'note') continue; // extra output properties are never sent unseen
    const verdict = verdictOf(side, change.direction);
    const item: ToolChange = { side, pointer: `/${key}${change.pointer}`, verdict, message: change.message };
    const place = change.after?.shared !== undefined ? change.after : change.before;
    if (place?.shared !== undefined) {
      item.file = place.shared.origin.source.file;
      item.pointer = place.shared.pointer;
      item.via = `/${key}${place.via ?? ''}`;
    }
    const witness = verdict === 'breaking' ? witnessOf(change) : undefined;
    if (witness !== undefined) {
      item.witness = witness;
      item.message += `: e.g. ${side === 'input' ? 'the arguments' : 'the output'} ${brief(witness)} ${
        side === 'input' ? 'were accepted and are now refused' : 'may now be returned and were invalid before'
      }`;
    }
    item.positions = { before: positionIn(before, key, change.before), after: positionIn(after, key, change.after) };
    changes.push(item);
  }
  defaultChanges(a, b, `/${key}`, side, changes);
  return changes;
}

/**
 * Compares one tool's two versions: its input and output schemas and its tool-level fields (the
 * positions of the changes that are not in a schema are set by `diffSides`).
 */
export function compareTool(before: DiffTool, after: DiffTool, options: CompareOptions = {}): ToolChange[] {
  const changes = [...sideChanges(before, after, 'input', options), ...sideChanges(before, after, 'output', options)];
  toolLevelChanges(before, after, changes);
  return changes;
}

function brief(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/**
 * What changing each hint away from the value that lets a host run the tool with less care (the opposite of
 * MCP's default, `MCP_HINT_DEFAULTS`) means.
 */
const HINT_RISKS: Record<McpHint, string> = {
  readOnlyHint: 'hosts that run read-only tools without asking must now ask',
  destructiveHint: 'hosts that run non-destructive tools without asking must now ask',
  idempotentHint: 'callers that retry it must no longer assume a retry is harmless',
  openWorldHint: 'it now reaches outside the host (the network, other systems)',
};

/** A change outside the schemas (`/hasSideEffects`, `/name`, `/errors/X`, …): breaking or compatible. */
export function toolChange(pointer: string, breaking: boolean, message: string, side: Side = 'tool'): ToolChange {
  return { side, pointer, verdict: breaking ? 'breaking' : 'compatible', message };
}

/** A tool's annotation hints, as a side states them or as MCP lists them. */
type Hints = DiffTool['annotations'];

/** Annotation hints that changed: one that makes the tool less safe to run unasked is breaking. */
function annotationChanges(a: Hints, b: Hints, changes: ToolChange[]): void {
  for (const hint of MCP_HINTS) {
    const x = a[hint] ?? MCP_HINT_DEFAULTS[hint];
    const y = b[hint] ?? MCP_HINT_DEFAULTS[hint];
    const safe = !MCP_HINT_DEFAULTS[hint];
    const message = `${hint} ${x} → ${y}${x === safe ? `: ${HINT_RISKS[hint]}` : ''}`;
    if (x !== y) changes.push(toolChange(`/annotations/${hint}`, x === safe, message));
  }
}

/** The tool-level changes: side effects, capabilities, timeout, annotations, title and description. */
function toolLevelChanges(before: DiffTool, after: DiffTool, changes: ToolChange[]): void {
  if (before.kind === 'snapshot' || after.kind === 'snapshot') {
    // A snapshot says what MCP lists: the hints (a definition's as MCP lists them), completed with MCP's
    // defaults; not capabilities nor timeouts.
    const listed = (tool: DiffTool) => (tool.kind === 'snapshot' ? tool.annotations : mcpAnnotations(tool));
    annotationChanges(listed(before), listed(after), changes);
  } else {
    definitionChanges(before, after, changes);
    annotationChanges(before.annotations, after.annotations, changes);
  }
  for (const field of ['title', 'description'] as const) {
    const what = before[field] === undefined ? 'added' : after[field] === undefined ? 'removed' : 'changed';
    const message = `${field} ${what}: models see a new ${field} (prompts and caches that hold the tool list change)`;
    if (before[field] !== after[field]) changes.push(toolChange(`/${field}`, false, message));
  }
}

/** The changes of a definition's own fields: side effects, required capabilities and timeout. */
function definitionChanges(before: DiffTool, after: DiffTool, changes: ToolChange[]): void {
  const has = after.hasSideEffects === true;
  if (has !== (before.hasSideEffects === true)) {
    const message = has
      ? 'the tool now has side effects: callers that run it without approval must now ask'
      : 'the tool no longer has side effects';
    changes.push(toolChange('/hasSideEffects', has, message));
  }
  const was = before.requiredCapabilities ?? [];
  const now = after.requiredCapabilities ?? [];
  const gained = now.filter((c) => !was.includes(c));
  const lost = was.filter((c) => !now.includes(c));
  const requires = `now requires ${gained.join(', ')}: callers without it can no longer run the tool`;
  if (gained.length > 0) changes.push(toolChange('/requiredCapabilities', true, requires));
  if (lost.length > 0)
    changes.push(toolChange('/requiredCapabilities', false, `no longer requires ${lost.join(', ')}`));
  if (before.timeoutMs !== after.timeoutMs) {
    const shorter =
      after.timeoutMs !== undefined && (before.timeoutMs === undefined || after.timeoutMs < before.timeoutMs);
    const timeout = `timeout ${before.timeoutMs ?? 'none'} → ${after.timeoutMs ?? 'none'} ms`;
    const message = `${timeout}${shorter ? ': calls that finished in time may now time out' : ''}`;
    changes.push(toolChange('/timeoutMs', shorter, message));
  }
}

/** Reports changed `default`s of top-level input/output properties (callers that omit them get another value). */
function defaultChanges(before: Schema, after: Schema, base: string, side: Side, changes: ToolChange[]): void {
  const ap = (deref(before, before) as Schema | undefined)?.properties ?? {};
  const bp = (deref(after, after) as Schema | undefined)?.properties ?? {};
  for (const key of Object.keys(ap)) {
    if (!Object.hasOwn(bp, key)) continue;
    const a = deref(ap[key], before);
    const b = deref(bp[key], after);
    if (typeof a !== 'object' || typeof b !== 'object' || stable(a.default) === stable(b.default)) continue;
    const pointer = `${base}/properties/${escapePointerSegment(key)}/default`;
    const change = `default ${JSON.stringify(a.default) ?? 'none'} → ${JSON.stringify(b.default) ?? 'none'}`;
    changes.push(toolChange(pointer, false, `${change}: callers that omit ${key} now get another value`, side));
  }
}
