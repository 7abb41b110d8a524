import { toJsonSchema2020 } from '../schema/json-schema-2020.js';
import { TOOLING_KEYWORDS } from '../schema/keywords.js';
import { copyJsonValue, isObject, type SchemaNode, setOwn } from '../schema/walk.js';
import {
  buildPerTool,
  checkTool,
  type KeywordRule,
  type KeywordTable,
  type LossRecorder,
  type ManifestProject,
  keepFormats,
  oneOfAsAnyOf,
  type RewriteState,
  rewriteKeywords,
  type TargetBuild,
} from './build.js';
import { GEMINI_NAMES } from './gemini-legacy.js';

/*
 * Gemini function declarations with `parametersJsonSchema` / `responseJsonSchema` (the Gemini API since
 * November 2025; `FunctionDeclaration` in @google/genai types them `unknown`). Sources:
 * - "Describes the parameters to the function in JSON Schema format. The schema must describe an object
 *   where the properties are the parameters to the function … mutually exclusive with parameters"
 *   (https://ai.google.dev/api/caching#FunctionDeclaration, Vertex AI FunctionDeclaration reference).
 * - Supported JSON Schema: type (with null), title, description, enum, format, minimum, maximum, items,
 *   prefixItems, minItems, maxItems, properties, required, additionalProperties, anyOf, $ref, $defs,
 *   propertyOrdering; "unsupported properties are ignored" (Gemini structured-output guide, JSON Schema
 *   support, Nov 2025). So recursion, free-form objects (`additionalProperties`) and tuples are taken;
 *   what is outside that list is removed here with a loss entry rather than sent to be ignored.
 * The schema is the 2020-12 translation MCP uses, without `$schema`.
 */

/** String formats Gemini's JSON Schema support names. */
const FORMATS = new Set(['date-time', 'date', 'time', 'int32', 'int64', 'float', 'double', 'enum']);

/**
 * Gemini's keyword table, in draft-07 words (before the 2020-12 translation renames them): the keywords
 * its JSON Schema support takes are kept, `const` is a one-value `enum` (the same meaning: not a loss).
 */
const GEMINI_KEYWORDS: KeywordTable<RewriteState> = {
  skipped: new Set([...TOOLING_KEYWORDS].filter((keyword) => keyword !== '$id')),
  rules: new Map<string, KeywordRule>([
    ['oneOf', oneOfAsAnyOf],
    ['const', (value, { out }) => setOwn(out, 'enum', [copyJsonValue(value)])],
    ['format', keepFormats(FORMATS)],
  ]),
  walked: new Set(['properties', 'definitions', '$defs', 'items', 'additionalItems', 'additionalProperties', 'anyOf']),
  kept: new Set([
    'type',
    'title',
    'description',
    'enum',
    'minimum',
    'maximum',
    'minItems',
    'maxItems',
    'required',
    '$ref',
    '$id',
  ]),
};

/** One function declaration of `manifests/gemini.json` (assignable to @google/genai's `FunctionDeclaration`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: SchemaNode;
  responseJsonSchema?: SchemaNode;
}

/** `{ functionDeclarations }`: a Gemini `Tool` (assignable to @google/genai's `Tool`). */
export interface GeminiToolManifest {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** The draft-07 schema cut down to what Gemini takes; every removed keyword is a loss entry. */
function filter(node: unknown, pointer: string, recorder: LossRecorder): unknown {
  if (!isObject(node)) return node;
  const out: SchemaNode = {};
  const rewrite = (schema: unknown, at: string): unknown => filter(schema, at, recorder);
  rewriteKeywords(GEMINI_KEYWORDS, { node, pointer, out, recorder, rewrite });
  return recorder.describeInto(pointer, out);
}

/** A tool's schema for Gemini: cut down, then translated to 2020-12. */
function geminiSchema(schema: unknown, pointer: string, recorder: LossRecorder): SchemaNode {
  const translated = toJsonSchema2020(filter(schema, pointer, recorder));
  return isObject(translated) ? translated : {};
}

/** `manifests/gemini.json`: `{ functionDeclarations }` for a Gemini `Tool`, in JSON Schema. */
export function buildGeminiManifest(project: ManifestProject): TargetBuild<GeminiToolManifest> {
  const content: GeminiToolManifest = { functionDeclarations: [] };
  return buildPerTool(project, 'gemini', content, (tool, recorder) => {
    checkTool(tool, 'gemini', GEMINI_NAMES);
    const declaration: GeminiFunctionDeclaration = {
      name: tool.name,
      description: tool.description,
      parametersJsonSchema: geminiSchema(tool.inputSchema, '/inputSchema', recorder),
    };
    if (tool.outputSchema !== undefined)
      declaration.responseJsonSchema = geminiSchema(tool.outputSchema, '/outputSchema', recorder);
    content.functionDeclarations.push(declaration);
  });
}
