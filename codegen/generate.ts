import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import {
  cacheFile,
  generationCacheKey,
  modelsFile,
  readCache,
  readModels,
  sharedInputsHash,
  untouchedSinceSnapshot,
  type ModelCache,
  reuseEntry,
  reuseFromCache,
  sha256,
  type GenerationCache,
} from './cache.js';
import {
  emitManifests,
  type FileSegments,
  MANIFEST_TARGETS,
  type ManifestEmission,
  type ManifestOptions,
  patchManifests,
} from './emit/manifests/index.js';
import { emitRegistry } from './emit/registry.js';
import type { DocRenderer } from './emit/docs.js';
import { loadDefinitions, toPosix } from './load.js';
import { placeProblem } from './diagnostics.js';
import { rejectedSchemaProblems } from './emit/validators.js';
import type { EmitContext, GeneratedFile, Problem, ProjectModel, ToolModel } from './model.js';
import { encoded, heldAsBytes } from './write.js';
import { dictionary, ownValue } from './dictionary.js';
import { compareStrings } from './naming.js';
import { normalize } from './normalize.js';
import { resolveOptions, type GenerateOptions } from './options.js';
import { emitInWorkers, startEmitPool, workerCount, type EmitPool, type WorkerOptions } from './emit-pool.js';

export { resolveOptions, type GenerateOptions, type ResolvedOptions } from './options.js';
import { sortProblems } from './problems.js';
import { loadTemplates, TemplateReadError } from './templates/index.js';
import type { DocTemplates } from './templates/names.js';

/**
 * The emitters that need heavy packages (json-schema-to-typescript, ts-morph, prettier,
 * handlebars), imported the first time something must be emitted: a run with nothing changed
 * loads none of them.
 */
async function loadEmitters() {
  const [types, toolBases, stubs, format, docs] = await Promise.all([
    import('./emit/types.js'),
    import('./emit/tool-bases.js'),
    import('./emit/stubs.js'),
    import('./emit/format.js'),
    import('./emit/docs.js'),
  ]);
  const toolFiles = await import('./emit/tool-files.js');
  return { ...types, ...toolBases, ...stubs, ...format, ...docs, ...toolFiles };
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
}

/**
 * Runs load → normalize → emit → format and returns every file, or the problems when any
 * definition is invalid (then no files). Reads the definitions and, unless `incremental` is off,
 * the previous output of tools whose content hash did not change (see cache.ts); writes nothing.
 */
export async function generate(
  options: GenerateOptions & { incremental?: boolean; onProgress?: (done: number, total: number) => void },
): Promise<
  GenerateResult & {
    cache: GenerationCache;
    reused: number;
    inputs: Record<string, string>;
    models?: ModelCache;
    threads?: number;
  }
