import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AssembledFile,
  createManifestAssembler,
  InNameOrder,
  memoryWriter,
  toolManifests,
} from '../../codegen/emit/manifests/index.js';
import { toolHostReport } from '../../codegen/emit/manifests/host-report.js';
import { LOSS_REPORT_LAYOUT, toolLossText } from '../../codegen/emit/manifests/loss-report.js';
import { tokenTotalsMarkdown } from '../../codegen/emit/manifests/token-report.js';
import { markdownBanner } from '../../codegen/emit/banner.js';
import { compareStrings } from '../../src/manifest-targets/build.js';
import {
  buildManifestTarget,
  MANIFEST_TARGET_TABLE,
  MANIFEST_TARGETS,
  type ManifestTarget,
} from '../../src/manifest-targets/table.js';
import type { GeneratedFile, ToolModel } from '../../codegen/model.js';
import { encoded } from '../../codegen/write.js';
import { FIXTURE_TOOLS } from './manifest-fixtures.js';
import { makeProject, makeTool, TEST_CONTEXT, emitManifests } from './model-factory.js';

/** The fixtures (shapes the targets disagree on), a tool that turns two targets off, and plain ones. */
const TOOLS: readonly ToolModel[] = [
  ...FIXTURE_TOOLS,
  makeTool({
    name: 'turned_off',
    inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^a', default: 'a' } } },
    excludedTargets: ['gemini', 'openai-strict'],
  }),
  ...Array.from({ length: 6 }, (_, index) =>
    makeTool({
      name: `plain_${index}`,
      description: `Plain tool ${index}, é ✓.`,
      inputSchema: {
        type: 'object',
        required: ['q'],
        properties: { q: { type: 'string', maxLength: index + 1, format: 'email' }, n: { type: 'integer' } },
      },
    }),
  ),
];

const OPTIONS = { targets: MANIFEST_TARGETS, describeLosses: true } as const;

/** Each file's path and bytes (as hex: compared as strings, quickly). */
const bytesByPath = (files: readonly GeneratedFile[]) =>
  files.map((file) => [file.path, encoded(file).toString('hex')] as const);

