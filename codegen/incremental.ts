/**
 * The one layer that makes generation incremental, around the pure generator (generate.ts): it
 * reads the cache and the last run's snapshot, hands normalize the models it already has, reuses
 * every tool unit whose hash and files are unchanged, splices the manifests, streams every emitted
 * file into the output's staging tree (write.ts) as soon as it is made, and records the new cache,
 * model cache and snapshot. The CLI's `generate` and `check` run it; nothing else touches the cache.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { freezeParsed } from '../src/freeze.js';
import { dictionary, ownValue } from './dictionary.js';
import { loadDefinitions, readRegularFile, scanSchemasFolder, type LoadedFiles } from './load.js';
import type { ManifestEmission, ManifestWriter } from './emit/manifests/index.js';
import { collectGarbage } from './collect-garbage.js';
import type { EmitPool } from './emit-pool.js';
import type { EmitSettings, NormalizeHooks } from './generate.js';
import {
  summarizeTool,
  type FileSegments,
  type GeneratedFile,
  type Problem,
  type ProjectListing,
  type ProjectModel,
  type ToolModel,
} from './model.js';
import { compareStrings, SHARED_VALIDATORS_FILE } from './naming.js';
import { resolveOptions, type GenerateOptions, type ResolvedOptions } from './options.js';
import { sortProblems } from './problems.js';
import { loadTemplates } from './templates/index.js';
import type { DocTemplates } from './templates/names.js';
import {
  listFiles,
  recoverInterrupted,
  stageOutput,
  stagedLength,
  writeStubs,
  type OutputDiff,
  type OutputStaging,
  type StagedBytes,
} from './write.js';

/**
 * The incremental-generation cache: per tool, the content hash it was generated from (its
 * definition, the shared schemas it uses, the generator version — see `ToolModel.hash`) and the
 * hashes of the files it produced. Kept in `node_modules/.cache/toolsmith/`, never in the output, so
 * a clean clone simply regenerates everything. A tool is reused only when its hash matches and
 * its files on disk are still byte-for-byte what was written.
 */
export interface GenerationCache {
  version: 1;
  /** Hash of everything besides the tools that shapes the output (emit context, templates). */
  key: string;
  tools: Record<string, CacheEntry>;
  /** The files that list every tool (registry, index, shared types, manifests, docs), keyed by the whole model. */
  project?: CacheEntry & {
    /** Where each tool's part lies in the manifests and loss reports (see `patchManifests`). */
    segments?: Record<string, FileSegments>;
    /** `sharedInputsHash` of the run: its shared validator module is kept while this is the same. */
    shared?: string;
    /** The warnings of the files that list every tool (token budgets, namespace sizes), told again by a run that reuses them. */
    listingWarnings?: Problem[];
    /**
     * The token budgets those warnings are of (`budgetKey`). Not in the cache key: a budget changes no
     * file, so a run with another budget reuses every file and judges the last token report again.
     */
    budget?: string;
  };
  /** What the last successful run read and wrote, for the nothing-changed shortcut (`unchangedRun`). */
  snapshot?: RunSnapshot;
}

/**
 * The inputs and outputs of a successful run. Inputs are recorded by content; outputs by what
 * `stat` says right after they were written (size, modification time in ns, inode), as git's
 * index does, so a later run can tell they are untouched without reading them back.
 */
export interface RunSnapshot {
  /** Schemas-relative path of every definition and shared schema → sha256 of its bytes. */
  inputs: Record<string, string>;
  /** Output-relative path of every generated file → [size, mtime ns as a decimal string, inode]. */
  outputs: Record<string, [number, string, number]>;
  /** Stubs-relative path of every tool's implementation file (must still exist). */
  stubs: string[];
  /** How many tools the run had. */
  tools: number;
}

/** What produced some files (a hash of their inputs) and the hashes of those files. */
export interface CacheEntry {
  hash: string;
  /** Path → sha256 of the content; `''` when it was not computed (then only the snapshot stat can prove the file unchanged). */
  files: Record<string, string>;
}

/** sha256 of a text (as UTF-8) or of bytes, hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Where the cache of an output folder lives, or undefined when the project has no node_modules. */
export function cacheFile(root: string, outDir: string): string | undefined {
  const modules = path.join(root, 'node_modules');
  if (!existsSync(modules)) return undefined;
  return path.join(modules, '.cache', 'toolsmith', `${sha256(path.resolve(outDir)).slice(0, 16)}.json`);
}

