import { createHash } from 'node:crypto';
import { GENERATOR_VERSION } from './version.js';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import definitionMetaSchema from '../tool-definition.schema.json' with { type: 'json' };
import {
  classifyFormat,
  classifyKeyword,
  DIALECT_URIS,
  findIgnoredDefaults,
  schemaDialect,
  type SchemaDialect,
} from '../src/schema-dialect.js';
import { allowUnknownFormats, createGeneratorAjv, KNOWN_FORMATS, standaloneCode } from './ajv.js';
import { addValidatorSchema } from './emit/validators.js';
import { prepareValidatorSchema } from '../src/schema-defaults.js';
import { coerceWhereNeeded } from '../src/validator-runtime.js';
import { problemAt, type LoadedFiles, type SourceFile } from './load.js';
import type { ComposedStep, Problem, ProjectModel, SharedSchemaModel, ToolExample, ToolModel } from './model.js';
import {
  compareStrings,
  definitionTypeName,
  findIdentifierCollisions,
  sharedIdentifierClaims,
  sharedModuleStem,
  sharedRootTypeName,
  toDisplayName,
  toolIdentifierClaims,
  TOOL_NAME_PATTERN,
  toolNames,
  type IdentifierClaim,
} from './naming.js';
import { asWarning, closest, isWarning, sortProblems } from './problems.js';
import { dictionary } from './dictionary.js';
import { checkBooleanSchemas } from './rules/boolean-schemas.js';
import { checkComposedCycles } from './rules/composed-cycles.js';
import { relocateToShared, type SharedHome } from './rules/shared-positions.js';
import { decodeFragment, decodePercent, escapePointerSegment, parsePointer } from './pointer.js';
import {
  cloneJson,
  DEFINITION_CONTAINERS,
  hasOwn,
  isObject,
  mapSchema,
  setOwn,
  sortKeysDeep,
  walkSchema,
} from './schema-walk.js';

export { GENERATOR_VERSION } from './version.js';

const DEFINITION_FIELDS = Object.keys(definitionMetaSchema.properties);

/**
 * The definition meta-schema as normalize checks it: the two schema fields only as objects, since
 * each is then checked against its own dialect's meta-schema (draft-07 or 2020-12, by its `$schema`).
 */
const { definitions: _schemaDefinitions, ...definitionFields } = definitionMetaSchema;
const DEFINITION_CHECK = {
  ...definitionFields,
  // Boolean schemas are reported by rules/boolean-schemas.ts, with their own message.
  properties: {
    ...definitionMetaSchema.properties,
    inputSchema: { type: ['object', 'boolean'] },
    outputSchema: { type: ['object', 'boolean'] },
  },
};

const SCHEMA_FIELDS = ['inputSchema', 'outputSchema'] as const;

/** What a definition's `typeName` must match (the pattern of tool-definition.schema.json). */
const TYPE_NAME_PATTERN = new RegExp(definitionMetaSchema.properties.typeName.pattern);

/** Where each dialect's keywords are specified, for hints. */
const DIALECT_DOCS: Readonly<Record<SchemaDialect, string>> = {
  'draft-07': 'https://json-schema.org/draft-07/json-schema-validation',
  '2020-12': 'https://json-schema.org/draft/2020-12/json-schema-validation',
};

/** The result of normalize: the model when there were no problems. */
export interface NormalizeResult {
  project: ProjectModel;
  problems: Problem[];
  /** Problems that do not block the run (`severity: 'warning'`), e.g. an unknown keyword that is no typo, or a default Ajv never fills in. */
  warnings: Problem[];
}

interface SharedEntry {
  source: SourceFile;
  model: SharedSchemaModel;
  schema: Record<string, unknown>;
  dialect: SchemaDialect;
}

/**
 * Turns loaded files into the sorted, frozen `ProjectModel`: checks every definition against the
 * definition meta-schema and draft-07, resolves and bundles `$ref`s, decides names, checks
 * examples and composed steps, and collects every problem.
 */
