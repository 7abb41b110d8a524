/**
 * A run of `toolsmith generate` or `check`: reads what it starts from, normalizes (handing normalize
 * the models it already has), plans what to reuse, stages the output (stage.ts), swaps it in and
 * records the new cache, model cache and snapshot.
 */
import { collectGarbage } from '../emit/pool/collect-garbage.js';
import { ownValue } from '../dictionary.js';
import type { EmitPool } from '../emit/pool/pool.js';
import { emitSettings, workerOptions, type EmitSettings } from '../emit/settings.js';
import type { NormalizeHooks } from '../generate.js';
import { loadDefinitions, type LoadedFiles } from '../load.js';
import { summarizeTool, type Problem, type ProjectListing } from '../model.js';
import { compareStrings } from '../naming.js';
import { resolveOptions, type GenerateOptions, type ResolvedOptions } from '../config/options.js';
import { sortProblems } from '../problems.js';
import { stageOutput, writeStubs, type OutputDiff } from '../write.js';
import { generationCacheKey, schemasFolderKey } from './fingerprint.js';
import { cachedModelHook, inputHashes, modelsFile, readModels, sharedInputsHash } from './model-cache.js';
import { buildManifests, largeEmission, planReuse, projectHash, type ReusePlan, type RunManifests } from './plan.js';
import { takeSnapshot } from './snapshot.js';
import { stageRun, type Staged } from './stage.js';
import { budgetKey, cacheFile, readCache, spareTree, writeCache, type GenerationCache } from './store.js';

/** Options of `generateIncrementally`. */
export interface IncrementalOptions extends GenerateOptions {
  /**
   * Compare with the output folder only (`toolsmith check`): every file is emitted and compared, the
   * cache is neither read nor written, nothing is written.
   */
  check?: boolean;
  /** Called as each tool is done, reused ones included (for a progress line). */
  onProgress?: (done: number, total: number) => void;
  /** The generator's code in the cache key (default `generatorFingerprint()`): another fingerprint is another generator. */
  fingerprint?: string;
}

/** What a run did. */
export interface IncrementalReport {
  /** The project's tools as listed (`ToolSummary`: a run lets each model go once emitted; `generate()` answers the models). */
  project: ProjectListing;
  /** What blocked the run (then the output folder is untouched). */
  problems: Problem[];
  /** What is ignored but does not block the run. */
  warnings: Problem[];
  /** Tools whose unit was taken from the output as the last run left it. */
  reused: number;
  /** How the files that list every tool were made: taken as they were, spliced (manifests), or emitted whole. */
  listings: 'reused' | 'spliced' | 'emitted';
  /** Worker threads the tools were emitted on (1: in process). */
  threads: number;
  /** How the output folder differed from what the run produced. */
  diff: OutputDiff;
  /** True when the output folder was replaced. */
  replaced: boolean;
  /** Stubs created (write), or missing (check), relative to the stubs folder. */
  stubs: string[];
}

/** The generator's modules, loaded when a run must emit (the nothing-changed shortcut never loads them). */
const generatorModules = async () => {
  const [generator, manifests, emitPool] = await Promise.all([
    import('../generate.js'),
    import('../emit/manifests/index.js'),
    import('../emit/pool/pool.js'),
  ]);
  return { generator, manifests, emitPool };
};
export type GeneratorModules = Awaited<ReturnType<typeof generatorModules>>;

/** What a run knows before it emits: the options, the previous run's records, what was read. */
export interface RunInputs {
  options: IncrementalOptions;
  resolved: ResolvedOptions;
  /** The run's emission settings (what the cache key is made of, and every emitter is given). */
  settings: EmitSettings;
  key: string;
  previous: GenerationCache;
  loaded: LoadedFiles;
  /** Schemas-relative path → sha256 of its bytes (for the snapshot and the model cache). */
  inputs: Record<string, string>;
  sharedHash: string;
  modules: GeneratorModules;
}

/** A report for a run that stopped before it wrote anything. */
function stopped(problems: Problem[], warnings: Problem[], project: ProjectListing = { tools: [], shared: [] }) {
  const diff: OutputDiff = { stale: [], missing: [], extra: [], same: [] };
  return {
    project: listingOf(project),
    problems,
    warnings,
    reused: 0,
    listings: 'emitted' as const,
    threads: 1,
    diff,
    replaced: false,
    stubs: [],
  } satisfies IncrementalReport;
}

