import { createHash } from 'node:crypto';
import { GENERATOR_VERSION } from './version.js';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import definitionMetaSchema from '../tool-definition.schema.json' with { type: 'json' };
import { ANNOTATION_KEYWORDS, EXTENSION_KEYWORD } from '../src/ajv-options.js';
import { createGeneratorAjv, KNOWN_FORMATS, standaloneCode } from './ajv.js';
import { addValidatorSchema } from './emit/validators.js';
import { problemAt, type LoadedFiles, type SourceFile } from './load.js';
import type { ComposedStep, Problem, ProjectModel, SharedSchemaModel, ToolExample, ToolModel } from './model.js';
import { compareStrings, definitionTypeName, findIdentifierCollisions, sharedIdentifierClaims, sharedModuleStem, sharedRootTypeName, toDisplayName, toolIdentifierClaims, TOOL_NAME_PATTERN, toolNames, type IdentifierClaim } from './naming.js';
import { closest, escapePointerSegment, parsePointer, sortProblems } from './problems.js';
import { cloneJson, DRAFT7_KEYWORDS, hasOwn, isObject, mapSchema, setOwn, sortKeysDeep, walkSchema } from './schema-walk.js';

export { GENERATOR_VERSION } from './version.js';

const DEFINITION_FIELDS = Object.keys(definitionMetaSchema.properties);

/** The result of normalize: the model when there were no problems. */
export interface NormalizeResult {
  project: ProjectModel;
  problems: Problem[];
}

interface SharedEntry {
  source: SourceFile;
  model: SharedSchemaModel;
  schema: Record<string, unknown>;
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
  const checkDefinition = ajv.compile(definitionMetaSchema);

  const shared = indexShared(loaded.shared, problems, ajv);
  const sourcesByName = new Map<string, SourceFile>();
  const candidates: { source: SourceFile; definition: Record<string, any>; cached?: ToolModel }[] = [];

  const problemCount = new Map<SourceFile, number>();
  for (const source of loaded.tools) {
    if (source.value === undefined) continue;
    // Built from these very bytes by the last successful run: no definition, keyword or example check can fail.
    const cached = options.cached?.(source);
    if (cached !== undefined && isObject(source.value) && (source.value as Record<string, unknown>).name === cached.name && !sourcesByName.has(cached.name)) {
      sourcesByName.set(cached.name, source);
      candidates.push({ source, definition: source.value as Record<string, any>, cached });
      continue;
    }
    if (!isObject(source.value)) {
      problems.push(problemAt(source, '', 'a tool definition must be a JSON object', 'see tool-definition.schema.json for the fields'));
      continue;
    }
    const definition = source.value as Record<string, any>;
    const before = problems.length;
    if (!checkDefinition(definition)) problems.push(...definitionErrors(source, checkDefinition.errors ?? []));
    for (const key of ['inputSchema', 'outputSchema']) {
      if (hasOwn(definition, key) && isObject(definition[key])) checkKeywords(source, definition[key], `/${key}`, problems);
    }
    if (isObject(definition.inputSchema) && definition.inputSchema.type !== 'object') {
      problems.push(problemAt(source, '/inputSchema', `the input schema's root must be \`"type": "object"\` (it is ${JSON.stringify(definition.inputSchema.type ?? 'unset')})`, 'LLM providers pass tool arguments as one object: wrap the values in `properties`'));
    }
    problemCount.set(source, problems.length - before);
    if (typeof definition.name !== 'string' || !TOOL_NAME_PATTERN.test(definition.name)) continue;
    const previous = sourcesByName.get(definition.name);
    if (previous) {
      problems.push(problemAt(source, '/name', `the tool name "${definition.name}" is already used by ${previous.file}`, 'tool names must be unique: rename one of them'));
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
    if (!isObject(definition.inputSchema) || (definition.outputSchema !== undefined && !isObject(definition.outputSchema))) continue;
    const model = buildTool(source, definition, shared, ajv, problems, (problemCount.get(source) ?? 0) > 0, options.isUnchanged);
    if (model) tools.push(model);
  }
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const { source, definition } of candidates) {
    if (Array.isArray(definition.steps)) checkSteps(definition.name, definition.steps, toolsByName.get(definition.name)?.inputSchema, sourcesByName, toolsByName, source, problems);
  }