export function normalize(
  loaded: LoadedFiles,
  options: {
    isUnchanged?: (name: string, hash: string) => boolean;
    /** A model the last successful run built from exactly this definition (see cache.ts `readModels`): used as it is. */
    cached?: (source: SourceFile) => ToolModel | undefined;
  } = {},
): NormalizeResult {
  const problems: Problem[] = [...loaded.problems];
  const ajv = createGeneratorAjv();
  // Ajv's 2020-12 class (and its meta-schemas) only for a project that has a 2020-12 schema.
  let ajv2020: Ajv | undefined;
  const metaAjv = {
    'draft-07': ajv,
    get '2020-12'() {
      return (ajv2020 ??= createGeneratorAjv({ dialect: '2020-12' }));
    },
  } as Record<SchemaDialect, Ajv>;
  const checkDefinition = ajv.compile(DEFINITION_CHECK);

  const shared = indexShared(loaded.shared, problems, metaAjv);
  const sourcesByName = new Map<string, SourceFile>();
  const candidates: { source: SourceFile; definition: Record<string, any>; cached?: ToolModel }[] = [];

  const problemCount = new Map<SourceFile, number>();
  const toolWarnings = new Map<SourceFile, Problem[]>();
  for (const source of loaded.tools) {
    if (source.value === undefined) continue;
    // Built from these very bytes by the last successful run: no definition, keyword or example check can fail.
    const cached = options.cached?.(source);
    if (
      cached !== undefined &&
      isObject(source.value) &&
      (source.value as Record<string, unknown>).name === cached.name &&
      !sourcesByName.has(cached.name)
    ) {
      sourcesByName.set(cached.name, source);
      if (cached.warnings !== undefined) problems.push(...cached.warnings);
      candidates.push({ source, definition: source.value as Record<string, any>, cached });
      continue;
    }
    if (!isObject(source.value)) {
      problems.push(
        problemAt(
          source,
          '',
          'a tool definition must be a JSON object',
          'see tool-definition.schema.json for the fields',
        ),
      );
      continue;
    }
    const definition = source.value as Record<string, any>;
    const before = problems.length;
    if (!checkDefinition(definition)) problems.push(...definitionErrors(source, checkDefinition.errors ?? []));
    problems.push(...checkBooleanSchemas(source, definition));
    const warnings: Problem[] = [];
    const dialects = new Set<SchemaDialect>();
    for (const key of SCHEMA_FIELDS) {
      if (!hasOwn(definition, key) || !isObject(definition[key])) continue;
      const dialect = checkDialect(source, definition[key], `/${key}`, metaAjv, problems);
      if (dialect === undefined) continue;
      if (dialects.size > 0 && !dialects.has(dialect)) {
        problems.push(
          problemAt(
            source,
            `/${key}`,
            `the outputSchema is ${dialect} but the inputSchema is ${[...dialects][0]}`,
            'give both schemas the same `$schema`: one tool compiles to one validator module',
          ),
        );
      }
      dialects.add(dialect);
      checkKeywords(source, definition[key], `/${key}`, problems, dialect, warnings);
      checkIgnoredDefaults(source, definition[key], `/${key}`, warnings);
    }
    problems.push(...warnings);
    if (warnings.length > 0) toolWarnings.set(source, warnings);
    if (isObject(definition.inputSchema) && definition.inputSchema.type !== 'object') {
      problems.push(
        problemAt(
          source,
          '/inputSchema',
          `the input schema's root must be \`"type": "object"\` (it is ${JSON.stringify(definition.inputSchema.type ?? 'unset')})`,
          'LLM providers pass tool arguments as one object: wrap the values in `properties`',
        ),
      );
    }
    problemCount.set(source, problems.length - before - warnings.length);
    if (typeof definition.name !== 'string' || !TOOL_NAME_PATTERN.test(definition.name)) continue;
    if (
      hasOwn(definition, 'typeName') &&
      (typeof definition.typeName !== 'string' || !TYPE_NAME_PATTERN.test(definition.typeName))
    )
      continue;
    const previous = sourcesByName.get(definition.name);
    if (previous) {
      problems.push(
        problemAt(
          source,
          '/name',
          `the tool name "${definition.name}" is already used by ${previous.file}`,
          'tool names must be unique: rename one of them',
        ),
      );
      continue;
    }
    sourcesByName.set(definition.name, source);
    candidates.push({ source, definition });
  }

  checkNameCollisions(candidates, problems);

  const tools: ToolModel[] = [];
  for (const { source, definition, cached } of candidates) {
    if (cached !== undefined) {
      tools.push(cached);
      continue;
    }
    if (
      !isObject(definition.inputSchema) ||
      (definition.outputSchema !== undefined && !isObject(definition.outputSchema))
    )
      continue;
    const defaultWarnings: Problem[] = [];
    const model = buildTool(
      source,
      definition,
      shared,
      problems,
      (problemCount.get(source) ?? 0) > 0,
      options.isUnchanged,
      defaultWarnings,
    );
    problems.push(...defaultWarnings);
    if (model) {
      // The model keeps its file's warnings: a later run that reuses it (cache.ts `readModels`) reports them again.
      const warnings = [...(toolWarnings.get(source) ?? []), ...defaultWarnings];
      if (warnings.length > 0) model.warnings = warnings;
      tools.push(model);
    }
  }
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  problems.push(
    ...checkComposedCycles(
      candidates
        .filter(({ definition }) => Array.isArray(definition.steps))
        .map(({ source, definition }) => ({
          name: definition.name,
          source,
          calls: definition.steps.map((step: unknown) => (step as { tool?: unknown } | null)?.tool),
        })),
    ),
  );
  for (const { source, definition } of candidates) {
    if (Array.isArray(definition.steps))
      checkSteps(
        definition.steps,
        toolsByName.get(definition.name)?.inputSchema,
        sourcesByName,
        toolsByName,
        source,
        problems,
      );
  }

  tools.sort((a, b) => compareStrings(a.name, b.name));
  checkIdentifiers(tools, shared, [...loaded.tools, ...loaded.shared], problems);
  const sharedModels = [...shared.values()]
    .map((entry) => entry.model)
    .sort((a, b) => compareStrings(a.relPath, b.relPath));
  const unique = [
    ...new Map(
      problems.map((problem) => [`${problem.file}\0${problem.pointer}\0${problem.message}`, problem]),
    ).values(),
  ];
  return {
    project: deepFreeze({ tools, shared: sharedModels }),
    problems: sortProblems(unique.filter((problem) => !isWarning(problem))),
    warnings: sortProblems(unique.filter(isWarning)),
  };
}

/**
 * The dialect of one schema field and its check against that dialect's meta-schema; undefined (with
 * an error at `$schema`) for a `$schema` toolsmith does not support.
 */
function checkDialect(
  source: SourceFile,
  schema: Record<string, unknown>,
  pointer: string,
  metaAjv: Record<SchemaDialect, Ajv>,
  problems: Problem[],
): SchemaDialect | undefined {
  const dialect = schemaDialect(schema);
  if (dialect === undefined) {
    problems.push(
      problemAt(
        source,
        `${pointer}/$schema`,
        `unsupported $schema ${truncate(JSON.stringify(schema.$schema))}`,
        `toolsmith reads draft-07 (no \`$schema\`, or "${DIALECT_URIS['draft-07']}") and 2020-12 ("${DIALECT_URIS['2020-12']}")`,
      ),
    );
    return undefined;
  }
  // The dialect is decided: the instance's own meta-schema checks it (whatever spelling of the URI it used).
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) if (key !== '$schema') setOwn(body, key, schema[key]);
  const ajv = metaAjv[dialect];
  if (!ajv.validateSchema(body)) {
    problems.push(
      ...definitionErrors(
        source,
        (ajv.errors ?? []).map((error) => ({ ...error, instancePath: `${pointer}${error.instancePath}` })),
        dialect,
      ),
    );
  }
  return dialect;
}

