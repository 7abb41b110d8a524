/**
 * The generator: a pure function of the project model. Each tool is one emit unit (types,
 * validators, base class, schemas file, doc page, stub); the files that list every tool (shared
 * types, registry, index, manifests, docs index) are the project-wide part. Nothing here reads a
 * cache or compares with the disk: incremental/ memoizes these functions, write.ts stores what
 * they give.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import {
  createManifestAssembler,
  MANIFEST_TARGETS,
  type ManifestEmission,
  type OpenManifestFile,
  type TokenReport,
  type ToolManifests,
} from './emit/manifests/index.js';
import { emitRegistry } from './emit/registry.js';
import { loadDefinitions, toPosix, type LoadedFiles } from './load.js';
import { placeProblem } from './diagnostics.js';
import { rejectedSchemaProblems, schemaRejections } from './emit/validators.js';
import {
  typeHomes,
  type FileSegments,
  type GeneratedFile,
  type Problem,
  type ProjectListing,
  type ProjectModel,
  type ToolModel,
} from './model.js';
import { heldAsBytes } from './write.js';
import { compareStrings } from './naming.js';
import { normalize } from './normalize.js';
import { resolveOptions, type GenerateOptions, type ResolvedOptions } from './config/options.js';
import { collectWhenGrown } from './emit/pool/collect-garbage.js';
import { emitInWorkers, workerCount, type EmitOutcome, type WorkerOptions } from './emit/pool/pool.js';
import { emitSettings, workerOptions, type EmitSettings } from './emit/settings.js';
import { sortProblems } from './problems.js';
import { loadTemplates, TemplateReadError } from './templates/index.js';
import type { DocTemplates } from './templates/names.js';

export { resolveOptions, type GenerateOptions, type ResolvedOptions } from './config/options.js';
export { emitSettings, manifestOptions, type EmitSettings } from './emit/settings.js';

/**
 * The emitters that need heavy packages (json-schema-to-typescript, prettier,
 * handlebars), imported the first time something must be emitted: a run with nothing changed
 * loads none of them.
 */
async function importEmitters() {
  const [types, stubs, format, docs, toolFiles, validators] = await Promise.all([
    import('./emit/types.js'),
    import('./emit/stubs.js'),
    import('./emit/format.js'),
    import('./emit/docs.js'),
    import('./emit/tool-files.js'),
    import('./emit/validators.js'),
  ]);
  return { ...types, ...stubs, ...format, ...docs, ...toolFiles, ...validators };
}
let emittersLoaded: ReturnType<typeof importEmitters> | undefined;
const emitters = () => (emittersLoaded ??= importEmitters());

/** The hooks `normalize` takes: how the incremental layer hands it the models it already has. */
export type NormalizeHooks = NonNullable<Parameters<typeof normalize>[1]>;

/** The project a run emits, or what stops it. */
export interface ModelledProject {
  project: ProjectModel;
  /** What blocks the run: the errors, and with `strict` the warnings too. */
  problems: Problem[];
  /** What is ignored but does not block the run; empty with `strict`. */
  warnings: Problem[];
}

/** The docs templates of a run, or the problem that they cannot be read. */
export function readTemplates(resolved: ResolvedOptions): { templates: DocTemplates } | { problem: Problem } {
  try {
    return { templates: loadTemplates(resolved.templatesDir) };
  } catch (error) {
    if (!(error instanceof TemplateReadError)) throw error;
    return {
      problem: {
        file: toPosix(path.relative(resolved.root, error.file)),
        line: 1,
        column: 1,
        pointer: '',
        message: error.message,
        hint: error.hint,
      },
    };
  }
}

/** Splits problems found by an emitter into what blocks the run and warnings, as `strict` decides. */
function bySeverity(
  errors: Problem[],
  warnings: Problem[],
  strict: boolean | undefined,
): Omit<ModelledProject, 'project'> {
  // With `strict`, warnings block the run as errors do (still marked as warnings, for the reader).
  return strict ? { problems: sortProblems([...errors, ...warnings]), warnings: [] } : { problems: errors, warnings };
}

