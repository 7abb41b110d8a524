import { parseLocalRef, resolveLocalRef } from '../schema/json-pointer.js';
import { DEFINITION_CONTAINERS, TOOLING_KEYWORDS } from '../schema/keywords.js';
import { copyJsonValue, isObject, type SchemaNode, setOwn } from '../schema/walk.js';
import {
  buildPerTool,
  checkTool,
  childPointer,
  type KeywordRule,
  type KeywordTable,
  type LossRecorder,
  type ManifestProject,
  type NameRule,
  ONE_OF_AS_ANY_OF,
  type RewriteState,
  rewriteEach,
  rewriteKeywords,
  type TargetBuild,
  tupleAsAnyOf,
  refuse,
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
const GEMINI_FORMATS: ReadonlyMap<string, readonly string[]> = new Map([
  ['string', ['enum', 'date-time']],
  ['number', ['float', 'double']],
  ['integer', ['int32', 'int64']],
]);

/** The formats Gemini takes, as the loss entry of a dropped `format` tells them. */
const FORMATS_TOLD = [...GEMINI_FORMATS].map(([type, formats]) => `${formats.join('/')} for ${type}`).join(', ');

/** One function declaration of `manifests/gemini-legacy.json` (the legacy OpenAPI-subset `parameters`). */
export interface GeminiLegacyFunctionDeclaration {
  name: string;
  description: string;
  parameters?: SchemaNode;
}

/** One tool's conversion: its name, its loss recorder, and its whole input schema (local `$ref`s resolve against it). */
interface GeminiTool {
  readonly name: string;
  readonly recorder: LossRecorder;
  readonly root: SchemaNode;
}

/** A node being converted, with its types. */
interface GeminiState extends RewriteState {
  readonly types: string[];
  readonly nonNull: string[];
  /** The one non-null type, if there is exactly one. */
  readonly single: string | undefined;
}

/** A `$ref`, inlined (Gemini has none): its target converted, the annotations written beside it kept. */
function convertRef(node: SchemaNode, ref: string, pointer: string, tool: GeminiTool, refs: readonly string[]) {
  if (refs.includes(ref))
    refuse(
      tool,
      'gemini-legacy',
      pointer,
      `its schema is recursive (\`$ref: ${ref}\` at ${pointer} refers back to itself); Gemini has no \`$ref\`, so the schema would have to be inlined forever`,
    );
  const target = resolveLocalRef(tool.root, ref);
  if (!isObject(target) && typeof target !== 'boolean')
    refuse(tool, 'gemini-legacy', pointer, `\`$ref: ${ref}\` at ${pointer} does not resolve inside the tool's schema`);
  const inlined = convert(target, childPointer('/inputSchema', ...(parseLocalRef(ref) ?? [])), tool, [...refs, ref]);
  // Draft-07 ignores a `$ref`'s siblings; keep the annotations the author put there for the model.
  for (const key of ['title', 'description']) if (typeof node[key] === 'string') setOwn(inlined, key, node[key]);
  return inlined;
}

/** A branch that only admits `null`: Gemini says it with `nullable`. */
function isNullBranch(schema: unknown): boolean {
  return isObject(schema) && schema.type === 'null' && Object.keys(schema).length === 1;
}

/** `anyOf` as it is and `oneOf` as `anyOf` (a rewrite), with a `null` branch turned into `nullable`. */
function convertAlternatives(keyword: 'anyOf' | 'oneOf'): KeywordRule<GeminiState> {
  return (value, state) => {
    if (!Array.isArray(value)) return;
    if (keyword === 'oneOf') {
      if (Object.hasOwn(state.node, 'anyOf')) return state.recorder.dropped(state.pointer, keyword, value);
      state.recorder.rewritten(state.pointer, keyword, value, ONE_OF_AS_ANY_OF);
    }
    if (value.some(isNullBranch)) setOwn(state.out, 'nullable', true);
    const branches = rewriteEach(value, keyword, state).filter((_, index) => !isNullBranch(value[index]));
    setOwn(state.out, 'anyOf', branches);
  };
}

/** The legacy schema's keyword table (the rules and sources above). */
const GEMINI_LEGACY_KEYWORDS: KeywordTable<GeminiState> = {
  skipped: new Set([...TOOLING_KEYWORDS, ...DEFINITION_CONTAINERS]),
  rules: new Map<string, KeywordRule<GeminiState>>([
    [
      'type',
      (_value, { out, types, nonNull }) => {
        // One type stays `type`, several become one `anyOf` branch each, and a `null` beside them
        // `nullable`; each in the API's `Type` enum (`string` → `STRING`; a type that is no string as written).
        const branches = nonNull.map((type) => ({ type: typeof type === 'string' ? type.toUpperCase() : type }));
        if (branches.length > 1) setOwn(out, 'anyOf', branches);
        else setOwn(out, 'type', branches.length === 1 ? branches[0]!.type : 'NULL');
        if (types.includes('null') && nonNull.length > 0) setOwn(out, 'nullable', true);
      },
    ],
    [
      'format',
      (value, { pointer, recorder, out, single }) => {
        if (single !== undefined && typeof value === 'string' && GEMINI_FORMATS.get(single)?.includes(value) === true)
          setOwn(out, 'format', value);
        else recorder.dropped(pointer, 'format', value, `Gemini takes only ${FORMATS_TOLD}`);
      },
    ],
    [
      'enum',
      (value, { pointer, recorder, out }) => {
        if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
          setOwn(out, 'enum', copyJsonValue(value));
        else recorder.dropped(pointer, 'enum', value, 'Gemini enums hold strings only');
      },
    ],
    [
      'const',
      (value, { pointer, recorder, out }) => {
        if (typeof value === 'string') setOwn(out, 'enum', [value]);
        else recorder.dropped(pointer, 'const', value, 'Gemini has no `const` and string-only enums');
      },
    ],
    ['items', tupleAsAnyOf],
    ['anyOf', convertAlternatives('anyOf')],
    ['oneOf', convertAlternatives('oneOf')],
    // Counts are int64 strings in the API's `Schema` (`minLength?: string` in @google/genai).
    ...['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'].map(
      (keyword): [string, KeywordRule<GeminiState>] => [
        keyword,
        (value, { out }) => setOwn(out, keyword, String(value)),
      ],
    ),
  ]),
  kept: new Set(['title', 'description', 'nullable', 'pattern', 'minimum', 'maximum', 'required']),
  walked: new Set(['properties']),
};

function convert(node: unknown, pointer: string, tool: GeminiTool, refs: readonly string[]): SchemaNode {
  if (node === true) return {};
  if (!isObject(node))
    return refuse(tool, 'gemini-legacy', pointer, `the schema at ${pointer} is \`false\` (accepts nothing)`);
  if (typeof node.$ref === 'string') return convertRef(node, node.$ref, pointer, tool, refs);
  const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];
  const nonNull = types.filter((type) => type !== 'null');
  const state: GeminiState = {
    node,
    pointer,
    out: {},
    recorder: tool.recorder,
    rewrite: (schema, at) => convert(schema, at, tool, refs),
    types,
    nonNull,
    single: nonNull.length === 1 ? nonNull[0] : undefined,
  };
  rewriteKeywords(GEMINI_LEGACY_KEYWORDS, state);
  const { out } = state;
  const isObjectNode = state.single === 'object' || (types.length === 0 && Object.hasOwn(out, 'properties'));
  if (isObjectNode && (!isObject(out.properties) || Object.keys(out.properties).length === 0))
    refuse(
      tool,
      'gemini-legacy',
      pointer,
      `the object at ${pointer} names no properties, and Gemini needs non-empty \`properties\` for every OBJECT schema below the root`,
    );
  return tool.recorder.describeInto(pointer, out);
}

