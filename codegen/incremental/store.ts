/**
 * The cache file: its format (per tool and project-wide entries, the last run's snapshot), where it
 * lives, and how it is read and written (atomically, best effort).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FileSegments, Problem } from '../model.js';
import type { ResolvedOptions } from '../config/options.js';

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

/** The token budgets as the cache records them. */
export function budgetKey(budget: ResolvedOptions['settings']['manifests']['tokenBudget']): string {
  return JSON.stringify(budget ?? null);
}
