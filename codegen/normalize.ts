import type { Ajv, Options } from 'ajv';
import { deepFreeze } from '../src/schema/freeze.js';
import { schemaDialect } from '../src/schema/dialect.js';
import { allowUnknownFormats, createGeneratorAjv } from './ajv.js';
import { Diagnostics } from './problems.js';
import type { LoadedFiles, SourceFile } from './load.js';
import type { Problem, ProjectModel, ToolModel } from './model.js';
import { compareStrings } from '../src/manifest-targets/build.js';
import { toolNames } from './naming.js';
import { booleanSchemas } from './rules/boolean-schemas.js';
import { composedCycles } from './rules/composed-cycles.js';
import { composedSteps } from './rules/composed-steps.js';
import { DEFINITION_CHECK, definitionObject, definitionShape } from './rules/definition-shape.js';
import { declaredErrors } from './rules/declared-errors.js';
import { defaultValues } from './rules/default-values.js';
import { examples } from './rules/examples.js';
import { identifiers } from './rules/identifiers.js';
import { ignoredDefaults } from './rules/ignored-defaults.js';
import { inputRootObject } from './rules/input-root-object.js';
import { keywordLint } from './rules/keyword-lint.js';
import { refBundling } from './rules/ref-bundling.js';
import type { DefinitionSubject, Rule, RuleEnvironment, SharedEntry, ToolSubject } from './rules/rule.js';
import { schemaDialects } from './rules/schema-dialects.js';
import { sharedSchemas } from './rules/shared-schemas.js';
import { assembleToolModel, toolHash } from './rules/tool-model.js';
import { unsatisfiableRequired } from './rules/unsatisfiable-required.js';
import { type Candidate, hasUsableName, nameCollisions, uniqueToolNames } from './rules/tool-names.js';
import { isObject } from '../src/schema/walk.js';

/** The checks of one definition file, in order; later ones read what earlier ones decided (`dialects`). */
const DEFINITION_RULES: readonly Rule<DefinitionSubject>[] = [
  definitionShape,
  booleanSchemas,
  schemaDialects,
  keywordLint,
  ignoredDefaults,
  unsatisfiableRequired,
  inputRootObject,
  declaredErrors,
];

/**
 * The checks of a bundled tool whose hash changed, or that failed (then on the parts they can still
 * judge, so its other problems are told in the same run): its defaults, then its examples.
 */
const VALUE_RULES: readonly Rule<ToolSubject>[] = [defaultValues, examples];

/** The result of normalize: the model when there were no problems. */
export interface NormalizeResult {
  project: ProjectModel;
  problems: Problem[];
  /** Problems that do not block the run (`severity: 'warning'`), e.g. an unknown keyword that is no typo, or a default Ajv never fills in. */
  warnings: Problem[];
}

/** Callbacks of the incremental layer. */
export interface NormalizeHooks {
  isUnchanged?: (name: string, hash: string) => boolean;
  /** A model the last successful run built from exactly this definition (see incremental/model-cache.ts `readModels`): used as it is. */
  cached?: (source: SourceFile) => ToolModel | undefined;
}

/** A definition that passed the naming rules, with what its definition rules found. */
interface Accepted extends Candidate {
  /** Its definition rules reported an error: its schemas are still bundled (for their `$ref` problems), but it becomes no tool. */
  failed: boolean;
  /** The warnings its definition rules reported (a model keeps them, so a cached run reports them again). */
  warnings: Problem[];
}

/**
 * Turns loaded files into the sorted, frozen `ProjectModel` by running the rules (rules/*.ts) over
 * them: shared schemas, each definition file, the naming rules across files, each tool's bundling
 * and value checks, then the project-wide ones. Every problem goes to one collector (problems.ts).
 * `env` (the rules' Ajv instances, which hold no project's schemas) may be shared by several runs in
 * one process: making it costs a meta-schema and a definition-check compile (~30 ms).
 */
export function normalize(
  loaded: LoadedFiles,
  options: NormalizeHooks = {},
  env: RuleEnvironment = ruleEnvironment(),
): NormalizeResult {
  const diagnostics = new Diagnostics();
  diagnostics.add(...loaded.problems);
  const shared = new Map<string, SharedEntry>();
  sharedSchemas.run({ sources: loaded.shared, env, shared }, diagnostics);

  const taken = new Map<string, SourceFile>();
  const candidates = loaded.tools.flatMap(
    (source) => acceptDefinition(source, env, taken, options.cached, diagnostics) ?? [],
  );
  nameCollisions.run(candidates, diagnostics);

  const tools = candidates.flatMap(
    (candidate) => candidate.cached ?? buildTool(candidate, shared, options.isUnchanged, diagnostics) ?? [],
  );
  composedCycles.run(candidates, diagnostics);
  composedSteps.run(
    { candidates, sources: taken, tools: new Map(tools.map((tool) => [tool.name, tool])) },
    diagnostics,
  );

  tools.sort((a, b) => compareStrings(a.name, b.name));
  identifiers.run({ tools, shared, sources: [...loaded.tools, ...loaded.shared] }, diagnostics);
  const sharedModels = [...shared.values()]
    .map((entry) => entry.model)
    .sort((a, b) => compareStrings(a.relPath, b.relPath));
  return { project: deepFreeze({ tools, shared: sharedModels }), ...diagnostics.result() };
}

