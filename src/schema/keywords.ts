/**
 * The one keyword table: every JSON Schema keyword toolsmith knows (draft-07's, 2020-12's, and those
 * Ajv gives a meaning outside both) with its kind, where its value holds subschemas, and the dialects
 * it belongs to. The schema walker (`walk.ts`), the dialect rule (`dialect.ts`), the
 * 2020-12 translation, the defaults check and the manifest builders all read their keyword lists from
 * here, so they cannot disagree. Imports nothing but types.
 */
/** The JSON Schema dialects toolsmith reads: draft-07 (its own) and 2020-12 (MCP's). */
export type SchemaDialect = 'draft-07' | '2020-12';

/**
 * What a keyword does. `annotation`: never changes what validates (Ajv has no code for it);
 * `applicator`: applies subschemas to the instance or its parts; `validation`: asserts on the
 * instance itself; `meta`: structures or references schemas (`$ref`, `$defs`, anchors);
 * `tooling`: addressed to programs reading the schema, never to a validator or a model.
 */
export type KeywordKind = 'annotation' | 'applicator' | 'validation' | 'meta' | 'tooling';

/**
 * Where a keyword's value holds subschemas: `schema` one schema (`not`); `list` an array of them
 * (`anyOf`); `map` name → schema (`properties`, `$defs`); `schema-or-list` one schema or a tuple
 * (draft-07 `items`); `map-of-schema-or-names` name → schema or a list of property names
 * (draft-07 `dependencies`).
 */
export type SubschemaPosition = 'schema' | 'list' | 'map' | 'schema-or-list' | 'map-of-schema-or-names';

/** The specification (or library) that defines a keyword: the earliest of draft-07, 2019-09, 2020-12 that has it. */
type KeywordOrigin = 'draft-07' | '2019-09' | '2020-12' | 'draft-04' | 'ajv' | 'ajv-formats';

/** One row of the table. */
export interface KeywordInfo {
  readonly kind: KeywordKind;
  readonly origin: KeywordOrigin;
  /** The dialects toolsmith counts it a keyword of (a few beyond their specification: `beyondSpec`). */
  readonly dialects: readonly SchemaDialect[];
  readonly subschemas?: SubschemaPosition;
  /**
   * Dialects in `dialects` whose specification does not define it: draft-07's `$defs` (Ajv's draft-07
   * class knows it and `$ref` resolves into it), `deprecated` (Ajv's draft-07 metadata vocabulary),
   * 2020-12's `definitions` (still written by many tools; Ajv resolves `$ref` into it).
   */
  readonly beyondSpec?: readonly SchemaDialect[];
  /** Dialects where it is not the dialect's keyword but Ajv gives it a meaning, so "ignored" would be untrue: an error. */
  readonly ajvMeaning?: readonly SchemaDialect[];
}

const BOTH: readonly SchemaDialect[] = ['draft-07', '2020-12'];
const DRAFT_07: readonly SchemaDialect[] = ['draft-07'];
const ONLY_2020: readonly SchemaDialect[] = ['2020-12'];
const NONE: readonly SchemaDialect[] = [];

/** The rows of `keywords`, each with the same kind, origin, dialects and `extra`. */
function rows(
  keywords: readonly string[],
  kind: KeywordKind,
  origin: KeywordOrigin,
  dialects: readonly SchemaDialect[],
  extra: Partial<Pick<KeywordInfo, 'subschemas' | 'beyondSpec' | 'ajvMeaning'>> = {},
): Array<readonly [string, KeywordInfo]> {
  return keywords.map((keyword) => [keyword, Object.freeze({ kind, origin, dialects, ...extra })]);
}

/*
 * The order of the rows is the order the walker visits subschemas in: maps, then single schemas, then
 * lists, then `items` and `dependencies` (kept from the walkers this table replaced, so problems and
 * generated output keep their order).
 */