/**
 * Where a run keeps the output tree its commit replaced, for the next run's staging to start from
 * (`StagingOptions.spare`): beside the cache, out of the project's sight; undefined without one.
 */
export function spareTree(root: string, outDir: string): string | undefined {
  return cacheFile(root, outDir)?.replace(/\.json$/, '.spare');
}

/**
 * The models the last successful run built, by definition file, with the hash of the bytes each
 * was built from: a definition whose bytes are the same (and whose generator, options and shared
 * schemas are the same — `key`, `shared`) gets its model back without being checked, bundled or
 * compiled again. Kept in a file of its own beside the cache, read only by a run that generates.
 */
export interface ModelCache {
  key: string;
  /** Hash of every shared schema's path and bytes. */
  shared: string;
  /** Schemas-relative definition path → the hash of its bytes and the model built from them. */
  tools: Record<string, { raw: string; model: ToolModel }>;
}

/** Where the model cache of an output folder lives (beside the cache), or undefined without node_modules. */
export function modelsFile(root: string, outDir: string): string | undefined {
  return cacheFile(root, outDir)?.replace(/\.json$/, '.models.jsonl');
}

/** The hash `ModelCache.shared` is compared with: every shared schema's path and content hash. */
export function sharedInputsHash(
  shared: ReadonlyArray<{ relPath: string }>,
  inputs: Readonly<Record<string, string>>,
): string {
  return sha256(JSON.stringify(shared.map((source) => [source.relPath, inputs[source.relPath]])));
}

/**
 * The model cache as text: a header line (`{ key, shared }`), then one line per definition,
 * `[relPath, raw, model]`. Why lines: a run that changed one tool writes the other lines back as
 * they were read, instead of serializing every model again.
 */
export function modelCacheText(models: ModelCache): string {
  const lines = [modelCacheHeader(models.key, models.shared)];
  for (const [relPath, { raw, model }] of Object.entries(models.tools)) lines.push(modelCacheLine(relPath, raw, model));
  return `${lines.join('\n')}\n`;
}

/** The model cache's first line. */
const modelCacheHeader = (key: string, shared: string): string => JSON.stringify({ key, shared });

/** A definition's line of the model cache: the line it was read from when the same, else the model serialized. */
function modelCacheLine(relPath: string, raw: string, model: ToolModel): string {
  const read = READ_LINES.get(model);
  return read !== undefined && read.relPath === relPath && read.raw === raw
    ? read.line
    : JSON.stringify([relPath, raw, model]);
}

/** The model cache written line by line as a run's models are done with (`openModelCache`). */
export interface ModelCacheWriter {
  /** Appends a definition's line (its model can go once this returns). */
  add(relPath: string, raw: string, model: ToolModel): void;
  /** Puts the written cache in place of the last one. */
  commit(): void;
  /** Removes what was written (a run that wrote nothing keeps the last cache). */
  abandon(): void;
}

/** Bytes gathered before one write to the model cache's file. */
const MODEL_CACHE_CHUNK = 256 * 1024;

/**
 * A model cache being written to a temporary file beside `file`, in the order the models come,
 * renamed over `file` on `commit`. Why: the models are then let go as they are emitted instead of
 * living to the end of the run to be written together (P7). Best effort, like the cache: a
 * failure to write makes it write nothing more, and the next run builds the models again.
 */
export function openModelCache(file: string | undefined, key: string, shared: string): ModelCacheWriter {
  const temporary = file === undefined ? undefined : `${file}.${process.pid}.tmp`;
  let fd: number | undefined;
  let pending: string[] = [];
  let size = 0;
  const fail = () => {
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // ignored (best effort)
    }
    fd = undefined;
    pending = [];
  };
  const flush = () => {
    if (fd === undefined || pending.length === 0) return;
    try {
      writeSync(fd, pending.join(''));
    } catch {
      fail();
    }
    pending = [];
    size = 0;
  };
  if (temporary !== undefined) {
    try {
      mkdirSync(path.dirname(temporary), { recursive: true });
      fd = openSync(temporary, 'w');
    } catch {
      fd = undefined;
    }
  }
  const append = (line: string) => {
    if (fd === undefined) return;
    pending.push(line, '\n');
    size += line.length + 1;
    if (size >= MODEL_CACHE_CHUNK) flush();
  };
  append(modelCacheHeader(key, shared));
  const remove = () => {
    try {
      if (temporary !== undefined) unlinkSync(temporary);
    } catch {
      // ignored (best effort)
    }
  };
  return {
    add: (relPath, raw, model) => append(modelCacheLine(relPath, raw, model)),
    commit() {
      flush();
      if (fd === undefined) return remove();
      closeSync(fd);
      fd = undefined;
      try {
        renameSync(temporary!, file!);
      } catch {
        remove();
      }
    },
    abandon() {
      fail();
      remove();
    },
  };
}