/** The Ajv instances every rule of one run shares (the 2020-12 one only for a project that has a 2020-12 schema). */
export function ruleEnvironment(): RuleEnvironment {
  const ajv = createGeneratorAjv();
  let ajv2020: Ajv | undefined;
  const metaAjv = {
    'draft-07': ajv,
    get '2020-12'() {
      return (ajv2020 ??= createGeneratorAjv({ dialect: '2020-12' }));
    },
  } as RuleEnvironment['metaAjv'];
  return { checkDefinition: ajv.compile(DEFINITION_CHECK), metaAjv };
}

/** One definition file through the definition and naming rules: the candidate it becomes, if any. */
function acceptDefinition(
  source: SourceFile,
  env: RuleEnvironment,
  taken: Map<string, SourceFile>,
  cachedModel: NormalizeHooks['cached'],
  diagnostics: Diagnostics,
): Accepted | undefined {
  if (source.value === undefined) return undefined;
  // Built from these very bytes by the last successful run: no definition, keyword or example check can fail.
  const cached = cachedModel?.(source);
  if (cached !== undefined && isObject(source.value) && source.value.name === cached.name && !taken.has(cached.name)) {
    taken.set(cached.name, source);
    if (cached.warnings !== undefined) diagnostics.add(...cached.warnings);
    return { source, definition: source.value, cached, failed: false, warnings: [] };
  }
  definitionObject.run(source, diagnostics);
  if (!isObject(source.value)) return undefined;
  const definition = source.value as Record<string, any>;
  const file = diagnostics.child();
  const subject: DefinitionSubject = { source, definition, env, dialects: new Map() };
  for (const rule of DEFINITION_RULES) rule.run(subject, file);
  if (!hasUsableName(definition)) return undefined;
  uniqueToolNames.run({ source, definition, taken }, diagnostics);
  if (taken.get(definition.name) !== source) return undefined;
  return { source, definition, failed: file.errorCount > 0, warnings: file.warnings() };
}

/** A candidate's tool model, or undefined when one of its rules reported an error. */
function buildTool(
  candidate: Accepted,
  shared: Map<string, SharedEntry>,
  isUnchanged: NormalizeHooks['isUnchanged'],
  diagnostics: Diagnostics,
): ToolModel | undefined {
  const { source, definition } = candidate;
  if (
    !isObject(definition.inputSchema) ||
    (definition.outputSchema !== undefined && !isObject(definition.outputSchema))
  )
    return undefined;
  const tool = diagnostics.child();
  const subject = toolSubject(source, definition, shared);
  refBundling.run(subject, tool);
  subject.failed = candidate.failed || tool.errorCount > 0;
  // A tool whose content hash matches the last successful run passed its value checks then.
  const hash = subject.failed ? '' : toolHash(subject);
  subject.checkValues = subject.failed || !(isUnchanged?.(definition.name, hash) ?? false);
  for (const rule of VALUE_RULES) rule.run(subject, tool);
  if (subject.failed || tool.errorCount > 0) return undefined;
  const model = assembleToolModel(subject, hash);
  const warnings = [...candidate.warnings, ...tool.warnings()];
  if (warnings.length > 0) model.warnings = warnings;
  return model;
}

/** A definition as the tool rules see it, with its own Ajv made on first use. */
export function toolSubject(
  source: SourceFile,
  definition: Record<string, any>,
  shared: Map<string, SharedEntry>,
): ToolSubject {
  // One dialect per tool (the definition rules checked that both schemas agree): the input schema's.
  const dialect = schemaDialect(definition.inputSchema) ?? 'draft-07';
  let ajv: Ajv | undefined;
  const subject: ToolSubject = {
    source,
    definition,
    shared,
    names: toolNames(definition.name, definition.typeName),
    dialect,
    sharedUsed: new Set(),
    checkValues: true,
    failed: false,
    ajv() {
      if (ajv === undefined) {
        // Schemas were checked against their meta-schema with the definition: Ajv's own pass is skipped.
        // A failed tool's Ajv ignores what strict mode would throw for (a misspelt keyword, reported).
        const lenient: Options = subject.failed ? { strict: false, logger: false } : {};
        ajv = createGeneratorAjv({ overrides: { validateSchema: false, ...lenient }, dialect });
        // The defaults check compiles parts of the schemas: the formats the dialect ignores are declared first.
        for (const bundle of [subject.input, subject.output])
          if (bundle !== undefined) allowUnknownFormats(ajv, bundle.bundled);
      }
      return ajv;
    },
  };
  return subject;
}
