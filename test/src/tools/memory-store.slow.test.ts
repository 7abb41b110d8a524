import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../../src/index.js';
import { MemoryReadTool } from '../../../src/tools/memory-read.js';
import {
  LEGACY_MEMORY_FILE,
  MEMORY_DATABASE_FILE,
  MemoryStore,
  parseLegacyFile,
} from '../../../src/tools/memory-store.js';
import { MemoryWriteTool } from '../../../src/tools/memory-write.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const writerScript = path.join(repoRoot, 'test/src/tools/memory-writer-process.ts');

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'toolsmith-memory-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
function dataFolder(): string {
  const folder = path.join(scratch, `data-${++folders}`);
  mkdirSync(folder);
  return folder;
}

/** Every entry of a data folder, read through a store of its own, by key. */
async function entriesOf(dataDir: string): Promise<Map<string, { value: string; tags?: string[]; updatedAt: string }>> {
  const store = new MemoryStore(dataDir);
  try {
    const { entries, total } = await store.read({ prefix: '' }, 1_000_000);
    expect(entries).toHaveLength(total);
    return new Map(entries.map((entry) => [entry.key, entry]));
  } finally {
    await store.close();
  }
}

/** SQLite's own verdict on the database file: `ok` when its structure is sound. */
function integrityOf(dataDir: string): string {
  const database = new Database(path.join(dataDir, MEMORY_DATABASE_FILE), { readonly: true });
  try {
    return database.pragma('integrity_check', { simple: true }) as string;
  } finally {
    database.close();
  }
}

interface Writer {
  child: ChildProcess;
  /** Keys the child reported as answered `success`, in order. */
  acknowledged: string[];
  ready: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  go(): void;
  /** Resolves once at least `count` writes were acknowledged. */
  acknowledgedAtLeast(count: number): Promise<void>;
}

/** A real child process writing `<prefix>.0 … <prefix>.<count-1>` (count 0: until killed) through an orchestrator. */
function startWriter(dataDir: string, prefix: string, count: number): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', writerScript, dataDir, prefix, String(count)], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const acknowledged: string[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  let stderr = '';
  let buffer = '';
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      if (line === 'ready') markReady();
      else if (line.startsWith('ok ')) acknowledged.push(line.slice(3));
    }
    for (const wait of waiting.filter((candidate) => acknowledged.length >= candidate.count)) wait.resolve();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return {
    child,
    acknowledged,
    ready: Promise.race([
      ready,
      exited.then(({ stderr: text }) => Promise.reject(new Error(`writer exited before it was ready: ${text}`))),
    ]),
    exited,
    go: () => child.stdin!.write('go\n'),
    acknowledgedAtLeast: (atLeast) =>
      acknowledged.length >= atLeast
        ? Promise.resolve()
        : new Promise((resolve) => waiting.push({ count: atLeast, resolve })),
  };
}

/** A real `toolsmith serve` on `dataDir`, connected with the MCP SDK's client. */
async function startServe(dataDir: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/toolsmith.js', 'serve', '--allow-side-effects', '--capability', 'capability:memory:write'],
    cwd: repoRoot,
    env: { TOOLSMITH_DATA_DIR: dataDir, TOOLSMITH_FILES_ROOT: dataDir },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'memory-store-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function call(orchestrator: ToolOrchestrator, name: string, args: Record<string, unknown>) {
  return orchestrator.processToolCall({
    toolCallRequest: { id: `t-${name}`, name, arguments: args },
    gmiId: 'g',
    personaId: 'p',
    personaCapabilities: ['capability:memory:write'],
    userContext: { userId: 'u' },
  });
}