/** The normalize hooks: unchanged tools skip the validator compile, unchanged definitions get their model back. */
function normalizeHooks(run: RunInputs): NormalizeHooks {
  if (run.options.check) return {};
  const models = readModels(modelsFile(run.resolved.root, run.resolved.outDir), run.key, run.sharedHash);
  return {
    isUnchanged: (name, hash) => ownValue(run.previous.tools, name)?.hash === hash,
    cached: cachedModelHook(models, run.inputs),
  };
}

/** Reads what a run starts from; a template that cannot be read stops it. */
async function readRunInputs(options: IncrementalOptions): Promise<RunInputs | { problem: Problem }> {
  const resolved = resolveOptions(options);
  const modules = await generatorModules();
  const read = modules.generator.readTemplates(resolved);
  if ('problem' in read) return read;
  const settings = emitSettings(resolved, read.templates);
  const key = generationCacheKey(settings, options.fingerprint, schemasFolderKey(resolved));
  const previous = readCache(options.check ? undefined : cacheFile(resolved.root, resolved.outDir), key);
  const loaded = loadDefinitions(resolved.schemasDir, resolved.root);
  // What was read, by content: recorded for the nothing-changed shortcut (`unchangedRun`).
  const inputs = inputHashes(loaded);
  const sharedHash = sharedInputsHash(loaded.shared, inputs);
  return { options, resolved, settings, key, previous, loaded, inputs, sharedHash, modules };
}

/**
 * Records a successful write: the cache (with the snapshot, unless the run had warnings: the
 * nothing-changed shortcut would not print them again) and the model cache.
 */
function recordRun(
  run: RunInputs,
  project: ProjectListing,
  staged: Staged,
  warnings: readonly Problem[],
  untouched: ReadonlySet<string>,
): void {
  const { resolved } = run;
  const snapshot =
    warnings.length > 0
      ? undefined
      : takeSnapshot(
          run.inputs,
          resolved.outDir,
          staged.paths,
          project.tools.map((tool) => `${tool.names.kebab}.ts`),
          project.tools.length,
          { snapshot: run.previous.snapshot, untouched },
        );
  writeCache(
    cacheFile(resolved.root, resolved.outDir),
    snapshot === undefined ? staged.cache : { ...staged.cache, snapshot },
  );
  staged.models.commit();
}

/**
 * `toolsmith generate` (or, with `check`, `toolsmith check`): load → normalize → emit, memoized by
 * the cache, every file streamed into the staging tree of the output folder as it is made, then the
 * tree swapped in (or, with `check`, only compared) and the cache and snapshot recorded. A run with
 * problems writes nothing: its staging tree is discarded.
 */
export async function generateIncrementally(options: IncrementalOptions): Promise<IncrementalReport> {
  const read = await readRunInputs(options);
  if ('problem' in read) return stopped([read.problem], []);
  const run = read;
  const { generator, emitPool } = run.modules;
  // With no previous output to reuse, every tool is emitted: the workers (`threads - 1`: the main
  // thread emits too, see `LocalLane`) start now, so that loading their emitters (about a second)
  // overlaps normalize. (While the main thread built every manifest before the emission, they started
  // after it: their memory stacked on the manifests', the run's peak, P7. The manifests are now made
  // by the emission itself.)
  const everyToolFresh = Object.keys(run.previous.tools).length === 0;
  const threads = everyToolFresh ? emitPool.workerCount(run.loaded.tools.length, workerOptions(options)) : 1;
  const pool: EmitPool | undefined = threads > 1 ? emitPool.startEmitPool(threads - 1) : undefined;
  try {
    // From here on the models are held by the plan alone, each let go once its files are staged.
    const prepared = prepareRun(run);
    if ('stop' in prepared) return prepared.stop;
    const { plan, manifests, listing, modelWarnings, verdictWarnings } = prepared;
    const spare = options.check ? undefined : spareTree(run.resolved.root, run.resolved.outDir);
    const staging = stageOutput(run.resolved.outDir, {
      compareOnly: options.check === true,
      ...(spare !== undefined ? { spare } : {}),
    });
    let staged: Staged;
    try {
      staged = await stageRun(run, listing, plan, manifests, staging, pool);
    } catch (error) {
      staging.discard();
      throw error;
    }
    // What the emission found (tools whose emitter threw; with assembled manifests, what the targets
    // said of the tools), placed and judged as the manifests' verdict above.
    const late = generator.emissionVerdict(staged, run.loaded, options.strict);
    if (late.problems.length > 0) {
      staging.discard();
      staged.models.abandon();
      return stopped(late.problems, modelWarnings, listing);
    }
    const warnings = sortProblems([...modelWarnings, ...verdictWarnings, ...late.warnings]);
    const committed = staging.commit({ removeInBackground: true });
    const report: IncrementalReport = {
      project: listing,
      problems: [],
      warnings,
      reused: plan.units.size,
      listings: plan.listings !== undefined ? 'reused' : manifests?.made === 'spliced' ? 'spliced' : 'emitted',
      threads: staged.threads,
      diff: committed.diff,
      replaced: committed.replaced,
      stubs: [],
    };
    if (options.check) {
      const absent = generator.absentStubs(run.resolved, listing);
      const missing = listing.tools.filter((tool) => absent.has(tool.name)).map((tool) => `${tool.names.kebab}.ts`);
      return { ...report, stubs: missing.sort(compareStrings) };
    }
    report.stubs = writeStubs(run.resolved.stubsDir, staged.stubs);
    recordRun(run, listing, staged, warnings, plan.untouched);
    await committed.removed;
    return report;
  } finally {
    await pool?.close();
  }
}