/** normalize, then the run's own checks (the manifest targets named in the options exist). */
export function modelProject(loaded: LoadedFiles, options: GenerateOptions, hooks?: NormalizeHooks): ModelledProject {
  const { project, problems: errors, warnings } = normalize(loaded, hooks);
  const { problems, warnings: kept } = bySeverity(errors, warnings, options.strict);
  for (const target of options.manifests?.targets ?? []) {
    if ((MANIFEST_TARGETS as readonly string[]).includes(target)) continue;
    problems.push({
      file: 'toolsmith.config.json',
      line: 1,
      column: 1,
      pointer: '/manifests/targets',
      message: `unknown manifest target "${target}"`,
      hint: `the targets are: ${MANIFEST_TARGETS.join(', ')}`,
    });
  }
  // Nothing is emitted now, so the schemas only the validator emitter would have rejected are told too.
  if (problems.length > 0)
    return { project, problems: sortProblems([...problems, ...rejectedSchemas(project, loaded)]), warnings: kept };
  return { project, problems, warnings: kept };
}

/** Every accepted tool's schemas Ajv rejects, placed in their definitions. */
function rejectedSchemas(project: ProjectModel, loaded: LoadedFiles): Problem[] {
  return project.tools.flatMap((tool) => {
    const source = loaded.tools.find((candidate) => candidate.file === tool.source.file);
    return schemaRejections(tool).map((problem) => (source === undefined ? problem : placeProblem(source, problem)));
  });
}

/**
 * What the emission (manifests, emitters that threw) says blocks the run, placed in the definitions:
 * a manifest problem names a pointer into a definition, given its line and column there.
 */
export function emissionVerdict(
  emitted: Pick<ManifestEmission, 'problems' | 'warnings'>,
  loaded: LoadedFiles,
  strict: boolean | undefined,
): Omit<ModelledProject, 'project'> {
  const place = (problem: Problem): Problem => {
    const source = loaded.tools.find((candidate) => candidate.file === problem.file);
    return source === undefined ? problem : placeProblem(source, problem);
  };
  const errors = emitted.problems.map(place);
  return bySeverity(errors.length > 0 ? sortProblems(errors) : errors, emitted.warnings.map(place), strict);
}

/** One tool's emit unit: every file that depends on that tool alone, its part of the manifests, and its stub when asked for. */
export interface ToolUnit {
  tool: ToolModel;
  files: GeneratedFile[];
  manifests: ToolManifests;
  stub?: GeneratedFile;
}

/** Options of `emitToolUnits`. */
export interface ToolUnitOptions {
  /** Names of the tools whose stub is wanted with their unit. */
  stubs: ReadonlySet<string>;
  /** Takes each unit as soon as it is done, in any order (no unit depends on another). */
  sink: (unit: ToolUnit) => void;
  /** Called as each tool is done (for a progress line). */
  onProgress?: () => void;
  /** Worker threads for the per-tool emission (default: one per core from 200 tools to emit; see emit/pool/pool.ts). */
  workers?: WorkerOptions;
}

/** A tool whose emission threw, as a problem at its definition (describing the thrown value cannot throw). */
function emitFailure(tool: ToolModel, error: unknown): Problem[] {
  // A schema Ajv rejects (emit/validators.ts compiles it) is a problem of the definition, at that schema.
  const rejected = rejectedSchemaProblems(tool, error);
  if (rejected !== undefined) return rejected;
  let detail: string;
  try {
    detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    detail = 'an exception that cannot be described';
  }
  return [
    {
      file: tool.source.file,
      line: 1,
      column: 1,
      pointer: '',
      message: `the generator failed on this tool (${detail})`,
      hint: 'a bug in toolsmith or a library it uses: please report it with this definition; until then, simplify the part of the schema the error points at',
    },
  ];
}

/** Tools emitted at once in process (their awaits interleave; the CPU work does not). */
const EMIT_IN_FLIGHT = 4;