describe('the memory store across processes', () => {
  it('keeps all 100 writes of four concurrent processes (two `toolsmith serve`s, two orchestrator processes) on one folder, read back by `toolsmith call`', async () => {
    const dataDir = dataFolder();
    const writers = [startWriter(dataDir, 'writer-a', 25), startWriter(dataDir, 'writer-b', 25)];
    const servers = await Promise.all([startServe(dataDir), startServe(dataDir)]);
    try {
      await Promise.all(writers.map((writer) => writer.ready));
      for (const writer of writers) writer.go();
      const served = servers.map((client, server) =>
        Promise.all(
          Array.from({ length: 25 }, async (_, i) => {
            const key = `serve-${server}.${i}`;
            const result = (await client.callTool({
              name: 'memory_write',
              arguments: { key, value: `value of ${key}`, tags: [`serve-${server}`] },
            })) as CallToolResult;
            expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
            return key;
          }),
        ),
      );
      const servedKeys = (await Promise.all(served)).flat();
      const exits = await Promise.all(writers.map((writer) => writer.exited));
      for (const exit of exits) expect(exit.code, exit.stderr).toBe(0);
      const acknowledged = [...servedKeys, ...writers.flatMap((writer) => writer.acknowledged)];
      expect(acknowledged).toHaveLength(100);

      const entries = await entriesOf(dataDir);
      expect([...entries.keys()].sort()).toEqual([...acknowledged].sort());
      for (const key of acknowledged) expect(entries.get(key)?.value).toBe(`value of ${key}`);
      expect(integrityOf(dataDir)).toBe('ok');
    } finally {
      await Promise.all(servers.map((client) => client.close()));
    }
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bin/toolsmith.js', 'call', 'memory_read', '{"query":{"prefix":""},"limit":100}'],
      {
        cwd: repoRoot,
        env: { ...process.env, TOOLSMITH_DATA_DIR: dataDir },
      },
    );
    const result = JSON.parse(stdout) as { isError: boolean; output: { total: number; entries: unknown[] } };
    expect(result.isError).toBe(false);
    expect(result.output.total).toBe(100);
    expect(result.output.entries).toHaveLength(100);
  }, 120_000);

  it('loses nothing answered success when a writer is SIGKILLed mid-write, and the other writer goes on', async () => {
    const dataDir = dataFolder();
    const killed = startWriter(dataDir, 'killed', 0);
    const survivor = startWriter(dataDir, 'survivor', 25);
    await Promise.all([killed.ready, survivor.ready]);
    killed.go();
    survivor.go();
    await killed.acknowledgedAtLeast(30);
    killed.child.kill('SIGKILL');
    const [killedExit, survivorExit] = await Promise.all([killed.exited, survivor.exited]);
    expect(killedExit.signal).toBe('SIGKILL');
    expect(survivorExit.code, survivorExit.stderr).toBe(0);

    const entries = await entriesOf(dataDir);
    expect(killed.acknowledged.length).toBeGreaterThanOrEqual(30);
    for (const key of [...killed.acknowledged, ...survivor.acknowledged])
      expect(entries.get(key)?.value, key).toBe(`value of ${key}`);
    expect(survivor.acknowledged).toHaveLength(25);
    // At most the one write in flight at the kill may have committed without being reported.
    expect(entries.size - killed.acknowledged.length - 25).toBeLessThanOrEqual(1);
    expect(integrityOf(dataDir)).toBe('ok');
  }, 120_000);
});

