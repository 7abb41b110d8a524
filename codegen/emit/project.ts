/**
 * The emit stage of a generate: every planned tool's files (types, validators, base class, schemas
 * file, doc page) on the worker pool from its threshold, the tools' parts of the manifests spliced into
 * the last run's files or assembled in name order, then the files that list every tool. Each file goes to
 * the output (write.ts) as soon as it is made, so no tool's text outlives its turn.
 */
import { typeHomes, type GeneratedFile, type Problem, type ProjectModel, type ToolModel } from '../model.js';
import { compareStrings } from '../../src/manifest-targets/build.js';
import { createDocRenderer } from './docs.js';
import { formatFiles } from './format.js';
import {
  createManifestAssembler,
  type ManifestEmission,
  type OpenFile,
  type PreviousManifests,
  withNameCollisions,
} from './manifests/index.js';
import { collectWhenGrown } from './pool/collect-garbage.js';
import { describeError } from './pool/messages.js';
import { emitOnPool, workerCount, type EmitOutcome, type WorkerOptions } from './pool/pool.js';
import { startPrinter, type Printer } from './pool/printer.js';
import { emitRegistry } from './registry.js';
import type { EmitSettings } from './settings.js';
import { createToolEmitter, type ToolEmitterOptions, type ToolOutput } from './tool-files.js';
import { emitSharedTypes } from './types.js';
import { emitSharedValidators, rejectedSchemaProblems } from './validators.js';

/** What the emit stage is given: the project, which tools to emit, and what the plan already has. */
export interface EmitPlan {
  /** Every tool of the project (the files that list every tool read them all). */
  project: ProjectModel;
  /** The tools whose files are made again; the others' files are kept as the output holds them. */
  fresh: readonly ToolModel[];
  /** Tool name → its files the output holds unchanged (kept, never read). */
  reused: ReadonlyMap<string, readonly string[]>;
  /** Names of the tools whose stub (`src/tools/<tool>.ts`) does not exist yet. */
  stubs: ReadonlySet<string>;
  /** The last run's manifest files, to splice the fresh tools' parts into (`spliceParts`); absent: assembled. */
  previous?: PreviousManifests;
}

/** Where the emit stage puts what it makes (a run's output, write.ts `stageOutput`; or memory). */
export interface EmitOutput {
  /** A file made by this run. */
  put(file: GeneratedFile): void;
  /** A file made by this run, written as its bytes are made (an assembled manifest: never held whole). */
  open: OpenFile;
  /** A file the output already holds as this run would make it (a reused tool's). */
  keep(path: string): void;
}

/** Options of `emitProject`: the threads for the per-tool emission (see pool.ts `workerCount`) and a progress callback. */
export interface EmitOptions extends WorkerOptions {
  /** Called as each tool is done, the reused ones first (for a progress line). */
  onProgress?: (done: number, total: number) => void;
  /** The printing thread for the bases and stubs (generate.ts starts it with the run); without one, a thread of its own. */
  printer?: Printer;
}

/** What the emit stage made (its files went to the output). */
export interface Emitted {
  /** Tools whose emission threw, targets that cannot take a tool (under `error`): then nothing was written. */
  problems: Problem[];
  /** Tools a target leaves out (under `omit`), token budgets, namespace sizes. */
  warnings: Problem[];
  /** Tool name → the files made for it (the fresh tools). */
  units: Map<string, string[]>;
  /** The files that list every tool. */
  listings: string[];
  /** Stubs to create where absent (paths relative to the stubs folder), sorted. */
  stubs: GeneratedFile[];
  /** Where each tool's part lies in each manifest file (for a later run's splice). */
  segments: ManifestEmission['segments'];
  /** How the manifests were made: spliced into the last run's files, or assembled from every tool's part. */
  manifests: 'spliced' | 'assembled';
  /** Threads the tools were emitted on, the main thread included (1: in process only). */
  threads: number;
}

/**
 * Emits `plan` into `output`: each fresh tool's files as the tool is done, then the manifests — with
 * the last run's files (`plan.previous`), the fresh tools' parts spliced into them (what keeps a
 * one-tool regenerate short, P4: bench/README.md); else, or when they do not fit, assembled in name
 * order with the reused tools' parts (made from their models only then) — the files that list every
 * tool, and the stubs the project lacks. On a problem nothing more is put: the caller discards the output.
 */
export async function emitProject(
  plan: EmitPlan,
  runSettings: EmitSettings,
  output: EmitOutput,
  options: EmitOptions = {},
): Promise<Emitted> {
  const { project, previous } = plan;
  const names = project.tools.map((tool) => tool.name);
  const settings = { ...runSettings, manifests: withNameCollisions(runSettings.manifests, names) };
  const setup: ToolEmitterOptions = { ...settings, shared: project.shared };
  const emitter = createToolEmitter(setup);
  const total = project.tools.length;
  let done = 0;
  const units = new Map<string, string[]>();
  const stubs = await printBasesAndStubs(plan, emitter, options.printer ?? startPrinter(), (tool, base) => {
    output.put(base);
    units.set(tool.name, [base.path]);
  });
  for (const [, files] of plan.reused) for (const file of files) output.keep(file);
  const manifests = createManifestAssembler(project.tools, settings.ctx, settings.manifests, { previous, output });
  for (const tool of project.tools) {
    if (!plan.reused.has(tool.name)) continue;
    manifests.reuse(tool);
    options.onProgress?.(++done, total);
  }
  const { problems, threads } = await emitToolUnits(plan, setup, emitter, options, (tool, unit) => {
    units.get(tool.name)!.push(...unit.files.map((file) => (output.put(file), file.path)));
    manifests.add(unit.manifests);
    options.onProgress?.(++done, total);
  });
  // On a problem nothing more is put: what was emitted so far, and what stopped it.
  const stopped = (found: Problem[], warnings: Problem[]): Emitted => {
    return { problems: found, warnings, units, listings: [], stubs, segments: {}, manifests: 'assembled', threads };
  };
  const warnings = [...manifests.warnings];
  if (manifests.problems.length + problems.length > 0) return stopped([...manifests.problems, ...problems], warnings);
  const made = manifests.finish();
  // A reused tool's part made at `finish` (its files did not fit a splice) tells its problems only then.
  if (made.problems.length > 0) return stopped([...made.problems], warnings);
  const listings = [...made.files, ...(await emitProjectFiles(project, settings, made))];
  for (const file of listings) output.put(file);
  return {
    problems: [],
    warnings: [...made.warnings],
    units,
    listings: [...made.written, ...listings.map((file) => file.path)],
    stubs: stubs.sort((a, b) => compareStrings(a.path, b.path)),
    segments: made.segments,
    manifests: made.spliced ? 'spliced' : 'assembled',
    threads,
  };
}