/**
 * Runs `task` over `items`, `EMIT_IN_FLIGHT` at a time (the order of completion does not matter to
 * the callers). Each entry is cleared as it is taken, so what the task is done with can be collected.
 * A lane lets the event loop run between its tasks, as the local lane beside the workers does: a
 * long emission in process would otherwise be one job from start to end (no timer, no I/O callback,
 * and every object a `WeakRef` was made to or read from kept to its end).
 */
async function inLanes<T>(items: (T | undefined)[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next]!;
      items[next++] = undefined;
      await task(item);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: Math.min(EMIT_IN_FLIGHT, items.length) }, lane));
}

export { typeHomes } from './model.js';

/**
 * The in-process emitter of one run's tools: a tool's unit (files held as bytes, its part of the
 * manifests, its stub when wanted) or its stub alone. Each worker (emit/pool/worker.ts) makes the same
 * emitter from the same settings.
 */
async function inProcessEmitter(project: Pick<ProjectListing, 'shared'>, settings: EmitSettings) {
  const { createToolEmitter, emitStub } = await emitters();
  const emitter = createToolEmitter({ ...settings, shared: project.shared });
  return {
    stub: (tool: ToolModel) => emitter.stub(tool, emitStub),
    async unit(tool: ToolModel, stub: boolean): Promise<Omit<ToolUnit, 'tool'>> {
      const output = await emitter.toolFiles(tool);
      const files = output.files.map(heldAsBytes);
      return { files, manifests: output.manifests, ...(stub ? { stub: await emitter.stub(tool, emitStub) } : {}) };
    },
  };
}

/**
 * Emits the unit of every tool in `tools` (on worker threads from `WorkerOptions.threshold` tools)
 * and hands each to `sink` as soon as it is done, so no unit's text outlives its turn. Answers one
 * problem per tool whose emission threw, and the threads used. A tool whose worker stopped under it
 * (its heap cap, a crash) is emitted in process: a worker's end never fails a tool.
 *
 * `tools` is consumed: each entry is cleared once its tool is done, so that a caller holding only
 * summaries lets every model go as it is emitted (pass an array of its own, e.g. `inNameOrder`'s).
 */
export async function emitToolUnits(
  project: Pick<ProjectListing, 'shared'>,
  tools: (ToolModel | undefined)[],
  settings: EmitSettings,
  options: ToolUnitOptions,
): Promise<{ problems: Problem[]; threads: number; mainThread: number }> {
  const failures: Problem[] = [];
  const pool = options.workers?.pool;
  // The main thread is one of the threads: it emits beside `threads - 1` workers.
  const threads = tools.length === 0 ? 1 : pool ? pool.size + 1 : workerCount(tools.length, options.workers);
  const lost: ToolModel[] = [];
  let mainThread = 0;
  let emitterMade: ReturnType<typeof inProcessEmitter> | undefined;
  const inProcess = () => (emitterMade ??= inProcessEmitter(project, settings));
  if (threads > 1) {
    const stubWanted = tools.map((tool) => tool !== undefined && options.stubs.has(tool.name));
    // The workers' set-up: the same settings the in-process emitter is made from.
    const data = { ...settings, shared: project.shared };
    const take = (index: number, outcome: EmitOutcome) => {
      const tool = tools[index]!;
      tools[index] = undefined;
      if (!('error' in outcome)) {
        options.sink({ tool, ...outcome });
        options.onProgress?.();
      } else if (outcome.lost) lost.push(tool);
      else failures.push(...emitFailure(tool, outcome.error));
    };
    const emitter = await inProcess();
    const local = async (index: number): Promise<EmitOutcome> => {
      const tool = tools[index]!;
      mainThread++;
      collectWhenGrown();
      try {
        return await emitter.unit(tool, stubWanted[index]!);
      } catch (error) {
        return { error: error instanceof Error ? error : new Error(String(error)) };
      }
    };
    if (pool !== undefined) await pool.run(tools, stubWanted, data, take, local);
    else await emitInWorkers(tools, stubWanted, data, threads - 1, take, local);
  }
  const here: (ToolModel | undefined)[] = threads > 1 ? lost : tools;
  if (here.length > 0) {
    const emitter = await inProcess();
    // A few tools in flight at once, not every one: the parser trees and intermediate text of
    // 1,000 tools emitted together is what made the heap grow.
    await inLanes(here, async (tool) => {
      let unit: ToolUnit;
      try {
        unit = { tool, ...(await emitter.unit(tool, options.stubs.has(tool.name))) };
      } catch (error) {
        // An emitter or library that throws on an accepted definition: that tool's problem, reported
        // with every other one, instead of a stack trace that hides them.
        failures.push(...emitFailure(tool, error));
        return;
      }
      mainThread++;
      options.sink(unit);
      options.onProgress?.();
    });
  }
  return { problems: failures, threads, mainThread };
}

