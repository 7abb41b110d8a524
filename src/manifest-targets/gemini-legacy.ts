import type { ManifestProject as ProjectModel, ManifestTool as ToolModel } from './build.js';
import { parseLocalRef, resolveLocalRef } from '../json-pointer.js';
import {
  buildPerTool,
  checkObjectRoot,
  childPointer,
  cloneJson,
  hasOwn,
  isSchemaObject,
  type LossRecorder,
  type SchemaObject,
  setOwn,
  type TargetBuild,
  TOOLING_KEYWORDS,
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

/** Gemini function names. */
export const GEMINI_FUNCTION_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

/** The formats Gemini takes, by type. */
export const GEMINI_FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

/** One function declaration of `manifests/gemini-legacy.json` (the legacy OpenAPI-subset `parameters`). */
export interface GeminiLegacyFunctionDeclaration {
  name: string;
  description: string;
  parameters?: SchemaObject;
}

/** Keywords kept as they are. */
const KEPT = new Set(['title', 'description', 'nullable', 'pattern', 'minimum', 'maximum']);
/** Counts the SDK's `Schema` types as int64 strings (`minLength?: string` in @google/genai). */
const COUNTS = new Set(['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength']);

/** The API's `Type` enum value of a JSON Schema type name (`string` → `STRING`). */
function typeName(type: string): string {
  return type.toUpperCase();
}

/** Rewrites every `type` of a converted schema to the `Type` enum's spelling. */
function upper(node: unknown): void {
  if (!isSchemaObject(node)) return;
  if (typeof node.type === 'string') node.type = typeName(node.type);
  for (const key of ['properties'])
    if (isSchemaObject(node[key]))
      for (const name of Object.keys(node[key] as SchemaObject)) upper((node[key] as SchemaObject)[name]);
  if (node.items !== undefined) upper(node.items);
  if (Array.isArray(node.anyOf)) node.anyOf.forEach(upper);
}

interface GeminiContext {
  tool: ToolModel;
  recorder: LossRecorder;
  /** The tool's whole input schema, which local `$ref`s resolve against. */
  root: SchemaObject;
}

function fail(context: GeminiContext, pointer: string, why: string): never {
  throw new UnrepresentableError(pointer, `Tool '${context.tool.name}' cannot be sent to gemini-legacy: ${why}.`);
}

/** `/inputSchema` + the pointer a local `$ref` names. */
function refPointer(ref: string): string {
  return childPointer('/inputSchema', ...(parseLocalRef(ref) ?? []));
}

function convert(node: unknown, pointer: string, context: GeminiContext, refs: readonly string[]): SchemaObject {
  const { recorder } = context;
  if (node === true) return {};
  if (!isSchemaObject(node)) return fail(context, pointer, `the schema at ${pointer} is \`false\` (accepts nothing)`);

  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (refs.includes(ref)) {
      fail(
        context,
        pointer,
        `its schema is recursive (\`$ref: ${ref}\` at ${pointer} refers back to itself); Gemini has no \`$ref\`, so the schema would have to be inlined forever`,
      );
    }
    const found = resolveLocalRef(context.root, ref);
    const target = isSchemaObject(found) || typeof found === 'boolean' ? found : undefined;
    if (target === undefined)
      fail(context, pointer, `\`$ref: ${ref}\` at ${pointer} does not resolve inside the tool's schema`);
    const inlined = convert(target, refPointer(ref), context, [...refs, ref]);
    // Draft-07 ignores a `$ref`'s siblings; keep the annotations the author put there for the model.
    for (const key of ['title', 'description']) if (typeof node[key] === 'string') setOwn(inlined, key, node[key]);
    return inlined;
  }

  const out: SchemaObject = {};
  const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];
  const nonNull = types.filter((type) => type !== 'null');
  const single = nonNull.length === 1 ? nonNull[0] : undefined;

  for (const key of Object.keys(node)) {
    const value = node[key];
    if (TOOLING_KEYWORDS.has(key) || key === 'definitions' || key === '$defs') continue;
    if (KEPT.has(key)) {
      setOwn(out, key, cloneJson(value));
    } else if (COUNTS.has(key)) {
      setOwn(out, key, String(value));
    } else if (key === 'type') {
      if (nonNull.length === 1) setOwn(out, 'type', single);
      else if (nonNull.length === 0) setOwn(out, 'type', 'null');
      else
        setOwn(
          out,
          'anyOf',
          nonNull.map((type) => ({ type })),
        );
      if (types.includes('null') && nonNull.length > 0) setOwn(out, 'nullable', true);
    } else if (key === 'format') {
      if (single !== undefined && typeof value === 'string' && (GEMINI_FORMATS[single] ?? []).includes(value))
        setOwn(out, key, value);
      else
        recorder.dropped(
          pointer,
          key,
          value,
          `the model is not told the format (Gemini takes only ${Object.entries(GEMINI_FORMATS)
            .map(([type, formats]) => `${formats.join('/')} for ${type}`)
            .join(', ')}); the runtime still enforces it`,
        );
    } else if (key === 'enum') {
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) setOwn(out, key, cloneJson(value));
      else
        recorder.dropped(
          pointer,
          key,
          value,
          'the model is not told the allowed values (Gemini enums hold strings only); the runtime still enforces it',
        );
    } else if (key === 'const') {
      if (typeof value === 'string') setOwn(out, 'enum', [value]);
      else
        recorder.dropped(
          pointer,
          key,
          value,
          'the model is not told the required value (Gemini has no `const` and string-only enums); the runtime still enforces it',
        );
    } else if (key === 'properties') {
      const properties: SchemaObject = {};
      if (isSchemaObject(value)) {
        for (const name of Object.keys(value))
          setOwn(properties, name, convert(value[name], childPointer(pointer, 'properties', name), context, refs));
      }
      setOwn(out, key, properties);
    } else if (key === 'required') {
      setOwn(out, key, cloneJson(value));
    } else if (key === 'items') {
      if (Array.isArray(value)) {
        recorder.rewritten(
          pointer,
          key,
          value,
          'as one `anyOf` item schema: the model is not told the position of each item; the runtime still enforces it',
        );
        setOwn(out, key, {
          anyOf: value.map((item, index) => convert(item, childPointer(pointer, 'items', index), context, refs)),
        });
      } else {
        setOwn(out, key, convert(value, childPointer(pointer, 'items'), context, refs));
      }
    } else if (key === 'anyOf' || key === 'oneOf') {
      if (!Array.isArray(value)) continue;
      if (key === 'oneOf') {
        if (hasOwn(node, 'anyOf')) {
          recorder.dropped(pointer, key, value);
          continue;
        }
        recorder.rewritten(
          pointer,
          key,
          value,
          'as `anyOf`: the model is not told that exactly one alternative must match; the runtime still enforces it',
        );
      }
      const branches = value
        .map((item, index) => ({ item, index }))
        .filter(({ item }) => !(isSchemaObject(item) && item.type === 'null' && Object.keys(item).length === 1));
      if (branches.length < value.length) setOwn(out, 'nullable', true);
      setOwn(
        out,
        'anyOf',
        branches.map(({ item, index }) => convert(item, childPointer(pointer, key, index), context, refs)),
      );
    } else {
      recorder.dropped(pointer, key, value);
    }
  }
  const isObject = single === 'object' || (types.length === 0 && hasOwn(out, 'properties'));
  if (isObject && (!isSchemaObject(out.properties) || Object.keys(out.properties).length === 0)) {
    fail(
      context,
      pointer,
      `the object at ${pointer} names no properties, and Gemini needs non-empty \`properties\` for every OBJECT schema below the root`,
    );
  }
  return recorder.describeInto(pointer, out);
}

