/**
 * The snapshot of a run (its inputs by content, its outputs by stat), whether an output file is
 * still what a run wrote, and the nothing-changed shortcut (`unchangedRun`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readRegularFile, scanSchemasFolder } from '../load.js';
import type { ResolvedOptions } from '../config/options.js';
import { listFiles, recoverInterrupted } from '../write.js';
import { optionsCacheKey } from './fingerprint.js';
import { budgetKey, cacheFile, readCache, sha256, type CacheEntry, type RunSnapshot } from './store.js';

/**
 * The files of a cache entry when its hash is `hash` and every one of them is still in the output
 * folder as written: a file whose size, modification time and inode are those the last run's
 * snapshot recorded is taken as it is; any other is read and compared by hash. Undefined when any
 * differs (the unit is emitted again).
 */
export function unchangedFiles(
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
export function unchangedFile(
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

/** True when the file at `relPath` under `outDir` still has the size, mtime and inode `snapshot` recorded. */
export function untouchedSinceSnapshot(snapshot: RunSnapshot | undefined, outDir: string, relPath: string): boolean {
  const recorded = snapshot?.outputs[relPath];
  return recorded !== undefined && sameStat(statEntry(path.join(outDir, relPath)), recorded);
}

function sameStat(actual: [number, string, number] | undefined, expected: [number, string, number]): boolean {
  return actual !== undefined && actual[0] === expected[0] && actual[1] === expected[1] && actual[2] === expected[2];
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
    key = optionsCacheKey(resolved, fingerprint);
  } catch {
    return undefined; // a template that cannot be read: the full run reports it
  }
  const cache = readCache(file, key);
  const snapshot = cache.snapshot;
  if (snapshot === undefined) return undefined;
  if ((cache.project?.budget ?? budgetKey(undefined)) !== budgetKey(resolved.settings.manifests.tokenBudget))
    return undefined;
  let inputs: string[];
  try {
    const scan = scanSchemasFolder(resolved.schemasDir, resolved.root);
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