/** A writer that writes nothing (`check` keeps no model cache). */
const NO_MODEL_CACHE: ModelCacheWriter = { add: () => undefined, commit: () => undefined, abandon: () => undefined };

/** The line each model read from the model cache came from. */
const READ_LINES = new WeakMap<ToolModel, { relPath: string; raw: string; line: string }>();

/** The model cache parsed from `modelCacheText`'s text, every model frozen; throws on anything else. */
export function parseModelCache(text: string): ModelCache {
  const lines = text.split('\n');
  const header = JSON.parse(lines[0]!) as { key: string; shared: string };
  const tools: ModelCache['tools'] = dictionary();
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const [relPath, raw, parsed] = JSON.parse(line) as [string, string, ToolModel];
    // Frozen (by the fast walk normalize's deepFreeze then skips), so the line stays its text.
    const model = freezeParsed(parsed);
    tools[relPath] = { raw, model };
    READ_LINES.set(model, { relPath, raw, line });
  }
  return { key: header.key, shared: header.shared, tools };
}

/** The model cache for `key` and `shared`; empty when missing, unreadable or made for other inputs. */
export function readModels(file: string | undefined, key: string, shared: string): ModelCache['tools'] {
  if (file === undefined || !existsSync(file)) return {};
  try {
    const data = parseModelCache(readFileSync(file, 'utf8'));
    return data.key === key && data.shared === shared ? data.tools : {};
  } catch {
    return {};
  }
}

/**
 * Writes `value` as JSON to a temporary file renamed over `file`, so a reader never sees half of it.
 * Best effort: a cache that cannot be written only costs speed, so failures are ignored.
 */
function writeJsonAtomically(file: string | undefined, value: unknown): void {
  if (file === undefined) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(value));
    renameSync(temporary, file);
  } catch {
    // ignored (see above)
  }
}

/** Reads the cache; a missing, unreadable or foreign cache is an empty one. */
export function readCache(file: string | undefined, key: string): GenerationCache {
  const empty: GenerationCache = { version: 1, key, tools: {} };
  if (file === undefined || !existsSync(file)) return empty;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as GenerationCache;
    return data.version === 1 && data.key === key && typeof data.tools === 'object' ? data : empty;
  } catch {
    return empty;
  }
}

/** Writes the cache atomically (best effort: without it the next run regenerates in full). */
function writeCache(file: string | undefined, cache: GenerationCache): void {
  writeJsonAtomically(file, cache);
}

/**
 * The files of a cache entry when its hash is `hash` and every one of them is still in the output
 * folder as written: a file whose size, modification time and inode are those the last run's
 * snapshot recorded is taken as it is; any other is read and compared by hash. Undefined when any
 * differs (the unit is emitted again).
 */
function unchangedFiles(
  entry: CacheEntry | undefined,
  hash: string,
  outDir: string,
  snapshot: RunSnapshot | undefined,
  untouched?: Set<string>,
): string[] | undefined {
  if (!entry || entry.hash !== hash) return undefined;
  const files = Object.keys(entry.files);
  for (const file of files) if (!unchangedFile(file, entry.files[file], outDir, snapshot, untouched)) return undefined;
  return files;
}

/**
 * True when a file of the output is what the last run wrote: its stat is the snapshot's (then it
 * goes into `untouched`), or its bytes have the recorded hash.
 */
function unchangedFile(
  file: string,
  expected: string | undefined,
  outDir: string,
  snapshot: RunSnapshot | undefined,
  untouched?: Set<string>,
): boolean {
  if (untouchedSinceSnapshot(snapshot, outDir, file)) {
    untouched?.add(file);
    return true;
  }
  if (expected === '' || expected === undefined) return false;
  try {
    return sha256(readFileSync(path.join(outDir, file))) === expected;
  } catch {
    return false;
  }
}