function definitionErrors(source: SourceFile, errors: ErrorObject[], dialect: SchemaDialect = 'draft-07'): Problem[] {
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // Errors under a schema field come from the draft-07 meta-schema; keep the most specific ones.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    let problem: Problem;
    if (error.keyword === 'additionalProperties' && error.instancePath === '') {
      const field = String(error.params.additionalProperty);
      const suggestion = closest(field, DEFINITION_FIELDS);
      problem = problemAt(
        source,
        `/${escapePointerSegment(field)}`,
        `unknown field "${field}" in a tool definition`,
        suggestion ? `did you mean \`${suggestion}\`?` : `the fields are: ${DEFINITION_FIELDS.join(', ')}`,
        true,
      );
    } else if (error.keyword === 'additionalProperties') {
      const field = String(error.params.additionalProperty);
      problem = problemAt(
        source,
        `${error.instancePath}/${escapePointerSegment(field)}`,
        `unknown field "${field}"`,
        undefined,
        true,
      );
    } else if (error.keyword === 'required') {
      const field = String(error.params.missingProperty);
      problem = problemAt(
        source,
        error.instancePath,
        `missing required field "${field}"`,
        error.instancePath === '' ? `a definition needs name, description and inputSchema` : undefined,
      );
    } else if (error.keyword === 'pattern' && error.instancePath === '/name') {
      problem = problemAt(
        source,
        '/name',
        `the tool name ${JSON.stringify(truncate(String(source.value && (source.value as any).name)))} does not match ${error.params.pattern}`,
        'use letters, digits, `_` and `-`, starting with a letter or `_`, at most 64 characters',
      );
    } else if (error.keyword === 'pattern' && error.instancePath === '/typeName') {
      problem = problemAt(
        source,
        '/typeName',
        `the typeName ${JSON.stringify(truncate(String((source.value as any).typeName)))} is not a PascalCase identifier`,
        'use letters and digits, starting with an upper-case letter, e.g. "CalculateBmiImperial"',
      );
    } else if (
      /^\/(inputSchema|outputSchema)(\/.*)?\/type(\/\d+)?$/.test(error.instancePath) &&
      (error.keyword === 'enum' || error.keyword === 'type')
    ) {
      const value = resolvePointer(source.value, parsePointer(error.instancePath));
      const typeNames = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];
      const suggestion = typeof value === 'string' ? closest(value, typeNames) : undefined;
      problem = problemAt(
        source,
        error.instancePath,
        `${JSON.stringify(value)} is not a JSON Schema type`,
        suggestion ? `did you mean "${suggestion}"?` : `the types are: ${typeNames.join(', ')} (or an array of them)`,
      );
    } else {
      const inSchema = /^\/(inputSchema|outputSchema)/.test(error.instancePath);
      problem = problemAt(
        source,
        error.instancePath,
        `${inSchema ? `not a valid ${dialect} schema: ` : ''}${error.instancePath || 'the definition'} ${error.message}`,
        inSchema ? `see ${DIALECT_DOCS[dialect]}` : undefined,
      );
    }
    const key = `${problem.pointer}\0${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(problem);
    }
  }
  return out;
}

/**
 * Keywords and formats the schema's dialect does not define, each at its pointer: a near-typo of a
 * known one (`requried`, `emial`) or a keyword Ajv would give a meaning the dialect does not
 * (`nullable`) is an error; anything else is ignored by the dialect, so it is a warning
 * (`optional`, `markdownDescription`, a vendor annotation, `format: "json"`).
 */
function checkKeywords(
  source: SourceFile,
  schema: JSONSchema7Definition,
  pointer: string,
  problems: Problem[],
  dialect: SchemaDialect,
  warnings: Problem[] = problems,
): void {
  walkSchema(schema, pointer, (node, at) => {
    for (const key of Object.keys(node)) {
      const verdict = classifyKeyword(key, dialect);
      if (verdict.kind === 'known') continue;
      const where = `${at}/${escapePointerSegment(key)}`;
      if (verdict.kind === 'typo') {
        problems.push(
          problemAt(
            source,
            where,
            `unknown keyword "${key}"`,
            `did you mean \`${verdict.suggestion}\`? (an extension keyword must start with \`x-\`)`,
            true,
          ),
        );
      } else if (verdict.kind === 'ajv-only') {
        const hint =
          key === 'nullable'
            ? `${dialect} has no \`nullable\`: use \`"type": ["string", "null"]\``
            : key === 'dependencies'
              ? '2020-12 splits `dependencies` into `dependentRequired` (lists) and `dependentSchemas` (schemas)'
              : key === 'id'
                ? 'the schema id is `$id` since draft-06'
                : `${dialect} does not define it, but Ajv would apply it: remove it (an extension keyword must start with \`x-\`)`;
        problems.push(problemAt(source, where, `unknown keyword "${key}"`, hint, true));
      } else if (verdict.kind === 'other-dialect') {
        warnings.push(
          asWarning(
            problemAt(
              source,
              where,
              `the keyword "${key}" is ignored: it is ${verdict.dialect}, and this schema is ${dialect}`,
              `declare \`"$schema": "${DIALECT_URIS[verdict.dialect]}"\` at the schema's root to use it, or remove it`,
              true,
            ),
          ),
        );
      } else {
        const hint =
          key === 'optional'
            ? `${dialect} has no \`optional\`: a property is optional unless its parent lists it in \`required\``
            : key === 'example'
              ? `${dialect}'s keyword is \`examples\` (an array); \`example\` is OpenAPI's`
              : `${dialect} ignores keywords it does not define; remove it, or rename it \`x-${key}\` to mark it as an extension`;
        warnings.push(asWarning(problemAt(source, where, `unknown keyword "${key}" is ignored`, hint, true)));
      }
    }
    if (hasOwn(node, 'format') && typeof node.format === 'string') {
      const verdict = classifyFormat(node.format, KNOWN_FORMATS);
      if (verdict.kind === 'typo') {
        problems.push(
          problemAt(
            source,
            `${at}/format`,
            `unknown format "${node.format}"`,
            `did you mean \`${verdict.suggestion}\`? Known formats: ${[...KNOWN_FORMATS].join(', ')}`,
          ),
        );
      } else if (verdict.kind === 'ignored') {
        warnings.push(
          asWarning(
            problemAt(
              source,
              `${at}/format`,
              `unknown format "${node.format}" is ignored: every value passes it`,
              `toolsmith checks these formats: ${[...KNOWN_FORMATS].join(', ')}`,
            ),
          ),
        );
      }
    }
  });
}

