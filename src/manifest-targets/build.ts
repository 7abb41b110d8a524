/*
 * What every manifest target builder shares: the tool shape a builder reads (`ManifestTool`), the loss
 * recorder (what a target drops or rewrites, and the sentence the description carries instead), the
 * per-tool build loop, the root rules every LLM target has, and the one schema rewriter the converting
 * targets share (`rewriteKeywords`: each target is a table of the keywords it keeps, skips and rewrites,
 * and every other keyword is dropped with a loss entry). The generator writes
 * generated/manifests/*.json with these builders and the runtime (`toolsmith-sdk/manifests`) runs them per
 * caller, so they live in src/ and import nothing from codegen/.
 */
import { formatPointer } from '../schema/json-pointer.js';
import { codeSpan } from '../text/markdown-text.js';
import { copyJsonValue, isObject, mapSubschemas, type SchemaNode, setOwn } from '../schema/walk.js';
import { TOOLING_KEYWORDS } from '../schema/keywords.js';
import { appendDescription, carriedText, notToldOf } from '../schema/keyword-sentences.js';
import type { ToolAnnotations } from '../tool-description.js';
import type { DeferLoading } from './defer-loading.js';

/** One keyword a target's manifest could not carry as written. */
export interface LossEntry {
  /** JSON pointer into the tool definition's (bundled) schemas, e.g. `/inputSchema/properties/query`. */
  pointer: string;
  keyword: string;
  /** `omitted`: loss-report.json only — the target does not list the tool at all (`message` says why). */
  action: 'dropped' | 'rewritten' | 'omitted';
  /** The keyword's value as written in the definition. */
  value: unknown;
  /** What the model is no longer told, in one sentence of Markdown. */
  message: string;
  /** The sentence the description carries instead (`manifests.describeLosses`); absent when really lost. */
  carried?: string;
}

/** A problem found in the definitions (the generator's `Problem` is this type); codegen collects them all and reports them at once. */
export interface ManifestProblem {
  /** Path relative to the project root (forward slashes). */
  file: string;
  line: number;
  column: number;
  /** JSON pointer inside the file. */
  pointer: string;
  message: string;
  hint?: string;
  /** `warning` does not stop generate (printed, files still written); absent means an error. */
  severity?: 'error' | 'warning';
}

/** Code-unit order (as the generator sorts), never locale order: byte-stable output. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What a manifest builder reads of a tool: the fields a codegen `ToolModel` and a runtime `ITool` both have
 * (so the files generate writes and the runtime builders in src/manifest-targets/index.ts share one implementation).
 */
export interface ManifestTool {
  name: string;
  description: string;
  inputSchema: object;
  outputSchema?: object | undefined;
  displayName?: string;
  hasSideEffects?: boolean;
  annotations?: ToolAnnotations;
  /** Kept loaded under deferred loading (the definition's `loaded: true`). */
  loaded?: boolean;
  /** The tool's category (deferred loading keeps categories loaded by name). */
  category?: string | undefined;
  /** The definition's examples (validated at build); Anthropic entries carry their inputs as `input_examples`. */
  examples?: readonly { input: unknown }[];
  /**
   * The errors the definition declares, told in the description under `describeErrors`: a list (the
   * generator's model) or by code (a runtime tool's `errors`).
   */
  errors?:
    | readonly { code: string; description: string; retryable?: boolean }[]
    | Readonly<Record<string, { description: string; retryable?: boolean }>>;
  /** The definition file, for problems (a runtime tool has none). */
  source?: { file: string };
}

/** The tools a manifest is built from. */
export interface ManifestProject {
  tools: readonly ManifestTool[];
  /** Tell the model in a property's `description` what the target drops (default true). */
  describeLosses?: boolean;
  /** The most examples an Anthropic entry carries as `input_examples` (default 0: none; generate's default is `DEFAULT_INPUT_EXAMPLES`). */
  inputExamples?: number;
  /** Tell the examples in the descriptions of targets without an examples field (at most `inputExamples`). */
  examplesInDescriptions?: boolean;
  /** Tell the declared errors of each tool in its description, in every target (default false). */
  describeErrors?: boolean;
  /** Deferred loading (Anthropic, OpenAI Responses): which tools stay loaded; absent, none is deferred. */
  deferLoading?: DeferLoading;
}