  tools.sort((a, b) => compareStrings(a.name, b.name));
  checkIdentifiers(tools, shared, [...loaded.tools, ...loaded.shared], problems);
  const sharedModels = [...shared.values()].map((entry) => entry.model).sort((a, b) => compareStrings(a.relPath, b.relPath));
  const unique = new Map(problems.map((problem) => [`${problem.file}\0${problem.pointer}\0${problem.message}`, problem]));
  return {
    project: deepFreeze({ tools, shared: sharedModels }),
    problems: sortProblems([...unique.values()]),
  };
}

function definitionErrors(source: SourceFile, errors: ErrorObject[]): Problem[] {
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // Errors under a schema field come from the draft-07 meta-schema; keep the most specific ones.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    let problem: Problem;
    if (error.keyword === 'additionalProperties' && error.instancePath === '') {
      const field = String(error.params.additionalProperty);
      const suggestion = closest(field, DEFINITION_FIELDS);
      problem = problemAt(source, `/${escapePointerSegment(field)}`, `unknown field "${field}" in a tool definition`, suggestion ? `did you mean \`${suggestion}\`?` : `the fields are: ${DEFINITION_FIELDS.join(', ')}`, true);
    } else if (error.keyword === 'additionalProperties') {
      const field = String(error.params.additionalProperty);
      problem = problemAt(source, `${error.instancePath}/${escapePointerSegment(field)}`, `unknown field "${field}"`, undefined, true);
    } else if (error.keyword === 'required') {
      const field = String(error.params.missingProperty);
      problem = problemAt(source, error.instancePath, `missing required field "${field}"`, error.instancePath === '' ? `a definition needs name, description and inputSchema` : undefined);
    } else if (error.keyword === 'pattern' && error.instancePath === '/name') {
      problem = problemAt(source, '/name', `the tool name ${JSON.stringify(truncate(String(source.value && (source.value as any).name)))} does not match ${error.params.pattern}`, 'use letters, digits, `_` and `-`, starting with a letter or `_`, at most 64 characters');
    } else if (/^\/(inputSchema|outputSchema)(\/.*)?\/type(\/\d+)?$/.test(error.instancePath) && (error.keyword === 'enum' || error.keyword === 'type')) {
      const value = resolvePointer(source.value, parsePointer(error.instancePath));
      const typeNames = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];
      const suggestion = typeof value === 'string' ? closest(value, typeNames) : undefined;
      problem = problemAt(source, error.instancePath, `${JSON.stringify(value)} is not a JSON Schema type`, suggestion ? `did you mean "${suggestion}"?` : `the types are: ${typeNames.join(', ')} (or an array of them)`);
    } else {
      const inSchema = /^\/(inputSchema|outputSchema)/.test(error.instancePath);
      problem = problemAt(source, error.instancePath, `${inSchema ? 'not a valid draft-07 schema: ' : ''}${error.instancePath || 'the definition'} ${error.message}`, inSchema ? 'see https://json-schema.org/draft-07/json-schema-validation' : undefined);
    }
    const key = `${problem.pointer}\0${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(problem);
    }
  }
  return out;
}

/** Unknown keywords (typos such as `requried`), unknown formats and OpenAPI-isms, each at its pointer. */
function checkKeywords(source: SourceFile, schema: JSONSchema7Definition, pointer: string, problems: Problem[]): void {
  walkSchema(schema, pointer, (node, at) => {
    for (const key of Object.keys(node)) {
      if (DRAFT7_KEYWORDS.has(key) || EXTENSION_KEYWORD.test(key) || ANNOTATION_KEYWORDS.includes(key)) continue;
      const suggestion = key === 'nullable' ? undefined : closest(key, DRAFT7_KEYWORDS);
      const hint =
        key === 'nullable'
          ? 'draft-07 has no `nullable`: use `"type": ["string", "null"]`'
          : suggestion
            ? `did you mean \`${suggestion}\`? (an extension keyword must start with \`x-\`)`
            : 'draft-07 does not know it; an extension keyword must start with `x-`';
      problems.push(problemAt(source, `${at}/${escapePointerSegment(key)}`, `unknown keyword "${key}"`, hint, true));
    }
    if (hasOwn(node, 'format') && typeof node.format === 'string' && !KNOWN_FORMATS.has(node.format)) {
      const suggestion = closest(node.format, KNOWN_FORMATS);
      problems.push(problemAt(source, `${at}/format`, `unknown format "${node.format}"`, suggestion ? `did you mean \`${suggestion}\`? Known formats: ${[...KNOWN_FORMATS].join(', ')}` : `known formats: ${[...KNOWN_FORMATS].join(', ')}`));
    }
  });
}

