import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { cacheFile, modelsFile, modelCacheText, parseModelCache, readModels } from '../../codegen/incremental/index.js';
import { generate } from '../../codegen/generate.js';
import { resolveOptions } from '../../codegen/config/options.js';
import { unchangedNow } from './model-factory.js';
import { createTempProject } from '../helpers/temp-project.js';

const quiet = (cwd: string) => ({ cwd, stdout: () => undefined, stderr: () => undefined });

describe('incremental generation', () => {
  it('skips unchanged tools, re-emits a changed one and everything that lists it, and never trusts tampered files', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      expect(await main(['generate'], quiet(project.root))).toBe(0);
      const options = { root: project.root, runtimeImport: project.runtimeImport };
      const resolved = resolveOptions(options);
      const full = project.snapshot('generated');
      // What a run from scratch gives (a check trusts no cache): the incremental output must be it.
      const asFromScratch = async () =>
        expect((await generate({ ...options, check: true })).diff).toMatchObject({ stale: [], missing: [], extra: [] });
      await asFromScratch();

      const unchanged = await generate(options);
      expect([unchanged.reused, unchanged.replaced]).toEqual([7, false]);
      expect(unchanged.diff.same).toHaveLength(Object.keys(full).length);

      const file = path.join(project.root, 'schemas/utility/calculator.tool.json');
      const definition = JSON.parse(readFileSync(file, 'utf8'));
      definition.description = 'A changed description.';
      writeFileSync(file, JSON.stringify(definition));
      const changed = await generate(options);
      expect(changed.reused).toBe(6);
      // The manifests and loss reports were spliced from the last run's files, not printed whole again.
      expect(changed.manifests).toBe('spliced');
      const byPath = project.snapshot('generated');
      expect(byPath['tools/calculator.base.ts']).toContain('A changed description.');
      expect(byPath['manifests/openai.json']).toContain('A changed description.');
      expect(byPath['docs/tools/calculator.md']).toContain('A changed description.');
      expect(byPath['tools/memory-read.base.ts']).toBe(full['tools/memory-read.base.ts']);
      expect(changed.diff.stale).toContain('docs/tools/calculator.md');
      expect(changed.diff.stale).not.toContain('docs/tools/memory-read.md');
      // A tool's doc page and schemas file belong to that tool (cached with it), so an unchanged tool's
      // are reused with its other files rather than rendered again with the files that list every tool.
      const cache = JSON.parse(readFileSync(cacheFile(resolved.root, resolved.outDir)!, 'utf8'));
      expect([...cache.tools.memory_read.files].sort()).toEqual([
        'docs/tools/memory-read.md',
        'schemas/memory-read.json',
        'tools/memory-read.base.ts',
        'types/memory-read.ts',
        'validators/memory-read.d.ts',
        'validators/memory-read.js',
      ]);
      await asFromScratch();

      project.write('generated/tools/read-file.base.ts', '// tampered\n');
      const repaired = await generate(options);
      expect([repaired.reused, repaired.manifests]).toEqual([6, 'spliced']);
      expect(repaired.diff.stale).toEqual(['tools/read-file.base.ts']);
      // The repaired tool is emitted again from a model whose compile was skipped: its validator is
      // compiled anew, byte-identical, and its doc page shows what each target loses, from its
      // manifest parts made anew.
      expect(project.snapshot('generated')).toEqual(byPath);

      // A manifest edited by hand is not spliced: the listings are printed whole, and right.
      project.write('generated/manifests/openai.json', '[]\n');
      definition.description = 'Changed again.';
      writeFileSync(file, JSON.stringify(definition));
      expect((await generate(options)).manifests).toBe('assembled');
      await asFromScratch();

      // A tool added: the listings have another tool, so they are printed whole, and right.
      project.write('schemas/utility/extra_tool.tool.json', {
        ...definition,
        name: 'extra_tool',
        description: 'Another tool — with “quotes”.',
      });
      const added = await generate(options);
      expect([added.reused, added.manifests]).toEqual([7, 'assembled']);
      await asFromScratch();
      // And the next change after it is spliced again, with non-ASCII text in the part.
      project.write('schemas/utility/extra_tool.tool.json', {
        ...definition,
        name: 'extra_tool',
        description: 'Ünïcode — changed.',
      });
      expect((await generate(options)).manifests).toBe('spliced');
      await asFromScratch();
    } finally {
      project.dispose();
    }
  }, 120_000);
});