/**
 * Whether the last run's shared validator module can be kept: the shared schemas are the same (the
 * generator and options are, or the cache would not have been read) and the file is as written.
 * Why: it is the one project-wide file that costs an Ajv compile, and a regenerate of one tool
 * (P4) would otherwise compile every shared schema again.
 */
function sharedModuleUnchanged(run: RunInputs, untouched: Set<string>): boolean {
  const last = run.previous.project;
  const recorded = last?.shared === run.sharedHash ? ownValue(last.files, SHARED_VALIDATORS_FILE) : undefined;
  return (
    recorded !== undefined &&
    unchangedFile(SHARED_VALIDATORS_FILE, recorded, run.resolved.outDir, run.previous.snapshot, untouched)
  );
}

/** True when the file at `relPath` under `outDir` still has the size, mtime and inode `snapshot` recorded. */
export function untouchedSinceSnapshot(snapshot: RunSnapshot | undefined, outDir: string, relPath: string): boolean {
  const recorded = snapshot?.outputs[relPath];
  return recorded !== undefined && sameStat(statEntry(path.join(outDir, relPath)), recorded);
}

function sameStat(actual: [number, string, number] | undefined, expected: [number, string, number]): boolean {
  return actual !== undefined && actual[0] === expected[0] && actual[1] === expected[1] && actual[2] === expected[2];
}

/**
 * The cache key of a run: the generator's code (`fingerprint`, default `generatorFingerprint()`), the
 * emit context, the templates (read here unless given), the manifest targets, formatting.
 */
export function generationCacheKey(
  resolved: ResolvedOptions,
  templates: DocTemplates = loadTemplates(resolved.templatesDir),
  fingerprint: string = generatorFingerprint(),
): string {
  return sha256(
    JSON.stringify({
      generator: fingerprint,
      ctx: resolved.ctx,
      templates,
      targets: resolved.manifestTargets ?? null,
      policy: resolved.manifestPolicy ?? null,
      describeLosses: resolved.manifestDescribeLosses ?? null,
      inputExamples: resolved.manifestInputExamples ?? null,
      deferLoading: resolved.manifestDeferLoading ?? null,
      examplesInDescriptions: resolved.manifestExamplesInDescriptions ?? null,
      format: resolved.format,
    }),
  );
}

/** The stat fields a snapshot records for a file, or undefined when it cannot be read. */
function statEntry(file: string): [number, string, number] | undefined {
  try {
    const stat = statSync(file, { bigint: true });
    return stat.isFile() ? [Number(stat.size), stat.mtimeNs.toString(), Number(stat.ino)] : undefined;
  } catch {
    return undefined;
  }
}

/** Records a successful run: the inputs it read (by content) and the files now in the output folder (by stat). */
export function takeSnapshot(
  inputs: Record<string, string>,
  outDir: string,
  outputs: readonly string[],
  stubs: readonly string[],
  tools: number,
  known?: { snapshot: RunSnapshot | undefined; untouched: ReadonlySet<string> },
): RunSnapshot | undefined {
  const recorded: RunSnapshot['outputs'] = {};
  for (const file of outputs) {
    // A file kept from the last run by a hard link has the size, mtime and inode recorded then.
    const entry =
      known?.untouched.has(file) === true ? known.snapshot?.outputs[file] : statEntry(path.join(outDir, file));
    if (entry === undefined) return undefined;
    recorded[file] = entry;
  }
  return { inputs, outputs: recorded, stubs: [...stubs], tools };
}

/**
 * The nothing-changed shortcut, checked before the generator itself is even loaded: when the
 * cache key (generator code, options, templates) is the same, every definition and shared schema
 * has the bytes it had at the last successful run, no file was added or removed, every generated
 * file still has the size, modification time and inode recorded right after it was written, and
 * every stub exists, then a run would write nothing. Answers the number of tools and of generated
 * files, or undefined when anything differs (a full incremental run decides then).
 *
 * The limit, as with git's index: a generated file rewritten to the same size within the same
 * file-system timestamp tick as toolsmith's own write is not noticed here (`toolsmith check`
 * always compares bytes).
 */