/** `{ functionDeclarations }` with the legacy OpenAPI-subset `parameters` (`gemini-legacy`). */
export interface GeminiLegacyToolManifest {
  functionDeclarations: GeminiLegacyFunctionDeclaration[];
}

/** `manifests/gemini-legacy.json`: `{ functionDeclarations }` with the OpenAPI-subset `parameters` (opt-in target). */
export function buildGeminiLegacyManifest(project: ManifestProject): TargetBuild<GeminiLegacyToolManifest> {
  const content: GeminiLegacyToolManifest = { functionDeclarations: [] };
  return buildPerTool(project, 'gemini-legacy', content, (tool, recorder) => {
    checkTool(tool, 'gemini-legacy', GEMINI_NAMES);
    const root = tool.inputSchema as SchemaNode;
    const geminiTool: GeminiTool = { name: tool.name, recorder, root };
    const declaration: GeminiLegacyFunctionDeclaration = { name: tool.name, description: tool.description };
    if (isObject(root.properties) && Object.keys(root.properties).length > 0)
      declaration.parameters = convert(root, '/inputSchema', geminiTool, []);
    else {
      // A tool without named parameters: Gemini refuses an empty OBJECT, so `parameters` is left out,
      // and what the rest of the root says is still checked (and its losses recorded).
      const { properties: _properties, type: _type, ...ignored } = root;
      convert(ignored, '/inputSchema', geminiTool, []);
    }
    content.functionDeclarations.push(declaration);
  });
}
