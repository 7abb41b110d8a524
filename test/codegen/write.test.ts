import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { diffOutput, recoverInterrupted, StagedOutput, stageOutput, writeOutput } from '../../codegen/write.js';
import { createTempProject, REPO } from '../helpers/temp-project.js';

const quiet = (cwd: string) => ({ cwd, stdout: () => undefined, stderr: () => undefined });

describe('write', () => {
  it('replaces the output folder as a whole and removes files no longer generated', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'generated');
      writeOutput(
        out,
        [
          { path: 'a.ts', content: 'a\n', kind: 'generated' },
          { path: 'old/b.ts', content: 'b\n', kind: 'generated' },
        ],
        path.join(project.root, 'stubs'),
        [],
      );
      const report = writeOutput(
        out,
        [{ path: 'a.ts', content: 'a2\n', kind: 'generated' }],
        path.join(project.root, 'stubs'),
        [],
      );
      expect(report.diff).toEqual({ stale: ['a.ts'], missing: [], extra: ['old/b.ts'], same: [] });
      expect(project.snapshot('generated')).toEqual({ 'a.ts': 'a2\n' });
      const again = writeOutput(
        out,
        [{ path: 'a.ts', content: 'a2\n', kind: 'generated' }],
        path.join(project.root, 'stubs'),
        [],
      );
      expect(again.replaced).toBe(false);
    } finally {
      project.dispose();
    }
  });

  it('with removeInBackground, publishes the new tree at once and removes the old one by the time `removed` settles', async () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'generated');
      const many = Array.from({ length: 200 }, (_, index) => ({
        path: `old/f${index}.ts`,
        content: `${index}\n`,
        kind: 'generated' as const,
      }));
      await writeOutput(out, many, path.join(project.root, 'stubs'), [], { removeInBackground: true }).removed;
      const report = writeOutput(
        out,
        [{ path: 'a.ts', content: 'new\n', kind: 'generated' }],
        path.join(project.root, 'stubs'),
        [],
        { removeInBackground: true },
      );
      expect(report.replaced).toBe(true);
      expect(project.snapshot('generated')).toEqual({ 'a.ts': 'new\n' });
      // Still there: its removal goes on while the caller works (fs.promises.rm needs the event loop to turn).
      expect(readdirSync(project.root).filter((name) => name.startsWith('generated.toolsmith-old-'))).toHaveLength(1);
      await report.removed;
      expect(readdirSync(project.root).filter((name) => name.includes('toolsmith-'))).toEqual([]);
    } finally {
      project.dispose();
    }
  });

  it('diffOutput compares bytes: same size but other bytes is stale, also for big and non-ASCII files', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'generated');
      const big = `${'x'.repeat(100_000)} — é 😀\n`;
      const small = 'grüße\n';
      writeOutput(
        out,
        [
          { path: 'big.json', content: big, kind: 'generated' },
          { path: 'small.md', content: small, kind: 'generated' },
        ],
        path.join(project.root, 'stubs'),
        [],
      );
      const file = (p: string, content: string) => ({ path: p, content, kind: 'generated' as const });
      expect(diffOutput(out, [file('big.json', big), file('small.md', small)])).toEqual({
        stale: [],
        missing: [],
        extra: [],
        same: ['big.json', 'small.md'],
      });
      // Same length in UTF-16 and in UTF-8 bytes, one character different.
      const bigChanged = big.replace('é', 'è');
      const smallChanged = small.replace('ü', 'ö');
      expect(diffOutput(out, [file('big.json', bigChanged), file('small.md', smallChanged)])).toEqual({
        stale: ['big.json', 'small.md'],
        missing: [],
        extra: [],
        same: [],
      });
      const report = writeOutput(
        out,
        [file('big.json', bigChanged), file('small.md', smallChanged)],
        path.join(project.root, 'stubs'),
        [],
      );
      expect(report.diff.stale).toEqual(['big.json', 'small.md']);
      expect(project.snapshot('generated')).toEqual({ 'big.json': bigChanged, 'small.md': smallChanged });
    } finally {
      project.dispose();
    }
  });

  it('creates a stub only when absent', () => {
    const project = createTempProject();
    try {
      const stubs = path.join(project.root, 'stubs');
      const first = writeOutput(path.join(project.root, 'generated'), [], stubs, [
        { path: 'x.ts', content: 'stub\n', kind: 'stub' },
      ]);
      expect(first.stubsCreated).toEqual(['x.ts']);
      writeFileSync(path.join(stubs, 'x.ts'), 'mine\n');
      const second = writeOutput(path.join(project.root, 'generated'), [], stubs, [
        { path: 'x.ts', content: 'stub\n', kind: 'stub' },
      ]);
      expect(second.stubsCreated).toEqual([]);
      expect(project.read('stubs/x.ts')).toBe('mine\n');
      expect(readdirSync(stubs)).toEqual(['x.ts']);
    } finally {
      project.dispose();
    }
  });

  it('recovers the previous output when a run died between the two renames of its swap', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'generated');
      writeOutput(out, [{ path: 'a.ts', content: 'old\n', kind: 'generated' }], path.join(project.root, 'stubs'), []);
      renameSync(out, `${out}.toolsmith-old-123-1`);
      mkdirSync(`${out}.toolsmith-new-123-1`);
      writeFileSync(`${out}.toolsmith-new-123-1/half.ts`, 'half');
      recoverInterrupted(out);
      expect(project.snapshot('generated')).toEqual({ 'a.ts': 'old\n' });
      expect(readdirSync(project.root).filter((name) => name.includes('toolsmith-'))).toEqual([]);
    } finally {
      project.dispose();
    }
  });

  it('a run killed at any moment leaves either the previous or the new complete output', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
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
          writeOutput(
            out,
            Object.entries(previous).map(([file, content]) => ({ path: file, content, kind: 'generated' as const })),
            path.join(project.root, 'src/tools'),
            [],
          );
        } else outcomes.add('old');
        expect(existsSync(path.join(project.root, 'generated'))).toBe(true);
      }
      expect(outcomes.has('old')).toBe(true);
      expect(await main(['generate'], quiet(project.root))).toBe(0);
      expect(await main(['check'], quiet(project.root))).toBe(0);
    } finally {
      project.dispose();
    }
  }, 120_000);
});