describe('the nothing-changed shortcut', () => {
  it('answers only when inputs, outputs and stubs are exactly as the last successful run left them', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      const options = { root: project.root, runtimeImport: project.runtimeImport };
      expect(unchangedNow(options)).toBeUndefined(); // no run yet
      const output: string[] = [];
      const io = { cwd: project.root, stdout: (text: string) => void output.push(text), stderr: () => undefined };
      expect(await main(['generate'], io)).toBe(0);
      const files = Object.keys(project.snapshot('generated')).length;
      expect(unchangedNow(options)).toEqual({ tools: 7, files });
      expect(await main(['generate'], io)).toBe(0);
      expect(output.at(-1)).toMatch(
        new RegExp(`^toolsmith: 7 tools \\(7 unchanged, skipped\\), 0 files written, ${files} up to date`),
      );

      // Each change below must send the run down the full path, which repairs it.
      const changes: Array<[string, () => void, () => void]> = [
        [
          'a definition changed',
          () =>
            project.write(
              'schemas/utility/calculator.tool.json',
              `${project.read('schemas/utility/calculator.tool.json')} `,
            ),
          () => undefined,
        ],
        [
          'a definition added',
          () => project.write('schemas/utility/extra.schema.json', { type: 'string' }),
          () => rmSync(path.join(project.root, 'schemas/utility/extra.schema.json')),
        ],
        [
          'a generated file rewritten at the same size',
          () =>
            project.write(
              'generated/tools/read-file.base.ts',
              project.read('generated/tools/read-file.base.ts').replace('a', 'b'),
            ),
          () => undefined,
        ],
        [
          'a generated file removed',
          () => rmSync(path.join(project.root, 'generated/manifests/openai.json')),
          () => undefined,
        ],
        ['a file added to the output', () => project.write('generated/notes.txt', 'mine'), () => undefined],
        ['a stub removed', () => rmSync(path.join(project.root, 'src/tools/calculator.ts')), () => undefined],
      ];
      const pristine = project.snapshot('generated');
      for (const [what, change, undo] of changes) {
        change();
        expect(unchangedNow(options), what).toBeUndefined();
        expect(await main(['generate'], io), what).toBe(0);
        undo();
        expect(await main(['generate'], io), what).toBe(0);
        expect(project.snapshot('generated'), what).toEqual(pristine);
        expect(unchangedNow(options), what).toEqual({ tools: 7, files });
      }
      expect(existsSync(path.join(project.root, 'src/tools/calculator.ts'))).toBe(true);
    } finally {
      project.dispose();
    }
  }, 120_000);
});

describe('a moved schemas folder', () => {
  it('reuses nothing: the output names the new folder, as a run from scratch gives it', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      expect(await main(['generate'], quiet(project.root))).toBe(0);
      renameSync(path.join(project.root, 'schemas'), path.join(project.root, 'definitions'));
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport, schemas: 'definitions' });
      const options = { root: project.root, runtimeImport: project.runtimeImport, schemas: 'definitions' };
      expect(unchangedNow(options)).toBeUndefined();
      const moved = await generate(options);
      expect(moved.reused).toBe(0);
      const written = project.snapshot('generated');
      expect(Object.values(written).some((text) => text.includes('definitions/'))).toBe(true);
      // A check trusts no cache: what it generates from scratch is what the run wrote.
      expect(await main(['check'], quiet(project.root))).toBe(0);
    } finally {
      project.dispose();
    }
  }, 120_000);
});

describe('the snapshot after a run that reused files', () => {
  it('records for every output exactly the stat it has now (a file the run did not rewrite keeps its own)', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      expect(await main(['generate'], quiet(project.root))).toBe(0);
      const relPath = 'schemas/utility/calculator.tool.json';
      project.write(relPath, project.read(relPath).replace('"description": "', '"description": "Now: '));
      expect(await main(['generate'], quiet(project.root))).toBe(0);
      const resolved = resolveOptions({ root: project.root, runtimeImport: project.runtimeImport });
      const cache = JSON.parse(readFileSync(cacheFile(resolved.root, resolved.outDir)!, 'utf8')) as {
        snapshot: { outputs: Record<string, [number, string, number]> };
      };
      const outputs = Object.entries(cache.snapshot.outputs);
      expect(outputs.length).toBeGreaterThan(50);
      for (const [file, recorded] of outputs) {
        const stat = statSync(path.join(resolved.outDir, file), { bigint: true });
        expect(recorded, file).toEqual([Number(stat.size), stat.mtimeNs.toString(), Number(stat.ino)]);
      }
      expect(unchangedNow({ root: project.root, runtimeImport: project.runtimeImport })).toEqual({
        tools: 7,
        files: outputs.length,
      });
    } finally {
      project.dispose();
    }
  }, 60_000);
});

