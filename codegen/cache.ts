import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ownValue } from './dictionary.js';
import { readRegularFile, scanSchemasFolder } from './load.js';
import type { FileSegments, GeneratedFile, ToolModel } from './model.js';
import type { ResolvedOptions } from './options.js';
import { loadTemplates } from './templates/index.js';
import type { DocTemplates } from './templates/names.js';
import { listFiles, recoverInterrupted } from './write.js';

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
  /** Path → the content's length in UTF-16 code units, so a changed file is told without hashing (or UTF-8 encoding) it. */
  lengths?: Record<string, number>;
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
  return cacheFile(root, outDir)?.replace(/\.json$/, '.models.json');
}

/** The hash `ModelCache.shared` is compared with: every shared schema's path and content hash. */
export function sharedInputsHash(
  shared: ReadonlyArray<{ relPath: string }>,
  inputs: Readonly<Record<string, string>>,
): string {
  return sha256(JSON.stringify(shared.map((source) => [source.relPath, inputs[source.relPath]])));
}

/** The model cache for `key` and `shared`; empty when missing, unreadable or made for other inputs. */
export function readModels(file: string | undefined, key: string, shared: string): ModelCache['tools'] {
  if (file === undefined || !existsSync(file)) return {};
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as ModelCache;
    return data.key === key && data.shared === shared && typeof data.tools === 'object' && data.tools !== null
      ? data.tools
      : {};
  } catch {
    return {};
  }
}

/** Writes the model cache atomically; best effort, like the cache (the next run builds every model again). */
export function writeModels(file: string | undefined, models: ModelCache): void {
  writeJsonAtomically(file, models);
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
export function writeCache(file: string | undefined, cache: GenerationCache): void {
  writeJsonAtomically(file, cache);
}

/**
 * The previously generated files of a tool when its hash is unchanged and every one of its files
 * on disk still has the recorded content; otherwise undefined (the tool is emitted again).
 */
export function reuseFromCache(cache: GenerationCache, outDir: string, tool: ToolModel): GeneratedFile[] | undefined {
  return reuseEntry(ownValue(cache.tools, tool.name), tool.hash, outDir, cache.snapshot);
}

/**
 * The files of a cache entry when its hash is `hash` and every file on disk still matches: a file
 * whose size, modification time and inode are those the last run's snapshot recorded is taken as
 * it is (its content read only if asked for); any other is read and compared by hash.
 */
export function reuseEntry(
  entry: CacheEntry | undefined,
  hash: string,
  outDir: string,
  snapshot?: RunSnapshot,
): GeneratedFile[] | undefined {
  if (!entry || entry.hash !== hash) return undefined;
  const files: GeneratedFile[] = [];
  for (const [file, fileHash] of Object.entries(entry.files)) {
    const full = path.join(outDir, file);
    if (untouchedSinceSnapshot(snapshot, outDir, file)) {
      files.push(unchangedFile(file, full, fileHash));
      continue;
    }
    let content: string;
    try {
      content = readFileSync(full, 'utf8');
    } catch {
      return undefined;
    }
    if (sha256(content) !== fileHash) return undefined;
    files.push({ path: file, content, kind: 'generated', onDisk: true, hash: fileHash });
  }
  return files;
}

/** A generated file known to be unchanged on disk, read only when its content is asked for. */
function unchangedFile(relPath: string, full: string, hash: string): GeneratedFile {
  let content: string | undefined;
  return {
    path: relPath,
    kind: 'generated',
    onDisk: true,
    hash,
    get content(): string {
      return (content ??= readFileSync(full, 'utf8'));
    },
  };
}

/** True when the file at `relPath` under `outDir` still has the size, mtime and inode `snapshot` recorded. */
export function untouchedSinceSnapshot(snapshot: RunSnapshot | undefined, outDir: string, relPath: string): boolean {
  const recorded = snapshot?.outputs[relPath];
  return recorded !== undefined && sameStat(statEntry(path.join(outDir, relPath)), recorded);
}

function sameStat(actual: [number, string, number] | undefined, expected: [number, string, number]): boolean {
  return actual !== undefined && actual[0] === expected[0] && actual[1] === expected[1] && actual[2] === expected[2];
}

/** The cache key of a run: the generator's code, the emit context, the templates (read here unless given), the manifest targets, formatting. */
export function generationCacheKey(
  resolved: ResolvedOptions,
  templates: DocTemplates = loadTemplates(resolved.templatesDir),
): string {
  return sha256(
    JSON.stringify({
      generator: generatorFingerprint(),
      ctx: resolved.ctx,
      templates,
      targets: resolved.manifestTargets ?? null,
      policy: resolved.manifestPolicy ?? null,
      describeLosses: resolved.manifestDescribeLosses ?? null,
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
): RunSnapshot | undefined {
  const recorded: RunSnapshot['outputs'] = {};
  for (const file of outputs) {
    const entry = statEntry(path.join(outDir, file));
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
export function unchangedRun(resolved: ResolvedOptions): { tools: number; files: number } | undefined {
  const file = cacheFile(resolved.root, resolved.outDir);
  if (file === undefined || !existsSync(file)) return undefined;
  recoverInterrupted(resolved.outDir);
  let key: string;
  try {
    key = generationCacheKey(resolved);
  } catch {
    return undefined; // a template that cannot be read: the full run reports it
  }
  const cache = readCache(file, key);
  const snapshot = cache.snapshot;
  if (snapshot === undefined) return undefined;
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
