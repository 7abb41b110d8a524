import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheFile, modelCacheText, modelsFile, parseModelCache } from '../../codegen/incremental/index.js';
import { main } from '../../codegen/cli/main.js';
import { generate } from '../../codegen/generate.js';
import { workerCount } from '../../codegen/emit/pool/pool.js';
import { emitProject } from '../../codegen/emit/project.js';
import { encoded } from '../../codegen/write.js';
import type { GeneratedFile, ToolModel } from '../../codegen/model.js';
import { createCorpusProject, type TempProject } from '../helpers/temp-project.js';
import { emitInMemory, makeProject, makeSettings, makeTool } from './model-factory.js';

/** How many tools this thread emitted itself (`createToolEmitter`'s `toolFiles` in this process). */
const emittedHere = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../codegen/emit/tool-files.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../codegen/emit/tool-files.js')>();
  return {
    ...original,
    createToolEmitter: (...args: Parameters<typeof original.createToolEmitter>) => {
      const emitter = original.createToolEmitter(...args);
      return {
        ...emitter,
        toolFiles: (tool: ToolModel) => {
          emittedHere.count++;
          return emitter.toolFiles(tool);
        },
      };
    },
  };
});

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.dispose();
});

/** A temp project (disposed after the test) with the bench's synthetic corpus of `count` tools (shared schemas, composed refs, examples). */
function corpusProject(count: number): TempProject {
  const project = createCorpusProject(count);
  projects.push(project);
  return project;
}

/** The emission settings of these tests, formatted or not. */
const settingsWith = (format: boolean) => makeSettings({ format });

/** Every file as path → its bytes, in the order generate returned them. */
function bytesOf(files: readonly GeneratedFile[]): [string, Buffer][] {
  return files.map((file) => [file.path, encoded(file)]);
}