/**
 * Defaults Ajv never fills in (`findIgnoredDefaults`), each a warning at its pointer (the defaults
 * check, `findDefaultMismatches`, leaves them alone: they cannot be filled in and rejected).
 */
function checkIgnoredDefaults(
  source: SourceFile,
  schema: Record<string, unknown>,
  pointer: string,
  warnings: Problem[],
): void {
  for (const { pointer: at, value, reason } of findIgnoredDefaults(schema)) {
    const shown = truncate(JSON.stringify(value));
    const [message, hint] =
      reason.kind === 'composite'
        ? [
            `it is inside \`${reason.keyword}\``,
            `Ajv fills in defaults only outside anyOf, oneOf, not and if: put the default on the property that holds the \`${reason.keyword}\`, or remove it`,
          ]
        : reason.kind === 'root'
          ? [
              'it is at the schema root',
              'defaults are filled in for properties: give each property its own `default`, or remove this one',
            ]
          : reason.kind === 'definition'
            ? [
                'it is on a definition',
                "put the default beside the `$ref` that uses the definition (a property's own `default` is filled in)",
              ]
            : [
                `only a property's (or tuple item's) default is filled in, and this one is under \`${reason.keyword}\``,
                'put the default on the property that holds this schema, or remove it',
              ];
    warnings.push(
      asWarning(
        problemAt(source, `${pointer}${at}/default`, `the default ${shown} is never filled in: ${message}`, hint),
      ),
    );
  }
}

function indexShared(
  sources: SourceFile[],
  problems: Problem[],
  metaAjv: Record<SchemaDialect, Ajv>,
): Map<string, SharedEntry> {
  const shared = new Map<string, SharedEntry>();
  const typeOwners = new Map<string, string>();
  for (const source of sources) {
    if (source.value === undefined) continue;
    if (!isObject(source.value)) {
      problems.push(problemAt(source, '', 'a shared schema must be a JSON object'));
      continue;
    }
    const schema = source.value;
    const before = problems.length;
    const dialect = schemaDialect(schema);
    if (dialect === undefined) {
      problems.push(
        problemAt(
          source,
          '/$schema',
          `unsupported $schema ${truncate(JSON.stringify(schema.$schema))}`,
          `toolsmith reads draft-07 (no \`$schema\`, or "${DIALECT_URIS['draft-07']}") and 2020-12 ("${DIALECT_URIS['2020-12']}")`,
        ),
      );
      continue;
    }
    const body: Record<string, unknown> = {};
    for (const key of Object.keys(schema)) if (key !== '$schema') setOwn(body, key, schema[key]);
    const ajv = metaAjv[dialect];
    if (!ajv.validateSchema(body)) {
      for (const error of ajv.errors ?? []) {
        if (error.keyword === 'anyOf') continue;
        problems.push(
          problemAt(
            source,
            error.instancePath,
            `not a valid ${dialect} schema: ${error.instancePath || 'the schema'} ${error.message}`,
          ),
        );
      }
    }
    const warnings: Problem[] = [];
    checkKeywords(source, schema as JSONSchema7, '', problems, dialect, warnings);
    checkIgnoredDefaults(source, schema, '', warnings);
    const failed = problems.length > before;
    problems.push(...warnings);
    if (failed) continue;
    const typeNames: Record<string, string> = { '#': sharedRootTypeName(source.relPath) };
    for (const container of DEFINITION_CONTAINERS) {
      const definitions = schema[container];
      if (!hasOwn(schema, container) || !isObject(definitions)) continue;
      for (const key of Object.keys(definitions).sort(compareStrings))
        typeNames[`#/${container}/${escapePointerSegment(key)}`] = definitionTypeName(key);
    }
    let clash = false;
    for (const [pointer, typeName] of Object.entries(typeNames)) {
      const owner = typeOwners.get(typeName);
      if (owner) {
        problems.push(
          problemAt(
            source,
            pointer === '#' ? '' : pointer.slice(1),
            `shared type name "${typeName}" is already taken by ${owner}`,
            'rename the file or the definition: generated type names must be unique',
          ),
        );
        clash = true;
      } else typeOwners.set(typeName, `${source.file}${pointer === '#' ? '' : ` ${pointer}`}`);
    }
    if (clash) continue;
    shared.set(source.relPath, {
      source,
      schema,
      dialect,
      model: {
        relPath: source.relPath,
        source: source.file,
        schema: schema as JSONSchema7,
        module: sharedModuleStem(source.relPath),
        typeNames,
        types: [],
      },
    });
  }
  for (const entry of shared.values()) {
    const state: BundleState = {
      source: entry.source,
      rootPointer: '',
      definitions: new Map(),
      origins: dictionary(),
      sharedUsed: new Set(),
      problems,
      shared,
      toolPascal: '',
      rootTypeName: '',
      dialect: entry.dialect,
      container: 'definitions',
    };
    const noop = (target: string): JSONSchema7 => ({ $ref: target });
    const fail = (message: string, hint: string): JSONSchema7 => {
      problems.push(problemAt(entry.source, '', message, hint));
      return {};
    };
    for (const pointer of Object.keys(entry.model.typeNames)) includeShared(entry, pointer.slice(1), state, noop, fail);
    entry.model.types = Object.entries(entry.model.typeNames).map(([, typeName]) => ({
      typeName,
      schema: state.definitions.get(typeName) as JSONSchema7,
    }));
  }
  return shared;
}

/** A type name to suggest when two tools map to `pascal` (it must differ in its words, not only in case: file names come from it too). */
function suggestTypeName(pascal: string): string {
  return `${pascal}Alt`;
}

