import { createHash } from 'node:crypto';
import { MANIFEST_TARGET_TABLE, MANIFEST_TARGETS, type ManifestTarget } from '../../src/manifest-targets/table.js';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { generate } from '../../codegen/generate.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

interface Report {
  tokenizer: Record<string, { exact: boolean; encoding?: string; charsPerToken?: number }>;
  tools: Record<string, Record<string, number | string | boolean>>;
  totals: Record<string, number>;
}

const EVERY_TARGET = { manifests: { targets: [...MANIFEST_TARGETS] } };

/** The repository's example definitions in a temp project, every target on. */
function examplesProject(config: Record<string, unknown> = {}): TempProject {
  const project = createTempProject({ schemas: 'schemas' });
  project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport, ...EVERY_TARGET, ...config });
  return project;
}

/** An io that records what the CLI prints. */
function recording(cwd: string) {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      cwd,
      stdout: (text: string) => void (out.stdout += text),
      stderr: (text: string) => void (out.stderr += text),
    },
  };
}

const readReport = (project: TempProject): Report => JSON.parse(project.read('generated/manifests/token-report.json'));

/** Each target's entries as written, by tool name, read back from the manifest files (not from the generator). */
function writtenEntries(project: TempProject, target: ManifestTarget): Map<string, unknown> {
  const { file, key } = MANIFEST_TARGET_TABLE[target];
  const content = JSON.parse(project.read(`generated/${file}`)) as unknown[] | Record<string, unknown[]>;
  const list = (key === undefined ? content : (content as Record<string, unknown[]>)[key]) as Record<string, unknown>[];
  return new Map(
    list.map((entry) => [(entry.name ?? (entry.function as { name: string }).name) as string, entry as unknown]),
  );
}

describe('manifests/token-report.json', () => {
  it('holds, for every tool and target, the o200k_base count (or the estimate) of the entry as written, its hash and the totals', async () => {
    const project = examplesProject();
    try {
      const { out, io } = recording(project.root);
      expect(await main(['generate'], io)).toBe(0);
      expect(out.stderr).toBe('');
      const report = readReport(project);
      expect(Object.keys(report.tokenizer)).toEqual([...MANIFEST_TARGETS].sort());
      const names = Object.keys(report.tools);
      expect(names).toHaveLength(7);
      const totals: Record<string, number> = {};
      const hashes = new Map<string, ReturnType<typeof createHash>>(names.map((name) => [name, createHash('sha256')]));
      for (const target of MANIFEST_TARGETS) {
        const entries = writtenEntries(project, target);
        const tokenizer = report.tokenizer[target]!;
        totals[target] = 0;
        for (const name of names) {
          const entry = entries.get(name);
          if (entry === undefined) {
            expect(report.tools[name]![target], `${name} ${target}`).toBeUndefined();
            continue;
          }
          const json = JSON.stringify(entry);
          const expected = tokenizer.exact ? encode(json).length : Math.ceil(json.length / tokenizer.charsPerToken!);
          expect(report.tools[name]![target], `${name} ${target}`).toBe(expected);
          totals[target]! += expected;
          hashes.get(name)!.update(`${target}\n${json}\n`);
        }
      }
      expect(report.totals).toEqual(totals);
      for (const name of names) expect(report.tools[name]!.hash).toBe(hashes.get(name)!.digest('hex'));
      // The o200k targets say they are exact, the others that they are estimates.
      expect(report.tokenizer.openai).toMatchObject({ encoding: 'o200k_base', exact: true });
      expect(report.tokenizer.anthropic).toMatchObject({ exact: false });
      // The totals close the loss report and are on the docs index.
      for (const file of ['generated/manifests/loss-report.md', 'generated/docs/index.md']) {
        const text = project.read(file);
        expect(text, file).toContain(`| openai | ${totals.openai} | o200k_base (exact) |`);
        expect(text, file).toContain(
          `| anthropic | ${totals.anthropic} | estimate (characters / ${report.tokenizer.anthropic!.charsPerToken}) |`,
        );
      }
    } finally {
      project.dispose();
    }
  });

  it('is byte-identical across two generates, and a one-tool change recounts that tool only, as a whole generate would', async () => {
    const first = examplesProject();
    const second = examplesProject();
    try {
      const options = (project: TempProject) => ({
        root: project.root,
        runtimeImport: project.runtimeImport,
        manifestTargets: [...MANIFEST_TARGETS],
      });
      expect((await generate(options(first))).problems).toEqual([]);
      expect((await generate(options(second))).problems).toEqual([]);
      const snapshot = first.snapshot('generated');
      expect(second.snapshot('generated')).toEqual(snapshot);
      const before = readReport(first);

      // One definition's description grows: the run splices the manifests and counts that tool again.
      for (const project of [first, second]) {
        const file = path.join(project.root, 'schemas/utility/calculator.tool.json');
        const definition = JSON.parse(readFileSync(file, 'utf8'));
        definition.description = `${definition.description} It also says much more about what it does, at length.`;
        writeFileSync(file, `${JSON.stringify(definition, null, 2)}\n`);
      }
      const spliced = await generate(options(first));
      expect(spliced.manifests).toBe('spliced');
      const after = readReport(first);
      for (const name of Object.keys(before.tools))
        if (name !== 'calculator') expect(after.tools[name], name).toEqual(before.tools[name]);
      expect(after.tools.calculator!.openai).toBeGreaterThan(before.tools.calculator!.openai as number);
      expect(after.tools.calculator!.hash).not.toBe(before.tools.calculator!.hash);
      expect(after.totals.openai).toBe(
        before.totals.openai! +
          (after.tools.calculator!.openai as number) -
          (before.tools.calculator!.openai as number),
      );
      // The second project is generated whole (no cache): the same bytes.
      expect((await generate({ ...options(second), fingerprint: 'fresh' })).manifests).toBe('assembled');
      const whole = second.snapshot('generated');
      for (const file of ['manifests/token-report.json', 'manifests/loss-report.md', 'docs/index.md'])
        expect(first.snapshot('generated')[file], file).toBe(whole[file]);
    } finally {
      first.dispose();
      second.dispose();
    }
  });
});

