/**
 * The snapshot of a run (its inputs by content, its outputs by stat), whether an output file is
 * still what a run wrote, and the nothing-changed shortcut (`unchangedRun`).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedOptions } from '../config/options.js';
import { readRegularFile, scanSchemasFolder } from '../load.js';
import { listFiles } from '../write.js';
import { budgetKey, sha256, type GenerationCache, type RunSnapshot } from './store.js';

/** True when the file at `relPath` under `outDir` still has the size, mtime and inode `snapshot` recorded. */
export function untouchedSinceSnapshot(snapshot: RunSnapshot | undefined, outDir: string, relPath: string): boolean {
  const recorded = snapshot?.outputs[relPath];
  const actual = recorded === undefined ? undefined : statEntry(path.join(outDir, relPath));
  return actual !== undefined && actual.every((field, index) => field === recorded![index]);
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

/** What a successful run read and wrote, recorded once its output is in place. */
export function takeSnapshot(
  outDir: string,
  recorded: Omit<RunSnapshot, 'outputs'>,
  outputs: readonly string[],
): RunSnapshot | undefined {
  const stats: RunSnapshot['outputs'] = {};
  for (const file of outputs) {
    const entry = statEntry(path.join(outDir, file));
    if (entry === undefined) return undefined;
    stats[file] = entry;
  }
  return { ...recorded, outputs: stats };
}

/**
 * The nothing-changed shortcut: when the last successful run had no warnings, its cache key
 * (generator code, options, templates) and token budgets are this run's, every definition and shared
 * schema has the bytes it had then, no file was added or removed, every generated file still has the
 * size, modification time and inode recorded right after it was written, and every stub exists, then
 * a run would write nothing. Answers the number of tools and every generated file, or undefined when
 * anything differs (the run goes on).
 *
 * The limit, as with git's index: a generated file rewritten to the same size within the same
 * file-system timestamp tick as toolsmith's own write is not noticed here (`toolsmith check`
 * always compares bytes).
 */
export function unchangedRun(
  resolved: ResolvedOptions,
  cache: GenerationCache,
): { tools: number; files: string[] } | undefined {
  const snapshot = cache.snapshot;
  if (snapshot === undefined || snapshot.warned) return undefined;
  if (snapshot.budget !== budgetKey(resolved.settings.manifests.tokenBudget)) return undefined;
  try {
    const scan = scanSchemasFolder(resolved.schemasDir, resolved.root);
    // A folder that cannot be walked is a problem of the full run, never "nothing changed".
    if (scan.unreadable.length > 0 || scan.files.length !== Object.keys(snapshot.inputs).length) return undefined;
    for (const relPath of scan.files) {
      const expected = snapshot.inputs[relPath];
      if (expected === undefined) return undefined;
      // Never blocks on a FIFO that took a definition's name: anything but a regular file means "run".
      const read = readRegularFile(path.join(resolved.schemasDir, relPath));
      if ('error' in read || sha256(read.bytes) !== expected) return undefined;
    }
  } catch {
    return undefined;
  }
  const outputs = listFiles(resolved.outDir);
  if (outputs.length !== Object.keys(snapshot.outputs).length) return undefined;
  for (const relPath of outputs) if (!untouchedSinceSnapshot(snapshot, resolved.outDir, relPath)) return undefined;
  for (const stub of snapshot.stubs) if (!existsSync(path.join(resolved.stubsDir, stub))) return undefined;
  return { tools: snapshot.tools, files: outputs };
}