> {
  const resolved = resolveOptions(options);
  let templates: DocTemplates;
  try {
    templates = loadTemplates(resolved.templatesDir);
  } catch (error) {
    if (!(error instanceof TemplateReadError)) throw error;
    const problem: Problem = {
      file: toPosix(path.relative(resolved.root, error.file)),
      line: 1,
      column: 1,
      pointer: '',
      message: error.message,
      hint: error.hint,
    };
    return {
      project: { tools: [], shared: [] },
      files: [],
      stubs: [],
      problems: [problem],
      warnings: [],
      cache: { version: 1, key: '', tools: dictionary() },
      reused: 0,
      inputs: dictionary(),
    };
  }
  const cacheKey = generationCacheKey(resolved, templates);
  const previous =
    options.incremental === false
      ? readCache(undefined, cacheKey)
      : readCache(cacheFile(resolved.root, resolved.outDir), cacheKey);
  const loaded = loadDefinitions(resolved.schemasDir, resolved.root);
  const workerOptions = {
    ...(options.workers !== undefined ? { count: options.workers } : {}),
    ...(options.workerThreshold !== undefined ? { threshold: options.workerThreshold } : {}),
  };
  // With no previous output to reuse, every tool is emitted: the workers start now and load their
  // emitters while this thread normalizes.
  const everyToolFresh = options.incremental === false || Object.keys(previous.tools).length === 0;
  const threads = everyToolFresh ? workerCount(loaded.tools.length, workerOptions) : 1;
  const pool: EmitPool | undefined = threads > 1 ? startEmitPool(threads) : undefined;
  try {
    // What was read, by content: recorded for the nothing-changed shortcut (cache.ts `unchangedRun`).
    const inputs: Record<string, string> = dictionary();
    for (const source of [...loaded.tools, ...loaded.shared]) inputs[source.relPath] = sha256(source.text);
    const sharedHash = sharedInputsHash(loaded.shared, inputs);
    const models =
      options.incremental === false ? {} : readModels(modelsFile(resolved.root, resolved.outDir), cacheKey, sharedHash);
    const {
      project,
      problems: errors,
      warnings: found,
    } = normalize(loaded, {
      isUnchanged: (name, hash) => ownValue(previous.tools, name)?.hash === hash,
      cached: (source) => {
        const entry = Object.prototype.hasOwnProperty.call(models, source.relPath) ? models[source.relPath] : undefined;
        return entry !== undefined && entry.raw === inputs[source.relPath] ? entry.model : undefined;
      },
    });
    // With `strict`, warnings block the run as errors do (still marked as warnings, for the reader).
    const problems = options.strict ? sortProblems([...errors, ...found]) : errors;
    const warnings = options.strict ? [] : found;
    const unknownTargets = (options.manifestTargets ?? []).filter(
      (target) => !(MANIFEST_TARGETS as readonly string[]).includes(target),
    );
    for (const target of unknownTargets) {
      problems.push({
        file: 'toolsmith.config.json',
        line: 1,
        column: 1,
        pointer: '/manifests/targets',
        message: `unknown manifest target "${target}"`,
        hint: `the targets are: ${MANIFEST_TARGETS.join(', ')}`,
      });
    }
    const empty = { project, files: [], stubs: [], cache: previous, reused: 0, inputs, warnings };
    // The files that list every tool depend on the whole model: every tool's hash and every shared schema.
    const projectHash = sha256(
      JSON.stringify({
        tools: project.tools.map((tool) => [tool.name, tool.hash]),
        shared: project.shared.map((entry) => [entry.relPath, entry.schema]),
      }),
    );
    if (problems.length > 0) return { ...empty, problems };
    const manifestOptions: ManifestOptions = {
      ...(resolved.manifestTargets ? { targets: resolved.manifestTargets } : {}),
      ...(resolved.manifestPolicy ? { unrepresentable: resolved.manifestPolicy } : {}),
      ...(resolved.manifestDescribeLosses !== undefined ? { describeLosses: resolved.manifestDescribeLosses } : {}),
    };
    // A manifest problem names a pointer into a definition: placed at its line and column there.
    const place = (problem: Problem): Problem => {
      const source = loaded.tools.find((candidate) => candidate.file === problem.file);
      return source === undefined ? problem : placeProblem(source, problem);
    };
    const emitted = await emitAll(project, resolved.ctx, {
      templates,
      manifests: manifestOptions,
      format: resolved.format,
      reuse: (tool) => reuseFromCache(previous, resolved.outDir, tool),
      reuseProjectFiles: () => reuseEntry(previous.project, projectHash, resolved.outDir, previous.snapshot),
      // The manifests and loss reports from the last run's files, with the parts of the tools emitted
      // again made anew (every changed tool is: reuse needs an unchanged hash); see `patchManifests`.
      patchManifests:
        options.incremental === false || previous.project?.segments === undefined
          ? undefined
          : (fresh) =>
              patchManifests(
                project,
                resolved.ctx,
                manifestOptions,
                {
                  segments: previous.project!.segments!,
                  read: (file) =>
                    untouchedSinceSnapshot(previous.snapshot, resolved.outDir, file)
                      ? readFileSync(path.join(resolved.outDir, file))
                      : undefined,
                },
                fresh,
              ),
      stubNeeded: (tool) => !existsSync(path.join(resolved.stubsDir, `${tool.names.kebab}.ts`)),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      workers: { ...workerOptions, ...(pool ? { pool } : {}) },
    });
    if (emitted.problems.length > 0) return { ...empty, problems: sortProblems(emitted.problems.map(place)) };
    const emittedWarnings = emitted.warnings.map(place);
    if (options.strict && emittedWarnings.length > 0) return { ...empty, problems: sortProblems(emittedWarnings) };
    const cache: GenerationCache = { version: 1, key: cacheKey, tools: dictionary() };
    for (const tool of project.tools) {
      const files: Record<string, string> = {};
      for (const file of emitted.perTool.get(tool.name) ?? []) files[file.path] = file.hash ?? sha256(encoded(file));
      cache.tools[tool.name] = { hash: tool.hash, files };
    }
    const projectFiles: Record<string, string> = {};
    const lengths: Record<string, number> = {};
    // Re-emitted with the bytes the last run wrote, and untouched on disk since: `write` need not read it back.
    const sameAsLastRun = (file: GeneratedFile) =>
      previous.project?.files[file.path] === file.hash &&
      untouchedSinceSnapshot(previous.snapshot, resolved.outDir, file.path);
    for (const file of emitted.projectFiles) {
      // Made as bytes (spliced manifests): hashed as they are, never decoded, so no length is recorded.
      const asText = file.bytes === undefined;
      // A reused file keeps its recorded length: reading its (lazy) content just for that would undo the reuse.
      const known =
        file.hash !== undefined ? previous.project?.lengths?.[file.path] : asText ? file.content.length : undefined;
      if (known !== undefined) lengths[file.path] = known;
      if (file.hash === undefined) {
        const recordedLength = previous.project?.lengths?.[file.path];
        if (asText && recordedLength !== undefined && recordedLength !== file.content.length) {
          // Another length than the file the last run wrote: changed, no need to hash it (tens of MB for
          // the manifests of 1,000 tools). Without a hash the next run trusts it only by its snapshot stat.
          file.hash = '';
        } else {
          file.hash = sha256(encoded(file));
          if (sameAsLastRun(file)) file.onDisk = true;
        }
      }
      projectFiles[file.path] = file.hash;
    }
    const segments = emitted.manifestSegments ?? (emitted.projectFilesReused ? previous.project?.segments : undefined);
    cache.project = { hash: projectHash, files: projectFiles, lengths, ...(segments ? { segments } : {}) };
    const nextModels: ModelCache = { key: cacheKey, shared: sharedHash, tools: dictionary() };
    for (const tool of project.tools)
      nextModels.tools[tool.source.relPath] = { raw: inputs[tool.source.relPath]!, model: tool };
    return {
      project,
      files: emitted.files,
      stubs: emitted.stubs,
      problems: [],
      warnings: sortProblems([...warnings, ...emittedWarnings]),
      cache,
      reused: emitted.reused,
      inputs,
      models: nextModels,
      threads: emitted.threads,
    };
  } finally {
    await pool?.close();
  }
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

/** Tools emitted at once by one `emitAll` (their awaits interleave; the CPU work does not). */
const EMIT_IN_FLIGHT = 4;

/** Runs `task` over `items`, `EMIT_IN_FLIGHT` at a time (the order of completion does not matter to the callers). */
async function inLanes<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(EMIT_IN_FLIGHT, items.length) }, lane));
}