const ROWS: ReadonlyArray<readonly [string, KeywordInfo]> = [
  // Subschema maps.
  ...rows(['properties', 'patternProperties'], 'applicator', 'draft-07', BOTH, { subschemas: 'map' }),
  ...rows(['definitions'], 'meta', 'draft-07', BOTH, { subschemas: 'map', beyondSpec: ONLY_2020 }),
  ...rows(['$defs'], 'meta', '2019-09', BOTH, { subschemas: 'map', beyondSpec: DRAFT_07 }),
  ...rows(['dependentSchemas'], 'applicator', '2019-09', ONLY_2020, { subschemas: 'map' }),
  // One subschema.
  ...rows(['additionalItems'], 'applicator', 'draft-07', DRAFT_07, { subschemas: 'schema' }),
  ...rows(['additionalProperties', 'contains'], 'applicator', 'draft-07', BOTH, { subschemas: 'schema' }),
  ...rows(['propertyNames', 'if', 'then', 'else', 'not'], 'applicator', 'draft-07', BOTH, { subschemas: 'schema' }),
  ...rows(['unevaluatedItems', 'unevaluatedProperties'], 'applicator', '2019-09', ONLY_2020, { subschemas: 'schema' }),
  ...rows(['contentSchema'], 'annotation', '2019-09', ONLY_2020, { subschemas: 'schema' }),
  // Lists of subschemas.
  ...rows(['allOf', 'anyOf', 'oneOf'], 'applicator', 'draft-07', BOTH, { subschemas: 'list' }),
  ...rows(['prefixItems'], 'applicator', '2020-12', ONLY_2020, { subschemas: 'list' }),
  ...rows(['items'], 'applicator', 'draft-07', BOTH, { subschemas: 'schema-or-list' }),
  ...rows(['dependencies'], 'applicator', 'draft-07', DRAFT_07, {
    subschemas: 'map-of-schema-or-names',
    ajvMeaning: ONLY_2020,
  }),
  // Core.
  ...rows(['$schema', '$id', '$comment'], 'tooling', 'draft-07', BOTH),
  ...rows(['$ref'], 'meta', 'draft-07', BOTH),
  ...rows(['$anchor'], 'meta', '2019-09', ONLY_2020),
  ...rows(['$dynamicRef', '$dynamicAnchor'], 'meta', '2020-12', ONLY_2020),
  ...rows(['$vocabulary'], 'meta', '2019-09', ONLY_2020),
  ...rows(['$recursiveRef', '$recursiveAnchor'], 'meta', '2019-09', NONE, { ajvMeaning: BOTH }),
  // Annotations.
  ...rows(['title', 'description', 'default', 'examples', 'readOnly', 'writeOnly'], 'annotation', 'draft-07', BOTH),
  ...rows(['deprecated'], 'annotation', '2019-09', BOTH, { beyondSpec: DRAFT_07 }),
  ...rows(['contentMediaType', 'contentEncoding'], 'annotation', 'draft-07', BOTH),
  // Validation: any instance, numbers, strings, arrays, objects, strings again (`format`).
  ...rows(['type', 'enum', 'const'], 'validation', 'draft-07', BOTH),
  ...rows(['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'], 'validation', 'draft-07', BOTH),
  ...rows(['maxLength', 'minLength', 'pattern'], 'validation', 'draft-07', BOTH),
  ...rows(['maxItems', 'minItems', 'uniqueItems'], 'validation', 'draft-07', BOTH),
  ...rows(['maxContains', 'minContains'], 'validation', '2019-09', ONLY_2020),
  ...rows(['maxProperties', 'minProperties', 'required'], 'validation', 'draft-07', BOTH),
  ...rows(['dependentRequired'], 'validation', '2019-09', ONLY_2020),
  ...rows(['format'], 'validation', 'draft-07', BOTH),
  // Outside both dialects, given a meaning by Ajv or ajv-formats.
  ...rows(['nullable'], 'validation', 'ajv', NONE, { ajvMeaning: BOTH }),
  ...rows(['$async'], 'meta', 'ajv', NONE, { ajvMeaning: BOTH }),
  ...rows(['id'], 'meta', 'draft-04', NONE, { ajvMeaning: BOTH }),
  ...rows(['formatMaximum', 'formatMinimum'], 'validation', 'ajv-formats', NONE, { ajvMeaning: BOTH }),
  ...rows(['formatExclusiveMaximum', 'formatExclusiveMinimum'], 'validation', 'ajv-formats', NONE, {
    ajvMeaning: BOTH,
  }),
];

/** keyword → its row, undefined for one toolsmith does not know (a Map: keywords come from user schemas, `constructor` is no keyword). */
export const SCHEMA_KEYWORDS: ReadonlyMap<string, KeywordInfo> = new Map(ROWS);

/** The keywords (in table order) whose row passes `test`. */
export function keywordsWhere(test: (info: KeywordInfo, keyword: string) => boolean): string[] {
  return ROWS.filter(([keyword, info]) => test(info, keyword)).map(([keyword]) => keyword);
}

/** The keywords of a kind, as a set. */
export function keywordsOfKind(kind: KeywordKind): ReadonlySet<string> {
  return new Set(keywordsWhere((info) => info.kind === kind));
}

/** The keywords of a dialect (its specification's, plus `beyondSpec` ones). */
export function keywordsOfDialect(dialect: SchemaDialect): ReadonlySet<string> {
  return new Set(keywordsWhere((info) => info.dialects.includes(dialect)));
}

/** The keywords that hold a schema's definitions: draft-07's `definitions` and 2020-12's `$defs` (Ajv resolves `$ref`s into both, in both dialects). */
export const DEFINITION_CONTAINERS = ['definitions', '$defs'] as const;

/** Keywords that only annotate: a schema made of these (and tooling keywords) accepts every value. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = keywordsOfKind('annotation');

/** Keywords addressed to programs reading the schema (`$schema`, `$id`, `$comment`): removed from a manifest without a loss entry. */
export const TOOLING_KEYWORDS: ReadonlySet<string> = keywordsOfKind('tooling');