/** The Gemini `parameters` of one tool (undefined when it takes none); throws `UnrepresentableError` when Gemini cannot take it. */
export function toGeminiLegacyParameters(tool: ToolModel, recorder: LossRecorder): SchemaObject | undefined {
  if (!GEMINI_FUNCTION_NAME_PATTERN.test(tool.name)) {
    throw new UnrepresentableError(
      '/name',
      `Tool name '${tool.name}' cannot be sent to gemini-legacy: Gemini function names must match ${GEMINI_FUNCTION_NAME_PATTERN.source} (start with a letter or _, then letters, digits, _ . : -, at most 64).`,
    );
  }
  checkObjectRoot(tool, 'gemini-legacy', tool.inputSchema);
  const root = tool.inputSchema as SchemaObject;
  const properties = isSchemaObject(root.properties) ? root.properties : {};
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
  project: ProjectModel,
): TargetBuild<{ functionDeclarations: GeminiLegacyFunctionDeclaration[] }> {
  const build: TargetBuild<{ functionDeclarations: GeminiLegacyFunctionDeclaration[] }> = {
    content: { functionDeclarations: [] },
    losses: {},
    problems: [],
    unavailable: {},
  };
  return buildPerTool(project, 'gemini-legacy', build, (tool, recorder) => {
    const parameters = toGeminiLegacyParameters(tool, recorder);
    const declaration: GeminiLegacyFunctionDeclaration = { name: tool.name, description: tool.description };
    if (parameters !== undefined) declaration.parameters = parameters;
    build.content.functionDeclarations.push(declaration);
  });
}