describe('a long unbroken run in an entry', () => {
  it('is counted in pieces, never merged whole: the tool is marked estimated, the totals say so, a splice keeps the mark', async () => {
    const project = createTempProject();
    const definition = (name: string, description: string) => ({
      name,
      description: 'A tool.',
      inputSchema: { type: 'object', properties: { q: { type: 'string', description } } },
    });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport, ...EVERY_TARGET });
      project.write('schemas/long.tool.json', definition('long', 'x'.repeat(100_000)));
      project.write('schemas/short.tool.json', definition('short', 'A query.'));
      expect(await main(['generate'], recording(project.root).io)).toBe(0);
      const report = readReport(project);
      expect(report.tools.long!.estimated).toBe(true);
      expect(report.tools.short!.estimated).toBeUndefined();
      // Pieces of 256 'x': each is 32 o200k tokens, so the run costs 100,000 / 8 = 12,500 of the count.
      expect(report.tools.long!.openai).toBeGreaterThan(12_500);
      expect(report.tools.long!.openai).toBeLessThan(12_600);
      expect(report.tokenizer.openai).toMatchObject({ exact: true, longRuns: expect.stringContaining('256') });
      expect(project.read('generated/manifests/loss-report.md')).toContain(
        `| openai | ${report.totals.openai} | o200k_base (exact but for 1 estimated tool) |`,
      );
      // The other tool changes: the long one's row (and its mark) comes from the last report.
      project.write('schemas/short.tool.json', definition('short', 'A query, in full.'));
      expect(await main(['generate'], recording(project.root).io)).toBe(0);
      expect(readReport(project).tools.long).toEqual(report.tools.long);
    } finally {
      project.dispose();
    }
  });
});