describe('same bytes every time', () => {
  it('generating twice, from another folder, or with files created in another order gives identical bytes', async () => {
    const first = createTempProject({ schemas: 'schemas' });
    const second = createTempProject();
    try {
      // The second project gets the same files created in reverse order, under a different root name.
      const files = Object.entries(first.snapshot('schemas')).reverse();
      for (const [file, content] of files) second.write(`schemas/${file}`, content);
      // Both temp roots sit side by side, so the same relative runtime import works for both.
      for (const project of [first, second])
        project.write('toolsmith.config.json', { runtimeImport: first.runtimeImport });
      expect(await main(['generate'], quiet(first.root))).toBe(0);
      const once = first.snapshot('generated');
      expect(await main(['generate', '--out', 'generated-2'], quiet(first.root))).toBe(0);
      expect(first.snapshot('generated-2')).toEqual(once);
      expect(await main(['generate'], quiet(second.root))).toBe(0);
      expect(second.snapshot('generated')).toEqual(once);
      expect(Object.values(once).some((content) => content.includes(first.root) || content.includes('\r'))).toBe(false);
    } finally {
      first.dispose();
      second.dispose();
    }
  }, 120_000);
});

describe('a file given as chunks (a spliced manifest)', () => {
  it('is written piece by piece as the joined bytes, and counts as unchanged when the disk holds them', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'out');
      const chunks = [Buffer.from('{"tools": ['), Buffer.from('"a", "é"'), Buffer.from(']}\n')];
      const file = { path: 'manifests/m.json', kind: 'generated' as const, content: '', chunks };
      const first = stageOutput(out);
      expect(first.put(file)).toBe(chunks);
      expect(first.commit().replaced).toBe(true);
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
    } finally {
      project.dispose();
    }
  });
});

