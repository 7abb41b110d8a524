/**
 * A generate lets each tool's model go once its files are staged (#17: memory flat in the number of
 * tools): the emission consumes the models it is given, the run keeps only summaries, and the model
 * cache is written line by line as the models are done with.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheFile, generateIncrementally, modelsFile, parseModelCache } from '../../codegen/incremental/index.js';
import { emitToolUnits, generate } from '../../codegen/generate.js';
import { summarizeTool, type ToolModel } from '../../codegen/model.js';
import { createCorpusProject, type TempProject } from '../helpers/temp-project.js';
import { makeSettings, makeTool } from './model-factory.js';

/** A WeakRef to every model a run summarized (`summarizeTool`): each model of the project, as normalize made it. */
const summarized = vi.hoisted(() => ({ refs: [] as WeakRef<object>[] }));
vi.mock('../../codegen/model.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../codegen/model.js')>();
  return {
    ...original,
    summarizeTool: (tool: Parameters<typeof original.summarizeTool>[0]) => {
      summarized.refs.push(new WeakRef(tool));
      return original.summarizeTool(tool);
    },
  };
});

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.dispose();
});

/** A temp project (disposed after the test) with the bench's synthetic corpus of `count` tools. */
function corpusProject(count: number): TempProject {
  const project = createCorpusProject(count);
  projects.push(project);
  return project;
}

/** `count` tools, made here and held by the returned array only. */
function tools(count: number): ToolModel[] {
  return Array.from({ length: count }, (_, i) =>
    makeTool({
      name: `tool_${String(i).padStart(2, '0')}`,
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'string', maxLength: i + 1 }, page: { type: 'integer', default: 1 } },
        required: ['q'],
      },
      outputSchema: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } } },
    }),
  );
}

describe('the models of a generate', () => {
  for (const [label, workers] of [
    ['in process', { count: 1 }],
    ['on a worker beside the main thread', { count: 2, threshold: 1 }],
  ] as const)
    it(`are let go by the emission as each tool's unit is taken (${label})`, async () => {
      const given = tools(24);
      const refs = new Map(given.map((tool) => [tool.name, new WeakRef(tool)]));
      // A WeakRef keeps its target until the job that made it ends.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const taken: string[] = [];
      const alive: string[][] = [];
      await emitToolUnits({ shared: [] }, given, makeSettings({ format: true }), {
        workers,
        stubs: new Set(),
        sink: (unit) => {
          taken.push(unit.tool.name);
          // Every tool taken at least 8 units ago (more than are ever in flight: 4 in process, the
          // main thread's one and two per worker): collectable. Only those are looked at, since
          // looking at a live target (`deref`) keeps it to the end of the job.
          if (taken.length % 6 === 0) {
            gc();
            alive.push(taken.slice(0, -8).filter((name) => refs.get(name)!.deref() !== undefined));
          }
        },
      });
      expect(taken.sort()).toEqual([...refs.keys()]);
      expect(given.every((entry) => entry === undefined)).toBe(true);
      expect(alive).toEqual([[], [], [], []]);
    }, 60_000);

  it('are kept by a run as summaries, and written to the model cache as the run goes: the same models a fresh normalize builds', async () => {
    const project = corpusProject(30);
    const options = { root: project.root, runtimeImport: project.runtimeImport };
    const built = await generate({ ...options, workers: 1 });
    expect(built.problems).toEqual([]);
    const report = await generateIncrementally({ ...options, workers: 1 });
    expect(report.problems).toEqual([]);
    expect(report.project.tools.map((tool) => tool.name)).toEqual(built.project.tools.map((tool) => tool.name));
    expect(report.project.tools).toEqual(built.project.tools.map(summarizeTool));
    for (const tool of report.project.tools) expect(tool).not.toHaveProperty('inputSchema');
    const outDir = path.join(project.root, 'generated');
    const file = modelsFile(project.root, outDir)!;
    const cached = parseModelCache(readFileSync(file, 'utf8'));
    expect(Object.keys(cached.tools).sort()).toEqual(built.project.tools.map((tool) => tool.source.relPath).sort());
    for (const tool of built.project.tools) expect(cached.tools[tool.source.relPath]!.model).toEqual(tool);
    // Nothing but the cache files beside it: the model cache's temporary file was renamed.
    expect(readdirSync(path.dirname(file)).filter((entry) => entry.endsWith('.tmp'))).toEqual([]);

    // One definition changed: the others are reused, their lines written back; the changed one's
    // model is the new one.
    const changed = built.project.tools[3]!;
    const definitionPath = path.join(project.root, 'schemas', changed.source.relPath);
    const definition = JSON.parse(readFileSync(definitionPath, 'utf8')) as { description: string };
    project.write(`schemas/${changed.source.relPath}`, { ...definition, description: 'Changed for the test.' });
    const second = await generateIncrementally({ ...options, workers: 1 });
    expect(second.problems).toEqual([]);
    expect(second.reused).toBe(29);
    const again = parseModelCache(readFileSync(file, 'utf8'));
    expect(Object.keys(again.tools).sort()).toEqual(Object.keys(cached.tools).sort());
    expect(again.tools[changed.source.relPath]!.model.description).toBe('Changed for the test.');
    for (const tool of built.project.tools)
      if (tool !== changed) expect(again.tools[tool.source.relPath]!.model).toEqual(tool);
    expect(existsSync(cacheFile(project.root, outDir)!)).toBe(true);
  }, 120_000);

  for (const workers of [1, 2])
    it(`are let go by a generate once each is emitted: at the last tool's progress, only those in flight are left (${workers} thread${workers > 1 ? 's' : ''})`, async () => {
      const project = corpusProject(30);
      summarized.refs = [];
      let left: number | undefined;
      const report = await generateIncrementally({
        root: project.root,
        runtimeImport: project.runtimeImport,
        workers,
        workerThreshold: 1,
        onProgress: (done, total) => {
          if (done !== total) return;
          gc();
          left = summarized.refs.filter((ref) => ref.deref() !== undefined).length;
        },
      });
      expect(report.problems).toEqual([]);
      expect(report.threads).toBe(workers);
      expect(summarized.refs).toHaveLength(30);
      // Without letting go, all 30 are held to the end; in flight are at most 4 (in process) or the
      // main thread's one and a worker's two.
      expect(left).toBeLessThanOrEqual(4);
    }, 120_000);
});
