import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { generate } from '../../codegen/generate.js';
import { cacheFile, modelCacheText, modelsFile, parseModelCache } from '../../codegen/incremental/index.js';
import { resolveOptions } from '../../codegen/config/options.js';
import { createTempProject, REPO } from '../helpers/temp-project.js';
import { unchangedNow } from './model-factory.js';

/** An io that records stdout lines. */
function recording(cwd: string) {
  const lines: string[] = [];
  return {
    lines,
    io: { cwd, stdout: (text: string) => void lines.push(text), stderr: (text: string) => void lines.push(text) },
  };
}

describe('the cache key is the generator’s code', () => {
  it('a generate after the runtime module that builds mcp.json was edited re-emits and writes it, instead of answering “unchanged”', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      // Two copies of the generator (codegen/, the src/ modules and the definition schema it imports) inside the temp project, so
      // their packages resolve through its node_modules: as it is, and with src/mcp/tool.ts edited to
      // give every MCP schema a `$comment` — the edit that used to leave generate answering "unchanged".
      const copy = (name: string) => {
        const root = path.join(project.root, name);
        for (const dir of ['codegen', 'src'])
          cpSync(path.join(REPO, dir), path.join(root, dir), {
            recursive: true,
            filter: (source) => !/^src[\\/](tools|adapters)([\\/]|$)/.test(path.relative(REPO, source)),
          });
        cpSync(path.join(REPO, 'tool-definition.schema.json'), path.join(root, 'tool-definition.schema.json'));
        return root;
      };
      const pristine = copy('generator-a');
      const edited = copy('generator-b');
      const mcpTool = path.join(edited, 'src/mcp/tool.ts');
      const source = readFileSync(mcpTool, 'utf8');
      const stamp = 'const out: Node = { $schema: MCP_SCHEMA_DIALECT };';
      expect(source).toContain(stamp);
      writeFileSync(
        mcpTool,
        source.replace(stamp, "const out: Node = { $schema: MCP_SCHEMA_DIALECT, $comment: 'edited generator' };"),
      );
      type Cli = typeof import('../../codegen/cli/main.js');
      const cliOf = async (root: string) =>
        (await import(pathToFileURL(path.join(root, 'codegen/cli/main.ts')).href)) as Cli;
      const [before, after] = [await cliOf(pristine), await cliOf(edited)];

      const { lines, io } = recording(project.root);
      expect(await before.main(['generate'], io), lines.join('')).toBe(0);
      expect(await before.main(['generate'], io)).toBe(0);
      expect(lines.at(-1)).toMatch(/^toolsmith: 7 tools \(7 unchanged, skipped\), 0 files written/);
      const mcp = project.read('generated/manifests/mcp.json');
      expect(mcp).not.toContain('edited generator');

      expect(await after.main(['generate'], io)).toBe(0);
      expect(lines.at(-1)).toMatch(/^toolsmith: 7 tools \(0 unchanged, skipped\), [1-9]\d* files written/);
      expect(project.read('generated/manifests/mcp.json')).toContain('"$comment": "edited generator"');
      // What the edited generator wrote is what it checks against; the original one now sees drift.
      expect(await after.main(['check'], io)).toBe(0);
      expect(await before.main(['check'], io)).toBe(1);
    } finally {
      project.dispose();
    }
  }, 180_000);

  it('a run under another fingerprint reuses nothing and the nothing-changed shortcut does not answer for it', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      const options = { root: project.root, runtimeImport: project.runtimeImport };
      expect(await main(['generate'], { cwd: project.root, stdout: () => undefined, stderr: () => undefined })).toBe(0);
      expect(unchangedNow(options)?.tools).toBe(7);
      expect(unchangedNow(options, 'another generator')).toBeUndefined();
      const other = await generate({ ...options, fingerprint: 'another generator' });
      expect([other.reused, other.manifests, other.problems]).toEqual([0, 'assembled', []]);
      // Its cache and snapshot are now the other generator's: the original one is the one that differs.
      expect(unchangedNow(options, 'another generator')?.tools).toBe(7);
      expect(unchangedNow(options)).toBeUndefined();
    } finally {
      project.dispose();
    }
  }, 120_000);
});

