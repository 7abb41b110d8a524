import { parseLocalRef, resolveLocalRef } from '../schema/json-pointer.js';
import { TOOLING_KEYWORDS } from '../schema/keywords.js';
import { cloneJson, hasOwn, isObject, mapValues, type SchemaNode, setOwn, walkSchema } from '../schema/walk.js';
import {
  buildPerTool,
  checkTool,
  childPointer,
  emptyBuild,
  type LossRecorder,
  type ManifestProject,
  type ManifestTool,
  type NameRule,
  ONE_OF_AS_ANY_OF,
  type TargetBuild,
  TUPLE_AS_ANY_OF,
  UnrepresentableError,
} from './build.js';

/*
 * Gemini function declaration rules. Sources:
 * - Schema: "a select subset of an OpenAPI 3.0 schema object" with the fields type, format, title,
 *   description, nullable, enum (strings), items, minItems, maxItems, properties, required, minProperties,
 *   maxProperties, minLength, maxLength, pattern, minimum, maximum, anyOf, propertyOrdering:
 *   https://ai.google.dev/api/caching#Schema (as generated into the Gemini API client of Effect,
 *   @effect/ai-google Generated.ts, and googleapis/js-genai `Schema`). There is no `$ref`, `definitions`,
 *   `oneOf`, `allOf`, `not`, `const`, `additionalProperties`, `uniqueItems`, `exclusiveMinimum`,
 *   `exclusiveMaximum`, `multipleOf` or `examples`. `default` is "included here and ignored"
 *   (https://hexdocs.pm/geminix/Geminix.V1beta.Schema.html), so it is dropped with a loss entry.
 * - format: "for NUMBER type: float, double; for INTEGER type: int32, int64; for STRING type: enum,
 *   date-time" (same page; Firebase: other string formats make requests fail with the Gemini Developer API,
 *   https://firebase.google.com/docs/reference/js/ai.schemashared).
 * - An OBJECT schema needs properties: "parameters.properties: should be non-empty for OBJECT type"
 *   (https://github.com/agno-agi/agno/issues/2112); a tool without parameters omits `parameters`.
 * - Names: "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots,
 *   colons and dashes, with a maximum length of 64" (https://googleapis.github.io/java-genai/javadoc/ —
 *   FunctionDeclaration.Builder.name; https://ai.google.dev/api/caching#FunctionDeclaration).
 */

/** Gemini function names (both Gemini targets). */
export const GEMINI_NAMES: NameRule = {
  pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
  of: 'Gemini function names',
  says: 'start with a letter or _, then letters, digits, _ . : -, at most 64',
};

/** The formats Gemini takes, by type. */
const GEMINI_FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

/** The formats Gemini takes, as a loss entry tells them. */
const FORMATS_TOLD = Object.entries(GEMINI_FORMATS)
  .map(([type, formats]) => `${formats.join('/')} for ${type}`)
  .join(', ');

/** One function declaration of `manifests/gemini-legacy.json` (the legacy OpenAPI-subset `parameters`). */
export interface GeminiLegacyFunctionDeclaration {
  name: string;
  description: string;
  parameters?: SchemaNode;
}

/** Keywords kept as they are. */
const KEPT = new Set(['title', 'description', 'nullable', 'pattern', 'minimum', 'maximum']);
/** Counts the SDK's `Schema` types as int64 strings (`minLength?: string` in @google/genai). */
const COUNTS = new Set(['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength']);

/** Rewrites every `type` of a converted schema (its properties, items and `anyOf` branches) to the API's `Type` enum (`string` → `STRING`). */
function upper(node: unknown): void {
  walkSchema(node, '', (schema) => {
    if (typeof schema.type === 'string') schema.type = schema.type.toUpperCase();
  });
}

interface GeminiContext {
  tool: ManifestTool;
  recorder: LossRecorder;
  /** The tool's whole input schema, which local `$ref`s resolve against. */
  root: SchemaNode;
}

function fail(context: GeminiContext, pointer: string, why: string): never {
  throw new UnrepresentableError(pointer, `Tool '${context.tool.name}' cannot be sent to gemini-legacy: ${why}.`);
}

/** `/inputSchema` + the pointer a local `$ref` names. */
function refPointer(ref: string): string {
  return childPointer('/inputSchema', ...(parseLocalRef(ref) ?? []));
}

