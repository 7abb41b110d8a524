import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import type { GeneratedFile } from '../../codegen/model.js';
import { recoverInterrupted, stageOutput } from '../../codegen/write.js';
import { createTempProject, REPO, type TempProject } from '../helpers/temp-project.js';

// Every read of a file goes through a spy, so a test can tell whether the writer read the output.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return { ...fs, readSync: vi.fn(fs.readSync) };
});

const quiet = (cwd: string) => ({ cwd, stdout: () => undefined, stderr: () => undefined });

/** Each test's own throwaway project. */
let project: TempProject;
beforeEach(() => {
  project = createTempProject();
});
afterEach(() => project.dispose());

/** Copies the repository's example definitions into the test's project (`schemas/`). */
const copyExampleSchemas = () =>
  cpSync(path.join(REPO, 'schemas'), path.join(project.root, 'schemas'), { recursive: true });

/** A run that made exactly `files` into `out` (compared with it only, under `compareOnly`). */
function writeAll(out: string, files: readonly GeneratedFile[], options: { compareOnly?: boolean } = {}) {
  const staging = stageOutput(out, options);
  for (const file of files) staging.put(file);
  return staging.commit();
}

describe('write', () => {
  it('applies a run’s changes, removes the files no longer generated, and writes nothing when nothing differs', () => {
    const out = path.join(project.root, 'generated');
    writeAll(out, [
      { path: 'a.ts', content: 'a\n', kind: 'generated' },
      { path: 'old/b.ts', content: 'b\n', kind: 'generated' },
    ]);
    const report = writeAll(out, [{ path: 'a.ts', content: 'a2\n', kind: 'generated' }]);
    expect(report.diff).toEqual({ stale: ['a.ts'], missing: [], extra: ['old/b.ts'], same: [] });
    expect(project.snapshot('generated')).toEqual({ 'a.ts': 'a2\n' });
    expect(readdirSync(project.root).filter((name) => name.includes('toolsmith-'))).toEqual([]);
    const again = writeAll(out, [{ path: 'a.ts', content: 'a2\n', kind: 'generated' }]);
    expect(again.replaced).toBe(false);
  });

  it('compares bytes: same size but other bytes is stale, also for big and non-ASCII files', () => {
    const out = path.join(project.root, 'generated');
    const big = `${'x'.repeat(100_000)} — é 😀\n`;
    const small = 'grüße\n';
    writeAll(out, [
      { path: 'big.json', content: big, kind: 'generated' },
      { path: 'small.md', content: small, kind: 'generated' },
    ]);
    const file = (p: string, content: string) => ({ path: p, content, kind: 'generated' as const });
    const compared = (files: GeneratedFile[]) => writeAll(out, files, { compareOnly: true }).diff;
    expect(compared([file('big.json', big), file('small.md', small)])).toEqual({
      stale: [],
      missing: [],
      extra: [],
      same: ['big.json', 'small.md'],
    });
    // Same length in UTF-16 and in UTF-8 bytes, one character different.
    const bigChanged = big.replace('é', 'è');
    const smallChanged = small.replace('ü', 'ö');
    expect(compared([file('big.json', bigChanged), file('small.md', smallChanged)])).toEqual({
      stale: ['big.json', 'small.md'],
      missing: [],
      extra: [],
      same: [],
    });
    const report = writeAll(out, [file('big.json', bigChanged), file('small.md', smallChanged)]);
    expect(report.diff.stale).toEqual(['big.json', 'small.md']);
    expect(project.snapshot('generated')).toEqual({ 'big.json': bigChanged, 'small.md': smallChanged });
  });

  it('creates a stub only when absent', () => {
    const stubs = path.join(project.root, 'stubs');
    const stub = { path: 'x.ts', content: 'stub\n', kind: 'stub' as const };
    const out = path.join(project.root, 'generated');
    expect(stageOutput(out, { stubsDir: stubs, compareOnly: true }).commit([stub]).stubs).toEqual(['x.ts']);
    expect(existsSync(path.join(stubs, 'x.ts'))).toBe(false);
    expect(stageOutput(out, { stubsDir: stubs }).commit([stub]).stubs).toEqual(['x.ts']);
    writeFileSync(path.join(stubs, 'x.ts'), 'mine\n');
    expect(stageOutput(out, { stubsDir: stubs }).commit([stub]).stubs).toEqual([]);
    expect(project.read('stubs/x.ts')).toBe('mine\n');
    expect(readdirSync(stubs)).toEqual(['x.ts']);
  });

  it('finishes a commit a run was killed in, and drops the staging of a run that never committed', () => {
    const out = path.join(project.root, 'generated');
    writeAll(out, [
      { path: 'a.ts', content: 'old\n', kind: 'generated' },
      { path: 'sub/gone.ts', content: 'gone\n', kind: 'generated' },
      { path: 'b.ts', content: 'b\n', kind: 'generated' },
    ]);
    // Killed after moving a.ts in: its record still lists it, and the extra file to remove.
    const staging = `${out}.toolsmith-new-123-1`;
    mkdirSync(path.join(staging, 'new'), { recursive: true });
    writeFileSync(path.join(staging, 'new/c.ts'), 'c\n');
    writeFileSync(path.join(out, 'a.ts'), 'new\n');
    const record = { staging, moved: ['a.ts', 'new/c.ts'], removed: ['sub/gone.ts'] };
    writeFileSync(`${staging}.commit.json`, JSON.stringify(record));
    // And a run that never committed: its staging goes, its files never reach the output.
    mkdirSync(`${out}.toolsmith-new-456-2`);
    writeFileSync(`${out}.toolsmith-new-456-2/b.ts`, 'half');
    recoverInterrupted(out);
    expect(project.snapshot('generated')).toEqual({ 'a.ts': 'new\n', 'b.ts': 'b\n', 'new/c.ts': 'c\n' });
    expect(readdirSync(project.root).filter((name) => name.includes('toolsmith-'))).toEqual([]);
  });

  it('a run killed at any moment leaves either the previous or the new complete output', async () => {
    copyExampleSchemas();
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
    expect(await main(['generate'], quiet(project.root))).toBe(0);
    const previous = project.snapshot('generated');
    // Change every tool's description so the next run rewrites every file.
    for (const file of readdirSync(path.join(project.root, 'schemas'), { recursive: true }) as string[]) {
      if (!file.endsWith('.tool.json')) continue;
      const full = path.join(project.root, 'schemas', file);
      const definition = JSON.parse(project.read(`schemas/${file}`));
      definition.description += ' Changed.';
      writeFileSync(full, JSON.stringify(definition));
    }
    const outcomes = new Set<string>();
    for (const delay of [300, 900, 1500, 2100, 2700, 3300]) {
      const child = spawn(process.execPath, [path.join(REPO, 'bin/toolsmith.js'), 'generate'], {
        cwd: project.root,
        stdio: 'ignore',
      });
      // Listen before the delay: a run that finishes first must not leave us waiting for an exit that already happened.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await exited;
      recoverInterrupted(path.join(project.root, 'generated'));
      const now = project.snapshot('generated');
      const same = JSON.stringify(now) === JSON.stringify(previous);
      if (!same) {
        // If it changed, it must be the complete new tree: a check now passes.
        expect(await main(['check'], quiet(project.root))).toBe(0);
        outcomes.add('new');
        // Put the previous tree back for the next attempt.
        const out = path.join(project.root, 'generated');
        writeAll(
          out,
          Object.entries(previous).map(([file, content]) => ({ path: file, content, kind: 'generated' as const })),
        );
      } else outcomes.add('old');
      expect(existsSync(path.join(project.root, 'generated'))).toBe(true);
    }
    expect(outcomes.has('old')).toBe(true);
    expect(await main(['generate'], quiet(project.root))).toBe(0);
    expect(await main(['check'], quiet(project.root))).toBe(0);
  }, 120_000);
});