/** Options of `emitAll`. */
export interface EmitAllOptions {
  templates: DocTemplates;
  /** Targets and policy of the manifests. */
  manifests?: ManifestOptions;
  /** The unchanged previous files of a tool, to use instead of emitting it again. */
  reuse?: (tool: ToolModel) => GeneratedFile[] | undefined;
  /** Whether a tool's stub must be emitted (default: always). */
  stubNeeded?: (tool: ToolModel) => boolean;
  /** Format with prettier (default true). */
  format?: boolean;
  /** The unchanged previous files that list every tool, to use instead of emitting them again. */
  reuseProjectFiles?: () => GeneratedFile[] | undefined;
  /** Called as each tool's files are done (for a progress line). */
  onProgress?: (done: number, total: number) => void;
  /** The manifests from the previous run's files, given the tools emitted again; undefined to emit them whole. */
  patchManifests?: ((fresh: readonly ToolModel[]) => ManifestEmission | undefined) | undefined;
  /** Worker threads for the per-tool emission (default: one per core from 200 tools to emit; see emit-pool.ts). */
  workers?: WorkerOptions;
}

/**
 * Every emitter over one model. Per-tool files (types, validators, base class) are emitted and
 * formatted only for tools `reuse` cannot supply; the files that list every tool are always
 * emitted. `problems` are targets that cannot take a tool.
 */