/** A `$ref`, inlined (Gemini has none): its target converted, the annotations written beside it kept. */
function convertRef(node: SchemaNode, ref: string, pointer: string, context: GeminiContext, refs: readonly string[]) {
  if (refs.includes(ref)) {
    fail(
      context,
      pointer,
      `its schema is recursive (\`$ref: ${ref}\` at ${pointer} refers back to itself); Gemini has no \`$ref\`, so the schema would have to be inlined forever`,
    );
  }
  const found = resolveLocalRef(context.root, ref);
  const target = isObject(found) || typeof found === 'boolean' ? found : undefined;
  if (target === undefined)
    fail(context, pointer, `\`$ref: ${ref}\` at ${pointer} does not resolve inside the tool's schema`);
  const inlined = convert(target, refPointer(ref), context, [...refs, ref]);
  // Draft-07 ignores a `$ref`'s siblings; keep the annotations the author put there for the model.
  for (const key of ['title', 'description']) if (typeof node[key] === 'string') setOwn(inlined, key, node[key]);
  return inlined;
}

/** One schema node being converted: the node as written, where it is, its types, and the converted copy. */
interface NodeState {
  node: SchemaNode;
  pointer: string;
  context: GeminiContext;
  refs: readonly string[];
  out: SchemaNode;
  types: string[];
  nonNull: string[];
  /** The one non-null type, if there is exactly one. */
  single: string | undefined;
}

/** Converts one keyword into `state.out` (or records it as dropped or rewritten). */
type KeywordHandler = (value: unknown, state: NodeState) => void;

/** Converts each item of a list of schemas, keeping each item's own pointer. */
function convertItems(items: ReadonlyArray<{ item: unknown; index: number }>, keyword: string, state: NodeState) {
  return items.map(({ item, index }) =>
    convert(item, childPointer(state.pointer, keyword, index), state.context, state.refs),
  );
}

function indexed(list: readonly unknown[]): Array<{ item: unknown; index: number }> {
  return list.map((item, index) => ({ item, index }));
}

/** `anyOf` as it is and `oneOf` as `anyOf` (a rewrite), with a `null` branch turned into `nullable`. */
function convertAlternatives(keyword: 'anyOf' | 'oneOf'): KeywordHandler {
  return (value, state) => {
    if (!Array.isArray(value)) return;
    const { recorder } = state.context;
    if (keyword === 'oneOf') {
      if (hasOwn(state.node, 'anyOf')) {
        recorder.dropped(state.pointer, keyword, value);
        return;
      }
      recorder.rewritten(state.pointer, keyword, value, ONE_OF_AS_ANY_OF);
    }
    const branches = indexed(value).filter(
      ({ item }) => !(isObject(item) && item.type === 'null' && Object.keys(item).length === 1),
    );
    if (branches.length < value.length) setOwn(state.out, 'nullable', true);
    setOwn(state.out, 'anyOf', convertItems(branches, keyword, state));
  };
}

/** Keywords Gemini takes in a changed form, by keyword (a Map: keys come from user schemas). */
const GEMINI_HANDLERS: ReadonlyMap<string, KeywordHandler> = new Map<string, KeywordHandler>([
  [
    'type',
    (_value, { out, types, nonNull, single }) => {
      // One type stays `type`, several become one `anyOf` branch each, and a `null` beside them `nullable`.
      const branches = nonNull.map((type) => ({ type }));
      if (nonNull.length === 1) setOwn(out, 'type', single);
      else if (nonNull.length === 0) setOwn(out, 'type', 'null');
      else setOwn(out, 'anyOf', branches);
      if (types.includes('null') && nonNull.length > 0) setOwn(out, 'nullable', true);
    },
  ],
  [
    'format',
    (value, { pointer, context, out, single }) => {
      if (single !== undefined && typeof value === 'string' && (GEMINI_FORMATS[single] ?? []).includes(value))
        setOwn(out, 'format', value);
      else
        context.recorder.dropped(
          pointer,
          'format',
          value,
          `the model is not told the format (Gemini takes only ${FORMATS_TOLD}); the runtime still enforces it`,
        );
    },
  ],
  [
    'enum',
    (value, { pointer, context, out }) => {
      if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
        setOwn(out, 'enum', cloneJson(value));
      else
        context.recorder.dropped(
          pointer,
          'enum',
          value,
          'the model is not told the allowed values (Gemini enums hold strings only); the runtime still enforces it',
        );
    },
  ],
  [
    'const',
    (value, { pointer, context, out }) => {
      if (typeof value === 'string') setOwn(out, 'enum', [value]);
      else
        context.recorder.dropped(
          pointer,
          'const',
          value,
          'the model is not told the required value (Gemini has no `const` and string-only enums); the runtime still enforces it',
        );
    },
  ],
  [
    'properties',
    (value, { pointer, context, refs, out }) => {
      const at = (name: string) => childPointer(pointer, 'properties', name);
      setOwn(
        out,
        'properties',
        mapValues(value, (schema, name) => convert(schema, at(name), context, refs)),
      );
    },
  ],
  ['required', (value, { out }) => setOwn(out, 'required', cloneJson(value))],
  [
    'items',
    (value, state) => {
      if (!Array.isArray(value)) {
        setOwn(state.out, 'items', convert(value, childPointer(state.pointer, 'items'), state.context, state.refs));
        return;
      }
      state.context.recorder.rewritten(state.pointer, 'items', value, TUPLE_AS_ANY_OF);
      setOwn(state.out, 'items', { anyOf: convertItems(indexed(value), 'items', state) });
    },
  ],
  ['anyOf', convertAlternatives('anyOf')],
  ['oneOf', convertAlternatives('oneOf')],
]);