describe('StagedOutput: the new tree is started at the first difference', () => {
  const file = (relPath: string, content: string) => ({ path: relPath, content, kind: 'generated' as const });

  it('writes nothing while every file is unchanged; at the first difference links the unchanged files seen so far', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'out');
      writeOutput(out, [file('a.ts', 'a\n'), file('b.ts', 'b\n'), file('sub/c.ts', 'c\n')], project.root, []);
      const staging = new StagedOutput(out);
      staging.put(file('a.ts', 'a\n'));
      staging.keep('b.ts');
      expect(staging.started).toBe(false);
      expect(existsSync(staging.stagingDir)).toBe(false);
      expect(staging.diff).toMatchObject({ same: ['a.ts', 'b.ts'], stale: [], missing: [] });

      staging.put(file('sub/c.ts', 'changed\n'));
      expect(staging.started).toBe(true);
      // The unchanged files are the output's own (hard links), the changed one a new file.
      for (const relPath of ['a.ts', 'b.ts'])
        expect(statSync(path.join(staging.stagingDir, relPath)).ino).toBe(statSync(path.join(out, relPath)).ino);
      expect(statSync(path.join(staging.stagingDir, 'sub/c.ts')).ino).not.toBe(
        statSync(path.join(out, 'sub/c.ts')).ino,
      );
      expect(readFileSync(path.join(out, 'sub/c.ts'), 'utf8')).toBe('c\n');
      expect(staging.diff.stale).toEqual(['sub/c.ts']);
      staging.commit();
      expect(readFileSync(path.join(out, 'sub/c.ts'), 'utf8')).toBe('changed\n');
    } finally {
      project.dispose();
    }
  });

  it('under compareOnly never starts the tree, whatever differs, and commit only reports', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'out');
      writeOutput(out, [file('a.ts', 'a\n'), file('gone.ts', 'x\n')], project.root, []);
      const staging = new StagedOutput(out, { compareOnly: true });
      staging.put(file('a.ts', 'other\n'));
      staging.put(file('new.ts', 'n\n'));
      expect(staging.started).toBe(false);
      expect(staging.commit()).toMatchObject({
        replaced: false,
        diff: { stale: ['a.ts'], missing: ['new.ts'], extra: ['gone.ts'] },
      });
      expect(existsSync(staging.stagingDir)).toBe(false);
      expect(readFileSync(path.join(out, 'a.ts'), 'utf8')).toBe('a\n');
    } finally {
      project.dispose();
    }
  });
});

