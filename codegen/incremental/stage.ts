/**
 * The emission of a run into the output's staging tree: reused units kept, emitted ones staged and
 * hashed for the cache as they come, the manifests assembled piece by piece, the listings last.
 */
import { createHash } from 'node:crypto';
import { collectGarbage } from '../emit/pool/collect-garbage.js';
import { dictionary, ownValue } from '../dictionary.js';
import type { ManifestWriter } from '../emit/manifests/index.js';
import type { EmitPool } from '../emit/pool/pool.js';
import { workerOptions } from '../emit/settings.js';
import type { ProjectSink } from '../generate.js';
import type { GeneratedFile, Problem, ProjectListing, ToolModel } from '../model.js';
import { SHARED_VALIDATORS_FILE } from '../naming.js';
import { stagedLength, type OutputStaging, type StagedBytes } from '../write.js';
import { modelsFile, NO_MODEL_CACHE, openModelCache, type ModelCacheWriter } from './model-cache.js';
import { largeEmission, projectHash, sharedModuleUnchanged, type ReusePlan, type RunManifests } from './plan.js';
import type { RunInputs } from './run.js';
import { budgetKey, sha256, type GenerationCache } from './store.js';

/**
 * Files at least this large are cached without a hash (trusted only by their snapshot stat): hashing
 * the manifests of 1,000 tools costs more than emitting them again when touched.
 */
const HASHED_BELOW = 1024 * 1024;

/** The hash a cache entry records for staged bytes. */
function cachedHash(bytes: StagedBytes): string {
  return stagedLength(bytes) < HASHED_BELOW ? hashOf(bytes) : '';
}

/** The sha256 of staged bytes (pieces hashed in order, never joined). */
function hashOf(bytes: StagedBytes): string {
  if (Buffer.isBuffer(bytes)) return sha256(bytes);
  const hash = createHash('sha256');
  for (const chunk of bytes) hash.update(chunk);
  return hash.digest('hex');
}

/** What the emission of a run gave the staging tree. */
export interface Staged {
  cache: GenerationCache;
  /** Every generated file's path. */
  paths: string[];
  stubs: GeneratedFile[];
  /** Tools whose emission threw, and (for assembled manifests) what the targets said of the tools. */
  problems: Problem[];
  /** Assembled manifests only: the tools a target leaves out (placed by the caller). */
  warnings: Problem[];
  threads: number;
  /** The model cache, written as the models were done with: committed by `recordRun`. */
  models: ModelCacheWriter;
}

/**
 * Streams the run's output into `staging`: reused units and listings are kept as they are, every
 * emitted unit is staged (and hashed for the cache) as it arrives and then let go, the listings are
 * emitted or spliced last. Assembled manifests are written into the staging tree piece by piece as
 * the tools' parts come in (in name order). On a problem the caller discards the staging tree.
 *
 * The plan's models are consumed: each goes to the model cache's file and is let go once its files
 * are staged (a reused one at once), so the run holds `project`'s summaries and the few in flight.
 */
export async function stageRun(
  run: RunInputs,
  project: ProjectListing,
  plan: ReusePlan,
  manifests: RunManifests | undefined,
  staging: OutputStaging,
  pool: EmitPool | undefined,
): Promise<Staged> {
  const models = run.options.check
    ? NO_MODEL_CACHE
    : openModelCache(modelsFile(run.resolved.root, run.resolved.outDir), run.key, run.sharedHash);
  try {
    // A run with problems (the caller's verdict on `Staged`) abandons it there.
    return await stageTools(run, project, plan, manifests, staging, pool, models);
  } catch (error) {
    models.abandon();
    throw error;
  }
}