function checkNameCollisions(
  candidates: { source: SourceFile; definition: Record<string, any> }[],
  problems: Problem[],
): void {
  const byKebab = new Map<string, { file: string; toolName: string }>();
  const byPascal = new Map<string, { file: string; toolName: string }>();
  for (const candidate of [...candidates]) {
    const names = toolNames(candidate.definition.name, candidate.definition.typeName);
    for (const [map, key, what] of [
      [byKebab, names.kebab, `file name "${names.kebab}"`],
      [byPascal, names.pascal, `type name "${names.pascal}"`],
    ] as const) {
      const other = map.get(key);
      if (other && other.toolName !== candidate.definition.name) {
        problems.push(
          problemAt(
            candidate.source,
            hasOwn(candidate.definition, 'typeName') ? '/typeName' : '/name',
            `the tool names "${other.toolName}" (${other.file}) and "${candidate.definition.name}" map to the same ${what}`,
            `rename one of them, or give one a \`"typeName"\` of its own (e.g. "${suggestTypeName(names.pascal)}"): generated names are never suffixed with numbers`,
          ),
        );
        candidates.splice(candidates.indexOf(candidate), 1);
        break;
      }
      map.set(key, { file: candidate.source.file, toolName: candidate.definition.name });
    }
  }
}

/** Every generated identifier is unique in the project and none is a reserved name (naming.ts decides; this reports). */
function checkIdentifiers(
  tools: readonly ToolModel[],
  shared: Map<string, SharedEntry>,
  sources: readonly SourceFile[],
  problems: Problem[],
): void {
  const byFile = new Map(sources.map((source) => [source.file, source]));
  const claims: IdentifierClaim[] = [];
  for (const entry of [...shared.values()].sort((a, b) => compareStrings(a.model.relPath, b.model.relPath)))
    claims.push(...sharedIdentifierClaims(entry.model));
  for (const tool of tools) {
    const { claims: own, differing } = toolIdentifierClaims(tool);
    claims.push(...own);
    for (const key of differing) {
      problems.push(
        problemAt(
          byFile.get(tool.source.file)!,
          `/outputSchema/definitions/${escapePointerSegment(key)}`,
          `the definition "${key}" differs between inputSchema and outputSchema, but both would be the type \`${tool.definitionOrigins[key]!.typeName}\``,
          'rename the definition in one of them, or make both the same: two different types are never merged into one',
          true,
        ),
      );
    }
  }
  for (const { claim, takenBy } of findIdentifierCollisions(claims)) {
    const other =
      typeof takenBy === 'string'
        ? takenBy
        : `${takenBy.what} (${takenBy.file}${takenBy.pointer === '' ? '' : ` ${takenBy.pointer}`})`;
    problems.push(
      problemAt(
        byFile.get(claim.file)!,
        claim.pointer,
        `${claim.what} would be named \`${claim.identifier}\`, which is already ${other}`,
        'rename the tool, the definition or the shared file: generated names are never suffixed with numbers, and two types are never merged into one',
        claim.pointer.includes('/definitions/'),
      ),
    );
  }
}

interface BundleState {
  source: SourceFile;
  rootPointer: string;
  definitions: Map<string, JSONSchema7Definition>;
  origins: Record<string, ToolModel['definitionOrigins'][string]>;
  sharedUsed: Set<string>;
  problems: Problem[];
  shared: Map<string, SharedEntry>;
  toolPascal: string;
  rootTypeName: string;
  /** The dialect of the schema being bundled (a shared schema it uses must have the same). */
  dialect: SchemaDialect;
  /** Where shared schemas are copied to: `definitions`, or `$defs` (2020-12, or a draft-07 schema that uses it). */
  container: 'definitions' | '$defs';
}

/**
 * Bundles one tool schema: local `#/definitions/X` and `#/$defs/X` refs stay; refs into shared files
 * are copied under `definitions[<type name>]` (`$defs` in a 2020-12 schema, or in a draft-07 one that
 * keeps its definitions there) and rewritten to point there. The result is self-contained.
 */
function bundleSchema(schema: JSONSchema7, state: BundleState): JSONSchema7 {
  const record = schema as Record<string, unknown>;
  state.container =
    state.dialect === '2020-12' || (hasOwn(record, '$defs') && !hasOwn(record, 'definitions'))
      ? '$defs'
      : 'definitions';
  for (const container of DEFINITION_CONTAINERS) {
    const local = record[container];
    if (!hasOwn(record, container) || !isObject(local)) continue;
    for (const key of Object.keys(local)) {
      if (hasOwn(state.origins, key)) {
        state.problems.push(
          problemAt(
            state.source,
            `${state.rootPointer}/${container}/${escapePointerSegment(key)}`,
            `the definition "${key}" is in both \`definitions\` and \`$defs\``,
            'keep one of them: both would become the same generated type',
          ),
        );
        continue;
      }
      setOwn(state.origins, key, { kind: 'local', typeName: definitionTypeName(key, state.toolPascal) });
    }
  }
  const container = state.container;
  const rewritten = mapSchema(schema, state.rootPointer, (node, at) =>
    rewriteRef(node, at, state, { kind: 'tool', root: schema }),
  ) as Record<string, unknown>;
  const definitions: Record<string, unknown> = {};
  const own = rewritten[container];
  if (hasOwn(rewritten, container) && isObject(own))
    for (const key of Object.keys(own)) setOwn(definitions, key, own[key]);
  for (const [key, value] of state.definitions) {
    if (hasOwn(definitions, key)) {
      state.problems.push(
        problemAt(
          state.source,
          `${state.rootPointer}/${container}/${escapePointerSegment(key)}`,
          `the definition "${key}" has the name of a shared type it also uses`,
          'rename the local definition',
        ),
      );
      continue;
    }
    setOwn(definitions, key, value);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(rewritten)) if (key !== container) setOwn(out, key, rewritten[key]);
  const keys = Object.keys(definitions).sort(compareStrings);
  if (keys.length > 0) {
    const sorted: Record<string, unknown> = {};
    for (const key of keys) setOwn(sorted, key, definitions[key]);
    setOwn(out, container, sorted);
  }
  return out as JSONSchema7;
}

type RefContext = { kind: 'tool'; root: JSONSchema7 } | { kind: 'shared'; entry: SharedEntry };