describe('a file staged piece by piece (an assembled manifest)', () => {
  const streamed = (staging: ReturnType<typeof stageOutput>, relPath: string, chunks: readonly Buffer[]) => {
    const stream = staging.stream(relPath);
    for (const chunk of chunks) stream.write(chunk);
    stream.close();
  };
  const stagingTrees = (root: string) => readdirSync(root).filter((name) => name.includes('.toolsmith-'));

  it('writes nothing while the pieces agree with the file on disk, and the new bytes from the first difference on', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'out');
      // Past 1 MB, so the agreeing prefix is copied in more than one block.
      const big = Buffer.alloc(2_500_000, 'a');
      const original = Buffer.concat([big, Buffer.from('-é-tail\n')]);
      const first = stageOutput(out);
      streamed(first, 'm.json', [original.subarray(0, 10), original.subarray(10)]);
      expect(first.commit()).toMatchObject({ replaced: true, diff: { missing: ['m.json'] } });
      expect(readFileSync(path.join(out, 'm.json')).equals(original)).toBe(true);
      // The same bytes in other pieces: same, and no staging tree was ever made.
      const same = stageOutput(out);
      streamed(same, 'm.json', [original.subarray(0, 1_500_001), original.subarray(1_500_001)]);
      expect(stagingTrees(project.root)).toEqual([]);
      expect(same.commit()).toMatchObject({ replaced: false, diff: { same: ['m.json'], stale: [] } });
      // Each way of differing, with the bytes on disk after the swap.
      const variants: [string, Buffer[]][] = [
        [
          'a byte inside a later piece',
          [big.subarray(0, 7), Buffer.concat([big.subarray(7), Buffer.from('-e-tail\n')])],
        ],
        ['shorter (the disk has more)', [big, Buffer.from('-é-')]],
        ['longer', [original, Buffer.from('more\n')]],
        ['different at the first byte', [Buffer.from('b'), original.subarray(1)]],
      ];
      for (const [label, chunks] of variants) {
        const staging = stageOutput(out);
        streamed(staging, 'm.json', chunks);
        expect(staging.commit().diff.stale, label).toEqual(['m.json']);
        expect(readFileSync(path.join(out, 'm.json')).equals(Buffer.concat(chunks)), label).toBe(true);
        const back = stageOutput(out);
        streamed(back, 'm.json', [original]);
        back.commit();
      }
    } finally {
      project.dispose();
    }
  });

  it('compares only under compareOnly, and leaves nothing behind when discarded mid-file', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'out');
      const first = stageOutput(out);
      streamed(first, 'm.json', [Buffer.from('[1, 2, 3]\n')]);
      first.commit();
      const check = stageOutput(out, { compareOnly: true });
      streamed(check, 'm.json', [Buffer.from('[1, 2, '), Buffer.from('4]\n')]);
      streamed(check, 'new.json', [Buffer.from('{}\n')]);
      expect(check.commit().diff).toMatchObject({ stale: ['m.json'], missing: ['new.json'] });
      expect(stagingTrees(project.root)).toEqual([]);
      expect(readFileSync(path.join(out, 'm.json'), 'utf8')).toBe('[1, 2, 3]\n');
      // A run that stops with a file half streamed (its staged copy open): discarded, nothing left.
      const stopped = stageOutput(out);
      const open = stopped.stream('m.json');
      open.write(Buffer.from('[9'));
      expect(stagingTrees(project.root)).toHaveLength(1);
      stopped.discard();
      expect(stagingTrees(project.root)).toEqual([]);
      expect(readFileSync(path.join(out, 'm.json'), 'utf8')).toBe('[1, 2, 3]\n');
    } finally {
      project.dispose();
    }
  });
});