/** Carries one keyword into the converted node: left out (tooling, definitions), kept, counted, converted, or dropped. */
function convertKeyword(key: string, value: unknown, state: NodeState): void {
  if (TOOLING_KEYWORDS.has(key) || key === 'definitions' || key === '$defs') return;
  if (KEPT.has(key)) setOwn(state.out, key, cloneJson(value));
  else if (COUNTS.has(key)) setOwn(state.out, key, String(value));
  else {
    const handler = GEMINI_HANDLERS.get(key);
    if (handler === undefined) state.context.recorder.dropped(state.pointer, key, value);
    else handler(value, state);
  }
}

function convert(node: unknown, pointer: string, context: GeminiContext, refs: readonly string[]): SchemaNode {
  if (node === true) return {};
  if (!isObject(node)) return fail(context, pointer, `the schema at ${pointer} is \`false\` (accepts nothing)`);
  if (typeof node.$ref === 'string') return convertRef(node, node.$ref, pointer, context, refs);
  const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];
  const nonNull = types.filter((type) => type !== 'null');
  const state: NodeState = {
    node,
    pointer,
    context,
    refs,
    out: {},
    types,
    nonNull,
    single: nonNull.length === 1 ? nonNull[0] : undefined,
  };
  for (const key of Object.keys(node)) convertKeyword(key, node[key], state);
  const { out } = state;
  const isObjectNode = state.single === 'object' || (types.length === 0 && hasOwn(out, 'properties'));
  if (isObjectNode && (!isObject(out.properties) || Object.keys(out.properties).length === 0)) {
    fail(
      context,
      pointer,
      `the object at ${pointer} names no properties, and Gemini needs non-empty \`properties\` for every OBJECT schema below the root`,
    );
  }
  return context.recorder.describeInto(pointer, out);
}

/** The Gemini `parameters` of one tool (undefined when it takes none); throws `UnrepresentableError` when Gemini cannot take it. */
function toGeminiLegacyParameters(tool: ManifestTool, recorder: LossRecorder): SchemaNode | undefined {
  checkTool(tool, 'gemini-legacy', GEMINI_NAMES);
  const root = tool.inputSchema as SchemaNode;
  const properties = isObject(root.properties) ? root.properties : {};
  const context: GeminiContext = { tool, recorder, root };
  if (Object.keys(properties).length === 0) {
    // A tool without named parameters: Gemini refuses an empty OBJECT, so `parameters` is left out.
    const ignored = { ...root };
    delete ignored.properties;
    delete ignored.type;
    convert(ignored, '/inputSchema', context, []);
    return undefined;
  }
  const converted = convert(root, '/inputSchema', context, []);
  upper(converted);
  return converted;
}

/** `manifests/gemini-legacy.json`: `{ functionDeclarations }` with the OpenAPI-subset `parameters` (opt-in target). */
export function buildGeminiLegacyManifest(
  project: ManifestProject,
): TargetBuild<{ functionDeclarations: GeminiLegacyFunctionDeclaration[] }> {
  const build = emptyBuild<{ functionDeclarations: GeminiLegacyFunctionDeclaration[] }>({ functionDeclarations: [] });
  return buildPerTool(project, 'gemini-legacy', build, (tool, recorder) => {
    const parameters = toGeminiLegacyParameters(tool, recorder);
    const declaration: GeminiLegacyFunctionDeclaration = { name: tool.name, description: tool.description };
    if (parameters !== undefined) declaration.parameters = parameters;
    build.content.functionDeclarations.push(declaration);
  });
}