describe('same bytes every time', () => {
  it('generating twice, from another folder, or with files created in another order gives identical bytes', async () => {
    copyExampleSchemas();
    const first = project;
    const second = createTempProject();
    onTestFinished(() => second.dispose());
    // The second project gets the same files created in reverse order, under a different root name.
    const files = Object.entries(first.snapshot('schemas')).reverse();
    for (const [file, content] of files) second.write(`schemas/${file}`, content);
    // Both temp roots sit side by side, so the same relative runtime import works for both.
    for (const each of [first, second]) each.write('toolsmith.config.json', { runtimeImport: first.runtimeImport });
    expect(await main(['generate'], quiet(first.root))).toBe(0);
    const once = first.snapshot('generated');
    expect(await main(['generate', '--out', 'generated-2'], quiet(first.root))).toBe(0);
    expect(first.snapshot('generated-2')).toEqual(once);
    expect(await main(['generate'], quiet(second.root))).toBe(0);
    expect(second.snapshot('generated')).toEqual(once);
    expect(Object.values(once).some((content) => content.includes(first.root) || content.includes('\r'))).toBe(false);
  }, 120_000);
});

describe('a file given as chunks (a spliced manifest)', () => {
  it('is written piece by piece as the joined bytes, and counts as unchanged when the disk holds them', () => {
    const out = path.join(project.root, 'out');
    const chunks = [Buffer.from('{"tools": ['), Buffer.from('"a", "é"'), Buffer.from(']}\n')];
    const file = { path: 'manifests/m.json', kind: 'generated' as const, content: '', chunks };
    expect(writeAll(out, [file]).replaced).toBe(true);
    expect(readFileSync(path.join(out, 'manifests/m.json'))).toEqual(Buffer.concat(chunks));
    // The same bytes in other pieces: nothing to write.
    const again = stageOutput(out);
    again.put({ ...file, chunks: [Buffer.from('{"tools": ["a"'), Buffer.from(', "é"]}\n')] });
    expect(again.commit()).toMatchObject({ replaced: false, diff: { same: ['manifests/m.json'], stale: [] } });
    // One byte changed at the same size: rewritten.
    const changed = stageOutput(out);
    changed.put({ ...file, chunks: [Buffer.from('{"tools": ["b", "é"]}\n')] });
    expect(changed.commit()).toMatchObject({ replaced: true, diff: { stale: ['manifests/m.json'] } });
    expect(readFileSync(path.join(out, 'manifests/m.json'), 'utf8')).toBe('{"tools": ["b", "é"]}\n');
    // What the producer knows of the disk is taken as it is: neither read nor compared.
    const trusted = stageOutput(out);
    trusted.put({ ...file, chunks: [Buffer.from('never compared')], onDisk: 'same' });
    expect(trusted.commit()).toMatchObject({ replaced: false, diff: { same: ['manifests/m.json'] } });
    const told = stageOutput(out);
    told.put({ ...file, chunks: [Buffer.from('{"tools": ["b", "é"]}\n')], onDisk: 'differs' });
    expect(told.commit()).toMatchObject({ replaced: true, diff: { stale: ['manifests/m.json'] } });
  });
});

