/**
 * The only module that writes a generate's output. A run's changed files are staged beside the
 * output as it emits them and moved in by the commit, which records what it does first, so a failed
 * run writes nothing and a killed one is finished by the next; stubs are published with a hard link,
 * so one is never overwritten.
 */
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writevSync,
} from 'node:fs';
import path from 'node:path';
import { toPosix } from './load.js';
import type { EmitOutput } from './emit/project.js';
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
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => toPosix(path.relative(dir, path.join(entry.parentPath, entry.name))))
    .sort(compareStrings);
}

/**
 * What a commit does to the output, recorded beside it before it starts: the files it moves in from
 * the staging folder (complete before the record is written) and the files it removes.
 */
interface CommitRecord {
  staging: string;
  moved: string[];
  removed: string[];
}

/**
 * Finishes a commit an earlier run was killed in (its record says what is left: the output becomes
 * that run's new output) and removes the staging folders of runs that never committed.
 */
export function recoverInterrupted(outDir: string): void {
  const parent = path.dirname(outDir);
  const base = path.basename(outDir);
  if (!existsSync(parent)) return;
  const leftovers = readdirSync(parent).filter((name) => name.startsWith(`${base}.toolsmith-`));
  for (const name of leftovers.filter((entry) => entry.endsWith('.commit.json'))) {
    let record: CommitRecord | undefined;
    try {
      record = JSON.parse(readFileSync(path.join(parent, name), 'utf8')) as CommitRecord;
    } catch {
      // Cut short while being written: the commit had not begun.
    }
    if (record !== undefined) applyCommit(outDir, record);
  }
  for (const name of leftovers) rmSync(path.join(parent, name), { recursive: true, force: true });
}

/** Removes the record's files from the output and moves its staged files in (those already moved are skipped). */
function applyCommit(outDir: string, record: CommitRecord): void {
  for (const relPath of record.removed) {
    rmSync(path.join(outDir, relPath), { force: true });
    // The folders it leaves empty go too (the output folder stays).
    for (let dir = path.dirname(relPath); dir !== '.'; dir = path.dirname(dir)) {
      const full = path.join(outDir, dir);
      if (!existsSync(full) || readdirSync(full).length > 0) break;
      rmdirSync(full);
    }
  }
  for (const relPath of record.moved) {
    const from = path.join(record.staging, relPath);
    if (!existsSync(from)) continue;
    mkdirSync(path.dirname(path.join(outDir, relPath)), { recursive: true });
    renameSync(from, path.join(outDir, relPath));
  }
}

/**
 * A run's changes to the output, staged beside it as the run emits: each file is compared with the
 * current output when it arrives (size, then bytes), written to the staging folder when it differs,
 * and then forgotten, so a run holds no file's text longer than its emission; a kept file is counted
 * as unchanged, never read. Nothing is created until the first file that differs (a run that
 * changes nothing writes nothing).
 */
export interface OutputStaging extends EmitOutput {
  /**
   * Applies the staged changes when anything differs (stale, missing or extra files), then creates
   * each of `stubs` that is absent; answers how the output differed and the stubs created (with
   * `compareOnly`: the stubs missing, none created).
   */
  commit(stubs?: readonly GeneratedFile[]): { diff: OutputDiff; replaced: boolean; stubs: string[] };
  /** Removes what was staged; the output folder is untouched. */
  discard(): void;
}

/**
 * Starts staging the changes to `outDir` (see `OutputStaging`), finishing an interrupted earlier
 * commit first; stubs go to `stubsDir`. With `compareOnly` (`check`) nothing is ever written.
 *
 * A commit writes its record, moves the changed files in one by one and removes the extra ones, so it
 * costs what changed, not the size of the output (a one-tool regenerate at 1,000 tools, P4). A run
 * killed during its commit is finished by the next one (`recoverInterrupted`): the output is always
 * the previous one or, once recovered, the new one; a run that fails before its commit writes nothing.
 */
export function stageOutput(outDir: string, options: { compareOnly?: boolean; stubsDir?: string } = {}): OutputStaging {
  recoverInterrupted(outDir);
  const remaining = new Set(listFiles(outDir));
  const stagingDir = `${outDir}.toolsmith-new-${process.pid}-${Date.now()}`;
  const diff: OutputDiff = { stale: [], missing: [], extra: [], same: [] };
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
  return {
    put(file) {
      const existed = remaining.delete(file.path);
      if (existed && !differsOnDisk(path.join(outDir, file.path), file)) return void diff.same.push(file.path);
      (existed ? diff.stale : diff.missing).push(file.path);
      if (options.compareOnly) return;
      writeChunks(target(file.path), file.chunks ?? [encoded(file)]);
    },
    keep(relPath) {
      remaining.delete(relPath);
      diff.same.push(relPath);
    },
    commit(stubs = []) {
      diff.extra = [...remaining].sort(compareStrings);
      for (const list of [diff.stale, diff.missing, diff.same]) list.sort(compareStrings);
      const replaced = hasDrift(diff) && !options.compareOnly;
      if (replaced && !existsSync(outDir)) {
        mkdirSync(stagingDir, { recursive: true });
        renameSync(stagingDir, outDir);
      } else if (replaced) {
        const record: CommitRecord = {
          staging: stagingDir,
          moved: [...diff.stale, ...diff.missing],
          removed: diff.extra,
        };
        const recordFile = `${stagingDir}.commit.json`;
        writeFileSync(recordFile, JSON.stringify(record));
        applyCommit(outDir, record);
        rmSync(recordFile);
        rmSync(stagingDir, { recursive: true, force: true });
      }
      const stubsDir = options.stubsDir ?? outDir;
      const created = options.compareOnly
        ? stubs.filter((stub) => !existsSync(path.join(stubsDir, stub.path))).map((stub) => stub.path)
        : writeStubs(stubsDir, stubs);
      return { diff, replaced, stubs: created };
    },
    discard() {
      rmSync(stagingDir, { recursive: true, force: true });
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

/** Writes `chunks` one after the other to a new file (never joined into one buffer; libuv writes them all). */
function writeChunks(file: string, chunks: readonly Buffer[]): void {
  const fd = openSync(file, 'w');
  try {
    writevSync(fd, chunks);
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
