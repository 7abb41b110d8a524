import { toJsonSchema2020 } from '../schema/json-schema-2020.js';
import { TOOLING_KEYWORDS } from '../schema/keywords.js';
import { cloneJson, isObject, mapValues, type SchemaNode, setOwn } from '../schema/walk.js';
import {
  buildPerTool,
  checkTool,
  childPointer,
  emptyBuild,
  type LossRecorder,
  type ManifestProject,
  ONE_OF_AS_ANY_OF,
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

/** Draft-07 keywords Gemini's JSON Schema support takes (before the 2020-12 translation renames them). */
const KEPT = new Set([
  'type',
  'title',
  'description',
  'enum',
  'minimum',
  'maximum',
  'items',
  'additionalItems',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
  '$ref',
  'definitions',
  '$defs',
  '$id',
]);
/** String formats Gemini's JSON Schema support names. */
const FORMATS = new Set(['date-time', 'date', 'time', 'int32', 'int64', 'float', 'double', 'enum']);
const MAPS = new Set(['properties', 'definitions', '$defs']);

/** One function declaration of `manifests/gemini.json` (assignable to @google/genai's `FunctionDeclaration`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: SchemaNode;
  responseJsonSchema?: SchemaNode;
}

/** The draft-07 schema cut down to what Gemini takes; every removed keyword is a loss entry. */
function filter(node: unknown, pointer: string, recorder: LossRecorder): unknown {
  if (!isObject(node)) return node;
  const out: SchemaNode = {};
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (TOOLING_KEYWORDS.has(key) && key !== '$id') continue;
    if (MAPS.has(key) && isObject(value)) {
      setOwn(
        out,
        key,
        mapValues(value, (schema, name) => filter(schema, childPointer(pointer, key, name), recorder)),
      );
    } else if (key === 'items' || key === 'additionalItems' || key === 'additionalProperties') {
      const at = childPointer(pointer, key);
      setOwn(out, key, Array.isArray(value) ? filterEach(value, at, recorder) : filter(value, at, recorder));
    } else if (key === 'anyOf' && Array.isArray(value)) {
      setOwn(out, key, filterEach(value, childPointer(pointer, key), recorder));
    } else if (key === 'oneOf' && Array.isArray(value) && !Object.hasOwn(node, 'anyOf')) {
      recorder.rewritten(pointer, key, value, ONE_OF_AS_ANY_OF);
      setOwn(out, 'anyOf', filterEach(value, childPointer(pointer, key), recorder));
    } else if (key === 'const') {
      // Same meaning as a one-value `enum`, which Gemini takes: not a loss.
      setOwn(out, 'enum', [cloneJson(value)]);
    } else if (key === 'format') {
      if (typeof value === 'string' && FORMATS.has(value)) setOwn(out, key, value);
      else recorder.dropped(pointer, key, value);
    } else if (KEPT.has(key)) {
      setOwn(out, key, cloneJson(value));
    } else {
      recorder.dropped(pointer, key, value);
    }
  }
  return recorder.describeInto(pointer, out);
}

/** Each schema of a list (at `pointer`) cut down. */
function filterEach(list: unknown[], pointer: string, recorder: LossRecorder): unknown[] {
  return list.map((item, index) => filter(item, childPointer(pointer, index), recorder));
}

/** A tool's schema for Gemini: cut down, then translated to 2020-12. */
function geminiSchema(schema: unknown, pointer: string, recorder: LossRecorder): SchemaNode {
  const translated = toJsonSchema2020(filter(schema, pointer, recorder));
  return isObject(translated) ? translated : {};
}

/** `manifests/gemini.json`: `{ functionDeclarations }` for a Gemini `Tool`, in JSON Schema. */
export function buildGeminiManifest(
  project: ManifestProject,
): TargetBuild<{ functionDeclarations: GeminiFunctionDeclaration[] }> {
  const build = emptyBuild<{ functionDeclarations: GeminiFunctionDeclaration[] }>({ functionDeclarations: [] });
  return buildPerTool(project, 'gemini', build, (tool, recorder) => {
    checkTool(tool, 'gemini', GEMINI_NAMES);
    const declaration: GeminiFunctionDeclaration = {
      name: tool.name,
      description: tool.description,
      parametersJsonSchema: geminiSchema(tool.inputSchema, '/inputSchema', recorder),
    };
    if (tool.outputSchema !== undefined)
      declaration.responseJsonSchema = geminiSchema(tool.outputSchema, '/outputSchema', recorder);
    build.content.functionDeclarations.push(declaration);
  });
}