describe('the staging of a run’s changes', () => {
  const file = (relPath: string, content: string) => ({ path: relPath, content, kind: 'generated' as const });
  const stagingTrees = (root: string) => readdirSync(root).filter((name) => name.startsWith('out.toolsmith-new-'));

  it('writes nothing while every file is unchanged, then stages only what differs; what it did not write keeps its inode', () => {
    const out = path.join(project.root, 'out');
    writeAll(out, [file('a.ts', 'a\n'), file('b.ts', 'b\n'), file('sub/c.ts', 'c\n')]);
    const inode = (relPath: string) => statSync(path.join(out, relPath)).ino;
    const before = { a: inode('a.ts'), b: inode('b.ts'), c: inode('sub/c.ts') };
    const staging = stageOutput(out);
    staging.put(file('a.ts', 'a\n'));
    staging.keep('b.ts');
    expect(stagingTrees(project.root)).toEqual([]);

    staging.put(file('sub/c.ts', 'changed\n'));
    const [tree] = stagingTrees(project.root);
    expect(tree).toBeDefined();
    // Only the changed file is staged; the output is as it was until the commit.
    expect(Object.keys(project.snapshot(tree!))).toEqual(['sub/c.ts']);
    expect(readFileSync(path.join(out, 'sub/c.ts'), 'utf8')).toBe('c\n');
    expect(staging.commit()).toMatchObject({ replaced: true, diff: { same: ['a.ts', 'b.ts'], stale: ['sub/c.ts'] } });
    expect(readFileSync(path.join(out, 'sub/c.ts'), 'utf8')).toBe('changed\n');
    expect([inode('a.ts'), inode('b.ts')]).toEqual([before.a, before.b]);
    expect(inode('sub/c.ts')).not.toBe(before.c);
    expect(readdirSync(project.root).filter((name) => name.includes('toolsmith-'))).toEqual([]);
  });

  it('reads nothing of an output file whose size differs from that of a whole new file, and compares one of the same size', () => {
    const out = path.join(project.root, 'out');
    const content = 'x'.repeat(10_000);
    writeAll(out, [file('m.json', content)]);
    const reads = vi.mocked(readSync);
    reads.mockClear();
    expect(writeAll(out, [file('m.json', `${content}\n`)]).diff.stale).toEqual(['m.json']);
    expect(reads).not.toHaveBeenCalled();
    expect(writeAll(out, [file('m.json', `${content}!`)]).diff.stale).toEqual(['m.json']);
    expect(reads).toHaveBeenCalled();
    expect(project.snapshot('out')).toEqual({ 'm.json': `${content}!` });
  });

  it('under compareOnly never starts the tree, whatever differs, and commit only reports', () => {
    const out = path.join(project.root, 'out');
    writeAll(out, [file('a.ts', 'a\n'), file('gone.ts', 'x\n')]);
    const staging = stageOutput(out, { compareOnly: true });
    staging.put(file('a.ts', 'other\n'));
    staging.put(file('new.ts', 'n\n'));
    expect(stagingTrees(project.root)).toEqual([]);
    expect(staging.commit()).toMatchObject({
      replaced: false,
      diff: { stale: ['a.ts'], missing: ['new.ts'], extra: ['gone.ts'] },
    });
    expect(stagingTrees(project.root)).toEqual([]);
    expect(readFileSync(path.join(out, 'a.ts'), 'utf8')).toBe('a\n');
  });

  it('discarded, leaves the output as it was and nothing beside it', () => {
    const out = path.join(project.root, 'out');
    writeAll(out, [file('a.ts', 'a\n')]);
    const staging = stageOutput(out);
    staging.put(file('a.ts', 'changed\n'));
    expect(stagingTrees(project.root)).toHaveLength(1);
    staging.discard();
    expect(stagingTrees(project.root)).toEqual([]);
    expect(project.snapshot('out')).toEqual({ 'a.ts': 'a\n' });
  });
});