describe('manifests.tokenReport', () => {
  it('false: nothing counted, no token-report.json, no totals in the loss report or docs index; the manifests are the same bytes; true is as before', async () => {
    // Namespaces too: their manifest is made from the entries the token report would count.
    const manifests = { ...EVERY_TARGET.manifests, deferLoading: { namespaces: true } };
    const counted = examplesProject({ manifests: { ...manifests, tokenReport: true } });
    const off = examplesProject({ manifests: { ...manifests, tokenReport: false } });
    try {
      for (const project of [counted, off]) expect(await main(['generate'], recording(project.root).io)).toBe(0);
      const withReport = counted.snapshot('generated');
      const without = off.snapshot('generated');
      const totals = '## What each manifest costs';
      expect(withReport['manifests/token-report.json']).toContain('"totals"');
      expect(withReport['manifests/loss-report.md']).toContain(totals);
      expect(withReport['docs/index.md']).toContain('token-report.json');
      expect(without['manifests/token-report.json']).toBeUndefined();
      expect(without['manifests/loss-report.md']).not.toContain(totals);
      expect(without['manifests/loss-report.md']).toBe(
        withReport['manifests/loss-report.md']!.replace(/\n\n## What each manifest costs[\s\S]*$/, '\n'),
      );
      expect(without['docs/index.md']).not.toContain('token-report.json');
      expect(Object.keys(without).sort()).toEqual(
        Object.keys(withReport)
          .filter((file) => file !== 'manifests/token-report.json')
          .sort(),
      );
      for (const file of Object.keys(without))
        if (file.startsWith('manifests/') && file !== 'manifests/loss-report.md')
          expect(without[file], file).toBe(withReport[file]);

      // A one-tool change spliced in with the report off: still no report, no totals.
      const definitionFile = path.join(off.root, 'schemas/utility/calculator.tool.json');
      const definition = JSON.parse(readFileSync(definitionFile, 'utf8'));
      definition.description = `${definition.description} It also says more.`;
      writeFileSync(definitionFile, `${JSON.stringify(definition, null, 2)}\n`);
      expect(await main(['generate'], recording(off.root).io)).toBe(0);
      const spliced = off.snapshot('generated');
      expect(spliced['manifests/token-report.json']).toBeUndefined();
      expect(spliced['manifests/loss-report.md']).not.toContain(totals);

      // Turned on again: the report is back, as a project that always had it writes it.
      off.write('toolsmith.config.json', {
        runtimeImport: off.runtimeImport,
        manifests: { ...manifests, tokenReport: true },
      });
      expect(await main(['generate'], recording(off.root).io)).toBe(0);
      expect(readReport(off).tools.calculator!.openai).toBeGreaterThan(
        readReport(counted).tools.calculator!.openai as number,
      );
      expect(off.read('generated/manifests/loss-report.md')).toContain(totals);

      // Turned off in a project that had it: the report goes, the rest is as generated off from the start.
      counted.write('toolsmith.config.json', {
        runtimeImport: counted.runtimeImport,
        manifests: { ...manifests, tokenReport: false },
      });
      expect(await main(['generate'], recording(counted.root).io)).toBe(0);
      expect(counted.snapshot('generated')).toEqual(without);
    } finally {
      counted.dispose();
      off.dispose();
    }
  });
});

describe('manifests.tokenBudget', () => {
  it('over budget is a warning naming the biggest tools and what in them costs most; a problem under --strict; a budget change alone judges again', async () => {
    const project = examplesProject({ manifests: { targets: ['openai', 'anthropic'] } });
    try {
      const free = recording(project.root);
      expect(await main(['generate'], free.io)).toBe(0);
      const report = readReport(project);
      const byCost = Object.keys(report.tools).sort(
        (a, b) => (report.tools[b]!.openai as number) - (report.tools[a]!.openai as number) || (a < b ? -1 : 1),
      );
      const biggest = byCost[0]!;
      const perTool = (report.tools[byCost[1]!]!.openai as number) + 0;

      // A budget under the total and under the biggest tool: two warnings, the run goes on.
      const budget = { openai: { total: 100, perTool } };
      project.write('toolsmith.config.json', {
        runtimeImport: project.runtimeImport,
        manifests: { targets: ['openai', 'anthropic'], tokenBudget: budget },
      });
      const warned = recording(project.root);
      expect(await main(['generate'], warned.io)).toBe(0);
      const lines = warned.out.stderr.split('\n');
      const total = lines.find((line) => line.includes('manifests/openai.json costs'))!;
      expect(total).toMatch(
        new RegExp(
          `^generated/manifests/token-report\\.json:\\d+:5 /totals/openai: warning: manifests/openai\\.json costs ${report.totals.openai} o200k_base tokens, over its budget of 100 \\(manifests\\.tokenBudget\\.openai\\.total\\)\\. The biggest tools: ${biggest} \\(${report.tools[biggest]!.openai}: (descriptions|enums|nested schemas) \\d+`,
        ),
      );
      for (const name of byCost.slice(0, 5)) expect(total).toContain(` ${name} (${report.tools[name]!.openai}`);
      // Placed at the count that is over: its line in the report.
      const reportLines = project.read('generated/manifests/token-report.json').split('\n');
      expect(reportLines[Number(/^[^:]+:(\d+):/.exec(total)![1]) - 1]).toBe(`    "openai": ${report.totals.openai}`);
      const over = lines.find((line) => line.includes('per-tool budget'))!;
      expect(over).toContain(
        `1 tool costs more than the per-tool budget of ${perTool} o200k_base tokens in manifests/openai.json (manifests.tokenBudget.openai.perTool): ${biggest} (${report.tools[biggest]!.openai}: `,
      );
      expect(reportLines[Number(/^[^:]+:(\d+):/.exec(over)![1]) - 1]).toBe(`    ${JSON.stringify(biggest)}: {`);
      expect(warned.out.stderr).toContain('raise `manifests.tokenBudget.openai.total` in the config');
      expect(readReport(project)).toEqual(report);

      // Nothing changed: the warnings are told again (no file is emitted).
      const again = recording(project.root);
      expect(await main(['generate'], again.io)).toBe(0);
      expect(again.out.stderr).toBe(warned.out.stderr);

      // --strict: the same warnings are problems, nothing is written.
      const strict = recording(project.root);
      expect(await main(['generate', '--strict'], strict.io)).toBe(1);
      expect(strict.out.stderr).toContain('manifests/openai.json costs');
      expect(strict.out.stderr).toContain('errors under --strict); nothing was written.');

      // Only the budget changes, to one the manifests fit: no warning, and no file rewritten.
      const files = project.snapshot('generated');
      project.write('toolsmith.config.json', {
        runtimeImport: project.runtimeImport,
        manifests: {
          targets: ['openai', 'anthropic'],
          tokenBudget: { openai: { total: 1_000_000, perTool: 100_000 } },
        },
      });
      const fits = recording(project.root);
      expect(await main(['generate'], fits.io)).toBe(0);
      expect(fits.out.stderr).toBe('');
      expect(project.snapshot('generated')).toEqual(files);
      // And back: judged again from the last report.
      project.write('toolsmith.config.json', {
        runtimeImport: project.runtimeImport,
        manifests: { targets: ['openai', 'anthropic'], tokenBudget: budget },
      });
      const back = recording(project.root);
      expect(await main(['generate'], back.io)).toBe(0);
      expect(back.out.stderr).toBe(warned.out.stderr);
    } finally {
      project.dispose();
    }
  });
});
