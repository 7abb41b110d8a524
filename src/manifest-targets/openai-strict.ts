import { DEFINITION_CONTAINERS, ANNOTATION_KEYWORDS, TOOLING_KEYWORDS } from '../schema/keywords.js';
import { forEachSubschema, isObject, mapValues, type SchemaNode, setOwn } from '../schema/walk.js';
import {
  buildPerTool,
  checkTool,
  childPointer,
  describesObject,
  type KeywordRule,
  type KeywordTable,
  type ManifestProject,
  type ManifestTool,
  oneOfAsAnyOf,
  keepFormats,
  prepareRoot,
  type RewriteState,
  rewriteKeywords,
  type TargetBuild,
  tupleAsAnyOf,
  refuse,
} from './build.js';
import {
  OPENAI_FORBIDDEN_AT_ROOT,
  OPENAI_NAMES,
  type OpenAiResponsesTool,
  type OpenAiTool,
  responsesEntry,
} from './openai.js';
import { deferEntries } from './defer-loading.js';

/*
 * OpenAI Structured Outputs (`strict: true`) rules. Sources:
 * - Supported schemas, "all fields must be required", "additionalProperties: false must always be set",
 *   root must be an object and not `anyOf`, `$defs`/definitions and recursive `$ref` supported, limits:
 *   https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 *   (current text mirrored in github.com/CodeTreatise/Gen-AI, lesson 14/03 and 14/05).
 * - Supported keywords (allow-list): strings `pattern`, `format` (date-time, time, date, duration, email,
 *   hostname, ipv4, ipv6, uuid); numbers `multipleOf`, `maximum`, `exclusiveMaximum`, `minimum`,
 *   `exclusiveMinimum`; arrays `minItems`, `maxItems`. Not listed there, hence dropped here: `minLength`,
 *   `maxLength`, `uniqueItems`, `minProperties`, `maxProperties`, `patternProperties`, ... — same guide.
 * - Keywords the openai SDK itself rejects for strict schemas (allOf, oneOf, not, if/then/else,
 *   dependencies, patternProperties, propertyNames, uniqueItems, contains, tuple `items`,
 *   `additionalItems`, ...): `JSON_SCHEMA_UNSUPPORTED_SCHEMA_KEYWORDS` in node_modules/openai/lib/transform.mjs
 *   (openai@7.59.0), which also requires `$ref` siblings to be annotations only and arrays to have `items`.
 * - `default` is dropped: the API answered "'default' is not permitted" for strict schemas
 *   (https://zenn.dev/nicopin/scraps/a8d8f53f5faebb), and a strict call always carries every property.
 */

/** String formats strict mode supports. */
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/**
 * Size limits of a strict schema (structured-outputs guide, "Objects have limitations on nesting depth and
 * size"), each with what it counts: object properties in total, levels of object nesting, enum values in
 * total, and the characters of all property names, definition names, enum values and const values together.
 */
const LIMITS = {
  properties: { most: 5000, counted: 'object properties' },
  nesting: { most: 10, counted: 'levels of object nesting' },
  enumValues: { most: 1000, counted: 'enum values' },
  stringChars: { most: 120000, counted: 'characters of names and enum/const values' },
} as const;

const NULL_SCHEMA = (): SchemaNode => ({ type: 'null' });

function isNullSchema(schema: unknown): boolean {
  return isObject(schema) && schema.type === 'null';
}

/** True when a converted schema says what its values are: a `type`, or a `$ref`, `anyOf`, `enum` or `const`. */
function isShaped(schema: SchemaNode): boolean {
  return schema.type !== undefined || ['$ref', 'anyOf', 'enum', 'const'].some((key) => Object.hasOwn(schema, key));
}

/** Makes an optional property's converted (hence shaped: see `convert`) schema also accept `null`: strict mode has no optional properties. */
function makeNullable(schema: SchemaNode): SchemaNode {
  const hasType = schema.type !== undefined;
  const out: SchemaNode = {};
  for (const key of Object.keys(schema)) setNullable(out, key, schema[key], hasType);
  return out;
}

/**
 * Copies one keyword of a schema made nullable: `type`, a type-less `anyOf`, `enum` and `const` also
 * admit `null`, and a `$ref` (beside annotations only) becomes `anyOf` of the reference and `null`.
 */
