/**
 * The only module that writes a generate's output. A run's changed files are staged beside the
 * output as it emits them and moved in by the commit, which records what it does first, so a failed
 * run writes nothing and a killed one is finished by the next; stubs are published with a hard link,
 * so one is never overwritten.
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { toPosix } from './load.js';
import type { EmitOutput } from './emit/project.js';
import type { FileWriter, GeneratedFile } from './model.js';
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
 * current output as its bytes arrive (`put` whole, or `open` piece by piece), written to the staging
 * folder from its first difference, and then forgotten, so a run holds no file's bytes longer than
 * their making; a kept file is counted as unchanged, never read. Nothing is created until the first
 * file that differs (a run that changes nothing writes nothing).
 */
export interface OutputStaging extends EmitOutput {
  /**
   * Applies the staged changes when anything differs (stale, missing or extra files), then creates
   * each of `stubs` that is absent; answers how the output differed and the stubs created (with
   * `compareOnly`: the stubs missing, none created).
   */
  commit(stubs?: readonly GeneratedFile[]): { diff: OutputDiff; replaced: boolean; stubs: string[] };
  /** Closes the files still open and removes what was staged; the output folder is untouched. */
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
  const unclosed = new Set<ReturnType<typeof stagedWriter>>();
  /** The writer of `relPath` (`stagedWriter`, told what is `known` of its bytes), counted in the diff at its close. */
  const open = (relPath: string, known: KnownBytes = {}): FileWriter => {
    const current = remaining.delete(relPath) ? path.join(outDir, relPath) : undefined;
    const stage = options.compareOnly ? undefined : () => target(relPath);
    const writer = stagedWriter(current, stage, known, (state) => {
      unclosed.delete(writer);
      diff[state].push(relPath);
    });
    unclosed.add(writer);
    return writer;
  };
  const keep = (relPath: string) => {
    remaining.delete(relPath);
    diff.same.push(relPath);
  };
  return {
    open,
    keep,
    put(file) {
      // Trusting a splice's word saves reading and comparing every manifest of a one-tool regenerate (P4).
      if (file.onDisk === 'same' && remaining.has(file.path)) return keep(file.path);
      const chunks = file.chunks ?? [encoded(file)];
      const size = chunks.reduce((total, chunk) => total + chunk.length, 0);
      const writer = open(file.path, { differs: file.onDisk === 'differs', size });
      for (const chunk of chunks) writer.write(chunk);
      writer.close();
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
      for (const writer of unclosed) writer.release();
      rmSync(stagingDir, { recursive: true, force: true });
    },
  };
}

/** What a writer is told of a file's bytes before they come. */
interface KnownBytes {
  /** They differ from the output's file: it is never compared. */
  differs?: boolean;
  /** Their total size (a whole file): an output's file of another size is never read. */
  size?: number;
}

/**
 * A file of the run written as its bytes come (`stageOutput`): each piece is compared with the
 * output's file (`current`) at the same offset; from the first difference (at once when `known` says
 * it differs, by its word or by its size, or when there is no `current`) the staged file (`stage()`)
 * holds the equal bytes copied from `current` and every piece after them. At `close`, a `current` of
 * another size is stale too, and `settle` hears how the file compared; `release` closes what it holds
 * open, uncounted (a discarded run). Without `stage` (a check) nothing is written.
 */
function stagedWriter(
  current: string | undefined,
  stage: (() => string) | undefined,
  known: KnownBytes,
  settle: (state: 'same' | 'stale' | 'missing') => void,
): FileWriter & { release(): void } {
  const currentSize = current === undefined || known.differs ? undefined : statSync(current).size;
  // Taken once, when the writer opens: a whole file of another size differs without a read.
  const compared = currentSize !== undefined && (known.size === undefined || known.size === currentSize);
  let disk = compared ? openSync(current!, 'r') : undefined;
  let staged: number | undefined;
  let offset = 0;
  const release = () => {
    for (const fd of [disk, staged]) if (fd !== undefined) closeSync(fd);
    disk = staged = undefined;
  };
  /** From here on the file differs: `current` is no longer read, the staged file starts with its first `offset` bytes. */
  const diverge = () => {
    release();
    if (stage === undefined) return;
    const file = stage();
    if (offset > 0) copyFileSync(current!, file);
    staged = openSync(file, offset > 0 ? 'r+' : 'w');
    ftruncateSync(staged, offset);
  };
  if (disk === undefined) diverge();
  return {
    write(bytes) {
      if (disk !== undefined && !holdsAt(disk, offset, bytes)) diverge();
      if (staged !== undefined) writeSync(staged, bytes, 0, bytes.length, offset);
      offset += bytes.length;
    },
    close() {
      if (disk !== undefined && currentSize !== offset) diverge();
      const same = disk !== undefined;
      release();
      settle(current === undefined ? 'missing' : same ? 'same' : 'stale');
    },
    release,
  };
}

/** Whether the file open as `fd` holds `bytes` at `offset`. */
function holdsAt(fd: number, offset: number, bytes: Buffer): boolean {
  const read = Buffer.allocUnsafe(bytes.length);
  return readSync(fd, read, 0, bytes.length, offset) === bytes.length && read.equals(bytes);
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