function indexShared(sources: SourceFile[], problems: Problem[], ajv: Ajv): Map<string, SharedEntry> {
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
    if (!ajv.validateSchema(schema)) {
      for (const error of ajv.errors ?? []) {
        if (error.keyword === 'anyOf') continue;
        problems.push(problemAt(source, error.instancePath, `not a valid draft-07 schema: ${error.instancePath || 'the schema'} ${error.message}`));
      }
    }
    checkKeywords(source, schema as JSONSchema7, '', problems);
    if (problems.length > before) continue;
    const typeNames: Record<string, string> = { '#': sharedRootTypeName(source.relPath) };
    if (isObject(schema.definitions)) {
      for (const key of Object.keys(schema.definitions).sort(compareStrings)) typeNames[`#/definitions/${escapePointerSegment(key)}`] = definitionTypeName(key);
    }
    let clash = false;
    for (const [pointer, typeName] of Object.entries(typeNames)) {
      const owner = typeOwners.get(typeName);
      if (owner) {
        problems.push(problemAt(source, pointer === '#' ? '' : pointer.slice(1), `shared type name "${typeName}" is already taken by ${owner}`, 'rename the file or the definition: generated type names must be unique'));
        clash = true;
      } else typeOwners.set(typeName, `${source.file}${pointer === '#' ? '' : ` ${pointer}`}`);
    }
    if (clash) continue;
    shared.set(source.relPath, {
      source,
      schema,
      model: { relPath: source.relPath, source: source.file, schema: schema as JSONSchema7, module: sharedModuleStem(source.relPath), typeNames, types: [] },
    });
  }
  for (const entry of shared.values()) {
    const state: BundleState = { source: entry.source, rootPointer: '', definitions: new Map(), origins: {}, sharedUsed: new Set(), problems, shared, toolPascal: '', rootTypeName: '' };
    const noop = (target: string): JSONSchema7 => ({ $ref: target });
    const fail = (message: string, hint: string): JSONSchema7 => {
      problems.push(problemAt(entry.source, '', message, hint));
      return {};
    };
    for (const pointer of Object.keys(entry.model.typeNames)) includeShared(entry, pointer.slice(1), state, noop, fail);
    entry.model.types = Object.entries(entry.model.typeNames).map(([, typeName]) => ({ typeName, schema: state.definitions.get(typeName) as JSONSchema7 }));
  }
  return shared;
}

function checkNameCollisions(candidates: { source: SourceFile; definition: Record<string, any> }[], problems: Problem[]): void {
  const byKebab = new Map<string, { file: string; toolName: string }>();
  const byPascal = new Map<string, { file: string; toolName: string }>();
  for (const candidate of [...candidates]) {
    const names = toolNames(candidate.definition.name);
    for (const [map, key, what] of [
      [byKebab, names.kebab, `file name "${names.kebab}"`],
      [byPascal, names.pascal, `type name "${names.pascal}"`],
    ] as const) {
      const other = map.get(key);
      if (other && other.toolName !== candidate.definition.name) {
        problems.push(problemAt(candidate.source, '/name', `the tool names "${other.toolName}" (${other.file}) and "${candidate.definition.name}" map to the same ${what}`, 'rename one of them: generated names are never suffixed with numbers'));
        candidates.splice(candidates.indexOf(candidate), 1);
        break;
      }
      map.set(key, { file: candidate.source.file, toolName: candidate.definition.name });
    }
  }
}