describe('the emission on worker threads', () => {
  it('gives every byte of a 60-tool project a single thread gives, whatever the number of workers', async () => {
    const project = corpusProject(60);
    const options = { root: project.root, runtimeImport: project.runtimeImport };
    const outputs: Record<string, string>[] = [];
    const caches: unknown[] = [];
    for (const workers of [1, 2, 3]) {
      // Each run into an output of its own, its stubs made anew: the files as each thread count makes them.
      rmSync(path.join(project.root, 'src/tools'), { recursive: true, force: true });
      const out = `generated-${workers}`;
      const written = await generate({ ...options, out, workers, workerThreshold: 1 });
      expect(written.problems).toEqual([]);
      expect(written.threads).toBe(workers);
      expect(written.diff.missing.length).toBeGreaterThan(60 * 5);
      expect(written.stubs).toHaveLength(60);
      // The stubs import from the output folder they were made for: named alike here.
      const stubs = Object.entries(project.snapshot('src/tools')).map(([file, text]) => [
        `stubs/${file}`,
        text.replaceAll(`/${out}/`, '/generated/'),
      ]);
      outputs.push({ ...project.snapshot(out), ...Object.fromEntries(stubs) });
      // The cache records the same files for each tool, so the next run reuses them whichever thread wrote them.
      caches.push(JSON.parse(readFileSync(cacheFile(project.root, path.join(project.root, out))!, 'utf8')).tools);
    }
    expect(outputs[1]).toEqual(outputs[0]);
    expect(outputs[2]).toEqual(outputs[0]);
    expect(caches[1]).toEqual(caches[0]);
    expect(Object.keys(caches[0] as object)).toHaveLength(60);
  }, 180_000);

  it('lets the main thread emit beside the workers: two threads are the main thread and one worker, with the bytes of one thread', async () => {
    const tools = Array.from({ length: 30 }, (_, i) =>
      makeTool({
        name: `tool_${i}`,
        inputSchema: { type: 'object', properties: { q: { type: 'string', maxLength: i + 1 } }, required: ['q'] },
      }),
    );
    const settings = settingsWith(false);
    emittedHere.count = 0;
    const single = await emitInMemory(makeProject(tools), settings, { workers: 1 });
    expect(emittedHere.count).toBe(30);
    emittedHere.count = 0;
    const pooled = await emitInMemory(makeProject(tools), settings, { workers: 2, workerThreshold: 1 });
    expect(pooled.threads).toBe(2);
    expect(emittedHere.count).toBeGreaterThan(0);
    expect(emittedHere.count).toBeLessThan(30);
    expect(bytesOf(pooled.files)).toEqual(bytesOf(single.files));
  }, 60_000);

  it('stops at an output that cannot be written: no tool is emitted or handed over after it', async () => {
    const tools = Array.from({ length: 30 }, (_, i) => makeTool({ name: `tool_${i}` }));
    const project = makeProject(tools);
    const plan = { project, fresh: project.tools, reused: new Map<string, string[]>(), stubs: new Set<string>() };
    let puts = 0;
    const put = () => {
      puts++;
      throw new Error('disk full');
    };
    const output = { put, open: put, keep: () => undefined };
    emittedHere.count = 0;
    const emitted = emitProject(plan, settingsWith(false), output, { workers: 2, workerThreshold: 1 });
    await expect(emitted).rejects.toThrow('disk full');
    // Settled: the main thread's lane has ended too, so nothing more can reach the output.
    expect(puts).toBe(1);
    expect(emittedHere.count).toBeLessThanOrEqual(2);
  }, 60_000);

  it('stays in process below the threshold, and with one worker', () => {
    expect(workerCount(199, { workers: 2 })).toBe(1);
    expect(workerCount(200, { workers: 2 })).toBe(2);
    expect(workerCount(500, { workers: 1, workerThreshold: 1 })).toBe(1);
    expect(workerCount(3, { workers: 8, workerThreshold: 1 })).toBe(3);
  });

  it('reports a tool whose emitter throws in a worker as that tool’s problem, the same as in process, and returns no files', async () => {
    // Definition origins that are not a record: the per-tool types emitter throws a TypeError on them.
    const tools = [
      makeTool({ name: 'alpha' }),
      makeTool({ name: 'broken', definitionOrigins: null as unknown as ToolModel['definitionOrigins'] }),
      makeTool({ name: 'gamma' }),
    ];
    const inProcess = await emitInMemory(makeProject(tools), settingsWith(false), { workers: 1 });
    const pooled = await emitInMemory(makeProject(tools), settingsWith(false), { workers: 2, workerThreshold: 1 });
    expect(pooled.threads).toBe(2);
    expect(pooled.files).toEqual([]);
    expect(pooled.stubs).toEqual([]);
    expect(pooled.problems).toEqual(inProcess.problems);
    expect(
      pooled.problems.map((problem) => [problem.file, problem.message.replace(/\(TypeError: .*\)$/, '(TypeError)')]),
    ).toEqual([['schemas/broken.tool.json', 'the generator failed on this tool (TypeError)']]);
  }, 60_000);

  it('emits in process the tools whose worker stopped (here: out of memory under a tiny heap cap), with the same bytes', async () => {
    const tools = ['alpha', 'beta', 'gamma', 'delta'].map((name) =>
      makeTool({ name, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
    );
    const inProcess = await emitInMemory(makeProject(tools), settingsWith(true), { workers: 1 });
    const saved = process.env.TOOLSMITH_WORKER_HEAP_MB;
    process.env.TOOLSMITH_WORKER_HEAP_MB = '2';
    let pooled: Awaited<ReturnType<typeof emitInMemory>>;
    try {
      pooled = await emitInMemory(makeProject(tools), settingsWith(true), { workers: 2, workerThreshold: 1 });
    } finally {
      if (saved === undefined) delete process.env.TOOLSMITH_WORKER_HEAP_MB;
      else process.env.TOOLSMITH_WORKER_HEAP_MB = saved;
    }
    expect(pooled.threads).toBe(2);
    expect(pooled.problems).toEqual([]);
    expect(bytesOf(pooled.files)).toEqual(bytesOf(inProcess.files));
    expect(bytesOf(pooled.stubs)).toEqual(bytesOf(inProcess.stubs));
  }, 60_000);

  it('writes the output right when a worker stops: the tools it lost are emitted in process, the bytes are one thread’s', async () => {
    const project = corpusProject(12);
    const options = { root: project.root, runtimeImport: project.runtimeImport };
    const saved = process.env.TOOLSMITH_WORKER_HEAP_MB;
    process.env.TOOLSMITH_WORKER_HEAP_MB = '2';
    try {
      const written = await generate({ ...options, workers: 2, workerThreshold: 1 });
      expect(written.problems).toEqual([]);
      expect(written.threads).toBe(2);
    } finally {
      if (saved === undefined) delete process.env.TOOLSMITH_WORKER_HEAP_MB;
      else process.env.TOOLSMITH_WORKER_HEAP_MB = saved;
    }
    // A check emits in process from scratch: the same bytes.
    const check = await generate({ ...options, workers: 1, check: true });
    expect(check.diff).toMatchObject({ stale: [], missing: [], extra: [] });
  }, 120_000);

  it('hands each tool to another thread: a model that cannot be cloned is that tool’s problem only there', async () => {
    const odd = { ...makeTool({ name: 'odd' }), extra: () => 'not cloneable' } as unknown as ToolModel;
    const tools = [makeTool({ name: 'plain' }), odd];
    const inProcess = await emitInMemory(makeProject(tools), settingsWith(false), { workers: 1 });
    expect(inProcess.problems).toEqual([]);
    const pooled = await emitInMemory(makeProject(tools), settingsWith(false), { workers: 2, workerThreshold: 1 });
    expect(
      pooled.problems.map((problem) => [
        problem.file,
        problem.message.replace(/\(DataCloneError: .*\)$/, '(DataCloneError)'),
      ]),
    ).toEqual([['schemas/odd.tool.json', 'the generator failed on this tool (DataCloneError)']]);
  }, 60_000);

  it('makes `toolsmith generate` on workers (TOOLSMITH_WORKERS) report a worker’s failure as a problem and write nothing', async () => {
    const project = corpusProject(12);
    let stdout = '';
    let stderr = '';
    const io = {
      cwd: project.root,
      stdout: (text: string) => (stdout += text),
      stderr: (text: string) => (stderr += text),
    };
    expect(await main(['generate'], io)).toBe(0);
    const outDir = path.join(project.root, 'generated');
    // A cached model with a type Ajv does not know: its emission, now in a worker, throws. Without the
    // generation cache every tool is emitted again, from these models.
    const models = modelsFile(project.root, outDir)!;
    const cached = parseModelCache(readFileSync(models, 'utf8'));
    const [first] = Object.keys(cached.tools).sort();
    const entry = cached.tools[first!]!;
    cached.tools[first!] = { ...entry, model: { ...entry.model, inputSchema: { type: 'no-such-type' } as never } };
    writeFileSync(models, modelCacheText(cached));
    rmSync(cacheFile(project.root, outDir)!);
    rmSync(path.join(outDir, 'docs/index.md'));
    const before = project.snapshot('generated');
    const saved = { workers: process.env.TOOLSMITH_WORKERS, threshold: process.env.TOOLSMITH_WORKER_THRESHOLD };
    process.env.TOOLSMITH_WORKERS = '2';
    process.env.TOOLSMITH_WORKER_THRESHOLD = '1';
    stdout = '';
    stderr = '';
    try {
      expect(await main(['generate'], io)).toBe(1);
    } finally {
      for (const [name, value] of [
        ['TOOLSMITH_WORKERS', saved.workers],
        ['TOOLSMITH_WORKER_THRESHOLD', saved.threshold],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(stderr.split('\n')[0]).toBe('toolsmith: 1 problem; nothing was written.');
    // Ajv rejects the schema in the worker's validator compile: the definition's problem, at its schema's line and column.
    expect(stderr).toContain(
      `schemas/${first}:7:18 /inputSchema: the schema does not compile: type must be JSONType or JSONType[]: no-such-type\n    hint: fix the schema; the runtime would reject it too\n`,
    );
    expect(existsSync(path.join(outDir, 'docs/index.md'))).toBe(false);
    expect(project.snapshot('generated')).toEqual(before);
    // The failed run records nothing: the last model cache stays, no temporary file.
    expect(readFileSync(models, 'utf8')).toBe(modelCacheText(cached));
    expect(readdirSync(path.dirname(models)).filter((entry) => entry.endsWith('.tmp'))).toEqual([]);
  }, 60_000);
});