/** `stageRun`'s work, the model cache given. */
async function stageTools(
  run: RunInputs,
  project: ProjectListing,
  plan: ReusePlan,
  manifests: RunManifests | undefined,
  staging: OutputStaging,
  pool: EmitPool | undefined,
  models: ModelCacheWriter,
): Promise<Staged> {
  const { generator } = run.modules;
  const cache: GenerationCache = { version: 1, key: run.key, tools: dictionary() };
  const paths: string[] = [];
  const total = project.tools.length;
  let done = 0;
  const doneWith = (tool: ToolModel) => models.add(tool.source.relPath, run.inputs[tool.source.relPath]!, tool);
  const stubsWanted = run.options.check ? new Set<string>() : generator.absentStubs(run.resolved, project);
  // Reused tools whose stub was removed get it back (emitted last, from these models).
  const reusedStubless: ToolModel[] = [];
  for (const tool of plan.reused.splice(0)) {
    const files = plan.units.get(tool.name)!;
    for (const file of files) staging.keep(file);
    paths.push(...files);
    cache.tools[tool.name] = ownValue(run.previous.tools, tool.name)!;
    doneWith(tool);
    if (stubsWanted.has(tool.name)) reusedStubless.push(tool);
    run.options.onProgress?.(++done, total);
  }
  const { settings } = run;
  const listingFiles: Record<string, string> = {};
  const putListing = (file: GeneratedFile) => {
    listingFiles[file.path] = cachedHash(staging.put(file));
    paths.push(file.path);
  };
  // The manifests are staged first and their text let go: at 1,000 tools they are tens of MB that
  // would otherwise live through the whole emission.
  const made = manifests !== undefined && 'emission' in manifests ? manifests.emission : undefined;
  if (plan.listings === undefined && made !== undefined) for (const file of made.files.splice(0)) putListing(file);
  // Their garbage too: this thread mostly waits during the emission and would never collect it.
  if (largeEmission(run, plan)) collectGarbage();
  const keepShared = plan.listings === undefined && sharedModuleUnchanged(run, plan.untouched);
  const stubs: GeneratedFile[] = [];
  const sink: ProjectSink = {
    unit: (unit) => {
      const files: Record<string, string> = {};
      for (const file of unit.files) {
        files[file.path] = hashOf(staging.put(file));
        paths.push(file.path);
      }
      cache.tools[unit.tool.name] = { hash: unit.tool.hash, files };
      if (unit.stub !== undefined) stubs.push(unit.stub);
      doneWith(unit.tool);
    },
    file: putListing,
    stream: (file) => stagedListing(staging, file, listingFiles, paths),
  };
  const emitted = await generator.emitProject(project, settings, sink, {
    // Taken out of the plan: the emission clears its array's entries as the tools are done.
    tools: plan.fresh.splice(0),
    stubs: stubsWanted,
    workers: { ...workerOptions(run.options), ...(pool ? { pool } : {}) },
    onProgress: () => run.options.onProgress?.(++done, total),
    manifests: manifests?.made === 'assembled' ? 'assemble' : 'given',
    listings: plan.listings === undefined,
    sharedValidators: !keepShared,
    ...(made?.tokens !== undefined ? { tokens: made.tokens } : {}),
  });
  const { problems, warnings, threads } = emitted;
  if (problems.length > 0) return { cache, paths, stubs, problems, warnings, threads, models };
  if (plan.listings !== undefined) {
    for (const file of plan.listings) {
      staging.keep(file);
      listingFiles[file] = run.previous.project!.files[file]!;
    }
    paths.push(...plan.listings);
  } else if (keepShared) {
    staging.keep(SHARED_VALIDATORS_FILE);
    listingFiles[SHARED_VALIDATORS_FILE] = run.previous.project!.files[SHARED_VALIDATORS_FILE]!;
    paths.push(SHARED_VALIDATORS_FILE);
  }
  const assembled = manifests?.made === 'assembled' ? emitted.segments : made?.segments;
  const segments = plan.listings !== undefined ? run.previous.project?.segments : assembled;
  const listingWarnings =
    (made ?? emitted)?.listingWarnings ??
    (plan.listings !== undefined ? run.previous.project?.listingWarnings : undefined);
  cache.project = {
    hash: projectHash(project),
    files: listingFiles,
    shared: run.sharedHash,
    ...(segments ? { segments } : {}),
    ...(listingWarnings !== undefined && listingWarnings.length > 0 ? { listingWarnings } : {}),
    budget: budgetKey(run.resolved.settings.manifests.tokenBudget),
  };
  stubs.push(...(await generator.emitStubs(project, reusedStubless, settings)));
  return { cache, paths, stubs, problems: [], warnings, threads, models };
}

/**
 * A listing written into the staging tree piece by piece (an assembled manifest), recorded in the
 * cache as `putListing` records one: hashed while under `HASHED_BELOW`.
 */
function stagedListing(
  staging: OutputStaging,
  file: string,
  listingFiles: Record<string, string>,
  paths: string[],
): ManifestWriter {
  const stream = staging.stream(file);
  const hash = createHash('sha256');
  let length = 0;
  return {
    write(bytes) {
      stream.write(bytes);
      length += bytes.length;
      if (length < HASHED_BELOW) hash.update(bytes);
    },
    close() {
      stream.close();
      listingFiles[file] = length < HASHED_BELOW ? hash.digest('hex') : '';
      paths.push(file);
    },
  };
}