describe('a spare tree (the tree the last commit replaced, kept for the next run)', () => {
  const file = (relPath: string, content: string) => ({ path: relPath, content, kind: 'generated' as const });
  const inode = (full: string) => statSync(full).ino;

  it('is the next staging’s start: only what it records is linked again, no file is written through a link, the output is exact', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'out');
      const spare = path.join(project.root, 'cache', 'out.spare');
      writeOutput(
        out,
        [file('a.txt', '1'), file('b/c.txt', '2'), file('d.txt', '3')],
        path.join(project.root, 's'),
        [],
      );
      const kept = inode(path.join(out, 'a.txt'));
      // Run 1: b/c changes, d goes, e comes; the replaced tree becomes the spare, with what differs.
      const first = stageOutput(out, { spare });
      first.keep('a.txt');
      first.put(file('b/c.txt', '2x'));
      first.put(file('e.txt', '5'));
      first.commit();
      expect(project.snapshot('out')).toEqual({ 'a.txt': '1', 'b/c.txt': '2x', 'e.txt': '5' });
      expect(JSON.parse(readFileSync(`${spare}.json`, 'utf8')).differs.sort()).toEqual(['b/c.txt', 'd.txt', 'e.txt']);
      // What changed is not kept in the spare (it takes no room of its own): the rest is the output's files.
      expect(existsSync(path.join(spare, 'd.txt'))).toBe(false);
      expect(existsSync(path.join(spare, 'b/c.txt'))).toBe(false);
      expect(inode(path.join(spare, 'a.txt'))).toBe(kept);
      // Run 2, from the spare: b/c rewritten (the output's copy untouched until the swap), f new.
      const second = stageOutput(out, { spare });
      second.keep('a.txt');
      second.put(file('b/c.txt', '2y'));
      second.put(file('e.txt', '5'));
      second.put(file('f/g.txt', '6'));
      expect(existsSync(spare)).toBe(false);
      expect(readFileSync(path.join(out, 'b/c.txt'), 'utf8')).toBe('2x');
      second.commit();
      expect(project.snapshot('out')).toEqual({ 'a.txt': '1', 'b/c.txt': '2y', 'e.txt': '5', 'f/g.txt': '6' });
      expect(inode(path.join(out, 'a.txt'))).toBe(kept);
      // The output's e.txt replaced by another file (a branch checked out) whose bytes are what the run
      // makes: the spare's e.txt is another file, so it is linked anew, not published as it was.
      rmSync(path.join(out, 'e.txt'));
      writeFileSync(path.join(out, 'e.txt'), 'E');
      const third = stageOutput(out, { spare });
      for (const kept of ['a.txt', 'b/c.txt']) third.keep(kept);
      third.put(file('e.txt', 'E'));
      third.put(file('f/g.txt', '7'));
      third.commit();
      expect(project.snapshot('out')).toEqual({ 'a.txt': '1', 'b/c.txt': '2y', 'e.txt': 'E', 'f/g.txt': '7' });
      // A file the run no longer makes goes, with the folder it leaves empty.
      const fourth = stageOutput(out, { spare });
      for (const kept of ['a.txt', 'b/c.txt', 'e.txt']) fourth.keep(kept);
      fourth.commit();
      expect(project.snapshot('out')).toEqual({ 'a.txt': '1', 'b/c.txt': '2y', 'e.txt': 'E' });
      expect(existsSync(path.join(out, 'f'))).toBe(false);
      expect(readdirSync(project.root).filter((name) => name.includes('.toolsmith-'))).toEqual([]);
    } finally {
      project.dispose();
    }
  });

  it('is not used for an output another writer replaced, nor left half-used by a run that stops', () => {
    const project = createTempProject();
    try {
      const out = path.join(project.root, 'out');
      const spare = path.join(project.root, 'cache', 'out.spare');
      writeOutput(out, [file('a.txt', '1'), file('b.txt', '2')], path.join(project.root, 's'), []);
      const first = stageOutput(out, { spare });
      first.put(file('a.txt', '1x'));
      first.put(file('b.txt', '2'));
      first.commit();
      expect(existsSync(spare)).toBe(true);
      // Another writer swaps the folder in: the spare belongs to the output it replaced.
      writeOutput(out, [file('a.txt', 'other'), file('b.txt', 'other')], path.join(project.root, 's'), []);
      const second = stageOutput(out, { spare });
      expect(existsSync(spare)).toBe(false);
      second.put(file('a.txt', '1y'));
      second.keep('b.txt');
      second.commit();
      expect(project.snapshot('out')).toEqual({ 'a.txt': '1y', 'b.txt': 'other' });
      // A run that starts from the spare and stops: the output as it was, the spare gone, nothing left.
      const stopped = stageOutput(out, { spare });
      stopped.put(file('a.txt', 'never'));
      stopped.discard();
      expect(project.snapshot('out')).toEqual({ 'a.txt': '1y', 'b.txt': 'other' });
      expect(existsSync(spare)).toBe(false);
      expect(readdirSync(project.root).filter((name) => name.includes('.toolsmith-'))).toEqual([]);
    } finally {
      project.dispose();
    }
  });
});
