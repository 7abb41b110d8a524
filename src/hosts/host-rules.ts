/*
 * The detectors the host table's rows are made of: each returns a rule's `find` — where in a served
 * tool a host's behaviour applies — for a kind of behaviour several hosts share (a keyword they delete,
 * an array without `items`, a type union, a name pattern). A new host is a row built from these; a
 * behaviour no detector covers is a new detector here.
 */
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import { codeSpan } from '../text/markdown-text.js';
import { escapePointerSegment } from '../schema/json-pointer.js';
import { JSON_SCHEMA_2020_12 } from '../schema/json-schema-2020.js';
import type { SchemaDialect } from '../schema/keywords.js';
import { forEachSubschema, isObject } from '../schema/walk.js';
import type { HostRule, RuleHit, ServedTool } from './host-profile.js';

type Find = HostRule['find'];

/*
 * Hosts walk schemas their own way — VS Code Copilot's normalizer follows a dozen keywords and never
 * enters `$defs`, Gemini CLI rewrites every JSON object it meets, enum values included — so a rule
 * names the walk its host makes.
 */

/** A subschema as a host meets it: a schema object, or `true`/`false`. */
type SchemaNode = Record<string, unknown> | boolean;

/** Called for each subschema: the node, its JSON pointer, and the keyword it sits under (`''` for the root). */
type NodeVisitor = (node: SchemaNode, pointer: string, keyword: string) => void;

/** Deeper than this, a walk stops: a hand-written schema can nest without end, and no host reads that deep. */
export const MAX_WALK_DEPTH = 128;

/**
 * Calls `visit` for `schema` and every subschema below it (booleans included), parents first. With
 * `through`, only subschemas under those keywords are entered (a host whose walker skips `$defs`).
 */
export function visitSchemaNodes(
  schema: unknown,
  pointer: string,
  visit: NodeVisitor,
  through?: ReadonlySet<string>,
): void {
  const options = { booleans: true, through };
  const step = (node: SchemaNode, at: string, keyword: string, depth: number): void => {
    visit(node, at, keyword);
    if (typeof node === 'boolean' || depth >= MAX_WALK_DEPTH) return;
    forEachSubschema(
      node,
      at,
      (child, childPointer, place) => step(child as SchemaNode, childPointer, place.keyword, depth + 1),
      options,
    );
  };
  if (typeof schema === 'boolean' || isObject(schema)) step(schema, pointer, '', 0);
}

/** The pointer of the input schema inside a served tool entry. */
export const INPUT_SCHEMA = '/inputSchema';
/** The pointer of the output schema inside a served tool entry. */
export const OUTPUT_SCHEMA = '/outputSchema';

/** A set of keywords written on one line, separated by spaces. */
export function words(line: string): ReadonlySet<string> {
  return new Set(line.split(' '));
}

/** The names JSON Schema's `type` takes. */
export const JSON_TYPES = words('string number integer boolean object array null');

/** A keyword's value, short enough for a sentence (`minLength: 1`), or the keyword alone. */
export function shown(keyword: string, value: unknown): string {
  const json = JSON.stringify(value);
  return codeSpan(json !== undefined && json.length <= 40 ? `${keyword}: ${json}` : keyword);
}

/** Hits for the input-schema nodes `test` picks (objects only), walking `through` those keywords when given. */
export function inputNodes(
  test: (node: Record<string, unknown>, pointer: string, keyword: string) => RuleHit | RuleHit[] | undefined,
  through?: ReadonlySet<string>,
): Find {
  return (tool) => {
    const hits: RuleHit[] = [];
    visitSchemaNodes(
      tool.inputSchema,
      INPUT_SCHEMA,
      (node, pointer, keyword) => {
        if (typeof node === 'boolean') return;
        const hit = test(node, pointer, keyword);
        if (hit !== undefined) hits.push(...(Array.isArray(hit) ? hit : [hit]));
      },
      through,
    );
    return hits;
  };
}

/** Each of `keywords` present on a node the walk reaches: `detail(keyword, value)` says what the host does. */
export function keywordsOnNodes(
  keywords: ReadonlySet<string>,
  detail: (keyword: string, value: unknown) => string,
  through?: ReadonlySet<string>,
): Find {
  return inputNodes(
    (node, pointer) =>
      Object.keys(node)
        .filter((keyword) => keywords.has(keyword))
        .map((keyword) => ({ pointer: `${pointer}/${keyword}`, detail: detail(keyword, node[keyword]) })),
    through,
  );
}

/** Each of `keywords` on the input schema's root (a walk through no keyword stays at the root). */
export function keywordsAtRoot(
  keywords: ReadonlySet<string>,
  detail: (keyword: string, value: unknown) => string,
): Find {
  return keywordsOnNodes(keywords, detail, new Set());
}

/** A node with `type: "array"` whose `items` is missing (or, with `falsy`, any falsy value: `items: false` too). */
export function arraysWithoutItems(
  detail: string,
  options: { falsy?: boolean; through?: ReadonlySet<string> } = {},
): Find {
  return inputNodes((node, pointer) => {
    if (node.type !== 'array') return undefined;
    const missing = options.falsy === true ? !node.items : !Object.hasOwn(node, 'items');
    return missing ? { pointer, detail } : undefined;
  }, options.through);
}

/** A node whose `type` is an array that `matches`. */
export function typeUnions(
  matches: (types: unknown[]) => boolean,
  detail: (types: unknown[]) => string,
  through?: ReadonlySet<string>,
): Find {
  return inputNodes(
    (node, pointer) =>
      Array.isArray(node.type) && matches(node.type)
        ? { pointer: `${pointer}/type`, detail: detail(node.type) }
        : undefined,
    through,
  );
}