/** What a run emits from, once normalize and the manifests' verdict let it go on. */
interface PreparedRun {
  plan: ReusePlan;
  manifests: RunManifests | undefined;
  /** Every tool's summary: what the run keeps of the project while the plan's models are emitted and let go. */
  listing: ProjectListing;
  modelWarnings: Problem[];
  verdictWarnings: Problem[];
}

/**
 * Normalize, the plan of what to reuse, and the manifests when made ahead; or the report of a run
 * stopped by their problems. Why a function of its own: the normalized project (every model) is
 * held by its frame only, and gone once it returns; the plan holds the models the run still needs.
 */
function prepareRun(run: RunInputs): PreparedRun | { stop: IncrementalReport } {
  const { generator } = run.modules;
  const { options } = run;
  const modelled = generator.modelProject(run.loaded, options, normalizeHooks(run));
  if (modelled.problems.length > 0) return { stop: stopped(modelled.problems, modelled.warnings, modelled.project) };
  const { project } = modelled;
  // The definitions' parsed values served normalize only (a problem is placed from a file's text):
  // let go, not held through the emission (~25 MB at 5,000 tools).
  for (const source of [...run.loaded.tools, ...run.loaded.shared]) source.value = undefined;
  const plan = planReuse(run, project, projectHash(project));
  // normalize's garbage goes before the manifests add theirs (the run's highest point).
  if (largeEmission(run, plan)) collectGarbage();
  const mustEmit = plan.fresh.length > 0 || plan.listings === undefined;
  // Listings reused as they are: their budgets' warnings are the last run's, or, when the budgets
  // changed, judged again from the last token report (`patchManifests` with no tool changed).
  const sameBudget =
    (run.previous.project?.budget ?? budgetKey(undefined)) === budgetKey(run.resolved.settings.manifests.tokenBudget);
  const manifests = mustEmit || !sameBudget ? buildManifests(run, project, plan) : undefined;
  const replayed = mustEmit || !sameBudget ? undefined : run.previous.project?.listingWarnings;
  const verdict =
    manifests !== undefined && 'emission' in manifests
      ? generator.emissionVerdict(manifests.emission, run.loaded, options.strict)
      : replayed !== undefined
        ? generator.emissionVerdict({ problems: [], warnings: replayed }, run.loaded, options.strict)
        : undefined;
  if (verdict !== undefined && verdict.problems.length > 0)
    return { stop: stopped(verdict.problems, modelled.warnings, project) };
  return {
    plan,
    manifests,
    listing: listingOf(project),
    modelWarnings: modelled.warnings,
    verdictWarnings: verdict?.warnings ?? [],
  };
}

/** The project as its summaries (`ToolSummary`). */
function listingOf(project: ProjectListing): ProjectListing {
  return { shared: project.shared, tools: project.tools.map(summarizeTool) };
}
