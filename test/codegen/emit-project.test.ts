import { describe, expect, it } from 'vitest';
import { memoryWriter } from '../../codegen/emit/manifests/index.js';
import { startPrinter } from '../../codegen/emit/pool/printer.js';
import { emitProject } from '../../codegen/emit/project.js';
import type { GeneratedFile } from '../../codegen/model.js';
import { encoded } from '../../codegen/write.js';
import { emitInMemory, makeProject, makeSettings, makeTool, emitManifests } from './model-factory.js';

const settings = makeSettings();
const tools = () =>
  ['zeta', 'alpha', 'mid'].map((name) =>
    makeTool({ name, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
  );

/** An output that keeps what it is given: each put or written file's bytes by path, and the paths kept. */
function memoryOutput() {
  const put = new Map<string, Buffer>();
  const kept: string[] = [];
  const take = (file: GeneratedFile) => void put.set(file.path, encoded(file));
  return {
    put,
    kept,
    output: {
      put: take,
      open: (path: string) => memoryWriter(path, take),
      keep: (path: string) => void kept.push(path),
    },
  };
}

describe('the emit stage', () => {
  it('emits only the fresh tools, keeps the reused ones’ files, and makes the listings of every tool: the bytes of a whole emission', async () => {
    const whole = await emitInMemory(makeProject(tools()), settings, { stubs: new Set() });
    expect(whole.problems).toEqual([]);
    const expected = new Map(whole.files.map((file) => [file.path, encoded(file)]));
    const project = makeProject(tools());
    const alphaFiles = [...expected.keys()].filter((file) => /(^|\/)alpha\./.test(file));
    expect(alphaFiles.length).toBeGreaterThan(3);
    const { put, kept, output } = memoryOutput();
    const emitted = await emitProject(
      {
        project,
        fresh: project.tools.filter((tool) => tool.name !== 'alpha'),
        reused: new Map([['alpha', alphaFiles]]),
        stubs: new Set(['alpha']),
      },
      settings,
      output,
    );
    expect(emitted.problems).toEqual([]);
    expect(kept).toEqual(alphaFiles);
    expect([...emitted.units.keys()].sort()).toEqual(['mid', 'zeta']);
    // The manifests list the reused tool too (its part made from its model), as a whole emission lists it.
    for (const [file, bytes] of put) expect(bytes.equals(expected.get(file)!), file).toBe(true);
    expect([...put.keys(), ...kept].sort()).toEqual([...expected.keys()].sort());
    // A reused tool whose stub is missing gets it back.
    expect(emitted.stubs.map((stub) => stub.path)).toEqual(['alpha.ts']);
  });

  it('splices the fresh tools into the last run’s manifests the plan hands it instead of assembling them', async () => {
    const project = makeProject(tools());
    const last = emitManifests(project, settings.ctx, settings.manifests);
    const bytes = new Map(last.files.map((file) => [file.path, encoded(file)]));
    const changed = makeTool({ name: 'mid', description: 'Changed.', inputSchema: project.tools[1]!.inputSchema });
    const next = makeProject([project.tools[0]!, changed, project.tools[2]!]);
    const previous = { segments: last.segments!, read: (file: string) => bytes.get(file) };
    const { put, output } = memoryOutput();
    const emitted = await emitProject(
      { project: next, fresh: [changed], reused: new Map(), stubs: new Set(), previous },
      settings,
      output,
    );
    expect(emitted.problems).toEqual([]);
    expect(emitted.manifests).toBe('spliced');
    const whole = await emitInMemory(next, settings, { stubs: new Set() });
    for (const file of whole.files.filter((entry) => entry.path.startsWith('manifests/')))
      expect(put.get(file.path)?.equals(encoded(file)), file.path).toBe(true);
    expect(put.get('manifests/mcp.json')!.toString()).toContain('Changed.');
  });

  it('assembles the manifests, reused tools’ parts included, when the last run’s files do not fit the project', async () => {
    const last = emitManifests(makeProject(tools().slice(0, 2)), settings.ctx, settings.manifests);
    const bytes = new Map(last.files.map((file) => [file.path, encoded(file)]));
    const project = makeProject(tools());
    const { put, output } = memoryOutput();
    const emitted = await emitProject(
      {
        project,
        fresh: project.tools.filter((tool) => tool.name === 'mid'),
        reused: new Map([
          ['alpha', []],
          ['zeta', []],
        ]),
        stubs: new Set(),
        previous: { segments: last.segments!, read: (file: string) => bytes.get(file) },
      },
      settings,
      output,
    );
    expect(emitted.problems).toEqual([]);
    expect(emitted.manifests).toBe('assembled');
    const whole = await emitInMemory(project, settings, { stubs: new Set() });
    const manifests = whole.files.filter((entry) => entry.path.startsWith('manifests/'));
    expect(manifests.length).toBeGreaterThan(2);
    for (const file of manifests) expect(put.get(file.path)?.equals(encoded(file)), file.path).toBe(true);
  });

  it('puts each base as printed and stops the printing thread it is given once the last base and stub are printed', async () => {
    const project = makeProject(tools());
    const printer = startPrinter();
    const { put, output } = memoryOutput();
    const emitted = await emitProject(
      { project, fresh: project.tools, reused: new Map(), stubs: new Set(['mid']) },
      settings,
      output,
      { printer },
    );
    expect(emitted.problems).toEqual([]);
    expect(put.get('tools/alpha.base.ts')!.toString()).toContain(
      'export abstract class AlphaToolBase implements ITool<',
    );
    expect(emitted.units.get('alpha')).toContain('tools/alpha.base.ts');
    expect(emitted.stubs.map((stub) => [stub.path, stub.content.includes('export class MidTool extends')])).toEqual([
      ['mid.ts', true],
    ]);
    // Stopped before `emitProject` settles: what ts-morph holds goes before the run's peak.
    await expect(printer.print([])).rejects.toThrow('the printing thread was stopped');
  });

  it('fails when its printing thread cannot print, so the run writes nothing', async () => {
    const project = makeProject(tools());
    const printer = startPrinter();
    printer.stop();
    const emission = emitProject(
      { project, fresh: project.tools, reused: new Map(), stubs: new Set() },
      settings,
      memoryOutput().output,
      { printer },
    );
    await expect(emission).rejects.toThrow('the printing thread was stopped');
  });
});