/** The stubs of `tools` (implementation files, written only where absent), sorted by path. */
export async function emitStubs(
  project: Pick<ProjectListing, 'shared'>,
  tools: readonly ToolModel[],
  settings: EmitSettings,
): Promise<GeneratedFile[]> {
  if (tools.length === 0) return [];
  const emitter = await inProcessEmitter(project, settings);
  const stubs: GeneratedFile[] = [];
  await inLanes([...tools], async (tool) => {
    stubs.push(await emitter.stub(tool));
  });
  return stubs.sort((a, b) => compareStrings(a.path, b.path));
}

/**
 * The files that list every tool: shared types, registry and index (with the lazy registry and
 * catalog of a large project), the given manifest files, the docs index pages.
 */
export async function emitProjectFiles(
  project: ProjectListing,
  settings: EmitSettings,
  manifestFiles: readonly GeneratedFile[],
  options: { sharedValidators?: boolean; tokens?: TokenReport | undefined } = {},
): Promise<GeneratedFile[]> {
  const { emitSharedTypes, emitSharedValidators, formatFiles, normalizeLineEndings, createDocRenderer } =
    await emitters();
  const format = (files: GeneratedFile[]) =>
    settings.format ? formatFiles(files) : Promise.resolve(files.map(normalizeLineEndings));
  const homes = typeHomes(project);
  return [
    ...(await format([
      ...(await Promise.all(project.shared.map((entry) => emitSharedTypes(entry, homes, settings.ctx)))),
      ...emitRegistry(project, settings.ctx),
    ])),
    ...manifestFiles,
    ...(options.sharedValidators === false ? [] : [emitSharedValidators(project.shared, settings.ctx)]).filter(
      (file) => file !== undefined,
    ),
    ...(await format(createDocRenderer(settings.templates).projectPages(project, settings.ctx, options.tokens))),
  ];
}

/** Where `emitProject` puts what it makes, as soon as it is made. */
export interface ProjectSink {
  /** Each emitted tool's unit, in any order (its files, its stub when wanted). */
  unit(unit: ToolUnit): void;
  /** Each project-wide file, whole (the manifests too, unless `stream` is given). */
  file(file: GeneratedFile): void;
  /** Opens an assembled manifest file, to be written piece by piece as the tools' parts come in. */
  stream?: OpenManifestFile;
}

/** Options of `emitProject`. */
export interface EmitProjectOptions {
  /**
   * The tools to emit; consumed (each entry let go once its unit is taken). When the manifests are
   * assembled, these are every tool of the project.
   */
  tools: ToolModel[];
  /** Names of the tools whose stub is wanted with their unit. */
  stubs: ReadonlySet<string>;
  /** Worker threads for the per-tool emission; a `pool` given is closed once the units are done. */
  workers?: WorkerOptions;
  /** Called as each tool is done (for a progress line). */
  onProgress?: () => void;
  /** The manifests: assembled from the tools' parts (default), or `given` (made by the caller: spliced, or built whole). */
  manifests?: 'assemble' | 'given';
  /** Emit the project-wide files (default true; `false`: the caller keeps the last run's). */
  listings?: boolean;
  /** Emit the shared validator module among them (default true). */
  sharedValidators?: boolean;
  /** The token report of manifests made by the caller (`manifests: 'given'`), for the docs index. */
  tokens?: TokenReport;
}

