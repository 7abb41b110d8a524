import type { JSONSchema7 } from 'json-schema';
import { resolveOptions, type GenerateOptions } from '../../codegen/config/options.js';
import type { WorkerOptions } from '../../codegen/emit/pool/pool.js';
import { emitProject, type Emitted } from '../../codegen/emit/project.js';
import { createDocRenderer } from '../../codegen/emit/docs.js';
import { startPrinter, type PrintableFile } from '../../codegen/emit/pool/printer.js';
import { ownValue } from '../../codegen/dictionary.js';
import type { DocTemplates } from '../../codegen/templates/names.js';
import { withNameCollisions } from '../../codegen/emit/manifests/host-report.js';
import { toolManifests } from '../../codegen/emit/manifests/part.js';
import { createManifestAssembler, memoryWriter, type PreviousManifests } from '../../codegen/emit/manifests/index.js';
import type { LossReport, ManifestEmission, ManifestOptions } from '../../codegen/emit/manifests/types.js';
import { type EmitSettings, emitSettings, readSettings } from '../../codegen/emit/settings.js';
import { openCache } from '../../codegen/incremental/cache.js';
import type { EmitContext, GeneratedFile, ProjectModel, SharedSchemaModel, ToolModel } from '../../codegen/model.js';
import { compareStrings } from '../../src/manifest-targets/build.js';
import { toDisplayName, toolNames } from '../../codegen/naming.js';
import { loadTemplates } from '../../codegen/templates/index.js';

/** The emit context tests use. */
export const TEST_CONTEXT: EmitContext = {
  runtimeImport: 'toolsmith-sdk',
  stubsRuntimeImport: 'toolsmith-sdk',
  stubsFromGenerated: '../src/tools',
  generatedFromStubs: '../../generated',
  regenerateCommand: 'npm run generate',
  generatorVersion: '0.0.0-test',
};

/**
 * The emission settings tests use: every setting at its config default (as generate makes them), the
 * test context, the default templates, no prettier, the default manifest targets, with `fields` over
 * them. A setting declared in the config schema is here with no edit.
 */
export function makeSettings(fields: Partial<EmitSettings> = {}): EmitSettings {
  const defaults = emitSettings(resolveOptions({ root: '/project' }), loadTemplates());
  return { ...defaults, ctx: TEST_CONTEXT, format: false, manifests: {}, ...fields };
}

/** A ToolModel with every field filled from a few given ones, independent of the loader. */
export function makeTool(fields: Partial<ToolModel> & { name: string }): ToolModel {
  const inputSchema: JSONSchema7 = fields.inputSchema ?? { type: 'object', properties: {} };
  return {
    id: `${fields.name}@1.0.0`,
    displayName: toDisplayName(fields.name),
    description: `The ${fields.name} tool.`,
    hasSideEffects: false,
    requiredCapabilities: [],
    examples: [],
    definitionOrigins: {},
    source: { file: `schemas/${fields.name}.tool.json`, relPath: `${fields.name}.tool.json` },
    names: toolNames(fields.name),
    sharedRefs: [],
    hash: 'test',
    ...fields,
    inputSchema,
  } as ToolModel;
}

/** A shared schema model (`shared/<stem>.schema.json`), with its root type named after the file. */
export function makeShared(stem: string, typeName: string, schema: JSONSchema7): SharedSchemaModel {
  return {
    relPath: `shared/${stem}.schema.json`,
    source: `schemas/shared/${stem}.schema.json`,
    schema,
    module: `shared/${stem}`,
    typeNames: { '#': typeName },
    types: [{ typeName, schema }],
  } as SharedSchemaModel;
}

/** A project of the given tools (sorted by name, as normalize leaves them). */
export function makeProject(tools: ToolModel[], shared: SharedSchemaModel[] = []): ProjectModel {
  return { tools: [...tools].sort((a, b) => compareStrings(a.name, b.name)), shared };
}

/** What `emitInMemory` gives: every file the emit stage put, sorted by path (none when it found problems). */
export interface InMemoryEmission extends Omit<Emitted, 'units' | 'listings' | 'segments' | 'manifests'> {
  files: GeneratedFile[];
}

/**
 * The emit stage (emit/project.ts) over every tool of `project`, its files kept in memory instead of
 * an output folder: what a generate from scratch puts, for tests of the emitters and the pool.
 */