function rewriteRef(node: JSONSchema7, at: string, state: BundleState, context: RefContext): JSONSchema7 | undefined {
  if (!hasOwn(node, '$ref') || typeof node.$ref !== 'string') return undefined;
  const ref = node.$ref;
  const where = context.kind === 'tool' ? state.source : context.entry.source;
  const refPointer = context.kind === 'tool' ? `${at}/$ref` : `${at}/$ref`;
  const copy = (target: string): JSONSchema7 => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node))
      setOwn(out, key, key === '$ref' ? target : cloneJson((node as Record<string, unknown>)[key]));
    return out as JSONSchema7;
  };
  const fail = (message: string, hint: string): JSONSchema7 => {
    state.problems.push(problemAt(where, refPointer, message, hint));
    return copy(ref);
  };
  if (ref.startsWith('#')) {
    const fragment = decodeFragment(ref);
    if ('error' in fragment) return fail(`the $ref "${ref}" ${fragment.error}`, REF_FRAGMENT_HINT);
    if (context.kind === 'tool') {
      if (resolvePointer(context.root, parsePointer(fragment.pointer)) === undefined) {
        return fail(
          `the $ref "${ref}" does not resolve: there is nothing at that pointer in the schema`,
          'a `#/...` reference is resolved against the input or output schema it appears in; define the target under `definitions` (or `$defs`)',
        );
      }
      return undefined;
    }
    return includeShared(context.entry, fragment.pointer, state, copy, fail);
  }
  const fromRelPath = context.kind === 'tool' ? state.source.relPath : context.entry.source.relPath;
  let url: URL;
  try {
    url = new URL(ref, `file:///schemas/${fromRelPath}`);
  } catch {
    return fail(
      `the $ref "${ref}" is not a valid URI reference`,
      'use a relative path such as `./shared/geo-point.schema.json#/definitions/Point`',
    );
  }
  if (url.protocol !== 'file:' || !url.pathname.startsWith('/schemas/')) {
    return fail(
      `the $ref "${ref}" points outside the schemas folder`,
      'shared schemas must live under the schemas folder and be referenced by a relative path',
    );
  }
  const filePart = decodePercent(url.pathname.slice('/schemas/'.length));
  if ('error' in filePart) return fail(`the $ref "${ref}" ${filePart.error}`, REF_FRAGMENT_HINT);
  const relPath = filePart.text;
  const entry = state.shared.get(relPath);
  if (!entry) {
    const suggestion = closest(relPath, state.shared.keys());
    return fail(
      `the $ref "${ref}" does not resolve: no shared schema file "${relPath}"`,
      suggestion
        ? `did you mean "${suggestion}"? (paths are relative to ${fromRelPath})`
        : 'shared schemas are `*.schema.json` files under the schemas folder',
    );
  }
  const fragment = decodeFragment(url.hash);
  if ('error' in fragment) return fail(`the $ref "${ref}" ${fragment.error}`, REF_FRAGMENT_HINT);
  return includeShared(entry, fragment.pointer, state, copy, fail);
}

const REF_FRAGMENT_HINT =
  'a `$ref` is a URI reference: its fragment is a JSON pointer (`#/definitions/Name`) in which `~0` is `~`, `~1` is `/` and `%25` is `%`';

function includeShared(
  entry: SharedEntry,
  pointer: string,
  state: BundleState,
  copy: (target: string) => JSONSchema7,
  fail: (message: string, hint: string) => JSONSchema7,
): JSONSchema7 {
  const key = pointer === '' || pointer === '/' ? '#' : `#${pointer}`;
  const typeName = entry.model.typeNames[key];
  if (typeName === undefined) {
    const segments = parsePointer(key);
    if (resolvePointer(entry.schema, segments) === undefined) {
      return fail(
        `the $ref does not resolve: ${entry.source.file} has nothing at "${key}"`,
        `available: ${Object.keys(entry.model.typeNames).join(', ')}`,
      );
    }
    return fail(
      `the $ref points at "${key}" inside ${entry.source.file}`,
      'point at the file itself or at one of its `#/definitions/<name>` (or `#/$defs/<name>`)',
    );
  }
  if (entry.dialect !== state.dialect) {
    return fail(
      `the $ref points into ${entry.source.file}, a ${entry.dialect} schema, from a ${state.dialect} schema`,
      `one schema is one dialect: give both the same \`$schema\` (draft-07 when absent)`,
    );
  }
  state.sharedUsed.add(entry.model.module);
  if (!state.definitions.has(typeName)) {
    state.definitions.set(typeName, {});
    state.origins[typeName] = { kind: 'shared', module: entry.model.module, typeName };
    const target = key === '#' ? entry.schema : resolvePointer(entry.schema, parsePointer(key));
    const body: Record<string, unknown> = {};
    for (const name of Object.keys(target as object))
      if (!(key === '#' && (name === 'definitions' || name === '$defs' || name === '$schema' || name === '$id')))
        setOwn(body, name, (target as Record<string, unknown>)[name]);
    const rewritten = mapSchema(body as JSONSchema7, key === '#' ? '' : key.slice(1), (node, at) =>
      rewriteRef(node, at, state, { kind: 'shared', entry }),
    );
    state.definitions.set(typeName, rewritten);
  }
  return copy(`#/${state.container}/${escapePointerSegment(typeName)}`);
}