/** A node whose `items` is an array of schemas (draft-07's tuple form); with `arrayTypeOnly`, only on `type: "array"` nodes. */
export function tupleItems(
  detail: string,
  options: { arrayTypeOnly?: boolean; through?: ReadonlySet<string> } = {},
): Find {
  return inputNodes((node, pointer) => {
    if (!Array.isArray(node.items) || (options.arrayTypeOnly === true && node.type !== 'array')) return undefined;
    return { pointer: `${pointer}/items`, detail };
  }, options.through);
}

/** An input schema whose root is not `type: "object"`. */
export function nonObjectRoot(detail: string): Find {
  return (tool) => {
    const root = tool.inputSchema;
    return isObject(root) && root.type === 'object' ? [] : [{ pointer: INPUT_SCHEMA, detail }];
  };
}

/**
 * Where a tool breaks the MCP TypeScript SDK's `Tool` shape, which SDK clients check `tools/list`
 * against: an input (or output) root that is not `type: "object"`, a `required` that is not a list of
 * names, and — in the 1.x SDK (`objectProperties`) — a property whose schema is not an object.
 */
export function toolShapeViolations(consequence: string, options: { objectProperties: boolean }): Find {
  const check = (schema: unknown, at: string): RuleHit[] => {
    const detail = (what: string) => `${consequence}: ${what}`;
    if (!isObject(schema)) return [{ pointer: at, detail: detail('the schema is not an object') }];
    const hits: RuleHit[] = [];
    if (schema.type !== 'object')
      hits.push({ pointer: `${at}/type`, detail: detail('the root is not `type: "object"`') });
    const required = schema.required;
    if (
      Object.hasOwn(schema, 'required') &&
      !(Array.isArray(required) && required.every((name) => typeof name === 'string'))
    )
      hits.push({ pointer: `${at}/required`, detail: detail('`required` is not a list of names') });
    const properties = schema.properties;
    if (options.objectProperties && isObject(properties))
      for (const name of Object.keys(properties))
        if (typeof properties[name] !== 'object' || properties[name] === null)
          hits.push({
            pointer: `${at}/properties/${escapePointerSegment(name)}`,
            detail: detail(`the property's schema is ${codeSpan(JSON.stringify(properties[name]))}, not an object`),
          });
    return hits;
  };
  return inputAndOutput(check);
}

/** `check`'s hits in the input schema, then in the output schema when the tool has one. */
export function inputAndOutput(check: (schema: unknown, pointer: string) => RuleHit[]): Find {
  return (tool) => [
    ...check(tool.inputSchema, INPUT_SCHEMA),
    ...(tool.outputSchema === undefined ? [] : check(tool.outputSchema, OUTPUT_SCHEMA)),
  ];
}

/** A tool name that does not match `pattern`. */
export function nameNotMatching(pattern: RegExp, detail: (name: string) => string): Find {
  return (tool) => (pattern.test(tool.name) ? [] : [{ pointer: '/name', detail: detail(tool.name) }]);
}

/** The input schema's subschemas that are `true` or `false`, with the keyword they sit under. */
export function booleanSubschemas(detail: (node: boolean, keyword: string) => string | undefined): Find {
  return (tool) => {
    const hits: RuleHit[] = [];
    visitSchemaNodes(tool.inputSchema, INPUT_SCHEMA, (node: SchemaNode, pointer, keyword) => {
      if (typeof node !== 'boolean' || pointer === INPUT_SCHEMA) return;
      const text = detail(node, keyword);
      if (text !== undefined) hits.push({ pointer, detail: text });
    });
    return hits;
  };
}

/*
 * Meta-schema checks. Ajv's compiler is loaded on the first such check only: a program that reads
 * the table without checking a tool never loads it.
 */
const requireCommonJs = createRequire(import.meta.url);
/** The meta-schema validator of each dialect, made on first use. */
const metaValidators: { [dialect in SchemaDialect]?: ValidateFunction } = {};

function createMetaValidator(dialect: SchemaDialect): ValidateFunction {
  // The classes are taken into constants first: tsc drops the parentheses of `new (x as T).C()`,
  // which would call `x` with `new` (tsx keeps them, so only the built package broke).
  const AjvClass: new (o: object) => Ajv =
    dialect === '2020-12'
      ? (requireCommonJs('ajv/dist/2020') as { Ajv2020: new (o: object) => Ajv }).Ajv2020
      : (requireCommonJs('ajv') as { Ajv: new (o: object) => Ajv }).Ajv;
  const ajv = new AjvClass({ strict: false, validateFormats: false, allErrors: true });
  return ajv.getSchema(dialect === '2020-12' ? JSON_SCHEMA_2020_12 : 'http://json-schema.org/draft-07/schema')!;
}

/**
 * Where the input schema, read as data, breaks a dialect's meta-schema (`exclusiveMinimum: true`,
 * `required: null`): hosts that check schemas this way refuse the tool. One hit per failing place.
 */
export function metaSchemaViolations(dialect: SchemaDialect, detail: (message: string) => string): Find {
  return (tool: ServedTool) => {
    const validate = (metaValidators[dialect] ??= createMetaValidator(dialect));
    if (validate(tool.inputSchema)) return [];
    const seen = new Set<string>();
    const hits: RuleHit[] = [];
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || seen.has(error.instancePath)) continue;
      seen.add(error.instancePath);
      hits.push({ pointer: `${INPUT_SCHEMA}${error.instancePath}`, detail: detail(error.message ?? 'is invalid') });
    }
    return hits;
  };
}