export async function emitAll(
  project: ProjectModel,
  ctx: EmitContext,
  options: EmitAllOptions,
): Promise<{
  files: GeneratedFile[];
  stubs: GeneratedFile[];
  problems: Problem[];
  warnings: Problem[];
  perTool: Map<string, GeneratedFile[]>;
  projectFiles: GeneratedFile[];
  reused: number;
  /** Where each tool's part lies in the manifests and loss reports, when they were made in this run. */
  manifestSegments?: Record<string, FileSegments>;
  /** The files that list every tool were reused as they were. */
  projectFilesReused: boolean;
  /** Worker threads the tools were emitted on (1: in process). */
  threads: number;
}> {
  let loaded: Awaited<ReturnType<typeof loadEmitters>> | undefined;
  const emitters = async () => (loaded ??= await loadEmitters());
  const formatFiles = async (files: GeneratedFile[]) => {
    const { formatFiles: prettierFormat, normalizeLineEndings } = await emitters();
    return options.format === false ? files.map(normalizeLineEndings) : prettierFormat(files);
  };
  const homes = new Map<string, string>();
  for (const shared of project.shared) for (const { typeName } of shared.types) homes.set(typeName, shared.module);
  const perTool = new Map<string, GeneratedFile[]>();
  let reused = 0;
  // The manifests (and what each target loses, which a tool's doc page shows) are built once, and
  // only when something must be emitted: a tool that changed, or the files that list every tool.
  const freshTools: ToolModel[] = [];
  for (const tool of project.tools) {
    const previous = options.reuse?.(tool);
    if (previous) {
      perTool.set(tool.name, previous);
      reused++;
    } else {
      freshTools.push(tool);
    }
  }
  let manifests: ManifestEmission | undefined;
  const manifestsOnce = () =>
    (manifests ??= options.patchManifests?.(freshTools) ?? emitManifests(project, ctx, options.manifests ?? {}));
  let docs: DocRenderer | undefined;
  const renderer = async () => (docs ??= (await emitters()).createDocRenderer(options.templates));
  const failures: Problem[] = [];
  const stubs: GeneratedFile[] = [];
  // Tools whose stub came back with their files (from a worker), not to be emitted again below.
  const stubbed = new Set<string>();
  let threads = 1;
  let toolEmitter: ReturnType<Awaited<ReturnType<typeof loadEmitters>>['createToolEmitter']> | undefined;
  if (freshTools.length > 0) {
    const { losses, unavailable } = manifestsOnce();
    threads = workerCount(freshTools.length, options.workers);
    const lost: ToolModel[] = [];
    if (threads > 1) {
      const stubWanted = freshTools.map((tool) => options.stubNeeded?.(tool) ?? true);
      let done = perTool.size;
      const data = {
        homes: [...homes],
        ctx,
        templates: options.templates,
        losses,
        unavailable,
        format: options.format !== false,
      };
      const progress = () => options.onProgress?.(++done, project.tools.length);
      const pool = options.workers?.pool;
      if (pool !== undefined) threads = pool.size;
      const outcomes =
        pool !== undefined
          ? await pool.run(freshTools, stubWanted, data, progress)
          : await emitInWorkers(freshTools, stubWanted, data, threads, progress);
      // Assembled in the tools' order, whichever worker finished first: the output is the in-process one.
      outcomes.forEach((outcome, index) => {
        const tool = freshTools[index]!;
        if ('error' in outcome) {
          if (outcome.lost) lost.push(tool);
          else failures.push(...emitFailure(tool, outcome.error));
          return;
        }
        perTool.set(tool.name, outcome.files);
        if (outcome.stub !== undefined) {
          stubs.push(outcome.stub);
          stubbed.add(tool.name);
        }
      });
    }
    // In process: every tool below the threshold, and those whose worker stopped under them (its
    // heap cap, a crash), so a worker's end never fails a tool this thread can emit.
    const inProcess = threads > 1 ? lost : freshTools;
    if (inProcess.length > 0) {
      const { createToolEmitter } = await emitters();
      const emitter = (toolEmitter ??= createToolEmitter({
        homes,
        ctx,
        templates: options.templates,
        losses,
        unavailable,
        format: options.format !== false,
      }));
      const emitOne = async (tool: ToolModel) => {
        try {
          perTool.set(tool.name, (await emitter.toolFiles(tool)).map(heldAsBytes));
          options.onProgress?.(perTool.size, project.tools.length);
        } catch (error) {
          // An emitter or library that throws on an accepted definition: that tool's problem, reported
          // with every other one, instead of a stack trace that hides them.
          failures.push(...emitFailure(tool, error));
        }
      };
      // A few tools in flight at once, not every one: the parser trees and intermediate text of
      // 1,000 tools emitted together peaked at 1.7 GB; the output does not depend on the order.
      await inLanes(inProcess, emitOne);
    }
  }
  let projectFiles = options.reuseProjectFiles?.();
  const projectFilesReused = projectFiles !== undefined;
  let problems: Problem[] = [];
  let warnings: Problem[] = [];
  if (projectFiles === undefined || manifests !== undefined) {
    // A target that cannot take a tool is a problem (or a warning) whenever the manifests were built.
    ({ problems, warnings } = manifestsOnce());
  }
  if (failures.length > 0)
    return {
      files: [],
      stubs: [],
      problems: [...problems, ...failures],
      warnings,
      perTool,
      projectFiles: [],
      reused,
      projectFilesReused: false,
      threads,
    };
  if (projectFiles === undefined) {
    const { emitSharedTypes } = await emitters();
    const built = manifestsOnce();
    projectFiles = [
      ...(await formatFiles([
        ...(await Promise.all(project.shared.map((entry) => emitSharedTypes(entry, homes, ctx)))),
        ...emitRegistry(project, ctx),
      ])),
      ...built.files,
      ...(await formatFiles((await renderer()).projectPages(project, ctx))),
    ];
  }
  const files = [...[...perTool.values()].flat(), ...projectFiles];
  const stubTools = project.tools.filter((tool) => !stubbed.has(tool.name) && (options.stubNeeded?.(tool) ?? true));
  if (stubTools.length > 0) {
    const { emitStub, createToolEmitter } = await emitters();
    const emitter = (toolEmitter ??= createToolEmitter({
      homes,
      ctx,
      templates: options.templates,
      losses: dictionary(),
      unavailable: dictionary(),
      format: options.format !== false,
    }));
    await inLanes(stubTools, async (tool) => {
      stubs.push(await emitter.stub(tool, emitStub));
    });
  }
  return {
    files: files.sort((a, b) => compareStrings(a.path, b.path)),
    stubs: stubs.sort((a, b) => compareStrings(a.path, b.path)),
    problems,
    warnings,
    perTool,
    projectFiles,
    reused,
    ...(manifests?.segments ? { manifestSegments: manifests.segments } : {}),
    projectFilesReused,
    threads,
  };
}
