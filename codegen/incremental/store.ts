/**
 * The cache file: its format (per tool and project-wide entries, the last run's snapshot), where it
 * lives, and how it is read and written (atomically, best effort).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FileSegments } from '../model.js';
import type { ResolvedOptions } from '../config/options.js';

/**
 * The incremental-generation cache: per tool, the content hash it was generated from (its
 * definition, the shared schemas it uses, the generator version — see `ToolModel.hash`) and the files
 * it produced; where each tool's part lies in the manifests; and the last run's snapshot. Kept in
 * `node_modules/.cache/toolsmith/`, never in the output, so a clean clone simply regenerates
 * everything. A tool is reused only when its hash matches and its files on disk are still the ones
 * written (the snapshot's stat).
 */
export interface GenerationCache {
  version: 2;
  /** Hash of everything besides the tools that shapes the output (generator code, settings, templates). */
  key: string;
  /** Tool name → the hash it was generated from and the files it produced. */
  tools: Record<string, { hash: string; files: string[] }>;
  /** Where each tool's part lies in the manifests and loss reports, by file (see `spliceParts`). */
  segments?: Record<string, FileSegments>;
  /** What the last successful run read and wrote. */
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
  /**
   * The token budgets of the run (`budgetKey`). Not in the cache key: a budget changes no file, only
   * the warnings, so a run with another budget reuses every tool and judges the token report again.
   */
  budget: string;
  /** The run had warnings: the nothing-changed shortcut does not answer (it would not print them). */
  warned?: true;
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

/** Where the model cache of an output folder lives (beside the cache), or undefined without node_modules. */
export function modelsFile(root: string, outDir: string): string | undefined {
  return cacheFile(root, outDir)?.replace(/\.json$/, '.models.jsonl');
}

/**
 * Writes `text` to a temporary file renamed over `file`, so a reader never sees half of it. Best
 * effort: a cache that cannot be written only costs speed, so failures are ignored.
 */
export function writeAtomically(file: string | undefined, text: string): void {
  if (file === undefined) return;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** Reads the cache; a missing, unreadable or foreign cache is an empty one. */
export function readCache(file: string | undefined, key: string): GenerationCache {
  const empty: GenerationCache = { version: 2, key, tools: {} };
  if (file === undefined || !existsSync(file)) return empty;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as GenerationCache;
    return data.version === 2 && data.key === key && typeof data.tools === 'object' ? data : empty;
  } catch {
    return empty;
  }
}

/** The token budgets as the cache records them. */
export function budgetKey(budget: ResolvedOptions['settings']['manifests']['tokenBudget']): string {
  return JSON.stringify(budget ?? null);
}