export async function emitInMemory(
  project: ProjectModel,
  settings: EmitSettings,
  options: WorkerOptions & { stubs?: ReadonlySet<string> } = {},
): Promise<InMemoryEmission> {
  const files: GeneratedFile[] = [];
  const plan = {
    project,
    fresh: project.tools,
    reused: new Map<string, string[]>(),
    stubs: options.stubs ?? new Set(project.tools.map((tool) => tool.name)),
  };
  const put = (file: GeneratedFile) => void files.push(file);
  const output = { put, open: (path: string) => memoryWriter(path, put), keep: () => undefined };
  const { problems, warnings, stubs, threads } = await emitProject(plan, settings, output, options);
  return {
    files: problems.length > 0 ? [] : files.sort((a, b) => compareStrings(a.path, b.path)),
    stubs: problems.length > 0 ? [] : stubs,
    problems,
    warnings,
    threads,
  };
}

/** What the nothing-changed shortcut answers for these options now: the tools and how many generated files. */
export function unchangedNow(options: GenerateOptions, fingerprint?: string) {
  const resolved = resolveOptions(options);
  const read = readSettings(resolved);
  if ('problems' in read) throw new Error('the settings cannot be read');
  const answer = openCache(resolved, read.settings, fingerprint === undefined ? {} : { fingerprint }).unchanged();
  return answer === undefined ? undefined : { tools: answer.tools, files: answer.files.length };
}

/**
 * The manifests of `project` as a run with the last run's files (`previous`) makes them when `changed`
 * are its fresh tools (their parts made with the names the hosts fold together applied, as a run makes
 * them) and the others are reused: spliced (`spliced: true`), or assembled when the files do not fit.
 */
export function spliceRun(
  project: ProjectModel,
  ctx: EmitContext,
  options: ManifestOptions,
  previous: PreviousManifests,
  changed: readonly ToolModel[],
): ManifestEmission {
  const named = withNameCollisions(
    options,
    project.tools.map((tool) => tool.name),
  );
  const assembler = createManifestAssembler(project.tools, ctx, named, { previous });
  for (const tool of project.tools) if (!changed.includes(tool)) assembler.reuse(tool);
  for (const tool of changed) assembler.add(toolManifests(tool, named).manifests);
  return assembler.finish();
}

/**
 * Emits `manifests/<target>.json` for each enabled target and the loss report, in memory: every tool's
 * part (`toolManifests`) given to one assembler in name order, as a run's emission gives them.
 */
export function emitManifests(
  project: ProjectModel,
  ctx: EmitContext,
  runOptions: ManifestOptions = {},
): ManifestEmission {
  const options = withNameCollisions(
    runOptions,
    project.tools.map((tool) => tool.name),
  );
  const assembler = createManifestAssembler(project.tools, ctx, options);
  for (const tool of [...project.tools].sort((a, b) => compareStrings(a.name, b.name))) {
    const { manifests, losses } = toolManifests(tool, options);
    assembler.add(manifests, losses);
  }
  return assembler.finish();
}

/** What `emitDocs` renders with: the template texts and every tool's manifest facts (from `emitManifests`). */
export interface DocsOptions {
  templates: DocTemplates;
  /** A tool or target missing from it is shown as "not generated". */
  losses: LossReport;
  /** tool → target → why that target cannot take the tool. */
  unavailable?: ManifestEmission['unavailable'];
}

/**
 * `docs/index.md`, `docs/tools/<tool>.md` (one page per tool) and `docs/types/<module>.md` (one page per
 * shared schema file), from the given templates: every page the renderer makes for a project.
 */
export function emitDocs(project: ProjectModel, ctx: EmitContext, options: DocsOptions): GeneratedFile[] {
  const renderer = createDocRenderer(options.templates);
  const [index, ...types] = renderer.projectPages(project, ctx);
  // Keyed by tool names (`constructor`, `__proto__` are valid ones): own lookups only.
  const tools = project.tools.map((tool) =>
    renderer.toolPage(tool, ctx, {
      losses: ownValue(options.losses, tool.name),
      unavailable: ownValue(options.unavailable, tool.name),
    }),
  );
  return [index!, ...tools, ...types];
}

/** Prints `files` on a printing thread of their own, stopped after (a one-off print). */
export async function printFiles(files: readonly PrintableFile[]): Promise<GeneratedFile[]> {
  const printer = startPrinter();
  try {
    return await printer.print(files);
  } finally {
    await printer.stop();
  }
}