describe('manifests assembled from each tool’s part', () => {
  it('are the files each target builds from every tool at once (a tool’s entry depends on that tool only)', () => {
    const result = emitManifests(makeProject([...TOOLS]), TEST_CONTEXT, OPTIONS);
    expect(result.problems).toEqual([]);
    // Recursion, a free-form object, a tuple: some targets leave some tools out (warnings).
    expect(result.warnings.length).toBeGreaterThan(0);
    for (const target of MANIFEST_TARGETS) {
      const included = TOOLS.filter((tool) => !tool.excludedTargets?.includes(target));
      const whole = buildManifestTarget(target, { tools: included, describeLosses: true });
      const file = result.files.find((candidate) => candidate.path === MANIFEST_TARGET_TABLE[target].file)!;
      expect(file.content, target).toBe(`${JSON.stringify(whole.content, null, 2)}\n`);
    }
    // The Markdown report: its introduction, each tool's text made from the run's losses (name order), the token totals.
    const { markdown } = LOSS_REPORT_LAYOUT;
    const hosts = new Map(TOOLS.map((tool) => [tool.name, toolHostReport(tool, OPTIONS)]));
    const toolTexts = Object.keys(result.losses).map(
      (name) => toolLossText(name, result.losses[name]!, result.unavailable[name], hosts.get(name)).markdown,
    );
    const report = result.files.find((file) => file.path === markdown.path)!.content;
    expect(report).toBe(
      `${markdown.head(markdownBanner('the tool definitions', TEST_CONTEXT).trimEnd())}${toolTexts.join('\n\n')}\n\n${tokenTotalsMarkdown(result.tokens!)}\n`,
    );
    expect(report).toContain('## What each manifest costs');
    // Every recorded range holds that tool's part.
    for (const [file, segments] of Object.entries(result.segments!)) {
      const bytes = encoded(result.files.find((candidate) => candidate.path === file)!);
      segments.tools.forEach((tool, index) => {
        const part = bytes.subarray(segments.ranges[index * 2]!, segments.ranges[index * 2 + 1]!).toString('utf8');
        expect(part, `${file} ${tool}`).toContain(JSON.stringify(tool).slice(1, -1));
      });
    }
  });

  it('with no tool, are still the loss reports: an empty object, and the Markdown introduction alone', () => {
    const result = emitManifests(makeProject([]), TEST_CONTEXT, OPTIONS);
    const content = (path: string) => result.files.find((file) => file.path === path)?.content;
    expect(content('manifests/loss-report.json')).toBe('{}\n');
    const markdown = content('manifests/loss-report.md')!;
    expect(markdown.startsWith(markdownBanner('the tool definitions', TEST_CONTEXT).trimEnd())).toBe(true);
    expect(markdown).toContain('\n\n# What each manifest loses\n\nEach provider format');
    expect(markdown.endsWith('cannot take at all is listed as not available there.\n')).toBe(true);
    expect(markdown).not.toContain('\n## ');
  });

  it('give the same bytes and ranges whatever order the parts come in', () => {
    const expected = emitManifests(makeProject([...TOOLS]), TEST_CONTEXT, OPTIONS);
    const parts = TOOLS.map((tool) => toolManifests(tool, OPTIONS));
    fc.assert(
      fc.property(fc.shuffledSubarray(parts, { minLength: parts.length, maxLength: parts.length }), (order) => {
        const assembler = createManifestAssembler(TOOLS, TEST_CONTEXT, OPTIONS);
        for (const { manifests, losses } of order) assembler.add(manifests, losses);
        const assembled = assembler.finish();
        expect(bytesByPath(assembled.files)).toEqual(bytesByPath(expected.files));
        expect(assembled.segments).toEqual(expected.segments);
        expect(assembled.losses).toEqual(expected.losses);
        expect(assembled.unavailable).toEqual(expected.unavailable);
      }),
      { numRuns: 40 },
    );
  });

  it('given the run’s output, write each file there as the parts come in, before `finish`: the bytes made in memory', () => {
    const expected = new Map(
      emitManifests(makeProject([...TOOLS]), TEST_CONTEXT, OPTIONS).files.map((file) => [file.path, encoded(file)]),
    );
    const received = new Map<string, Buffer[]>();
    const closed: string[] = [];
    const output = {
      open: (path: string) => {
        const pieces: Buffer[] = [];
        received.set(path, pieces);
        return { write: (bytes: Buffer) => void pieces.push(bytes), close: () => void closed.push(path) };
      },
    };
    const assembler = createManifestAssembler(TOOLS, TEST_CONTEXT, OPTIONS, { output });
    const [first, ...rest] = [...TOOLS].sort((a, b) => compareStrings(a.name, b.name));
    assembler.add(toolManifests(first!, OPTIONS).manifests);
    // The first tool's entry is in every target's file that lists it, and in both loss reports, before the others come.
    const listing = [...received.keys()];
    expect(listing).toContain('manifests/mcp.json');
    expect(listing).toContain('manifests/loss-report.md');
    for (const [path, pieces] of received) expect(Buffer.concat(pieces).toString('utf8'), path).toContain(first!.name);
    for (const tool of rest) assembler.add(toolManifests(tool, OPTIONS).manifests);
    expect(closed).toEqual([]);
    const emission = assembler.finish();
    // Every assembled file went to the output, closed once, as its in-memory bytes; only the others are handed over.
    expect(closed.sort()).toEqual([...received.keys()].sort());
    expect(emission.written.sort()).toEqual(closed);
    for (const path of closed) expect(Buffer.concat(received.get(path)!).equals(expected.get(path)!), path).toBe(true);
    expect(
      emission.files.map((file) => file.path).filter((path) => path.endsWith('.json') || path.endsWith('.md')),
    ).toEqual(['manifests/token-report.json']);
  });

  it('keep the flat Responses file in memory when a namespaced one is made of it', () => {
    const options = { ...OPTIONS, deferLoading: { namespaces: true } };
    const opened: string[] = [];
    const output = { open: (path: string) => (opened.push(path), { write: () => undefined, close: () => undefined }) };
    const assembler = createManifestAssembler(TOOLS, TEST_CONTEXT, options, { output });
    for (const tool of TOOLS) assembler.add(toolManifests(tool, options).manifests);
    const paths = assembler.finish().files.map((file) => file.path);
    expect(opened).not.toContain('manifests/openai-responses.json');
    expect(opened).toContain('manifests/openai.json');
    expect(paths).toContain('manifests/openai-responses.json');
    expect(paths).toContain('manifests/openai-responses-namespaced.json');
  });

  it('refuses a part given twice, a part of a tool it does not list, and a finish before every part is in', () => {
    const targets: ManifestTarget[] = ['anthropic'];
    const part = (name: string) => toolManifests(makeTool({ name }), { targets }).manifests;
    const assembler = createManifestAssembler([makeTool({ name: 'a' }), makeTool({ name: 'b' })], TEST_CONTEXT, {
      targets,
    });
    assembler.add(part('b'));
    expect(() => assembler.add(part('b'))).toThrow(/"b" twice/);
    expect(() => assembler.add(part('c'))).toThrow(/"c"/);
    expect(() => assembler.finish()).toThrow(/missing the part of "a"/);
    assembler.add(part('a'));
    expect(() => assembler.add(part('a'))).toThrow(/"a" twice/);
    expect(assembler.finish().files.map((file) => file.path)).toEqual([
      'manifests/anthropic.json',
      'manifests/anthropic.ts',
      'manifests/loss-report.json',
      'manifests/loss-report.md',
      'manifests/token-report.json',
    ]);
  });
});

