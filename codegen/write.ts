import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { GeneratedFile } from './model.js';
import { compareStrings } from './naming.js';

/** Files at least this long (UTF-16 code units) keep their UTF-8 bytes once encoded (see `encoded`). */
const KEEP_BYTES_FROM = 64 * 1024;

/**
 * A file's content as UTF-8 bytes. A big file keeps them, so that the cache's hash, `write`'s
 * comparison with the disk and the write itself encode it once: hashing and comparing the 34 MB of
 * manifests and loss reports of 1,000 tools as strings took ~0.6 s of a one-tool-changed run, as
 * bytes ~0.05 s.
 */
export function encoded(file: GeneratedFile): Buffer {
  if (file.bytes !== undefined) return file.bytes;
  const bytes = Buffer.from(file.content, 'utf8');
  if (file.content.length >= KEEP_BYTES_FROM) file.bytes = bytes;
  return bytes;
}

/**
 * The same file holding its UTF-8 bytes instead of its text, `content` decoded again only when
 * read. Why: the text of 1,000 tools' files (127 MB) lived on the V8 heap until the write, and the
 * heap grows by a multiple of what it holds; bytes live outside it at their size. A text that is not
 * well-formed UTF-16 (a lone surrogate) is kept as text: UTF-8 cannot give it back.
 */
export function heldAsBytes(file: GeneratedFile): GeneratedFile {
  if (file.bytes !== undefined || !(file.content as string & { isWellFormed(): boolean }).isWellFormed()) return file;
  const { content, ...rest } = file;
  const bytes = Buffer.from(content, 'utf8');
  return Object.defineProperty({ ...rest, bytes }, 'content', {
    get: () => bytes.toString('utf8'),
    enumerable: true,
  }) as GeneratedFile;
}

/** How the output on disk differs from what generate produced. */
export interface OutputDiff {
  /** Files whose content differs. */
  stale: string[];
  /** Files generate produces that are not on disk. */
  missing: string[];
  /** Files on disk that generate no longer produces. */
  extra: string[];
  /** Files already identical. */
  same: string[];
}

/** What a write did. */
export interface WriteReport {
  diff: OutputDiff;
  /** True when the output folder was replaced. */
  replaced: boolean;
  /** Stub paths (relative to the stubs folder) created because they were absent. */
  stubsCreated: string[];
  /**
   * Settles once the replaced tree is removed (with `removeInBackground`; else already settled).
   * Never rejects: a tree left behind is removed by the next run (`recoverInterrupted`).
   */
  removed: Promise<void>;
}

/** Options of `writeOutput`. */
export interface WriteOptions {
  /**
   * Remove the replaced tree on libuv's threads instead of before returning, so the caller's own
   * work (the CLI's snapshot and caches) overlaps with its thousands of unlinks; await `removed`
   * before writing to the same folder again.
   */
  removeInBackground?: boolean;
}

/** Lists every file under a folder, relative and sorted; empty when the folder does not exist. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (current: string, prefix: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(path.join(current, entry.name), rel);
      else out.push(rel);
    }
  };
  walk(dir, '');
  return out.sort(compareStrings);
}

/** Compares generated files with the output folder. */
export function diffOutput(outDir: string, files: readonly GeneratedFile[]): OutputDiff {
  const onDisk = new Set(listFiles(outDir));
  const diff: OutputDiff = { stale: [], missing: [], extra: [], same: [] };
  for (const file of files) {
    if (!onDisk.has(file.path)) diff.missing.push(file.path);
    else if (file.onDisk !== true && differsOnDisk(path.join(outDir, file.path), file)) diff.stale.push(file.path);
    else diff.same.push(file.path);
    onDisk.delete(file.path);
  }
  diff.extra = [...onDisk].sort(compareStrings);
  return diff;
}

/** Whether the file on disk differs from the generated one: a different size answers without reading it; else the bytes are compared. */
function differsOnDisk(file: string, generated: GeneratedFile): boolean {
  const bytes = encoded(generated);
  if (statSync(file).size !== bytes.length) return true;
  return !readFileSync(file).equals(bytes);
}

/** True when the diff shows any difference. */
export function hasDrift(diff: OutputDiff): boolean {
  return diff.stale.length + diff.missing.length + diff.extra.length > 0;
}

/**
 * Puts back the previous output when an earlier run was killed between the two renames of its
 * swap, and removes half-built trees left by killed runs.
 */
export function recoverInterrupted(outDir: string): void {
  const parent = path.dirname(outDir);
  const base = path.basename(outDir);
  if (!existsSync(parent)) return;
  const leftovers = readdirSync(parent)
    .filter((name) => name.startsWith(`${base}.toolsmith-`))
    .sort(compareStrings);
  for (const name of leftovers) {
    const full = path.join(parent, name);
    if (name.startsWith(`${base}.toolsmith-old-`) && !existsSync(outDir)) renameSync(full, outDir);
    else rmSync(full, { recursive: true, force: true });
  }
}

/**
 * Writes the output folder atomically: the complete new tree is built beside it and swapped in
 * with renames, so a failed or killed run leaves the previous output intact. Nothing is written
 * when the folder already matches. Stubs are created only where absent, never overwritten.
 */
export function writeOutput(
  outDir: string,
  files: readonly GeneratedFile[],
  stubsDir: string,
  stubs: readonly GeneratedFile[],
  options: WriteOptions = {},
): WriteReport {
  recoverInterrupted(outDir);
  const diff = diffOutput(outDir, files);
  let replaced = false;
  let removed: Promise<void> = Promise.resolve();
  if (hasDrift(diff)) {
    const suffix = `${process.pid}-${Date.now()}`;
    const staging = `${outDir}.toolsmith-new-${suffix}`;
    const previous = `${outDir}.toolsmith-old-${suffix}`;
    try {
      const same = new Set(diff.same);
      const made = new Set<string>();
      for (const file of files) {
        const target = path.join(staging, file.path);
        const dir = path.dirname(target);
        if (!made.has(dir)) {
          mkdirSync(dir, { recursive: true });
          made.add(dir);
        }
        // An unchanged file is hard-linked from the current tree (no bytes copied); the swap then
        // publishes the new tree at once all the same.
        if (same.has(file.path) && tryLink(path.join(outDir, file.path), target)) continue;
        writeFileSync(target, encoded(file));
      }
      if (files.length === 0) mkdirSync(staging, { recursive: true });
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    const hadPrevious = existsSync(outDir);
    if (hadPrevious) renameSync(outDir, previous);
    renameSync(staging, outDir);
    if (hadPrevious) {
      if (options.removeInBackground) removed = rm(previous, { recursive: true, force: true }).catch(() => undefined);
      else rmSync(previous, { recursive: true, force: true });
    }
    replaced = true;
  }
  const stubsCreated: string[] = [];
  for (const stub of stubs) {
    const target = path.join(stubsDir, stub.path);
    if (existsSync(target)) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    const temporary = `${target}.toolsmith-${process.pid}`;
    writeFileSync(temporary, stub.content);
    try {
      // A hard link publishes the complete file at once and fails if the target appeared meanwhile.
      linkSync(temporary, target);
      stubsCreated.push(stub.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  return { diff, replaced, stubsCreated, removed };
}

/** Hard-links `from` at `to`; false when the file system cannot (the caller writes a copy). */
function tryLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch {
    return false;
  }
}

/** Stubs that do not exist yet (for `check`). */
export function missingStubs(stubsDir: string, stubs: readonly GeneratedFile[]): string[] {
  return stubs.filter((stub) => !existsSync(path.join(stubsDir, stub.path))).map((stub) => stub.path);
}