function setNullable(out: SchemaNode, key: string, value: unknown, hasType: boolean): void {
  if (key === '$ref') setOwn(out, 'anyOf', [{ $ref: value }, NULL_SCHEMA()]);
  else if (key === 'type' && typeof value === 'string') setOwn(out, key, value === 'null' ? value : [value, 'null']);
  else if (key === 'type' && Array.isArray(value))
    setOwn(out, key, value.includes('null') ? value : [...value, 'null']);
  else if (key === 'anyOf' && !hasType && Array.isArray(value))
    setOwn(out, key, value.some(isNullSchema) ? value : [...value, NULL_SCHEMA()]);
  else if (key === 'enum' && Array.isArray(value)) setOwn(out, key, value.includes(null) ? value : [...value, null]);
  else if (key === 'const') setOwn(out, value === null ? 'const' : 'enum', value === null ? null : [value, null]);
  else setOwn(out, key, value);
}

/**
 * The `properties` of a strict object: every property converted, the optional ones made nullable (the
 * runtime's `stripOptionalNulls` takes a `null` sent for one of them as the property left out).
 */
const convertProperties: KeywordRule<RewriteState> = (value, state) => {
  const required = new Set(Array.isArray(state.node.required) ? (state.node.required as unknown[]) : []);
  const properties = mapValues(value, (schema, name) => {
    const converted = state.rewrite(schema, childPointer(state.pointer, 'properties', name)) as SchemaNode;
    return required.has(name) ? converted : makeNullable(converted);
  });
  setOwn(state.out, 'properties', properties);
};

/** How `additionalProperties` rewritten to `false` is told: see `LossRecorder.rewritten`. */
const CLOSED =
  'to `false`: the model cannot send properties the definition does not name, though the runtime accepts them';

/** How `additionalProperties: false` added to an object that names no properties is told. */
const CLOSED_EMPTY =
  'to `false` on an object that names no properties, so it can only be empty: the model cannot send any property, though the runtime accepts them';

/** Strict mode's keyword table (the rules and sources above). */
const STRICT_KEYWORDS: KeywordTable<RewriteState> = {
  skipped: TOOLING_KEYWORDS,
  rules: new Map<string, KeywordRule<RewriteState>>([
    ['format', keepFormats(FORMATS, `strict mode supports only ${[...FORMATS].join(', ')}`)],
    ['properties', convertProperties],
    ['required', (_value, { out }) => setOwn(out, 'required', [])],
    [
      'additionalProperties',
      (value, { pointer, recorder, out }) => {
        if (value !== false) recorder.rewritten(pointer, 'additionalProperties', value, CLOSED);
        setOwn(out, 'additionalProperties', false);
      },
    ],
    ['items', tupleAsAnyOf],
    ['oneOf', oneOfAsAnyOf],
  ]),
  walked: new Set(['anyOf', ...DEFINITION_CONTAINERS]),
  kept: new Set([
    'type',
    'title',
    'description',
    'enum',
    'const',
    '$ref',
    'pattern',
    'multipleOf',
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'minItems',
    'maxItems',
  ]),
};

/** Strict mode allows only annotations beside a `$ref` (openai/lib/transform.mjs, validateRefSchemas): the rest is dropped. */
function keepOnlyRefAnnotations({ node, pointer, recorder, out }: RewriteState): void {
  for (const key of Object.keys(out)) {
    if (key === '$ref' || key === 'title' || key === 'description') continue;
    if (STRICT_KEYWORDS.kept.has(key) || key === 'format') recorder.dropped(pointer, key, node[key]);
    delete out[key];
  }
}

/** A strict object lists every property in `required` and allows no others. */
function closeObject({ node, pointer, recorder, out }: RewriteState): void {
  if (!Object.hasOwn(out, 'properties')) {
    setOwn(out, 'properties', {});
    if (!Object.hasOwn(node, 'additionalProperties'))
      recorder.rewritten(pointer, 'additionalProperties', true, CLOSED_EMPTY);
  }
  if (!Object.hasOwn(out, 'additionalProperties')) setOwn(out, 'additionalProperties', false);
  setOwn(out, 'required', Object.keys(out.properties as SchemaNode));
}

/** One tool's strict conversion: what every node of its schema is converted with. */
type StrictTool = Omit<RewriteState, 'node' | 'pointer' | 'out'> & { readonly name: string };

