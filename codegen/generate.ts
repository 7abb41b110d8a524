/**
 * A generate, read top to bottom: config → load → normalize → plan → emit → write → record, each a
 * named call into the module that owns the stage. The cache (incremental/cache.ts) is a value the
 * stages consult, and a check is the same run comparing with the output instead of writing it.
 * `toolsmith generate`, `toolsmith check` and the library's `generate()` all run this function.
 */
import { settingsProblems } from './config/config.js';
import { resolveOptions, type GenerateOptions, type ResolvedOptions } from './config/options.js';
import { placeProblem, sortProblems } from './problems.js';
import { emitProject } from './emit/project.js';
import { startPrinter, type Printer } from './emit/pool/printer.js';
import { readSettings } from './emit/settings.js';
import { schemaRejections } from './emit/validators.js';
import { openCache } from './incremental/cache.js';
import { planRun } from './incremental/plan.js';
import { loadDefinitions, type LoadedFiles } from './load.js';
import type { Problem, ProjectModel } from './model.js';
import { normalize } from './normalize.js';
import { stageOutput, type OutputDiff } from './write.js';

/** How a run goes, beside the generator's options (which `resolveOptions` turns into the run's one value). */
export interface RunControls extends Pick<GenerateOptions, 'workerThreshold'> {
  /** Compare with the output folder only (`toolsmith check`): nothing is written, no cache is read or written. */
  check?: boolean;
  /** Called as each tool is done, reused ones included (for a progress line). */
  onProgress?: (done: number, total: number) => void;
  /** The generator's code in the cache key (default `generatorFingerprint()`): another fingerprint is another generator. */
  fingerprint?: string;
  /** Model the project even when nothing changed since the last run (`--update-stubs` reads it). */
  modelAlways?: boolean;
  /** The printing thread of the bases and stubs, when the caller started it earlier (the CLI, before it loads the generator). */
  printer?: Printer;
}

/** Options of a run: the generator's options, and how the run goes. */
export interface RunOptions extends GenerateOptions, RunControls {}

/** What a run did. */
export interface GenerateReport {
  /** How many tools the project has. */
  tools: number;
  /** The project's model; absent when the run stopped before normalize or nothing had changed. */
  project?: ProjectModel;
  /** What blocked the run (then the output folder is untouched). */
  problems: Problem[];
  /** What is ignored but does not block the run (unknown keywords and formats, …); empty with `strict`. */
  warnings: Problem[];
  /** Tools whose files were taken from the output as the last run left them. */
  reused: number;
  /** How the manifests were made: spliced into the last run's files, or assembled from every tool's part. */
  manifests?: 'spliced' | 'assembled';
  /** Threads the tools were emitted on, the main thread included (1: in process). */
  threads: number;
  /** How the output folder differed from what the run produced. */
  diff: OutputDiff;
  /** True when the output folder was replaced. */
  replaced: boolean;
  /** Stubs created (generate), or missing (check), relative to the stubs folder. */
  stubs: string[];
}

/**
 * The library's `generate()`: `options` resolved and checked by the config's schema (they come from no
 * config file, whose keys are checked as it is read), then the run every command makes (`generateResolved`).
 */
export async function generate(options: RunOptions): Promise<GenerateReport> {
  const resolved = resolveOptions(options);
  const problems = settingsProblems(resolved.settings);
  return problems.length > 0 ? stopped(problems) : generateResolved(resolved, options);
}

/**
 * `toolsmith generate` (with `check`, `toolsmith check`): the whole run of `resolved` (the CLI resolves
 * its config and flags once and hands them here), writing nothing when anything fails.
 */
export async function generateResolved(resolved: ResolvedOptions, run: RunControls = {}): Promise<GenerateReport> {
  // Stopped however the run ends (emitProject stops it as soon as it has printed).
  let printer = run.printer;
  try {
    const { strict, workers } = resolved.settings;
    const read = readSettings(resolved);
    if ('problems' in read) return stopped(read.problems);
    const cache = openCache(resolved, read.settings, run);
    const unchanged = run.modelAlways ? undefined : cache.unchanged();
    if (unchanged !== undefined)
      return { ...stopped([]), tools: unchanged.tools, reused: unchanged.tools, diff: sameFiles(unchanged.files) };
    // Started before load (unless the caller started it earlier still): ts-morph loads on its thread meanwhile.
    printer ??= startPrinter();
    const loaded = loadDefinitions(resolved.schemasDir, resolved.root);
    const normalized = normalize(loaded, cache.normalizeHooks(loaded));
    const { project } = normalized;
    const modelled = bySeverity(normalized.problems, normalized.warnings, strict);
    const place = (problem: Problem) => placeIn(loaded, problem);
    // Told beside normalize's problems: every accepted tool's schemas Ajv rejects.
    if (modelled.problems.length > 0) {
      const rejected = project.tools.flatMap(schemaRejections).map(place);
      return stopped(sortProblems([...modelled.problems, ...rejected]), modelled.warnings);
    }
    const plan = planRun(project, resolved, cache);
    const output = stageOutput(resolved.outDir, { compareOnly: run.check === true, stubsDir: resolved.stubsDir });
    const emitted = await emitProject(plan, read.settings, output, { ...run, workers, printer }).catch(
      (error: unknown) => {
        output.discard();
        throw error;
      },
    );
    const verdict = bySeverity(sortProblems(emitted.problems.map(place)), emitted.warnings.map(place), strict);
    if (verdict.problems.length > 0) {
      output.discard();
      return stopped(verdict.problems, modelled.warnings);
    }
    const warnings = sortProblems([...modelled.warnings, ...verdict.warnings]);
    const written = output.commit(emitted.stubs);
    cache.record({
      project,
      loaded,
      units: new Map([...plan.reused, ...emitted.units]),
      listings: emitted.listings,
      segments: emitted.segments,
      warned: warnings.length > 0,
    });
    return {
      tools: project.tools.length,
      project,
      problems: [],
      warnings,
      reused: plan.reused.size,
      manifests: emitted.manifests,
      threads: emitted.threads,
      ...written,
    };
  } finally {
    void printer?.stop();
  }
}

/** The report of a run that wrote nothing. */
function stopped(problems: Problem[], warnings: Problem[] = []): GenerateReport {
  return { tools: 0, problems, warnings, reused: 0, threads: 1, diff: sameFiles([]), replaced: false, stubs: [] };
}

/** A diff in which every one of `files` is the same. */
function sameFiles(files: string[]): OutputDiff {
  return { stale: [], missing: [], extra: [], same: files };
}

/** Splits problems into what blocks the run and warnings: with `strict`, warnings block it as errors do (still marked warnings). */
function bySeverity(errors: Problem[], warnings: Problem[], strict: boolean) {
  return strict ? { problems: sortProblems([...errors, ...warnings]), warnings: [] } : { problems: errors, warnings };
}

/** `problem` placed in its definition at its pointer (line and column), when the definition is one of `loaded`. */
function placeIn(loaded: LoadedFiles, problem: Problem): Problem {
  const source = loaded.tools.find((candidate) => candidate.file === problem.file);
  return source === undefined ? problem : placeProblem(source, problem);
}