/** What `emitProject` says of its emission (the files went to the sink). */
export interface ProjectEmission {
  /** Targets that cannot take a tool (under the `error` policy), tools whose emission threw: then no project-wide file was made. */
  problems: Problem[];
  /** Tools a target leaves out (under `omit`). */
  warnings: Problem[];
  /** Threads the tools were emitted on, the main thread included (1: in process only). */
  threads: number;
  /** How many tools the main thread emitted itself. */
  mainThread: number;
  /** Where each tool's part lies in the assembled manifests (for a later splice). */
  segments?: Record<string, FileSegments>;
  /** What every tool's entries cost per target (the token report), when the manifests were assembled. */
  tokens?: TokenReport;
  /** The warnings of the files that list every tool (token budgets, namespace sizes). */
  listingWarnings?: Problem[];
}

/**
 * The one composition of a project's emission, for the library (`emitAll`, `generate`) and the
 * CLI's runs (incremental/stage.ts) alike: every given tool's unit (on the workers from their
 * threshold), its part of the manifests assembled in name order, the problems merged, then the
 * project-wide files. Each file goes to `sink` as it is made.
 */
export async function emitProject(
  project: ProjectListing,
  settings: EmitSettings,
  sink: ProjectSink,
  options: EmitProjectOptions,
): Promise<ProjectEmission> {
  const assembler =
    options.manifests === 'given'
      ? undefined
      : createManifestAssembler(
          project.tools.map((tool) => tool.name),
          settings.ctx,
          { ...settings.manifests, ...(sink.stream !== undefined ? { open: sink.stream } : {}) },
        );
  // Taken out of the caller's array: `emitToolUnits` clears its array's entries as the tools are done.
  const tools = assembler === undefined ? options.tools.splice(0) : inNameOrder(options.tools.splice(0));
  const emitted = await emitToolUnits(project, tools, settings, {
    stubs: options.stubs,
    sink: (unit) => {
      sink.unit(unit);
      assembler?.add(unit.manifests);
    },
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
  });
  // The workers are done: stopped now, not after the files that list every tool.
  await options.workers?.pool?.close();
  const { threads, mainThread } = emitted;
  const problems = [...(assembler?.problems ?? []), ...emitted.problems];
  if (problems.length > 0) {
    assembler?.abandon();
    return { problems, warnings: [...(assembler?.warnings ?? [])], threads, mainThread };
  }
  const assembled = assembler?.finish();
  if (options.listings !== false) {
    const manifestFiles = assembled?.files ?? [];
    const sharedValidators = options.sharedValidators !== false;
    const listingOptions = { sharedValidators, tokens: assembled?.tokens ?? options.tokens };
    for (const file of await emitProjectFiles(project, settings, manifestFiles, listingOptions)) sink.file(file);
  }
  return {
    problems: [],
    warnings: [...(assembled?.warnings ?? [])],
    threads,
    mainThread,
    ...(assembled?.segments !== undefined ? { segments: assembled.segments } : {}),
    ...(assembled?.tokens !== undefined ? { tokens: assembled.tokens } : {}),
    ...(assembled?.listingWarnings !== undefined ? { listingWarnings: assembled.listingWarnings } : {}),
  };
}

/** Options of `emitAll`. */
export interface EmitAllOptions {
  /** Names of the tools whose stub is wanted (default: every tool). */
  stubs?: ReadonlySet<string>;
  /** Called as each tool's files are done (for a progress line). */
  onProgress?: (done: number, total: number) => void;
  /** Worker threads for the per-tool emission (default: one per core from 200 tools to emit; see emit/pool/pool.ts). */
  workers?: WorkerOptions;
}

/** What `emitAll` gives: every file of the project, or (then no files) the problems. */
export interface Emission extends Omit<ProjectEmission, 'segments' | 'tokens' | 'listingWarnings'> {
  /** Files under the output folder, sorted by path. */
  files: GeneratedFile[];
  /** Stubs (paths relative to the stubs folder), sorted; written only when absent. */
  stubs: GeneratedFile[];
}

