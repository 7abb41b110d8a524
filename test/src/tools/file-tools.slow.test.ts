import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListDirectoryEntry, ListDirectoryOutput } from '../../../generated/types/list-directory.js';
import { ToolOrchestrator } from '../../../src/index.js';
import { openRegularFileInside } from '../../../src/tools/confine.js';
import { ListDirectoryTool } from '../../../src/tools/list-directory.js';
import { ReadFileTool } from '../../../src/tools/read-file.js';

let dir: string;
let files: string;
let outside: string;
const fifos: string[] = [];

beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'toolsmith-files-')));
  files = path.join(dir, 'files');
  outside = path.join(dir, 'outside');
  mkdirSync(path.join(files, 'notes'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(files, 'notes/todo.md'), '- ship it\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'SECRET');
  for (let i = 0; i < 4; i++) {
    const fifo = path.join(files, `pipe-${i}`);
    execFileSync('mkfifo', [fifo]);
    fifos.push(fifo);
  }
  symlinkSync('pipe-0', path.join(files, 'link-to-pipe'));
  symlinkSync(outside, path.join(files, 'outside-folder'));
});

afterAll(() => {
  // A read still blocked in open() on a FIFO (the defect these tests catch) is released by a writer.
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waiting.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

function orchestrator(root = files) {
  return new ToolOrchestrator({ tools: [new ReadFileTool({ root }), new ListDirectoryTool({ root })] });
}

function call(o: ToolOrchestrator, name: string, args: Record<string, unknown>) {
  return o.processToolCall({
    toolCallRequest: { id: `t-${name}`, name, arguments: args },
    gmiId: 'g',
    personaId: 'p',
    personaCapabilities: ['capability:filesystem:read'],
    userContext: { userId: 'u' },
  });
}

/** `promise`, or the text `wedged` when it has not settled within `ms` (a hang shows as a failed assertion, not a stuck run). */
function orWedged<T>(promise: Promise<T>, ms = 10_000): Promise<T | 'wedged'> {
  return Promise.race([promise, sleep(ms).then(() => 'wedged' as const)]);
}

describe('read_file opens only regular files under the root', () => {
  it('answers four concurrent FIFO reads with a clear error, and a normal read afterwards still works', async () => {
    const o = orchestrator();
    const results = await orWedged(
      Promise.all(fifos.map((fifo) => call(o, 'read_file', { path: path.basename(fifo) }))),
    );
    expect(results).not.toBe('wedged');
    for (const result of results as Awaited<ReturnType<typeof call>>[]) {
      expect(result.errorDetails?.code).toBe('TOOL_FAILED');
      expect(result.errorDetails?.message).toMatch(
        /"pipe-\d" is a named pipe \(FIFO\), not a regular file: only regular files are read/,
      );
    }
    // With four libuv threads blocked in open(), this read (and all file I/O of the process) would never finish.
    const normal = await orWedged(call(o, 'read_file', { path: 'notes/todo.md' }));
    expect(normal).toMatchObject({
      isError: false,
      output: { path: 'notes/todo.md', content: '- ship it\n', size: 10, truncated: false },
    });
  });

  it('refuses a FIFO reached through a symbolic link, and a folder', async () => {
    const o = orchestrator();
    expect(await orWedged(call(o, 'read_file', { path: 'link-to-pipe' }))).toMatchObject({
      errorDetails: { message: expect.stringMatching(/is a named pipe \(FIFO\)/) },
    });
    expect((await call(o, 'read_file', { path: 'notes' })).errorDetails?.message).toMatch(
      /"notes" is a folder, not a regular file/,
    );
  });

  it('refuses a path through a symbolic link to a folder outside the root', async () => {
    const result = await call(orchestrator(), 'read_file', { path: 'outside-folder/secret.txt' });
    expect(result.errorDetails?.code).toBe('TOOL_FAILED');
    expect(result.errorDetails?.message).toMatch(/resolves outside the root folder/);
    expect(JSON.stringify(result)).not.toContain('SECRET');
  });

  it('checks the opened descriptor: a path whose folder became a link outside after the check is refused', async () => {
    // What a swap between the check and the open leaves: a checked path that now runs through a link.
    const swapped = await openRegularFileInside(
      files,
      path.join(files, 'outside-folder', 'secret.txt'),
      'notes/secret.txt',
    );
    expect(swapped).toEqual({
      ok: false,
      reason:
        '"notes/secret.txt" resolves outside the root folder (a path component was swapped for a symbolic link): refused',
    });
    const lastIsLink = await openRegularFileInside(files, path.join(files, 'link-to-pipe'), 'notes/pipe');
    expect(lastIsLink).toMatchObject({
      ok: false,
      code: 'ELOOP',
      reason: '"notes/pipe" became a symbolic link while it was being opened: refused',
    });
    const inside = await openRegularFileInside(files, path.join(files, 'notes', 'todo.md'), 'notes/todo.md');
    expect(inside.ok).toBe(true);
    if (inside.ok) {
      expect(inside.stats.size).toBe(10);
      await inside.handle.close();
    }
  });

  it('never reads outside the root while another process swaps a folder for a link outside', async () => {
    const swapRoot = path.join(dir, 'swap-root');
    mkdirSync(path.join(swapRoot, 'folder'), { recursive: true });
    writeFileSync(path.join(swapRoot, 'folder', 'secret.txt'), 'inside');
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); const [folder, target] = process.argv.slice(1);
         const end = Date.now() + 20000;
         process.stdout.write('swapping\\n');
         while (Date.now() < end) { fs.renameSync(folder, folder + '.real'); fs.symlinkSync(target, folder); fs.unlinkSync(folder); fs.renameSync(folder + '.real', folder); }`,
        path.join(swapRoot, 'folder'),
        outside,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      await new Promise((resolve) => swapper.stdout!.once('data', resolve));
      const o = orchestrator(swapRoot);
      const contents = new Map<string, number>();
      for (let i = 0; i < 2000 && !contents.has('SECRET'); i++) {
        const result = await call(o, 'read_file', { path: 'folder/secret.txt' });
        const seen = result.isError ? 'refused' : String((result.output as { content: string }).content);
        contents.set(seen, (contents.get(seen) ?? 0) + 1);
      }
      expect(contents.has('SECRET')).toBe(false);
      // Under load every read may land in a swapped moment; once the swapping stops, the same read works.
      swapper.kill('SIGKILL');
      await new Promise((resolve) =>
        swapper.exitCode !== null || swapper.signalCode !== null ? resolve(undefined) : swapper.once('exit', resolve),
      );
      const folder = path.join(swapRoot, 'folder');
      if (existsSync(`${folder}.real`)) {
        rmSync(folder, { force: true });
        renameSync(`${folder}.real`, folder);
      }
      const after = await call(o, 'read_file', { path: 'folder/secret.txt' });
      expect(after.isError ? 'refused' : (after.output as { content: string }).content).toBe('inside');
    } finally {
      swapper.kill('SIGKILL');
    }
  });
});

/** Every entry `list_directory` could show under `folder`, breadth-first, as paths (the reference the caps are checked against). */
function allEntries(folder: string, depth: number, include: 'all' | 'files' | 'directories'): string[] {
  const out: string[] = [];
  const queue: Array<[string, string, number]> = [[folder, '', depth]];
  for (let next = 0; next < queue.length; next++) {
    const [absolute, relative, left] = queue[next]!;
    for (const entry of readdirSync(absolute, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (include !== 'files') out.push(child);
        if (left > 1) queue.push([path.join(absolute, entry.name), child, left - 1]);
      } else if (entry.isFile() && include !== 'directories') out.push(child);
    }
  }
  return out;
}

function pathsOf(entries: ListDirectoryEntry[] = []): string[] {
  return entries.flatMap((entry) => [entry.path, ...pathsOf(entry.children)]);
}

describe('list_directory caps its output', () => {
  let tree: string;
  beforeAll(() => {
    tree = path.join(dir, 'tree');
    for (const folder of ['a', 'b', 'a/x', 'a/y', 'b/z']) mkdirSync(path.join(tree, folder), { recursive: true });
    for (const file of ['a/1.txt', 'a/x/2.txt', 'a/y/3.txt', 'b/z/4.txt', 'top.txt'])
      writeFileSync(path.join(tree, file), file);
  });

  it('keeps entries breadth-first up to maxEntries and says how many were left out', async () => {
    const result = await call(orchestrator(tree), 'list_directory', { depth: 3, maxEntries: 4 });
    expect(result.output).toEqual({
      root: {
        name: 'tree',
        path: '.',
        type: 'directory',
        children: [
          {
            name: 'a',
            path: 'a',
            type: 'directory',
            children: [{ name: '1.txt', path: 'a/1.txt', type: 'file', size: 7 }],
          },
          { name: 'b', path: 'b', type: 'directory' },
          { name: 'top.txt', path: 'top.txt', type: 'file', size: 7 },
        ],
      },
      truncated: true,
      omitted: allEntries(tree, 3, 'all').length - 4,
    });
  });

  it('is unchanged and says truncated: false when everything fits', async () => {
    const result = await call(orchestrator(tree), 'list_directory', { depth: 5 });
    const output = result.output as ListDirectoryOutput;
    expect(output.truncated).toBe(false);
    expect(output.omitted).toBe(0);
    expect(pathsOf(output.root.children).sort()).toEqual(allEntries(tree, 5, 'all').sort());
  });

  it('flattens files under the caps for include: files, depth-first', async () => {
    const result = await call(orchestrator(tree), 'list_directory', { depth: 3, include: 'files', maxEntries: 3 });
    const output = result.output as ListDirectoryOutput;
    // Breadth-first keeps the two shallow files and the first file one level down.
    expect(output.root.children!.map((entry) => entry.path)).toEqual(['a/1.txt', 'a/x/2.txt', 'top.txt']);
    expect(output).toMatchObject({ truncated: true, omitted: 2 });
  });

  it('caps 1,200 files at the default 1,000 entries', async () => {
    const wide = path.join(dir, 'wide');
    mkdirSync(wide);
    for (let i = 0; i < 1200; i++) writeFileSync(path.join(wide, `f${String(i).padStart(4, '0')}`), '');
    const output = (await call(orchestrator(wide), 'list_directory', { maxBytes: 1048576 }))
      .output as ListDirectoryOutput;
    expect(output.root.children).toHaveLength(1000);
    expect(output.root.children!.at(-1)!.name).toBe('f0999');
    expect(output).toMatchObject({ truncated: true, omitted: 200 });
    const defaults = (await call(orchestrator(wide), 'list_directory', {})).output as ListDirectoryOutput;
    expect(Buffer.byteLength(JSON.stringify(defaults))).toBeLessThanOrEqual(65536);
    expect(defaults.root.children!.length + defaults.omitted).toBe(1200);
  });

  it.each([
    [{ maxEntries: 0 }, '/maxEntries'],
    [{ maxEntries: 10001 }, '/maxEntries'],
    [{ maxBytes: 1023 }, '/maxBytes'],
    [{ maxBytes: 1048577 }, '/maxBytes'],
  ])('rejects caps outside the schema: %j', async (args, pointer) => {
    const result = await call(orchestrator(tree), 'list_directory', args);
    expect(result.errorDetails?.code).toBe('INVALID_ARGUMENTS');
    expect(JSON.stringify(result.errorDetails?.details)).toContain(pointer);
  });

  it('property: the output is a breadth-first prefix within maxEntries and maxBytes, and kept + omitted is everything', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom('', 'd1/', 'd1/d2/', 'd3/', 'd3/d4/d5/'),
            fc.stringMatching(/^[a-z0-9]{1,40}$/),
            fc.boolean(),
          ),
          { maxLength: 30 },
        ),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1024, max: 4096 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom('all' as const, 'files' as const, 'directories' as const),
        async (items, maxEntries, maxBytes, depth, include) => {
          const root = path.join(dir, `property-${run++}`);
          mkdirSync(root);
          for (const [folder, name, isFolder] of items) {
            const target = path.join(root, folder, name);
            try {
              mkdirSync(path.join(root, folder), { recursive: true });
              if (isFolder) mkdirSync(target, { recursive: true });
              else writeFileSync(target, name.repeat(3));
            } catch {
              // The name (or a folder on its path) is taken by a file already.
            }
          }
          const output = (await call(orchestrator(root), 'list_directory', { depth, include, maxEntries, maxBytes }))
            .output as ListDirectoryOutput;
          const expected = allEntries(root, depth, include);
          const kept =
            include === 'files' ? output.root.children!.map((entry) => entry.path) : pathsOf(output.root.children);
          expect(Buffer.byteLength(JSON.stringify(output))).toBeLessThanOrEqual(maxBytes);
          expect(kept.length).toBeLessThanOrEqual(maxEntries);
          expect([...kept].sort()).toEqual(expected.slice(0, kept.length).sort());
          expect(output.omitted).toBe(expected.length - kept.length);
          expect(output.truncated).toBe(output.omitted > 0);
          rmSync(root, { recursive: true, force: true });
        },
      ),
      { numRuns: 40 },
    );
  });
});