export function unchangedRun(
  resolved: ResolvedOptions,
  fingerprint?: string,
): { tools: number; files: number } | undefined {
  const file = cacheFile(resolved.root, resolved.outDir);
  if (file === undefined || !existsSync(file)) return undefined;
  recoverInterrupted(resolved.outDir);
  let key: string;
  try {
    key = generationCacheKey(resolved, undefined, fingerprint);
  } catch {
    return undefined; // a template that cannot be read: the full run reports it
  }
  const cache = readCache(file, key);
  const snapshot = cache.snapshot;
  if (snapshot === undefined) return undefined;
  if ((cache.project?.budget ?? budgetKey(undefined)) !== budgetKey(resolved.manifestTokenBudget)) return undefined;
  let inputs: string[];
  try {
    const scan = scanSchemasFolder(resolved.schemasDir);
    // A folder that cannot be walked is a problem of the full run, never "nothing changed".
    if (scan.unreadable.length > 0) return undefined;
    inputs = scan.files;
  } catch {
    return undefined;
  }
  if (inputs.length !== Object.keys(snapshot.inputs).length) return undefined;
  for (const relPath of inputs) {
    const expected = snapshot.inputs[relPath];
    if (expected === undefined) return undefined;
    // Never blocks on a FIFO that took a definition's name: anything but a regular file means "run".
    const read = readRegularFile(path.join(resolved.schemasDir, relPath));
    if ('error' in read || sha256(read.bytes) !== expected) return undefined;
  }
  const outputs = listFiles(resolved.outDir);
  if (outputs.length !== Object.keys(snapshot.outputs).length) return undefined;
  for (const relPath of outputs) {
    const expected = snapshot.outputs[relPath];
    if (expected === undefined || !sameStat(statEntry(path.join(resolved.outDir, relPath)), expected)) return undefined;
  }
  for (const stub of snapshot.stubs) if (!existsSync(path.join(resolved.stubsDir, stub))) return undefined;
  return { tools: snapshot.tools, files: outputs.length };
}

let fingerprint: string | undefined;

/**
 * A hash of the generator's own code, part of the cache key: an upgraded or edited generator never
 * reuses output of the old one, even under the same version number.
 */
export function generatorFingerprint(): string {
  fingerprint ??= codeFingerprint(path.dirname(fileURLToPath(import.meta.url)));
  return fingerprint;
}

/**
 * The fingerprint of the generator in `codegenDir`: every file of it, and every runtime module beside
 * it in `../src` (the generator imports several — MCP entries, the 2020-12 translation, the Ajv options,
 * the defaults check, the keyword rule — that shape what it writes; hashing them all over-approximates
 * its import graph, so no edit there leaves stale output). The example tools (`src/tools`) and the
 * framework adapters (`src/adapters`), which the generator never imports, are left out.
 */
export function codeFingerprint(codegenDir: string): string {
  const hash = createHash('sha256');
  const add = (dir: string, label: string, skip: (file: string) => boolean) => {
    if (!existsSync(dir)) return;
    for (const file of (readdirSync(dir, { recursive: true }) as string[])
      .map((name) => name.split(path.sep).join('/'))
      .sort()) {
      if (!/\.(ts|js|mjs|hbs|json)$/.test(file) || skip(file)) continue;
      hash
        .update(label)
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(dir, file)))
        .update('\0');
    }
  };
  add(codegenDir, 'codegen/', () => false);
  add(path.join(codegenDir, '..', 'src'), 'src/', (file) => file.startsWith('tools/') || file.startsWith('adapters/'));
  return hash.digest('hex');
}

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
const generatorModules = () =>
  Promise.all([import('./generate.js'), import('./emit/manifests/index.js'), import('./emit-pool.js')]);
type GeneratorModules = Awaited<ReturnType<typeof generatorModules>>;

/** What a run knows before it emits: the options, the previous run's records, what was read. */
interface RunInputs {
  options: IncrementalOptions;
  resolved: ResolvedOptions;
  templates: DocTemplates;
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
    cached: (source) => {
      const entry = Object.prototype.hasOwnProperty.call(models, source.relPath) ? models[source.relPath] : undefined;
      return entry !== undefined && entry.raw === run.inputs[source.relPath] ? entry.model : undefined;
    },
  };
}

/** The hash the files that list every tool are cached under: every tool's hash and every shared schema. */
function projectHash(project: ProjectListing): string {
  return sha256(
    JSON.stringify({
      tools: project.tools.map((tool) => [tool.name, tool.hash]),
      shared: project.shared.map((entry) => [entry.relPath, entry.schema]),
    }),
  );
}