/** A tool whose emission threw, as a problem at its definition (describing the thrown value cannot throw). */
function emitFailure(tool: ToolModel, error: unknown): Problem[] {
  // A schema Ajv rejects (emit/validators.ts compiles it) is a problem of the definition, at that schema.
  const rejected = rejectedSchemaProblems(tool, error);
  if (rejected !== undefined) return rejected;
  const { name, message } = describeError(error);
  return [
    {
      file: tool.source.file,
      line: 1,
      column: 1,
      pointer: '',
      message: `the generator failed on this tool (${name}: ${message})`,
      hint: 'a bug in toolsmith or a library it uses: please report it with this definition; until then, simplify the part of the schema the error points at',
    },
  ];
}

/**
 * Emits each of the plan's fresh tools (in name order) and hands it to `take` as soon as it is done, in
 * any order. From the pool's threshold the main thread (`emitter`) emits beside `threads - 1` workers
 * given the same `setup` (`emitOnPool`); a tool whose worker stopped under it (its heap cap, a crash)
 * is emitted in process. Answers one problem per tool whose emission threw.
 */
async function emitToolUnits(
  plan: EmitPlan,
  setup: ToolEmitterOptions,
  emitter: ReturnType<typeof createToolEmitter>,
  workers: WorkerOptions,
  take: (tool: ToolModel, unit: ToolOutput) => void,
): Promise<{ problems: Problem[]; threads: number }> {
  const problems: Problem[] = [];
  // In manifest order: each tool's part is written once the tools before it are in, so few wait.
  const ordered = [...plan.fresh].sort((a, b) => compareStrings(a.name, b.name));
  const threads = workerCount(ordered.length, workers);
  const inProcess = async (tool: ToolModel): Promise<EmitOutcome> => {
    // Beside the workers the main thread mostly waits and its garbage piles up under a large
    // --max-old-space-size: collected as it grows, a 1,000-tool generate peaks at ~430 MB, else ~540 (P7).
    if (threads > 1) collectWhenGrown();
    try {
      return await emitter.toolFiles(tool);
    } catch (error) {
      return { error };
    }
  };
  const settle = (tool: ToolModel, outcome: EmitOutcome) => {
    if ('error' in outcome) problems.push(...emitFailure(tool, outcome.error));
    else take(tool, outcome);
  };
  const lost: ToolModel[] = [];
  if (threads > 1) {
    await emitOnPool(ordered, setup, threads - 1, inProcess, (tool, outcome) =>
      'lost' in outcome ? lost.push(tool) : settle(tool, outcome),
    );
  }
  for (const tool of threads > 1 ? lost : ordered) {
    settle(tool, await inProcess(tool));
    // Lets the event loop turn between tools: an emission in process is otherwise one job to its end.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { problems, threads };
}

/**
 * Prints the fresh tools' bases and the missing stubs on `printer` (pool/printer.ts), hands each base
 * to `put` and answers the stubs; then stops the thread. Why first, before the emission: what ts-morph
 * holds goes before the run's peak, at its end (P7, bench/README.md).
 */
async function printBasesAndStubs(
  plan: EmitPlan,
  emitter: ReturnType<typeof createToolEmitter>,
  printer: Printer,
  put: (tool: ToolModel, base: GeneratedFile) => void,
): Promise<GeneratedFile[]> {
  const missing = plan.project.tools.filter((tool) => plan.stubs.has(tool.name));
  try {
    const printed = await printer.print([...plan.fresh.map(emitter.base), ...missing.map(emitter.stub)]);
    plan.fresh.forEach((tool, index) => put(tool, printed[index]!));
    return printed.slice(plan.fresh.length);
  } finally {
    // Not awaited: nothing needs the thread gone (its exit took 20-30 ms of a one-changed run, P4).
    void printer.stop();
  }
}

/** The files that list every tool besides the manifests: shared types and validators, registry and index, the docs index. */
async function emitProjectFiles(
  project: ProjectModel,
  settings: EmitSettings,
  manifests: Pick<ManifestEmission, 'tokens'>,
): Promise<GeneratedFile[]> {
  const format = (files: GeneratedFile[]) => formatFiles(files, settings.format);
  const homes = typeHomes(project);
  const sharedValidators = emitSharedValidators(project.shared, settings.ctx);
  return [
    ...(await format([
      ...(await Promise.all(project.shared.map((entry) => emitSharedTypes(entry, homes, settings.ctx)))),
      ...emitRegistry(project, settings.ctx),
    ])),
    ...(sharedValidators === undefined ? [] : [sharedValidators]),
    ...(await format(createDocRenderer(settings.templates).projectPages(project, settings.ctx, manifests.tokens))),
  ];
}