describe('streaming into the staging tree', () => {
  it('a failed run writes nothing and leaves no staging tree, and a check compares without writing', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      const options = { root: project.root, runtimeImport: project.runtimeImport };
      expect((await generate(options)).problems).toEqual([]);
      const before = project.snapshot('generated');
      const file = 'schemas/utility/calculator.tool.json';
      const definition = JSON.parse(project.read(file));
      // Calculator's files change (so the staging tree is started), and the cached model of another tool
      // has a type Ajv rejects, so its emission fails (a problem at that schema); without the generation cache every tool
      // is emitted, the others staged before or after the failure.
      project.write(file, { ...definition, description: 'Changed before the failure.' });
      const resolved = resolveOptions(options);
      const models = modelsFile(resolved.root, resolved.outDir)!;
      const cached = parseModelCache(readFileSync(models, 'utf8'));
      const entry = cached.tools['memory/memory_read.tool.json']!;
      cached.tools['memory/memory_read.tool.json'] = {
        ...entry,
        model: { ...entry.model, inputSchema: { type: 'no-such-type' } as never },
      };
      writeFileSync(models, modelCacheText(cached));
      rmSync(cacheFile(resolved.root, resolved.outDir)!);
      const failed = await generate(options);
      expect(failed.problems.map((problem) => problem.message)).toEqual([
        'the schema does not compile: type must be JSONType or JSONType[]: no-such-type',
      ]);
      expect(failed.replaced).toBe(false);
      expect(project.snapshot('generated')).toEqual(before);
      expect(readdirSync(project.root).filter((name) => name.startsWith('generated.toolsmith-'))).toEqual([]);

      project.write('schemas/utility/zz_extra.tool.json', { ...definition, name: 'zz_extra' });
      const checked = await generate({ ...options, check: true });
      expect(checked.diff.missing).toContain('tools/zz-extra.base.ts');
      expect(checked.diff.stale).toContain('tools/calculator.base.ts');
      expect(checked.stubs).toEqual(['zz-extra.ts']);
      expect([checked.replaced, checked.reused]).toEqual([false, 0]);
      expect(project.snapshot('generated')).toEqual(before);
    } finally {
      project.dispose();
    }
  }, 120_000);
});

describe('regenerating after each kind of change', () => {
  it('a run of changes, a removal, an addition and a revert each gives the output a fresh check finds up to date', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      const options = { root: project.root, runtimeImport: project.runtimeImport };
      expect((await generate(options)).problems).toEqual([]);
      const calculator = 'schemas/utility/calculator.tool.json';
      const original = project.read(calculator);
      const definition = JSON.parse(original);
      const steps: [string, () => void][] = [
        ['a description changed', () => project.write(calculator, { ...definition, description: 'Changed once.' })],
        ['changed again', () => project.write(calculator, { ...definition, description: 'Changed twice.' })],
        [
          'a tool added',
          () => project.write('schemas/utility/zz_extra.tool.json', { ...definition, name: 'zz_extra' }),
        ],
        ['a tool removed', () => rmSync(path.join(project.root, 'schemas/utility/zz_extra.tool.json'))],
        ['reverted', () => writeFileSync(path.join(project.root, calculator), original)],
      ];
      for (const [label, step] of steps) {
        step();
        const run = await generate(options);
        expect(run.problems, label).toEqual([]);
        expect(run.replaced, label).toBe(true);
        // Nothing is left beside the output.
        expect(
          readdirSync(project.root).filter((name) => name.includes('.toolsmith-')),
          label,
        ).toEqual([]);
        const checked = await generate({ ...options, check: true });
        expect(checked.diff, label).toMatchObject({ stale: [], missing: [], extra: [] });
      }
    } finally {
      project.dispose();
    }
  }, 180_000);
});