function convert(node: unknown, pointer: string, tool: StrictTool): SchemaNode {
  const { recorder, rewrite } = tool;
  const unrepresentable = (why: string): never =>
    refuse(tool, recorder.target, pointer, `the schema at ${pointer} ${why}`);
  if (node === false) unrepresentable('is `false` (accepts nothing)');
  // `true`, or a schema of annotations only.
  if (!isObject(node) || Object.keys(node).every((key) => ANNOTATION_KEYWORDS.has(key) || TOOLING_KEYWORDS.has(key)))
    return unrepresentable('accepts any value; strict mode needs a `type` for every value');
  const state: RewriteState = { node, pointer, out: {}, recorder, rewrite };
  rewriteKeywords(STRICT_KEYWORDS, state);
  if (Object.hasOwn(state.out, '$ref')) {
    keepOnlyRefAnnotations(state);
    return recorder.describeInto(pointer, state.out);
  }
  if (describesObject(node)) closeObject(state);
  const { out } = state;
  if ([out.type].flat().includes('array') && !Object.hasOwn(out, 'items'))
    unrepresentable('is an array without `items`; strict mode needs the item schema');
  if (!isShaped(out)) unrepresentable('has no `type`; strict mode needs a `type` for every value');
  return recorder.describeInto(pointer, out);
}

/** Checks the strict size limits on the converted schema. */
function checkLimits(tool: ManifestTool, parameters: SchemaNode, target: string): void {
  const totals = { properties: 0, nesting: 0, enumValues: 0, stringChars: 0 };
  const visit = (node: unknown, depth: number): void => {
    if (!isObject(node)) return;
    const level = describesObject(node) ? depth + 1 : depth;
    totals.nesting = Math.max(totals.nesting, level);
    if (Array.isArray(node.enum)) {
      totals.enumValues += node.enum.length;
      for (const value of node.enum) if (typeof value === 'string') totals.stringChars += value.length;
    }
    if (typeof node.const === 'string') totals.stringChars += node.const.length;
    // A converted schema holds subschemas under properties, definitions, items and anyOf only.
    forEachSubschema(node, '', (child, _pointer, { keyword, at }) => {
      if (typeof at === 'string') totals.stringChars += at.length;
      if (keyword === 'properties') totals.properties += 1;
      visit(child, keyword === 'definitions' || keyword === '$defs' ? 0 : level);
    });
  };
  visit(parameters, 0);
  for (const limit of Object.keys(LIMITS) as Array<keyof typeof LIMITS>) {
    const { most, counted } = LIMITS[limit];
    if (totals[limit] > most)
      refuse(
        tool,
        target,
        '/inputSchema',
        `its input schema has ${totals[limit]} ${counted}, over strict mode's limit of ${most}`,
      );
  }
}

/** Builds a strict target tool by tool: each entry made by `entry` from the strict parameters. */
function buildStrict<TEntry>(
  project: ManifestProject,
  target: string,
  entry: (tool: ManifestTool, parameters: SchemaNode) => TEntry,
): TargetBuild<TEntry[]> {
  return buildPerTool<TEntry[]>(project, target, [], (tool, recorder, content) => {
    checkTool(tool, target, OPENAI_NAMES);
    const root = prepareRoot(tool.inputSchema as SchemaNode, recorder, OPENAI_FORBIDDEN_AT_ROOT);
    const strictTool: StrictTool = {
      name: tool.name,
      recorder,
      rewrite: (schema, pointer) => convert(schema, pointer, strictTool),
    };
    const parameters = convert(root, '/inputSchema', strictTool);
    checkLimits(tool, parameters, target);
    content.push(entry(tool, parameters));
  });
}

/** `manifests/openai-strict.json`: Chat Completions function tools with `strict: true`. */
export function buildOpenAiStrictManifest(project: ManifestProject): TargetBuild<OpenAiTool[]> {
  return buildStrict<OpenAiTool>(project, 'openai-strict', ({ name, description }, parameters) => ({
    type: 'function',
    function: { name, description, parameters, strict: true },
  }));
}

/** `manifests/openai-responses-strict.json`: Responses API function tools with `strict: true` (the strict rules above). */
export function buildOpenAiResponsesStrictManifest(project: ManifestProject): TargetBuild<OpenAiResponsesTool[]> {
  const build = buildStrict(project, 'openai-responses-strict', (tool, parameters) =>
    responsesEntry(tool, parameters, true),
  );
  return deferEntries(build, project, 'openai-responses-strict');
}