function resolvePointer(root: unknown, segments: string[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(segment)) current = current[Number(segment)];
    else if (isObject(current) && hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

function buildTool(
  source: SourceFile,
  definition: Record<string, any>,
  shared: Map<string, SharedEntry>,
  problems: Problem[],
  hadProblems: boolean,
  isUnchanged?: (name: string, hash: string) => boolean,
  warnings: Problem[] = problems,
): ToolModel | undefined {
  const names = toolNames(definition.name, definition.typeName);
  // One dialect per tool (checked with the definition): the input schema's.
  const dialect = schemaDialect(definition.inputSchema) ?? 'draft-07';
  const before = problems.length;
  const sharedUsed = new Set<string>();
  const bundle = (schema: JSONSchema7, pointer: string, rootTypeName: string) => {
    const state: BundleState = {
      source,
      rootPointer: pointer,
      definitions: new Map(),
      origins: dictionary(),
      sharedUsed,
      problems,
      shared,
      toolPascal: names.pascal,
      rootTypeName,
      dialect,
      container: 'definitions',
    };
    const bundled = bundleSchema(schema, state);
    return { bundled, origins: state.origins };
  };
  const input = bundle(definition.inputSchema, '/inputSchema', names.inputType);
  const output =
    definition.outputSchema === undefined
      ? undefined
      : bundle(definition.outputSchema, '/outputSchema', names.outputType);
  if (hadProblems || problems.length > before) return undefined;

  const usedShared = [...sharedUsed].sort(compareStrings);
  const hash = createHash('sha256')
    .update(GENERATOR_VERSION)
    .update('\0')
    .update(JSON.stringify(sortKeysDeep(definition)))
    .update('\0')
    .update(
      [...shared.values()]
        .filter((entry) => sharedUsed.has(entry.model.module))
        .map((entry) => `${entry.model.relPath}\0${JSON.stringify(sortKeysDeep(entry.schema))}`)
        .sort(compareStrings)
        .join('\0'),
    )
    .digest('hex');

  // A tool whose content hash matches the last successful run compiled and passed its examples then.
  const unchanged = isUnchanged?.(definition.name, hash) ?? false;
  // One Ajv per tool, compiled once: its validators check the examples here and its standalone
  // source becomes the tool's validator module (emit/validators.ts only lays it out). Schemas were
  // checked against draft-07 with the definition, so Ajv's own meta-schema pass is skipped.
  const toolAjv = unchanged
    ? undefined
    : createGeneratorAjv({ code: true, overrides: { validateSchema: false }, dialect });
  if (toolAjv) {
    // The defaults check compiles parts of the schemas: the formats the dialect ignores are declared first.
    allowUnknownFormats(toolAjv, input.bundled);
    if (output) allowUnknownFormats(toolAjv, output.bundled);
  }
  // Defaults are checked first: a `default: null` the schema does not allow is left out of the validator.
  const defaultProblems: Problem[] = [];
  const inputChecked = toolAjv
    ? checkDefaults(toolAjv, input.bundled, source, '/inputSchema', defaultProblems)
    : input.bundled;
  const fromOutput = defaultProblems.length;
  const outputChecked =
    toolAjv && output
      ? checkDefaults(toolAjv, output.bundled, source, '/outputSchema', defaultProblems)
      : output?.bundled;
  // A default inside a shared schema is that file's problem: reported at its position.
  for (let index = 0; index < defaultProblems.length; index++) {
    defaultProblems[index] =
      index < fromOutput
        ? relocateToShared(defaultProblems[index]!, '/inputSchema', input.origins, sharedHomes(shared))
        : relocateToShared(defaultProblems[index]!, '/outputSchema', output!.origins, sharedHomes(shared));
  }
  const inputValidator = toolAjv
    ? compileChecked(toolAjv, inputChecked, 'input', source, '/inputSchema', problems)
    : undefined;
  const outputValidator =
    toolAjv && outputChecked
      ? compileChecked(toolAjv, outputChecked, 'output', source, '/outputSchema', problems)
      : undefined;
  if (problems.length > before) return undefined;
  for (const problem of defaultProblems) (problem.severity === 'warning' ? warnings : problems).push(problem);
  const examples: ToolExample[] = [];
  (definition.examples ?? []).forEach((example: ToolExample, index: number) => {
    examples.push(cloneJson(example));
    if (unchanged) return;
    checkExample(
      coerceWhereNeeded(inputValidator!),
      example.input,
      source,
      `/examples/${index}/input`,
      'input',
      problems,
    );
    if (example.output !== undefined) {
      if (outputValidator)
        checkExample(
          coerceWhereNeeded(outputValidator),
          example.output,
          source,
          `/examples/${index}/output`,
          'output',
          problems,
        );
      else
        problems.push(
          problemAt(
            source,
            `/examples/${index}/output`,
            'the example has an output but the tool has no outputSchema',
            'add an outputSchema or remove the example output',
          ),
        );
    }
  });
  if (problems.length > before) return undefined;

  const model: ToolModel = {
    name: definition.name,
    id: definition.id ?? (definition.version ? `${definition.name}@${definition.version}` : definition.name),
    displayName: definition.displayName ?? toDisplayName(definition.name),
    description: definition.description,
    hasSideEffects: definition.hasSideEffects ?? false,
    requiredCapabilities: [...(definition.requiredCapabilities ?? [])],
    inputSchema: input.bundled,
    rawInputSchema: cloneJson(definition.inputSchema),
    definitionOrigins: { ...input.origins, ...(output?.origins ?? {}) },
    examples,
    source: { file: source.file, relPath: source.relPath },
    names,
    sharedRefs: usedShared,
    hash,
  };
  if (definition.category !== undefined) model.category = definition.category;
  if (definition.version !== undefined) model.version = definition.version;
  if (output) {
    model.outputSchema = output.bundled;
    model.rawOutputSchema = cloneJson(definition.outputSchema);
  }
  if (definition.steps !== undefined) model.steps = cloneJson(definition.steps) as ComposedStep[];
  if (definition.timeoutMs !== undefined) model.timeoutMs = definition.timeoutMs;
  if (definition.annotations !== undefined) model.annotations = { ...definition.annotations };
  if (definition.targets !== undefined) {
    const excluded = Object.keys(definition.targets)
      .filter((target) => definition.targets[target] === false)
      .sort();
    if (excluded.length > 0) model.excludedTargets = excluded;
  }
  if (toolAjv) {
    const exports: Record<string, string> = { [names.inputValidator]: 'input' };
    if (output) exports[names.outputValidator] = 'output';
    model.validatorSource = standaloneCode(toolAjv, exports);
  }
  return model;
}

const homesOf = new WeakMap<Map<string, SharedEntry>, Map<string, SharedHome>>();

/** Shared type name → its file and pointer, built once per set of shared schemas. */
function sharedHomes(shared: Map<string, SharedEntry>): Map<string, SharedHome> {
  let homes = homesOf.get(shared);
  if (homes === undefined) {
    homes = new Map();
    for (const entry of shared.values())
      for (const [key, typeName] of Object.entries(entry.model.typeNames))
        homes.set(typeName, { source: entry.source, pointer: key === '#' ? '' : key.slice(1) });
    homesOf.set(shared, homes);
  }
  return homes;
}

function compileChecked(
  ajv: Ajv,
  schema: JSONSchema7,
  key: string,
  source: SourceFile,
  pointer: string,
  problems: Problem[],
): ValidateFunction | undefined {
  try {
    addValidatorSchema(ajv, schema, key, { unknownFormats: true });
    return ajv.getSchema(key);
  } catch (error) {
    problems.push(
      problemAt(
        source,
        pointer,
        `the schema does not compile: ${(error as Error).message}`,
        'fix the schema; the runtime would reject it too',
      ),
    );
    return undefined;
  }
}

function checkExample(
  validate: ValidateFunction,
  value: unknown,
  source: SourceFile,
  pointer: string,
  what: string,
  problems: Problem[],
): void {
  const copy = cloneJson(value);
  if (validate(copy)) return;
  for (const error of validate.errors ?? []) {
    const detail =
      error.keyword === 'required'
        ? `the required property "${error.params.missingProperty}" is missing${error.instancePath ? ` at ${error.instancePath}` : ''}`
        : `${error.instancePath || '/'} ${error.message}`;
    problems.push(
      problemAt(
        source,
        `${pointer}${error.instancePath}`,
        `the example ${what} does not match the ${what} schema: ${detail}`,
        'fix the example or the schema',
      ),
    );
  }
}

/**
 * A `default` that breaks its own schema (checked without coercion) would be filled in and then
 * rejected, or filled in converted: an error here. `default: null` where the schema does not allow
 * null (the "no default" idiom) is a warning instead, and is left out of the validator: the
 * returned schema is the one to compile (the published schema keeps the default as written).
 */
function checkDefaults(
  ajv: Ajv,
  root: JSONSchema7,
  source: SourceFile,
  pointer: string,
  problems: Problem[],
): JSONSchema7 {
  const prepared = prepareValidatorSchema(ajv, root);
  for (const entry of prepared.mismatches) {
    const problem = problemAt(
      source,
      `${pointer}${entry.pointer}/default`,
      entry.noDefaultIdiom
        ? 'the default null is not allowed by its own schema: it is not filled in (the property stays absent when omitted)'
        : `the default ${truncate(JSON.stringify(entry.value))} does not match its own schema: ${entry.instancePath || '/'} ${entry.message}`.trimEnd(),
      entry.noDefaultIdiom
        ? 'remove `"default": null`, or allow null (`"type": ["string", "null"]` or `anyOf` with `{ "type": "null" }`) if null is meant'
        : 'fix the default or the schema: it would be filled in and then rejected',
    );
    if (entry.noDefaultIdiom) problem.severity = 'warning';
    problems.push(problem);
  }
  return prepared.schema;
}

const REFERENCE = /^\$(input|steps)((?:\.[^.]+)*)$/;

function checkSteps(
  steps: ComposedStep[],
  inputSchema: JSONSchema7 | undefined,
  sources: Map<string, SourceFile>,
  tools: Map<string, ToolModel>,
  source: SourceFile,
  problems: Problem[],
): void {
  steps.forEach((step, index) => {
    if (!sources.has(step.tool)) {
      const suggestion = closest(step.tool, sources.keys());
      problems.push(
        problemAt(
          source,
          `/steps/${index}/tool`,
          `step ${index} calls the tool "${step.tool}", which does not exist`,
          suggestion ? `did you mean \`${suggestion}\`?` : `defined tools: ${[...sources.keys()].join(', ')}`,
        ),
      );
      return;
    }
    const visit = (value: unknown, pointer: string): void => {
      if (typeof value === 'string' && value.startsWith('$')) {
        const match = REFERENCE.exec(value);
        if (!match) {
          problems.push(
            problemAt(
              source,
              pointer,
              `"${value}" is not a reference`,
              'use `$input.<field>` or `$steps.<n>.output.<field>`',
            ),
          );
          return;
        }
        const path = match[2] ? match[2].slice(1).split('.') : [];
        if (match[1] === 'input') {
          if (inputSchema && !schemaHasPath(inputSchema, inputSchema, path))
            problems.push(
              problemAt(
                source,
                pointer,
                `"${value}" names a field the input schema does not have`,
                `input fields: ${Object.keys(inputSchema.properties ?? {}).join(', ')}`,
              ),
            );
          return;
        }
        const stepIndex = Number(path[0]);
        if (!(path[0] !== undefined && /^[0-9]+$/.test(path[0]) && stepIndex < index) || path[1] !== 'output') {
          problems.push(
            problemAt(
              source,
              pointer,
              `"${value}" must reference an earlier step's output as \`$steps.<n>.output.<field>\` (n < ${index})`,
              'steps run in order; a step can only use the outputs before it',
            ),
          );
          return;
        }
        const earlier = tools.get(steps[stepIndex]!.tool);
        if (
          earlier &&
          (!earlier.outputSchema || !schemaHasPath(earlier.outputSchema, earlier.outputSchema, path.slice(2)))
        ) {
          problems.push(
            problemAt(
              source,
              pointer,
              `"${value}" names a field the output of "${earlier.name}" does not have`,
              earlier.outputSchema
                ? `output fields: ${Object.keys(earlier.outputSchema.properties ?? {}).join(', ')}`
                : `"${earlier.name}" has no outputSchema`,
            ),
          );
        }
        return;
      }
      if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${pointer}/${i}`));
      else if (isObject(value))
        for (const key of Object.keys(value)) visit(value[key], `${pointer}/${escapePointerSegment(key)}`);
    };
    visit(step.arguments, `/steps/${index}/arguments`);
  });
}

function schemaHasPath(root: JSONSchema7, schema: JSONSchema7Definition | undefined, path: string[]): boolean {
  if (path.length === 0) return true;
  if (typeof schema !== 'object' || schema === null) return false;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#')) {
    const fragment = decodeFragment(schema.$ref);
    return (
      'pointer' in fragment &&
      schemaHasPath(root, resolvePointer(root, parsePointer(fragment.pointer)) as JSONSchema7, path)
    );
  }
  const [head, ...rest] = path;
  if (isObject(schema.properties) && hasOwn(schema.properties, head!))
    return schemaHasPath(root, schema.properties[head!], rest);
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const branch of schema[keyword] ?? []) if (schemaHasPath(root, branch, path)) return true;
  }
  if (schema.items && !Array.isArray(schema.items) && /^[0-9]+$/.test(head!))
    return schemaHasPath(root, schema.items, rest);
  return false;
}

function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
