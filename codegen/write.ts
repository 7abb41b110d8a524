/**
 * The only module that writes a generate's output. The new output tree is built beside the output
 * folder file by file as a run emits them and swapped in with two renames, so a failed or killed run
 * leaves the previous output whole; stubs are published with a hard link, so one is never overwritten.
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { GeneratedFile } from './model.js';
import { compareStrings } from '../src/manifest-targets/build.js';

/** A file's content as UTF-8 bytes: those it holds (made as bytes), else its text encoded. */
export function encoded(file: GeneratedFile): Buffer {
  return file.bytes ?? (file.chunks ? Buffer.concat(file.chunks) : Buffer.from(file.content, 'utf8'));
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

/** True when the diff shows any difference. */
export function hasDrift(diff: OutputDiff): boolean {
  return diff.stale.length + diff.missing.length + diff.extra.length > 0;
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
 * The new output tree of a run, built beside the output folder as the run emits: each file is
 * compared with the current output when it arrives (size, then bytes), hard-linked from it when the
 * same, else written, and then forgotten, so a run holds no file's text longer than its emission.
 * Nothing is created until the first file that differs (a run that changes nothing writes nothing).
 */
export interface OutputStaging {
  /** Stages a file this run made. */
  put(file: GeneratedFile): void;
  /** Stages a file the caller knows to be unchanged in the current output (linked, never read). */
  keep(relPath: string): void;
  /**
   * Swaps the new tree in when anything differs (stale, missing or extra files), then creates each of
   * `stubs` that is absent; answers how the output differed and the stubs created (with `compareOnly`:
   * the stubs missing, none created).
   */
  commit(stubs?: readonly GeneratedFile[]): { diff: OutputDiff; replaced: boolean; stubs: string[] };
  /** Removes what was staged; the output folder is untouched. */
  discard(): void;
}

/**
 * Starts the new tree of `outDir` (see `OutputStaging`), recovering an interrupted earlier run first;
 * stubs go to `stubsDir`. With `compareOnly` (`check`) nothing is ever written: `commit` only reports.
 */
export function stageOutput(outDir: string, options: { compareOnly?: boolean; stubsDir?: string } = {}): OutputStaging {
  recoverInterrupted(outDir);
  const remaining = new Set(listFiles(outDir));
  const suffix = `${process.pid}-${Date.now()}`;
  const stagingDir = `${outDir}.toolsmith-new-${suffix}`;
  const diff: OutputDiff = { stale: [], missing: [], extra: [], same: [] };
  let started = false;
  const madeFolders = new Set<string>();
  /** The staged path of `relPath`, its folder made. */
  const target = (relPath: string) => {
    const full = path.join(stagingDir, relPath);
    const dir = path.dirname(full);
    if (!madeFolders.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeFolders.add(dir);
    }
    return full;
  };
  // An unchanged file is hard-linked from the current tree (no bytes copied); a copy where the file system cannot link.
  const link = (relPath: string) => {
    const from = path.join(outDir, relPath);
    try {
      linkSync(from, target(relPath));
    } catch {
      copyFileSync(from, target(relPath));
    }
  };
  // The first difference starts the tree, with the unchanged files seen so far.
  const start = () => {
    if (started || options.compareOnly) return;
    started = true;
    mkdirSync(stagingDir, { recursive: true });
    for (const relPath of diff.same) link(relPath);
  };
  const same = (relPath: string) => {
    diff.same.push(relPath);
    if (started) link(relPath);
  };
  return {
    put(file) {
      const existed = remaining.delete(file.path);
      if (existed && !differsOnDisk(path.join(outDir, file.path), file)) return same(file.path);
      (existed ? diff.stale : diff.missing).push(file.path);
      start();
      if (!started) return;
      if (file.chunks === undefined) writeFileSync(target(file.path), encoded(file));
      else writeChunks(target(file.path), file.chunks);
    },
    keep(relPath) {
      remaining.delete(relPath);
      same(relPath);
    },
    commit(stubs = []) {
      diff.extra = [...remaining].sort(compareStrings);
      for (const list of [diff.stale, diff.missing, diff.same]) list.sort(compareStrings);
      const replaced = hasDrift(diff) && !options.compareOnly;
      if (replaced) {
        start();
        const previous = `${outDir}.toolsmith-old-${suffix}`;
        const hadPrevious = existsSync(outDir);
        if (hadPrevious) renameSync(outDir, previous);
        renameSync(stagingDir, outDir);
        if (hadPrevious) rmSync(previous, { recursive: true, force: true });
      }
      const stubsDir = options.stubsDir ?? outDir;
      const created = options.compareOnly
        ? stubs.filter((stub) => !existsSync(path.join(stubsDir, stub.path))).map((stub) => stub.path)
        : writeStubs(stubsDir, stubs);
      return { diff, replaced, stubs: created };
    },
    discard() {
      if (started) rmSync(stagingDir, { recursive: true, force: true });
    },
  };
}

/**
 * Whether the file on disk differs from `file`: a file that says so (a spliced manifest, made from the
 * disk's bytes) is taken at its word; a different size answers without reading; else the bytes.
 */
function differsOnDisk(onDisk: string, file: GeneratedFile): boolean {
  // Trusting a splice's word saves reading and comparing every manifest of a one-tool regenerate (P4).
  if (file.onDisk !== undefined) return file.onDisk === 'differs';
  const bytes = file.chunks ?? [encoded(file)];
  if (statSync(onDisk).size !== bytes.reduce((sum, chunk) => sum + chunk.length, 0)) return true;
  const disk = readFileSync(onDisk);
  let offset = 0;
  for (const chunk of bytes) {
    if (!disk.subarray(offset, offset + chunk.length).equals(chunk)) return true;
    offset += chunk.length;
  }
  return false;
}

/** Writes `chunks` one after the other to a new file (never joined into one buffer). */
function writeChunks(file: string, chunks: readonly Buffer[]): void {
  const fd = openSync(file, 'w');
  try {
    for (const chunk of chunks) {
      let offset = 0;
      while (offset < chunk.length) offset += writeSync(fd, chunk, offset, chunk.length - offset);
    }
  } finally {
    closeSync(fd);
  }
}

/** Creates each stub that is absent (published with a hard link, so an existing file is never overwritten); answers those created. */
function writeStubs(stubsDir: string, stubs: readonly GeneratedFile[]): string[] {
  const stubsCreated: string[] = [];
  for (const stub of stubs) {
    const target = path.join(stubsDir, stub.path);
    if (existsSync(target)) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    const temporary = `${target}.toolsmith-${process.pid}`;
    writeFileSync(temporary, encoded(stub));
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
  return stubsCreated;
}
