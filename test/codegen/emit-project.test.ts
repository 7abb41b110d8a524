import { describe, expect, it } from 'vitest';
import type { ManifestWriter } from '../../codegen/emit/manifests/index.js';
import { emitAll, emitProject, type ProjectSink, type ToolUnit } from '../../codegen/generate.js';
import type { GeneratedFile } from '../../codegen/model.js';
import { encoded } from '../../codegen/write.js';
import { makeProject, makeSettings, makeTool } from './model-factory.js';

const settings = makeSettings();
const tools = () =>
  ['zeta', 'alpha', 'mid'].map((name) =>
    makeTool({ name, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
  );

/** A sink that keeps every file as path → bytes, the streamed ones joined from their pieces. */
function recordingSink(streamed: boolean) {
  const files = new Map<string, Buffer>();
  const units: ToolUnit[] = [];
  const sink: ProjectSink = {
    unit(unit) {
      units.push(unit);
      for (const file of unit.files) files.set(file.path, encoded(file));
    },
    file: (file: GeneratedFile) => files.set(file.path, encoded(file)),
    ...(streamed
      ? {
          stream(path: string): ManifestWriter {
            const pieces: Buffer[] = [];
            return { write: (bytes) => pieces.push(bytes), close: () => files.set(path, Buffer.concat(pieces)) };
          },
        }
      : {}),
  };
  return { sink, files, units };
}

describe('emitProject, the one composition of an emission', () => {
  it('gives the bytes emitAll gives, whether the manifests are streamed into the sink or handed whole', async () => {
    const all = await emitAll(makeProject(tools()), settings, { stubs: new Set() });
    expect(all.problems).toEqual([]);
    const expected = new Map(all.files.map((file) => [file.path, encoded(file)]));
    expect([...expected.keys()].some((file) => file.startsWith('manifests/'))).toBe(true);
    for (const streamed of [false, true]) {
      const project = makeProject(tools());
      const { sink, files } = recordingSink(streamed);
      const given = [...project.tools];
      const emitted = await emitProject(project, settings, sink, { tools: given, stubs: new Set() });
      expect(emitted.problems).toEqual([]);
      expect(new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))).toEqual(expected);
      // The caller's array is consumed: no model is held by it once emitted.
      expect(given).toEqual([]);
      expect(Object.keys(emitted.segments ?? {}).length).toBeGreaterThan(0);
    }
  });

  it('emits only the tools given, with no manifests and no project-wide files when the caller keeps them', async () => {
    const project = makeProject(tools());
    const { sink, files, units } = recordingSink(false);
    const emitted = await emitProject(project, settings, sink, {
      tools: project.tools.filter((tool) => tool.name === 'alpha'),
      stubs: new Set(['alpha']),
      manifests: 'given',
      listings: false,
    });
    expect(emitted.problems).toEqual([]);
    expect(units.map((unit) => unit.tool.name)).toEqual(['alpha']);
    expect(units[0]!.stub?.path).toBe('alpha.ts');
    expect([...files.keys()].every((file) => !file.startsWith('manifests/') && !file.startsWith('registry'))).toBe(
      true,
    );
    expect(emitted.segments).toBeUndefined();
  });
});