/** Every generated identifier is unique in the project and none is a reserved name (naming.ts decides; this reports). */
function checkIdentifiers(tools: readonly ToolModel[], shared: Map<string, SharedEntry>, sources: readonly SourceFile[], problems: Problem[]): void {
  const byFile = new Map(sources.map((source) => [source.file, source]));
  const claims: IdentifierClaim[] = [];
  for (const entry of [...shared.values()].sort((a, b) => compareStrings(a.model.relPath, b.model.relPath))) claims.push(...sharedIdentifierClaims(entry.model));
  for (const tool of tools) {
    const { claims: own, differing } = toolIdentifierClaims(tool);
    claims.push(...own);
    for (const key of differing) {
      problems.push(problemAt(byFile.get(tool.source.file)!, `/outputSchema/definitions/${escapePointerSegment(key)}`, `the definition "${key}" differs between inputSchema and outputSchema, but both would be the type \`${tool.definitionOrigins[key]!.typeName}\``, 'rename the definition in one of them, or make both the same: two different types are never merged into one', true));
    }
  }
  for (const { claim, takenBy } of findIdentifierCollisions(claims)) {
    const other = typeof takenBy === 'string' ? takenBy : `${takenBy.what} (${takenBy.file}${takenBy.pointer === '' ? '' : ` ${takenBy.pointer}`})`;
    problems.push(problemAt(byFile.get(claim.file)!, claim.pointer, `${claim.what} would be named \`${claim.identifier}\`, which is already ${other}`, 'rename the tool, the definition or the shared file: generated names are never suffixed with numbers, and two types are never merged into one', claim.pointer.includes('/definitions/')));
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
}

/**
 * Bundles one tool schema: local `#/definitions/X` refs stay; refs into shared files are copied under
 * `definitions[<type name>]` and rewritten to point there. The result is self-contained.
 */
function bundleSchema(schema: JSONSchema7, state: BundleState): JSONSchema7 {
  const localKeys = isObject(schema.definitions) ? Object.keys(schema.definitions) : [];
  for (const key of localKeys) state.origins[key] = { kind: 'local', typeName: definitionTypeName(key, state.toolPascal) };
  const rewritten = mapSchema(schema, state.rootPointer, (node, at) => rewriteRef(node, at, state, { kind: 'tool', root: schema })) as JSONSchema7;
  const definitions: Record<string, unknown> = {};
  if (isObject(rewritten.definitions)) for (const key of Object.keys(rewritten.definitions)) setOwn(definitions, key, rewritten.definitions[key]);
  for (const [key, value] of state.definitions) {
    if (hasOwn(definitions, key)) {
      state.problems.push(problemAt(state.source, `${state.rootPointer}/definitions/${escapePointerSegment(key)}`, `the definition "${key}" has the name of a shared type it also uses`, 'rename the local definition'));
      continue;
    }
    setOwn(definitions, key, value);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(rewritten)) if (key !== 'definitions') setOwn(out, key, (rewritten as Record<string, unknown>)[key]);
  const keys = Object.keys(definitions).sort(compareStrings);
  if (keys.length > 0) {
    const sorted: Record<string, unknown> = {};
    for (const key of keys) setOwn(sorted, key, definitions[key]);
    setOwn(out, 'definitions', sorted);
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
    for (const key of Object.keys(node)) setOwn(out, key, key === '$ref' ? target : cloneJson((node as Record<string, unknown>)[key]));
    return out as JSONSchema7;
  };
  const fail = (message: string, hint: string): JSONSchema7 => {
    state.problems.push(problemAt(where, refPointer, message, hint));
    return copy(ref);
  };
  if (ref.startsWith('#')) {
    if (context.kind === 'tool') {
      const segments = parsePointer(ref);
      if (resolvePointer(context.root, segments) === undefined) {
        return fail(`the $ref "${ref}" does not resolve: there is nothing at that pointer in the schema`, 'a `#/...` reference is resolved against the input or output schema it appears in; define the target under `definitions`');
      }
      return undefined;
    }
    return includeShared(context.entry, ref.slice(1), state, copy, fail);
  }
  const fromRelPath = context.kind === 'tool' ? state.source.relPath : context.entry.source.relPath;
  let url: URL;
  try {
    url = new URL(ref, `file:///schemas/${fromRelPath}`);
  } catch {
    return fail(`the $ref "${ref}" is not a valid URI reference`, 'use a relative path such as `./shared/geo-point.schema.json#/definitions/Point`');
  }
  if (url.protocol !== 'file:' || !url.pathname.startsWith('/schemas/')) {
    return fail(`the $ref "${ref}" points outside the schemas folder`, 'shared schemas must live under the schemas folder and be referenced by a relative path');
  }
  const relPath = decodeURIComponent(url.pathname.slice('/schemas/'.length));
  const entry = state.shared.get(relPath);
  if (!entry) {
    const suggestion = closest(relPath, state.shared.keys());
    return fail(`the $ref "${ref}" does not resolve: no shared schema file "${relPath}"`, suggestion ? `did you mean "${suggestion}"? (paths are relative to ${fromRelPath})` : 'shared schemas are `*.schema.json` files under the schemas folder');
  }
  return includeShared(entry, decodeURIComponent(url.hash.replace(/^#/, '')), state, copy, fail);
}

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
      return fail(`the $ref does not resolve: ${entry.source.file} has nothing at "${key}"`, `available: ${Object.keys(entry.model.typeNames).join(', ')}`);
    }
    return fail(`the $ref points at "${key}" inside ${entry.source.file}`, 'point at the file itself or at one of its `#/definitions/<name>`');
  }
  state.sharedUsed.add(entry.model.module);
  if (!state.definitions.has(typeName)) {
    state.definitions.set(typeName, {});
    state.origins[typeName] = { kind: 'shared', module: entry.model.module, typeName };
    const target = key === '#' ? entry.schema : resolvePointer(entry.schema, parsePointer(key));
    const body: Record<string, unknown> = {};
    for (const name of Object.keys(target as object)) if (!(key === '#' && (name === 'definitions' || name === '$schema' || name === '$id'))) setOwn(body, name, (target as Record<string, unknown>)[name]);
    const rewritten = mapSchema(body as JSONSchema7, key === '#' ? '' : key.slice(1), (node, at) => rewriteRef(node, at, state, { kind: 'shared', entry }));
    state.definitions.set(typeName, rewritten);
  }
  return copy(`#/definitions/${escapePointerSegment(typeName)}`);
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

function buildTool(source: SourceFile, definition: Record<string, any>, shared: Map<string, SharedEntry>, ajv: Ajv, problems: Problem[], hadProblems: boolean, isUnchanged?: (name: string, hash: string) => boolean): ToolModel | undefined {
  const names = toolNames(definition.name);
  const before = problems.length;
  const sharedUsed = new Set<string>();
  const bundle = (schema: JSONSchema7, pointer: string, rootTypeName: string) => {
    const state: BundleState = { source, rootPointer: pointer, definitions: new Map(), origins: {}, sharedUsed, problems, shared, toolPascal: names.pascal, rootTypeName };
    const bundled = bundleSchema(schema, state);
    return { bundled, origins: state.origins };
  };
  const input = bundle(definition.inputSchema, '/inputSchema', names.inputType);
  const output = definition.outputSchema === undefined ? undefined : bundle(definition.outputSchema, '/outputSchema', names.outputType);
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
  const toolAjv = unchanged ? undefined : createGeneratorAjv({ code: true, overrides: { validateSchema: false } });
  const inputValidator = toolAjv ? compileChecked(toolAjv, input.bundled, 'input', source, '/inputSchema', problems) : undefined;
  const outputValidator = toolAjv && output ? compileChecked(toolAjv, output.bundled, 'output', source, '/outputSchema', problems) : undefined;
  if (problems.length > before) return undefined;

  if (!unchanged) {
    checkDefaults(toolAjv!, input.bundled, source, '/inputSchema', problems);
    if (output) checkDefaults(toolAjv!, output.bundled, source, '/outputSchema', problems);
  }
  const examples: ToolExample[] = [];
  (definition.examples ?? []).forEach((example: ToolExample, index: number) => {
    examples.push(cloneJson(example));
    if (unchanged) return;
    checkExample(inputValidator!, example.input, source, `/examples/${index}/input`, 'input', problems);
    if (example.output !== undefined) {
      if (outputValidator) checkExample(outputValidator, example.output, source, `/examples/${index}/output`, 'output', problems);
      else problems.push(problemAt(source, `/examples/${index}/output`, 'the example has an output but the tool has no outputSchema', 'add an outputSchema or remove the example output'));
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
  if (toolAjv) {
    const exports: Record<string, string> = { [names.inputValidator]: 'input' };
    if (output) exports[names.outputValidator] = 'output';
    model.validatorSource = standaloneCode(toolAjv, exports);
  }
  return model;
}

function compileChecked(ajv: Ajv, schema: JSONSchema7, key: string, source: SourceFile, pointer: string, problems: Problem[]): ValidateFunction | undefined {
  try {
    addValidatorSchema(ajv, schema, key);
    return ajv.getSchema(key);
  } catch (error) {
    problems.push(problemAt(source, pointer, `the schema does not compile: ${(error as Error).message}`, 'fix the schema; the runtime would reject it too'));
    return undefined;
  }
}

function checkExample(validate: ValidateFunction, value: unknown, source: SourceFile, pointer: string, what: string, problems: Problem[]): void {
  const copy = cloneJson(value);
  if (validate(copy)) return;
  for (const error of validate.errors ?? []) {
    const detail = error.keyword === 'required' ? `the required property "${error.params.missingProperty}" is missing${error.instancePath ? ` at ${error.instancePath}` : ''}` : `${error.instancePath || '/'} ${error.message}`;
    problems.push(problemAt(source, `${pointer}${error.instancePath}`, `the example ${what} does not match the ${what} schema: ${detail}`, 'fix the example or the schema'));
  }
}

/** A `default` that breaks its own schema would be filled in and then fail validation: an error here. */
function checkDefaults(ajv: Ajv, root: JSONSchema7, source: SourceFile, pointer: string, problems: Problem[]): void {
  const entries: { at: string; schema: Record<string, unknown>; value: unknown }[] = [];
  walkSchema(root, '', (node, at) => {
    if (!hasOwn(node, 'default')) return;
    const subschema: Record<string, unknown> = {};
    for (const key of Object.keys(node)) if (key !== 'default') setOwn(subschema, key, (node as Record<string, unknown>)[key]);
    entries.push({ at, schema: subschema, value: node.default });
  });
  if (entries.length === 0) return;
  const report = (entry: (typeof entries)[number], first: ErrorObject | undefined, instancePath: string) => {
    problems.push(problemAt(source, `${pointer}${entry.at}/default`, `the default ${truncate(JSON.stringify(entry.value))} does not match its own schema: ${instancePath || '/'} ${first?.message ?? ''}`.trimEnd(), 'fix the default or the schema: it would be filled in and then rejected'));
  };
  // One compile checks every default: each one's schema (without its `default`) is a property of a
  // wrapper that also carries the root's `definitions`, so `#/definitions/…` refs resolve as before.
  const wrapper: Record<string, unknown> = { type: 'object', properties: {} };
  entries.forEach((entry, index) => setOwn(wrapper.properties as Record<string, unknown>, String(index), entry.schema));
  if (root.definitions !== undefined) wrapper.definitions = root.definitions;
  let validate: ValidateFunction | undefined;
  try {
    validate = ajv.compile(wrapper);
  } catch {
    validate = undefined;
  }
  if (validate !== undefined) {
    const data: Record<string, unknown> = {};
    entries.forEach((entry, index) => setOwn(data, String(index), cloneJson(entry.value)));
    if (validate(data)) return;
    const reported = new Set<number>();
    for (const error of validate.errors ?? []) {
      const match = /^\/(\d+)(.*)$/.exec(error.instancePath);
      if (match === null) continue;
      const index = Number(match[1]);
      if (reported.has(index)) continue;
      reported.add(index);
      report(entries[index]!, error, match[2]!);
    }
    return;
  }
  // The wrapper did not compile (e.g. a `$ref` meant for the whole schema): check each default alone.
  for (const entry of entries) {
    const subschema = entry.schema;
    if (root.definitions !== undefined && entry.at !== '') setOwn(subschema, 'definitions', root.definitions);
    let single: ValidateFunction;
    try {
      single = ajv.compile(subschema);
    } catch {
      continue; // the whole schema's compile reports it
    }
    if (!single(cloneJson(entry.value))) report(entry, single.errors?.[0], single.errors?.[0]?.instancePath ?? '');
  }
}

const REFERENCE = /^\$(input|steps)((?:\.[^.]+)*)$/;

function checkSteps(
  toolName: string,
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
      problems.push(problemAt(source, `/steps/${index}/tool`, `step ${index} calls the tool "${step.tool}", which does not exist`, suggestion ? `did you mean \`${suggestion}\`?` : `defined tools: ${[...sources.keys()].join(', ')}`));
      return;
    }
    if (step.tool === toolName) {
      problems.push(problemAt(source, `/steps/${index}/tool`, `step ${index} calls the composed tool itself`, 'a composed tool cannot call itself'));
    }
    const visit = (value: unknown, pointer: string): void => {
      if (typeof value === 'string' && value.startsWith('$')) {
        const match = REFERENCE.exec(value);
        if (!match) {
          problems.push(problemAt(source, pointer, `"${value}" is not a reference`, 'use `$input.<field>` or `$steps.<n>.output.<field>`'));
          return;
        }
        const path = match[2] ? match[2].slice(1).split('.') : [];
        if (match[1] === 'input') {
          if (inputSchema && !schemaHasPath(inputSchema, inputSchema, path)) problems.push(problemAt(source, pointer, `"${value}" names a field the input schema does not have`, `input fields: ${Object.keys(inputSchema.properties ?? {}).join(', ')}`));
          return;
        }
        const stepIndex = Number(path[0]);
        if (!(path[0] !== undefined && /^[0-9]+$/.test(path[0]) && stepIndex < index) || path[1] !== 'output') {
          problems.push(problemAt(source, pointer, `"${value}" must reference an earlier step's output as \`$steps.<n>.output.<field>\` (n < ${index})`, 'steps run in order; a step can only use the outputs before it'));
          return;
        }
        const earlier = tools.get(steps[stepIndex]!.tool);
        if (earlier && (!earlier.outputSchema || !schemaHasPath(earlier.outputSchema, earlier.outputSchema, path.slice(2)))) {
          problems.push(problemAt(source, pointer, `"${value}" names a field the output of "${earlier.name}" does not have`, earlier.outputSchema ? `output fields: ${Object.keys(earlier.outputSchema.properties ?? {}).join(', ')}` : `"${earlier.name}" has no outputSchema`));
        }
        return;
      }
      if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${pointer}/${i}`));
      else if (isObject(value)) for (const key of Object.keys(value)) visit(value[key], `${pointer}/${escapePointerSegment(key)}`);
    };
    visit(step.arguments, `/steps/${index}/arguments`);
  });
}

function schemaHasPath(root: JSONSchema7, schema: JSONSchema7Definition | undefined, path: string[]): boolean {
  if (path.length === 0) return true;
  if (typeof schema !== 'object' || schema === null) return false;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#')) return schemaHasPath(root, resolvePointer(root, parsePointer(schema.$ref)) as JSONSchema7, path);
  const [head, ...rest] = path;
  if (isObject(schema.properties) && hasOwn(schema.properties, head!)) return schemaHasPath(root, schema.properties[head!], rest);
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const branch of schema[keyword] ?? []) if (schemaHasPath(root, branch, path)) return true;
  }
  if (schema.items && !Array.isArray(schema.items) && /^[0-9]+$/.test(head!)) return schemaHasPath(root, schema.items, rest);
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