describe('the model cache', () => {
  it('gives a definition back the model built from the same bytes, and builds it again when a byte changes', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      expect(await main(['generate'], quiet(project.root))).toBe(0);
      const options = { root: project.root, runtimeImport: project.runtimeImport };
      const resolved = resolveOptions(options);
      const file = modelsFile(resolved.root, resolved.outDir)!;
      const stored = parseModelCache(readFileSync(file, 'utf8'));
      expect(Object.keys(stored.tools).sort()).toHaveLength(7);
      expect(readModels(file, stored.key, 'another set of shared schemas')).toEqual({});

      // A cached model is used as it is while the definition's bytes are unchanged…
      const relPath = 'utility/calculator.tool.json';
      stored.tools[relPath] = {
        ...stored.tools[relPath]!,
        model: { ...stored.tools[relPath]!.model, description: 'Described by the cache.' },
      };
      writeFileSync(file, modelCacheText(stored));
      // An output file gone: the nothing-changed shortcut does not answer, normalize runs over the cache.
      rmSync(path.join(resolved.outDir, 'docs/index.md'));
      const fromCache = await generate(options);
      expect(fromCache.project!.tools.find((tool) => tool.name === 'calculator')?.description).toBe(
        'Described by the cache.',
      );

      // …and not once they change (here: one more space at the end).
      const linesBefore = readFileSync(file, 'utf8').split('\n');
      project.write(`schemas/${relPath}`, `${project.read(`schemas/${relPath}`)} `);
      const rebuilt = await generate(options);
      // The other definitions' lines are written back as read; only the changed one is new.
      const linesAfter = readFileSync(file, 'utf8').split('\n');
      expect(
        linesAfter.filter((line) => !linesBefore.includes(line)).map((line) => (JSON.parse(line) as unknown[])[0]),
      ).toEqual([relPath]);
      expect(rebuilt.project!.tools.find((tool) => tool.name === 'calculator')?.description).toMatch(
        /^Evaluates an arithmetic expression/,
      );
      const next = parseModelCache(readFileSync(file, 'utf8'));
      expect(next.tools[relPath]?.raw).not.toBe(stored.tools[relPath]!.raw);
      expect(next.tools[relPath]?.model.description).toMatch(/^Evaluates an arithmetic expression/);
    } finally {
      project.dispose();
    }
  }, 120_000);
});

describe('the generator fingerprint covers the runtime modules the generator imports', () => {
  it('changes when a src/ module changes (e.g. mcp/tool.ts, which builds mcp.json), not for the example tools or adapters', async () => {
    const { codeFingerprint } = await import('../../codegen/incremental/index.js');
    const { mkdtempSync, mkdirSync: mkdir, writeFileSync: write, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const nodePath = await import('node:path');
    const root = mkdtempSync(nodePath.join(tmpdir(), 'toolsmith-fingerprint-'));
    try {
      for (const dir of ['codegen', 'src/mcp', 'src/tools', 'src/adapters'])
        mkdir(nodePath.join(root, dir), { recursive: true });
      const file = (relative: string, text: string) => write(nodePath.join(root, relative), text);
      file('codegen/generate.ts', 'export {};');
      file('src/mcp/tool.ts', "export const a = 'draft-07';");
      file('src/tools/calculator.ts', 'export {};');
      file('src/adapters/ai-sdk.ts', 'export {};');
      const before = codeFingerprint(nodePath.join(root, 'codegen'));
      file('src/tools/calculator.ts', 'export const changed = 1;');
      file('src/adapters/ai-sdk.ts', 'export const changed = 1;');
      expect(codeFingerprint(nodePath.join(root, 'codegen'))).toBe(before);
      file('src/mcp/tool.ts', "export const a = '2020-12';");
      const afterRuntime = codeFingerprint(nodePath.join(root, 'codegen'));
      expect(afterRuntime).not.toBe(before);
      file('codegen/generate.ts', 'export const changed = 1;');
      expect(codeFingerprint(nodePath.join(root, 'codegen'))).not.toBe(afterRuntime);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