describe('a file written as it is made (`open`)', () => {
  const stagingTrees = (root: string) => readdirSync(root).filter((name) => name.startsWith('out.toolsmith-new-'));
  const original = 'head,part-one,part-two,tail\n';
  /** An output holding `m.json` as `original`, and a staging of it. */
  const setUp = (root: string, options: { compareOnly?: boolean } = {}) => {
    const out = path.join(root, 'out');
    writeAll(out, [{ path: 'm.json', content: original, kind: 'generated' }]);
    return { out, staging: stageOutput(out, options) };
  };
  /** Writes `pieces` to `m.json` through `open`, then closes it. */
  const writePieces = (staging: ReturnType<typeof stageOutput>, pieces: string[], relPath = 'm.json') => {
    const writer = staging.open(relPath);
    for (const piece of pieces) writer.write(Buffer.from(piece));
    writer.close();
  };

  it('with the same bytes in other pieces, counts the file the same and creates nothing', () => {
    const { staging } = setUp(project.root);
    writePieces(staging, ['he', 'ad,part-one,', 'part-two', ',tail\n']);
    expect(stagingTrees(project.root)).toEqual([]);
    expect(staging.commit()).toMatchObject({ replaced: false, diff: { same: ['m.json'], stale: [], missing: [] } });
  });

  it('stages from the first difference: the equal bytes copied, then every piece; the output untouched until the commit', () => {
    const { out, staging } = setUp(project.root);
    const writer = staging.open('m.json');
    writer.write(Buffer.from('head,'));
    writer.write(Buffer.from('part-one,'));
    expect(stagingTrees(project.root)).toEqual([]);
    writer.write(Buffer.from('part-ONE-é,'));
    const [tree] = stagingTrees(project.root);
    expect(project.snapshot(tree!)).toEqual({ 'm.json': 'head,part-one,part-ONE-é,' });
    writer.write(Buffer.from('tail\n'));
    writer.close();
    expect(readFileSync(path.join(out, 'm.json'), 'utf8')).toBe(original);
    expect(staging.commit()).toMatchObject({ replaced: true, diff: { stale: ['m.json'], same: [] } });
    expect(project.snapshot('out')).toEqual({ 'm.json': 'head,part-one,part-ONE-é,tail\n' });
  });

  it('counts a file that is the output’s with bytes cut off or added as stale, with exactly its bytes', () => {
    for (const content of [original.slice(0, 14), `${original}more\n`, '']) {
      const { out, staging } = setUp(project.root);
      writePieces(staging, [content.slice(0, 5), content.slice(5)]);
      expect(staging.commit().diff, JSON.stringify(content)).toMatchObject({ stale: ['m.json'], same: [] });
      expect(readFileSync(path.join(out, 'm.json'), 'utf8')).toBe(content);
    }
  });

  it('counts a file the output lacks as missing and writes it; under compareOnly writes nothing at all', () => {
    const { out, staging } = setUp(project.root);
    writePieces(staging, [original], 'm.json');
    writePieces(staging, ['new ', 'file\n'], 'sub/new.json');
    expect(staging.commit()).toMatchObject({ diff: { same: ['m.json'], missing: ['sub/new.json'] } });
    expect(readFileSync(path.join(out, 'sub/new.json'), 'utf8')).toBe('new file\n');

    const check = stageOutput(out, { compareOnly: true });
    writePieces(check, ['head,part-one,', 'changed\n'], 'm.json');
    writePieces(check, ['other\n'], 'sub/new.json');
    writePieces(check, ['absent\n'], 'absent.json');
    expect(stagingTrees(project.root)).toEqual([]);
    expect(check.commit()).toMatchObject({
      replaced: false,
      diff: { stale: ['m.json', 'sub/new.json'], missing: ['absent.json'], same: [] },
    });
    expect(project.snapshot('out')).toEqual({ 'm.json': original, 'sub/new.json': 'new file\n' });
  });

  it.skipIf(!existsSync('/proc/self/fd'))(
    'discarded with files still open, closes them and leaves the output as it was',
    () => {
      const { staging } = setUp(project.root);
      const openFiles = () => readdirSync('/proc/self/fd').length;
      const before = openFiles();
      // One still compared with the output's file, one staged from its first difference.
      staging.open('m.json').write(Buffer.from('head,'));
      staging.open('other.json').write(Buffer.from('x'));
      expect(openFiles()).toBe(before + 2);
      staging.discard();
      expect(openFiles()).toBe(before);
      expect(stagingTrees(project.root)).toEqual([]);
      expect(project.snapshot('out')).toEqual({ 'm.json': original });
    },
  );
});