/** `pointer` extended by `tokens`, each escaped. */
export function childPointer(pointer: string, ...tokens: Array<string | number>): string {
  return `${pointer}${formatPointer(tokens)}`;
}

/** A keyword's value for a message: short JSON, or nothing when it would not fit on a line. */
function shortValue(value: unknown): string | undefined {
  const json = JSON.stringify(value);
  return json !== undefined && json.length <= 40 ? json : undefined;
}

/** What the runtime does about a keyword the model was not told. */
function runtimeAnswer(keyword: string): string {
  return keyword === 'default'
    ? 'the runtime fills it in when the argument is absent'
    : 'the runtime still enforces it';
}

/**
 * What dropping `keyword` costs, in one sentence: what the model is no longer told, the target's
 * reason in brackets (`because`), and what the runtime does instead.
 */
function consequenceOf(keyword: string, because: string | undefined): string {
  const reason = because === undefined ? '' : ` (${because})`;
  if (keyword === 'examples') return `the model does not see these examples${reason}`;
  if (keyword === 'outputSchema')
    return `the client is not told the output shape${reason}; the result still arrives as text`;
  if (keyword === 'title' || keyword === 'readOnly' || keyword === 'writeOnly' || keyword.startsWith('x-'))
    return `the model is not told this annotation${reason}`;
  return `the model is not told ${notToldOf(keyword)}${reason}; ${runtimeAnswer(keyword)}`;
}

/**
 * Collects the loss entries of one tool for one target. Entries are keyed by pointer and keyword, so a
 * definition inlined at several places is reported once, at its own location.
 */
export class LossRecorder {
  readonly entries: LossEntry[] = [];
  private readonly seen = new Set<string>();
  /** pointer → the sentences carried into that node's description. */
  private readonly notes = new Map<string, string[]>();

  /** `describeLosses`: carry what is dropped into the descriptions (see `carriedText`). */
  constructor(
    readonly target: string,
    readonly describeLosses: boolean,
  ) {}

  /** Records a keyword removed from the manifest; `because`: the target's reason, when it is not the usual one. */
  dropped(pointer: string, keyword: string, value: unknown, because?: string): void {
    this.add(pointer, keyword, 'dropped', value, consequenceOf(keyword, because));
  }

  /** Records a keyword replaced by a weaker form; `how` continues "rewritten for <target> …" (e.g. "as `anyOf`: …"). */
  rewritten(pointer: string, keyword: string, value: unknown, how: string): void {
    this.add(pointer, keyword, 'rewritten', value, how);
  }

  /** Appends to `node.description` what was carried from the keywords dropped at `pointer`; returns `node`. */
  describeInto<T extends SchemaNode>(pointer: string, node: T): T {
    const notes = this.notes.get(pointer);
    if (notes !== undefined) setOwn(node, 'description', appendDescription(node.description, notes));
    return node;
  }