describe('the memory store in one process', () => {
  it('keeps every write of two stores reaching one folder through two paths (a symbolic link), concurrently', async () => {
    const dataDir = dataFolder();
    const linked = path.join(scratch, `link-${folders}`);
    symlinkSync(dataDir, linked);
    const direct = new ToolOrchestrator({ tools: [new MemoryWriteTool({ dataDir })], allowSideEffects: true });
    const throughLink = new ToolOrchestrator({
      allowSideEffects: true,
      tools: [new MemoryWriteTool({ dataDir: linked }), new MemoryReadTool({ dataDir: linked })],
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => [
        call(direct, 'memory_write', { key: `direct.${i}`, value: `d${i}` }),
        call(throughLink, 'memory_write', { key: `linked.${i}`, value: `l${i}` }),
      ]).flat(),
    );
    expect(results.filter((result) => result.isError)).toEqual([]);
    const read = await call(throughLink, 'memory_read', { query: { prefix: 'direct.' }, limit: 100 });
    expect(read.output).toMatchObject({ total: 50 });
    await Promise.all([direct.shutdown(), throughLink.shutdown()]);

    const entries = await entriesOf(dataDir);
    expect(entries.size).toBe(100);
    for (let i = 0; i < 50; i++) {
      expect(entries.get(`direct.${i}`)?.value).toBe(`d${i}`);
      expect(entries.get(`linked.${i}`)?.value).toBe(`l${i}`);
    }
    // Every connection closed: the last one checkpointed the WAL into the database and removed it.
    expect(readdirSync(dataDir).sort()).toEqual([MEMORY_DATABASE_FILE]);
    expect(integrityOf(dataDir)).toBe('ok');
  });

  it('reads an empty folder as no entries without creating anything', async () => {
    const dataDir = dataFolder();
    const orchestrator = new ToolOrchestrator({ tools: [new MemoryReadTool({ dataDir })] });
    expect((await call(orchestrator, 'memory_read', { query: { prefix: '' } })).output).toEqual({
      entries: [],
      total: 0,
    });
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('gives back every string as written: NUL, lone surrogates, emoji, in values and tags', async () => {
    const store = new MemoryStore(dataFolder());
    const strange = ['a\u0000b', '\uD800x', 'x\uDFFF', '😀', '"quoted"\\'];
    for (const [i, text] of strange.entries()) await store.write({ key: `strange.${i}`, value: text, tags: [text] });
    for (const [i, text] of strange.entries()) {
      expect((await store.read({ key: `strange.${i}` }, 1)).entries[0]).toMatchObject({ value: text, tags: [text] });
      expect((await store.read({ tag: text }, 10)).entries.map((entry) => entry.key)).toEqual([`strange.${i}`]);
    }
    await store.close();
  });

  it('orders reads newest first, then by key, and counts matches past the limit', async () => {
    const dataDir = dataFolder();
    const store = new MemoryStore(dataDir);
    await store.write({ key: 'b', value: '1', tags: ['x'] }, new Date('2026-01-01T00:00:00.000Z'));
    await store.write({ key: 'a', value: '2', tags: ['x', 'y'] }, new Date('2026-01-01T00:00:00.000Z'));
    await store.write({ key: 'c', value: '3', tags: ['y'] }, new Date('2026-02-01T00:00:00.000Z'));
    expect((await store.read({ prefix: '' }, 2)).entries.map((entry) => entry.key)).toEqual(['c', 'a']);
    expect((await store.read({ prefix: '' }, 2)).total).toBe(3);
    expect((await store.read({ tag: 'x' }, 10)).entries.map((entry) => entry.key)).toEqual(['a', 'b']);
    // Rewriting an entry replaces its tags.
    await store.write({ key: 'b', value: '1', tags: ['y'] }, new Date('2026-01-01T00:00:00.000Z'));
    expect((await store.read({ tag: 'x' }, 10)).entries.map((entry) => entry.key)).toEqual(['a']);
    expect((await store.read({ tag: 'y' }, 10)).entries.map((entry) => entry.key)).toEqual(['c', 'a', 'b']);
    // A prefix is text, not a LIKE pattern.
    await store.write({ key: 'a_b', value: '4' });
    expect((await store.read({ prefix: 'a%' }, 10)).total).toBe(0);
    expect((await store.read({ prefix: 'a_' }, 10)).entries.map((entry) => entry.key)).toEqual(['a_b']);
    await store.close();
  });
});

describe('migration from memory.json', () => {
  const legacy = (entries: unknown[]) => `${JSON.stringify({ version: 1, entries }, null, 2)}\n`;
  const old = [
    { key: 'user.name', value: 'Ada', tags: ['prefs'], updatedAt: '2026-01-01T00:00:00.000Z' },
    { key: 'user.units', value: 'metric', tags: [], updatedAt: '2026-01-02T00:00:00.000Z' },
    { key: 'note', value: 'no tags', updatedAt: '2026-01-03T00:00:00.000Z' },
  ];

  it('imports an existing memory.json once, then keeps it renamed', async () => {
    const dataDir = dataFolder();
    const text = legacy(old);
    writeFileSync(path.join(dataDir, LEGACY_MEMORY_FILE), text);
    const orchestrator = new ToolOrchestrator({
      allowSideEffects: true,
      tools: [
        new MemoryReadTool({ dataDir }),
        new MemoryWriteTool({ dataDir, now: () => new Date('2026-06-01T00:00:00.000Z') }),
      ],
    });
    expect((await call(orchestrator, 'memory_read', { query: { tag: 'prefs' } })).output).toEqual({
      entries: [old[0]],
      total: 1,
    });
    expect((await call(orchestrator, 'memory_read', { query: { key: 'note' } })).output).toEqual({
      entries: [{ ...old[2], tags: [] }],
      total: 1,
    });

    const kept = readdirSync(dataDir).filter((name) => name.startsWith(`${LEGACY_MEMORY_FILE}.imported-`));
    expect(kept).toHaveLength(1);
    expect(existsSync(path.join(dataDir, LEGACY_MEMORY_FILE))).toBe(false);
    expect(readFileSync(path.join(dataDir, kept[0]!), 'utf8')).toBe(text);

    // A write after the import, then the same file back (a crash between the commit and the rename, or a restored backup): not imported again.
    expect((await call(orchestrator, 'memory_write', { key: 'user.units', value: 'imperial' })).output).toMatchObject({
      created: false,
    });
    await orchestrator.shutdown();
    copyFileSync(path.join(dataDir, kept[0]!), path.join(dataDir, LEGACY_MEMORY_FILE));
    const entries = await entriesOf(dataDir);
    expect(entries.get('user.units')?.value).toBe('imperial');
    expect(entries.size).toBe(3);
    expect(existsSync(path.join(dataDir, LEGACY_MEMORY_FILE))).toBe(false);
    const database = new Database(path.join(dataDir, MEMORY_DATABASE_FILE), { readonly: true });
    expect(database.prepare('SELECT entries FROM imports').all()).toEqual([{ entries: 3 }]);
    database.close();
  });

  it('a different memory.json is imported too, never replacing a newer entry', async () => {
    const dataDir = dataFolder();
    const store = new MemoryStore(dataDir);
    await store.write({ key: 'user.units', value: 'imperial', tags: [] }, new Date('2026-06-01T00:00:00.000Z'));
    await store.close();
    writeFileSync(path.join(dataDir, LEGACY_MEMORY_FILE), legacy(old));
    const entries = await entriesOf(dataDir);
    expect(entries.get('user.units')?.value).toBe('imperial');
    expect(entries.get('user.name')?.value).toBe('Ada');
    expect(entries.size).toBe(3);
  });

  it.each([
    ['not JSON', '{"version": 1, "entries": [\n  {"key": "a",\n', /memory\.json:3:1: not valid JSON \(\w+\)/],
    ['a JSON array', '[]', /memory\.json:1:1: expected an object with an "entries" array/],
    [
      'an entry without a value',
      legacy([old[0], { key: 'b', updatedAt: 'x' }]),
      /memory\.json:12:5: expected a string at \/entries\/1\/value/,
    ],
    [
      'tags that are not strings',
      legacy([{ ...old[0], tags: [1] }]),
      /memory\.json:7:15: expected an array of strings at \/entries\/0\/tags/,
    ],
  ])('refuses %s with the file, line:column and what to do, importing nothing', async (_, text, message) => {
    const dataDir = dataFolder();
    writeFileSync(path.join(dataDir, LEGACY_MEMORY_FILE), text);
    const orchestrator = new ToolOrchestrator({ tools: [new MemoryReadTool({ dataDir })] });
    const result = await call(orchestrator, 'memory_read', { query: { prefix: '' } });
    expect(result.errorDetails?.code).toBe('TOOL_ERROR');
    expect(result.errorDetails?.message).toMatch(message);
    expect(result.errorDetails?.message).toContain('fix it, or move it out of the data folder');
    expect(readFileSync(path.join(dataDir, LEGACY_MEMORY_FILE), 'utf8')).toBe(text);
    const database = new Database(path.join(dataDir, MEMORY_DATABASE_FILE), { readonly: true });
    expect(database.prepare('SELECT count(*) AS n FROM entries').get()).toEqual({ n: 0 });
    database.close();
  });

  it('parses the format the earlier store wrote', () => {
    expect(parseLegacyFile(legacy(old), 'memory.json')).toEqual(old);
  });
});