describe('the assembler’s parts', () => {
  it('InNameOrder hands items on in name order as soon as each one’s predecessors are in, and holds only the early ones', () => {
    const delivered: string[] = [];
    const order = new InNameOrder<string>(['c', 'a', 'd', 'b'], (item) => delivered.push(item));
    expect(order.missing).toBe('a');
    order.add('c', 'C');
    order.add('b', 'B');
    expect(delivered).toEqual([]);
    order.add('a', 'A');
    expect(delivered).toEqual(['A', 'B', 'C']);
    expect(order.missing).toBe('d');
    expect(() => order.add('b', 'again')).toThrow(/twice or for a tool they do not list/);
    expect(() => order.add('zz', 'unknown')).toThrow(/"zz"/);
    order.add('d', 'D');
    expect(delivered).toEqual(['A', 'B', 'C', 'D']);
    expect(order.missing).toBeUndefined();
  });

  it('AssembledFile writes head, entries joined by the separator, tail, and records each entry’s byte range', () => {
    const closed: GeneratedFile[] = [];
    const open = (path: string) => memoryWriter(path, (made) => closed.push(made));
    const file = new AssembledFile('m.json', { head: '[\n', separator: ',\n', tail: '\n]\n' }, open);
    expect(file.opened).toBe(false);
    file.append('a', '"é"');
    expect(file.opened).toBe(true);
    file.append('b', '"b"');
    file.close();
    expect(closed.map((made) => made.path)).toEqual(['m.json']);
    const bytes = encoded(closed[0]!);
    expect(bytes.toString('utf8')).toBe('[\n"é",\n"b"\n]\n');
    expect(file.segments.tools).toEqual(['a', 'b']);
    const [aStart, aEnd, bStart, bEnd] = file.segments.ranges;
    expect(bytes.subarray(aStart, aEnd).toString('utf8')).toBe('"é"');
    expect(bytes.subarray(bStart, bEnd).toString('utf8')).toBe('"b"');
  });
});