  private add(
    pointer: string,
    keyword: string,
    action: LossEntry['action'],
    value: unknown,
    consequence: string,
  ): void {
    const key = `${pointer}\u0000${keyword}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const shown = shortValue(value);
    const subject = codeSpan(shown === undefined ? keyword : `${keyword}: ${shown}`);
    const carried = this.describeLosses ? carriedText(keyword, value, action) : undefined;
    const where = `${subject} at ${codeSpan(pointer || '/')}`;
    if (carried !== undefined) this.notes.set(pointer, [...(this.notes.get(pointer) ?? []), carried]);
    const message =
      carried !== undefined
        ? `${where} ${action} for ${this.target}; the description tells the model instead: ${codeSpan(carried)}; ${runtimeAnswer(keyword)}`
        : action === 'dropped'
          ? `${where} dropped for ${this.target}: ${consequence}`
          : `${where} rewritten for ${this.target} ${consequence}`;
    const entry: LossEntry = { pointer, keyword, action, value: copyJsonValue(value), message };
    this.entries.push(carried === undefined ? entry : { ...entry, carried });
  }
}

/** Thrown inside a builder when a tool cannot be expressed for a target; caught per tool. */
class UnrepresentableError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
    this.name = 'UnrepresentableError';
  }
}

/** Throws the `UnrepresentableError` that says `tool` cannot be sent to `target`, and why, placed at `pointer`. */
export function refuse(tool: { readonly name: string }, target: string, pointer: string, why: string): never {
  throw new UnrepresentableError(pointer, `Tool '${tool.name}' cannot be sent to ${target}: ${why}.`);
}

/**
 * Builds one target's manifest tool by tool, in name order: `add` puts a tool's entry into
 * `content` while recording losses; a tool the target cannot take (`UnrepresentableError`) becomes a
 * problem and an `unavailable` reason instead, and its entry is left out.
 */
export function buildPerTool<TContent>(
  project: ManifestProject,
  target: string,
  content: TContent,
  add: (tool: ManifestTool, recorder: LossRecorder, content: TContent) => void,
): TargetBuild<TContent> {
  const build: TargetBuild<TContent> = { content, losses: {}, problems: [], unavailable: {} };
  // What every problem of this target says to do.
  const hint =
    `turn ${target} off for this tool (\`"targets": { "${target}": false }\` in its definition), ` +
    `or let generate leave it out of ${target} with a warning ` +
    `(\`"manifests": { "unrepresentable": "omit" }\` in toolsmith.config.json, the default)`;
  for (const tool of [...project.tools].sort((a, b) => compareStrings(a.name, b.name))) {
    const recorder = new LossRecorder(target, project.describeLosses ?? true);
    try {
      add(tool, recorder, content);
      setOwn(build.losses, tool.name, recorder.entries);
    } catch (error) {
      if (!(error instanceof UnrepresentableError)) throw error;
      // An error at generate time, placed at the start of the definition file.
      const { pointer, message } = error;
      const file = tool.source?.file ?? tool.name;
      build.problems.push({ file, line: 1, column: 1, pointer, message, hint });
      setOwn(build.unavailable, tool.name, message);
    }
  }
  return build;
}

/** One target's build: its manifest, what it lost per tool, and the tools it could not take. */
export interface TargetBuild<TContent> {
  /** The manifest file's JSON value. */
  content: TContent;
  /** tool name → losses for this target. */
  losses: Record<string, LossEntry[]>;
  problems: ManifestProblem[];
  /** tool name → why this target cannot take it (also in `problems`). */
  unavailable: Record<string, string>;
}

/**
 * One schema node being rewritten for a target: the node as written, its pointer into the definition,
 * the copy being made, the tool's loss recorder, and the target's rewrite of a subschema at a pointer.
 */
export interface RewriteState {
  readonly node: SchemaNode;
  readonly pointer: string;
  readonly out: SchemaNode;
  readonly recorder: LossRecorder;
  readonly rewrite: (schema: unknown, pointer: string) => unknown;
}

/** How a target takes one keyword: into `state.out` in its own form, or recorded as dropped or rewritten. */
export type KeywordRule<TState extends RewriteState = RewriteState> = (value: unknown, state: TState) => void;

/**
 * A target's keyword table: `skipped` keywords are left out without a loss entry, a keyword with a rule
 * is taken by it, a `kept` one is copied as written, a `walked` one is copied with each of its
 * subschemas rewritten; any other keyword is dropped with a loss entry.
 */
export interface KeywordTable<TState extends RewriteState> {
  readonly skipped: ReadonlySet<string>;
  readonly rules: ReadonlyMap<string, KeywordRule<TState>>;
  readonly kept: ReadonlySet<string>;
  readonly walked: ReadonlySet<string>;
}

/** Carries each keyword of `state.node` into `state.out` by the target's table. */
export function rewriteKeywords<TState extends RewriteState>(table: KeywordTable<TState>, state: TState): void {
  const { node, pointer, out, recorder, rewrite } = state;
  for (const key of Object.keys(node)) {
    const value = node[key];
    const rule = table.rules.get(key);
    if (table.skipped.has(key)) continue;
    if (rule !== undefined) rule(value, state);
    else if (table.kept.has(key)) setOwn(out, key, copyJsonValue(value));
    // Each of its subschemas (where the walker finds them) rewritten at its own pointer.
    else if (table.walked.has(key)) setOwn(out, key, mapSubschemas({ [key]: value }, pointer, rewrite)[key]);
    else recorder.dropped(pointer, key, value);
  }
}

/** Each schema of a list under `keyword`, rewritten at its own pointer. */
export function rewriteEach(list: readonly unknown[], keyword: string, state: RewriteState): unknown[] {
  return list.map((item, index) => state.rewrite(item, childPointer(state.pointer, keyword, index)));
}

/** How a tuple `items` sent as one `anyOf` item schema is told. */
const TUPLE_AS_ANY_OF =
  'as one `anyOf` item schema: the model is not told the position of each item; the runtime still enforces it';

/** `items` for a target without tuples: one schema rewritten, a tuple sent as one `anyOf` item schema (a rewrite). */
export const tupleAsAnyOf: KeywordRule = (value, state) => {
  if (!Array.isArray(value))
    return setOwn(state.out, 'items', state.rewrite(value, childPointer(state.pointer, 'items')));
  state.recorder.rewritten(state.pointer, 'items', value, TUPLE_AS_ANY_OF);
  setOwn(state.out, 'items', { anyOf: rewriteEach(value, 'items', state) });
};

/** A `format` rule: kept when `formats` names it, else dropped (`because`: the target's reason, if it gives one). */
export function keepFormats(formats: ReadonlySet<string>, because?: string): KeywordRule {
  return (value, { pointer, recorder, out }) => {
    if (typeof value === 'string' && formats.has(value)) setOwn(out, 'format', value);
    else recorder.dropped(pointer, 'format', value, because);
  };
}

/** How `oneOf` sent as `anyOf` is told (for a target that takes no `oneOf`): see `LossRecorder.rewritten`. */
export const ONE_OF_AS_ANY_OF =
  'as `anyOf`: the model is not told that exactly one alternative must match; the runtime still enforces it';

/** `oneOf` for a target without it: sent as `anyOf` (a rewrite), dropped beside an `anyOf` or when it is no list. */
export const oneOfAsAnyOf: KeywordRule = (value, state) => {
  if (Object.hasOwn(state.node, 'anyOf') || !Array.isArray(value))
    return state.recorder.dropped(state.pointer, 'oneOf', value);
  state.recorder.rewritten(state.pointer, 'oneOf', value, ONE_OF_AS_ANY_OF);
  setOwn(state.out, 'anyOf', rewriteEach(value, 'oneOf', state));
};

/** True when a schema describes objects (`type: object`, or object keywords without a type). */
export function describesObject(schema: SchemaNode): boolean {
  if (schema.type !== undefined) return [schema.type].flat().includes('object');
  return [
    'properties',
    'additionalProperties',
    'required',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
  ].some((keyword) => Object.hasOwn(schema, keyword));
}

/** A target's rule for tool names: the pattern, whose names it is for, and the rule in words (for the problem). */
export interface NameRule {
  readonly pattern: RegExp;
  /** "OpenAI function names". */
  readonly of: string;
  /** "letters, digits, _ and -, at most 64". */
  readonly says: string;
}

/**
 * The checks every LLM target makes before it converts a tool: its name follows the target's rule
 * and its input schema root is an object schema. Throws `UnrepresentableError` when not.
 */
export function checkTool(tool: ManifestTool, target: string, names: NameRule): void {
  const { pattern, of, says } = names;
  if (!pattern.test(tool.name))
    throw new UnrepresentableError(
      '/name',
      `Tool name '${tool.name}' cannot be sent to ${target}: ${of} must match ${pattern.source} (${says}).`,
    );
  const schema = tool.inputSchema;
  if (!isObject(schema) || schema.type !== 'object') {
    const got = isObject(schema) ? JSON.stringify(schema.type ?? null) : JSON.stringify(schema);
    refuse(tool, target, '/inputSchema', `its input schema root must be \`type: "object"\` (got ${got})`);
  }
}

/**
 * Removes root keywords addressed to tooling (`$schema`, `$id`, `$comment`) without a loss entry, and
 * drops the listed root combinators with one (some targets refuse them at the top level).
 */
export function prepareRoot(
  schema: SchemaNode,
  recorder: LossRecorder,
  forbiddenAtRoot: readonly string[],
): SchemaNode {
  const out: SchemaNode = {};
  for (const key of Object.keys(schema)) {
    const because = `${recorder.target} takes no \`${key}\` at the top level`;
    if (forbiddenAtRoot.includes(key)) recorder.dropped('/inputSchema', key, schema[key], because);
    else if (!TOOLING_KEYWORDS.has(key)) setOwn(out, key, schema[key]);
  }
  if (!Object.hasOwn(out, 'properties')) setOwn(out, 'properties', {});
  return out;
}