/** Which tool units and listings the output already holds, and which tools must be emitted. */
interface ReusePlan {
  /** Tool name → its unchanged files. */
  units: Map<string, string[]>;
  /** The models of the reused tools (their model-cache lines, their stubs when removed). */
  reused: ToolModel[];
  /** The tools to emit. */
  fresh: ToolModel[];
  /** The unchanged files that list every tool, when the whole model is unchanged. */
  listings?: string[];
  /** The reused files whose stat is the one the last snapshot recorded (kept by a hard link, it stays so). */
  untouched: Set<string>;
}

function planReuse(run: RunInputs, project: ProjectModel, hash: string): ReusePlan {
  const { previous } = run;
  const { outDir } = run.resolved;
  const plan: ReusePlan = { units: new Map(), reused: [], fresh: [], untouched: new Set() };
  if (run.options.check) return { ...plan, fresh: [...project.tools] };
  for (const tool of project.tools) {
    const entry = ownValue(previous.tools, tool.name);
    const files = unchangedFiles(entry, tool.hash, outDir, previous.snapshot, plan.untouched);
    if (files === undefined) plan.fresh.push(tool);
    else {
      plan.units.set(tool.name, files);
      plan.reused.push(tool);
    }
  }
  const listings = unchangedFiles(previous.project, hash, outDir, previous.snapshot, plan.untouched);
  return listings === undefined ? plan : { ...plan, listings };
}

/**
 * How a run's manifests are made: the last run's files with the fresh tools' parts spliced in
 * (`spliced`), built whole on the main thread before the emission (`whole`), or assembled from the
 * tools' parts as their emission makes them (`assembled`: on the emitting threads, nothing held).
 */
type RunManifests = { made: 'spliced' | 'whole'; emission: ManifestEmission } | { made: 'assembled' };

/**
 * The manifests of a run that emits anything: spliced while the last run's files are untouched since
 * (`patchManifests`); else, when every tool is emitted, assembled; else built whole.
 */
function buildManifests(run: RunInputs, project: ProjectModel, plan: ReusePlan): RunManifests {
  const { emitManifests, patchManifests } = run.modules[1];
  const options = run.modules[0].manifestOptions(run.resolved);
  const { previous } = run;
  const { outDir } = run.resolved;
  const segments = previous.project?.segments;
  const patched =
    segments === undefined || run.options.check
      ? undefined
      : patchManifests(
          project,
          run.resolved.ctx,
          options,
          {
            segments,
            read: (file) =>
              untouchedSinceSnapshot(previous.snapshot, outDir, file)
                ? readFileSync(path.join(outDir, file))
                : undefined,
          },
          plan.fresh,
        );
  if (patched !== undefined) return { made: 'spliced', emission: patched };
  if (plan.listings === undefined && plan.fresh.length === project.tools.length) return { made: 'assembled' };
  return { made: 'whole', emission: emitManifests(project, run.resolved.ctx, options) };
}

/**
 * A run that emits enough tools for the main thread's heap to matter: it collects its garbage at
 * two points (see `collectGarbage`) where a full collection costs little beside the emission.
 */
function largeEmission(run: RunInputs, plan: ReusePlan): boolean {
  return plan.fresh.length >= run.modules[2].DEFAULT_WORKER_THRESHOLD;
}