/** The whole output of a project, in memory: `emitProject` into two lists. */
export async function emitAll(
  project: ProjectModel,
  settings: EmitSettings,
  options: EmitAllOptions = {},
): Promise<Emission> {
  const files: GeneratedFile[] = [];
  const stubs: GeneratedFile[] = [];
  let done = 0;
  const sink: ProjectSink = {
    unit: (unit) => {
      files.push(...unit.files);
      if (unit.stub !== undefined) stubs.push(unit.stub);
    },
    file: (file) => files.push(file),
  };
  const { problems, warnings, threads, mainThread } = await emitProject(project, settings, sink, {
    tools: [...project.tools],
    stubs: options.stubs ?? new Set(project.tools.map((tool) => tool.name)),
    onProgress: () => options.onProgress?.(++done, project.tools.length),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
  });
  if (problems.length > 0) return { files: [], stubs: [], problems, warnings, threads, mainThread };
  return {
    files: files.sort((a, b) => compareStrings(a.path, b.path)),
    stubs: stubs.sort((a, b) => compareStrings(a.path, b.path)),
    problems: [],
    warnings,
    threads,
    mainThread,
  };
}

/** What a generate run produced, before anything is written. */
export interface GenerateResult {
  project: ProjectModel;
  /** Files under the output folder, sorted by path. */
  files: GeneratedFile[];
  /** Stubs (paths relative to the stubs folder), written only when absent. */
  stubs: GeneratedFile[];
  /** What blocks the run (then no files): the errors, and with `strict` the warnings too. */
  problems: Problem[];
  /** What is ignored but does not block the run (unknown keywords and formats, defaults never filled in); empty with `strict`. */
  warnings: Problem[];
  /** Threads the tools were emitted on, the main thread included (1: in process only). */
  threads: number;
}

/**
 * The tools in manifest order (by name). Why: each tool's part of the manifests is written once the
 * tools before it are in, so emitting them in that order keeps only the few in flight waiting.
 */
export function inNameOrder(tools: readonly ToolModel[]): ToolModel[] {
  return [...tools].sort((a, b) => compareStrings(a.name, b.name));
}

/** The names of the project's tools whose stub does not exist yet. */
export function absentStubs(resolved: ResolvedOptions, project: ProjectListing): Set<string> {
  return new Set(
    project.tools
      .filter((tool) => !existsSync(path.join(resolved.stubsDir, `${tool.names.kebab}.ts`)))
      .map((tool) => tool.name),
  );
}

/**
 * Runs load → normalize → emit → format over the definitions and returns every file in memory,
 * or the problems when any definition is invalid (then no files); reads no cache, writes nothing.
 * The CLI runs the same stages through incremental/, which memoizes them and streams the files
 * to the disk.
 */
export async function generate(
  options: GenerateOptions & { onProgress?: (done: number, total: number) => void },
): Promise<GenerateResult> {
  const resolved = resolveOptions(options);
  const read = readTemplates(resolved);
  const nothing = { files: [], stubs: [], threads: 1 };
  if ('problem' in read)
    return { project: { tools: [], shared: [] }, ...nothing, problems: [read.problem], warnings: [] };
  const loaded = loadDefinitions(resolved.schemasDir, resolved.root);
  const modelled = modelProject(loaded, options);
  if (modelled.problems.length > 0) return { ...modelled, ...nothing };
  const emitted = await emitAll(modelled.project, emitSettings(resolved, read.templates), {
    stubs: absentStubs(resolved, modelled.project),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    workers: workerOptions(options),
  });
  const verdict = emissionVerdict(emitted, loaded, options.strict);
  if (verdict.problems.length > 0)
    return { project: modelled.project, ...nothing, problems: verdict.problems, warnings: modelled.warnings };
  return {
    project: modelled.project,
    files: emitted.files,
    stubs: emitted.stubs,
    problems: [],
    warnings: sortProblems([...modelled.warnings, ...verdict.warnings]),
    threads: emitted.threads,
  };
}