/** Files at least this large are cached without a hash (trusted only by their snapshot stat): hashing the manifests of 1,000 tools costs more than emitting them again when touched. */
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
interface Staged {
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
async function stageRun(
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
  const [generator] = run.modules;
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
  const settings: EmitSettings = {
    ctx: run.resolved.ctx,
    templates: run.templates,
    format: run.resolved.format,
    manifests: generator.manifestOptions(run.resolved),
    workers: { ...workerOptions(run.options), ...(pool ? { pool } : {}) },
  };
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
  const assembler =
    manifests?.made === 'assembled'
      ? run.modules[1].createManifestAssembler(
          project.tools.map((tool) => tool.name),
          run.resolved.ctx,
          { ...settings.manifests, open: (file) => stagedListing(staging, file, listingFiles, paths) },
        )
      : undefined;
  const stubs: GeneratedFile[] = [];
  // Taken out of the plan: `emitToolUnits` clears its array's entries as the tools are done.
  const fresh = assembler === undefined ? plan.fresh.splice(0) : generator.inNameOrder(plan.fresh.splice(0));
  const emitted = await generator.emitToolUnits(project, fresh, settings, {
    stubs: stubsWanted,
    sink: (unit) => {
      const files: Record<string, string> = {};
      for (const file of unit.files) {
        files[file.path] = hashOf(staging.put(file));
        paths.push(file.path);
      }
      cache.tools[unit.tool.name] = { hash: unit.tool.hash, files };
      if (unit.stub !== undefined) stubs.push(unit.stub);
      assembler?.add(unit.manifests);
      doneWith(unit.tool);
    },
    onProgress: () => run.options.onProgress?.(++done, total),
  });
  // The workers are done: stopped now, not after the files that list every tool.
  await pool?.close();
  const problems = [...(assembler?.problems ?? []), ...emitted.problems];
  const warnings = [...(assembler?.warnings ?? [])];
  if (problems.length > 0) {
    assembler?.abandon();
    return { cache, paths, stubs, problems, warnings, threads: emitted.threads, models };
  }
  const assembled = assembler?.finish();
  // The budgets' warnings are known once every tool's part is in.
  if (assembled !== undefined) warnings.push(...assembled.warnings.slice(warnings.length));
  if (plan.listings !== undefined) {
    for (const file of plan.listings) {
      staging.keep(file);
      listingFiles[file] = run.previous.project!.files[file]!;
    }
    paths.push(...plan.listings);
  } else {
    const keepShared = sharedModuleUnchanged(run, plan.untouched);
    const files = await generator.emitProjectFiles(project, settings, [], {
      sharedValidators: !keepShared,
      tokens: (assembled ?? made)?.tokens,
    });
    for (const file of files) putListing(file);
    if (keepShared) {
      staging.keep(SHARED_VALIDATORS_FILE);
      listingFiles[SHARED_VALIDATORS_FILE] = run.previous.project!.files[SHARED_VALIDATORS_FILE]!;
      paths.push(SHARED_VALIDATORS_FILE);
    }
  }
  const segments = plan.listings !== undefined ? run.previous.project?.segments : (assembled ?? made)?.segments;
  const listingWarnings =
    (made ?? assembled)?.listingWarnings ??
    (plan.listings !== undefined ? run.previous.project?.listingWarnings : undefined);
  cache.project = {
    hash: projectHash(project),
    files: listingFiles,
    shared: run.sharedHash,
    ...(segments ? { segments } : {}),
    ...(listingWarnings !== undefined && listingWarnings.length > 0 ? { listingWarnings } : {}),
    budget: budgetKey(run.resolved.manifestTokenBudget),
  };
  stubs.push(...(await generator.emitStubs(project, reusedStubless, settings)));
  return { cache, paths, stubs, problems: [], warnings, threads: emitted.threads, models };
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

/** The worker options given in the generate options. */
function workerOptions(options: GenerateOptions) {
  return {
    ...(options.workers !== undefined ? { count: options.workers } : {}),
    ...(options.workerThreshold !== undefined ? { threshold: options.workerThreshold } : {}),
  };
}

/** Reads what a run starts from; a template that cannot be read stops it. */
async function readRunInputs(options: IncrementalOptions): Promise<RunInputs | { problem: Problem }> {
  const resolved = resolveOptions(options);
  const modules = await generatorModules();
  const read = modules[0].readTemplates(resolved);
  if ('problem' in read) return read;
  const key = generationCacheKey(resolved, read.templates, options.fingerprint);
  const previous = readCache(options.check ? undefined : cacheFile(resolved.root, resolved.outDir), key);
  const loaded = loadDefinitions(resolved.schemasDir, resolved.root);
  // What was read, by content: recorded for the nothing-changed shortcut (`unchangedRun`).
  const inputs: Record<string, string> = dictionary();
  for (const source of [...loaded.tools, ...loaded.shared]) inputs[source.relPath] = sha256(source.text);
  const sharedHash = sharedInputsHash(loaded.shared, inputs);
  return { options, resolved, templates: read.templates, key, previous, loaded, inputs, sharedHash, modules };
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
  const [generator, , emitPool] = run.modules;
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
  const generator = run.modules[0];
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
    (run.previous.project?.budget ?? budgetKey(undefined)) === budgetKey(run.resolved.manifestTokenBudget);
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

/** The token budgets as the cache records them. */
function budgetKey(budget: ResolvedOptions['manifestTokenBudget']): string {
  return JSON.stringify(budget ?? null);
}

/** The project as its summaries (`ToolSummary`). */
function listingOf(project: ProjectListing): ProjectListing {
  return { shared: project.shared, tools: project.tools.map(summarizeTool) };
}
