import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { ManifestOptions } from '../../codegen/emit/manifests/index.js';
import { encoded } from '../../codegen/write.js';
import { buildManifestTarget, MANIFEST_TARGET_TABLE, MANIFEST_TARGETS } from '../../src/manifest-targets/table.js';
import { toAnthropicTools, toOpenAIResponsesTools } from '../../src/manifest-targets/index.js';
import { makeProject, makeTool, spliceRun, TEST_CONTEXT, emitManifests } from './model-factory.js';
import { projectOf, tool } from './emit/project.js';
import { typeCheckFolder } from '../helpers/temp-project.js';

const _run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
// Inside node_modules so the SDK packages resolve, and outside git.
const cacheDir = join(root, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const dir = mkdtempSync(join(cacheDir, 'toolsmith-manifest-defer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input = { type: 'object', properties: { q: { type: 'string' } } } as const;
const TOOLS = [
  makeTool({ name: 'ping', category: 'ops', inputSchema: input }),
  makeTool({ name: 'search_docs', category: 'core', inputSchema: input }),
  makeTool({ name: 'archive_invoice', category: 'billing', inputSchema: input }),
  makeTool({ name: 'refund_invoice', category: 'billing', inputSchema: input }),
  // Eleven deferred tools of one category: one more than OpenAI advises per namespace.
  ...Array.from({ length: 11 }, (_, index) =>
    makeTool({ name: `crm_${String(index).padStart(2, '0')}`, category: 'crm', inputSchema: input }),
  ),
];
const OPTIONS: ManifestOptions = {
  targets: MANIFEST_TARGETS,
  deferLoading: { loaded: ['ping'], loadedCategories: ['core'], namespaces: true },
};
const crm = Array.from({ length: 11 }, (_, index) => `crm_${String(index).padStart(2, '0')}`);

const runtimeFromOut = `./${relative(dir, join(root, 'src', 'index.js'))}`;
const runtimeManifests = `./${relative(dir, join(root, 'src', 'manifest-targets', 'index.js'))}`;
const emission = emitManifests(makeProject(TOOLS), { ...TEST_CONTEXT, runtimeImport: runtimeFromOut }, OPTIONS);
for (const file of emission.files) {
  mkdirSync(dirname(join(dir, file.path)), { recursive: true });
  writeFileSync(join(dir, file.path), file.content);
}
const manifest = (path: string) => emission.files.find((file) => file.path === path)!.content;

/** Type-checks `source` as check.ts beside the emitted manifests. */
function typeCheck(source: string): Promise<{ code: number; output: string }> {
  writeFileSync(join(dir, 'check.ts'), source);
  return typeCheckFolder(dir, ['check.ts'], { verbatimModuleSyntax: false });
}

describe('manifests.deferLoading', () => {
  it('marks the tools not kept loaded (by name or category) and lists the search tool last, in Anthropic and OpenAI Responses only', () => {
    const anthropic = JSON.parse(manifest('manifests/anthropic.json'));
    expect(
      anthropic.map((entry: { name: string; defer_loading?: boolean }) => [entry.name, entry.defer_loading]),
    ).toEqual([
      ['archive_invoice', true],
      ...crm.map((name) => [name, true]),
      ['ping', undefined],
      ['refund_invoice', true],
      ['search_docs', undefined],
      ['tool_search_tool_bm25', undefined],
    ]);
    expect(anthropic.at(-1)).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    for (const file of ['manifests/openai-responses.json', 'manifests/openai-responses-strict.json']) {
      const responses = JSON.parse(manifest(file));
      expect(
        responses.map((entry: { name?: string; defer_loading?: boolean }) => [entry.name, entry.defer_loading]),
        file,
      ).toEqual([
        ['archive_invoice', true],
        ...crm.map((name) => [name, true]),
        ['ping', undefined],
        ['refund_invoice', true],
        ['search_docs', undefined],
        [undefined, undefined],
      ]);
      expect(responses.at(-1), file).toEqual({ type: 'tool_search' });
    }
    // The other targets have no such field: unchanged.
    expect(manifest('manifests/openai.json')).not.toContain('defer_loading');
    expect(manifest('manifests/gemini.json')).not.toContain('defer_loading');
    // The assembled files are what each builder makes from every tool at once.
    for (const target of MANIFEST_TARGETS) {
      const whole = buildManifestTarget(target, {
        tools: TOOLS,
        describeLosses: true,
        inputExamples: 5,
        deferLoading: OPTIONS.deferLoading!,
      });
      expect(manifest(MANIFEST_TARGET_TABLE[target].file), target).toBe(`${JSON.stringify(whole.content, null, 2)}\n`);
    }
  });

  it('namespaces: the deferred functions grouped by category, the loaded ones first, tool_search last; a category over 10 is a warning', () => {
    const namespaced = JSON.parse(manifest('manifests/openai-responses-namespaced.json'));
    const flat = JSON.parse(manifest('manifests/openai-responses.json'));
    const byName = (name: string) => flat.find((entry: { name?: string }) => entry.name === name);
    expect(namespaced).toEqual([
      byName('ping'),
      byName('search_docs'),
      {
        type: 'namespace',
        name: 'billing',
        description: 'Tools of the billing category.',
        tools: [byName('archive_invoice'), byName('refund_invoice')],
      },
      { type: 'namespace', name: 'crm', description: 'Tools of the crm category.', tools: crm.map(byName) },
      { type: 'tool_search' },
    ]);
    const lines = manifest('manifests/openai-responses-namespaced.json').split('\n');
    expect(emission.warnings).toEqual([
      {
        file: 'manifests/openai-responses-namespaced.json',
        line: lines.indexOf('    "name": "crm",') + 1,
        column: 5,
        pointer: '/3/name',
        severity: 'warning',
        message: "Namespace 'crm' holds 11 functions, more than the 10 OpenAI advises per namespace.",
        hint: 'split the category (`category` in the definitions), or keep some of its tools loaded (`manifests.deferLoading.loaded`)',
      },
    ]);
  });

  it('the runtime builders (toolsmith-sdk/manifests) give what generate writes, per call', () => {
    const deferLoading = OPTIONS.deferLoading!;
    expect(toAnthropicTools(TOOLS, { deferLoading })).toEqual(JSON.parse(manifest('manifests/anthropic.json')));
    expect(toOpenAIResponsesTools(TOOLS, { deferLoading, strict: true })).toEqual(
      JSON.parse(manifest('manifests/openai-responses-strict.json')),
    );
    expect(toAnthropicTools(TOOLS)).not.toContainEqual(expect.objectContaining({ name: 'tool_search_tool_bm25' }));
  });

  it('a definition with `loaded: true` stays loaded (through normalize, as generate reads it)', () => {
    const project = projectOf({
      'pinned.tool.json': tool('pinned', input, { category: 'billing', loaded: true }),
      'other.tool.json': tool('other', input, { category: 'billing' }),
    });
    expect(project.tools.map((model) => [model.name, model.loaded])).toEqual([
      ['other', undefined],
      ['pinned', true],
    ]);
    const anthropic = JSON.parse(
      emitManifests(project, TEST_CONTEXT, { targets: ['anthropic'], deferLoading: {} }).files[0]!.content,
    );
    expect(
      anthropic.map((entry: { name: string; defer_loading?: boolean }) => [entry.name, entry.defer_loading]),
    ).toEqual([
      ['other', true],
      ['pinned', undefined],
      ['tool_search_tool_bm25', undefined],
    ]);
  });

  it('lists no search tool when every tool stays loaded', () => {
    const loaded = emitManifests(makeProject(TOOLS), TEST_CONTEXT, {
      targets: ['anthropic', 'openai-responses'],
      deferLoading: { loadedCategories: ['ops', 'core', 'billing', 'crm'] },
    });
    for (const file of loaded.files.filter(
      (candidate) => candidate.path.endsWith('.json') && !candidate.path.includes('report'),
    ))
      expect(file.content, file.path).not.toMatch(/defer_loading|tool_search/);
  });

  it('a splice keeps the tails and the namespaced file right when the last deferred tools move to a loaded category', () => {
    const deferred = (name: string) => name.endsWith('_invoice') || name.startsWith('crm_');
    const moved = TOOLS.map((tool) => (deferred(tool.name) ? { ...tool, category: 'core' } : tool));
    const previous = {
      segments: emission.segments!,
      read: (path: string) => {
        const file = emission.files.find((candidate) => candidate.path === path);
        return file === undefined ? undefined : encoded(file);
      },
    };
    const changed = moved.filter((tool) => deferred(tool.name));
    const project = makeProject(moved);
    const ctx = { ...TEST_CONTEXT, runtimeImport: runtimeFromOut };
    const spliced = spliceRun(project, ctx, OPTIONS, previous, changed);
    expect(spliced.spliced).toBe(true);
    const whole = emitManifests(makeProject(moved), { ...TEST_CONTEXT, runtimeImport: runtimeFromOut }, OPTIONS);
    for (const file of whole.files)
      expect(spliced.files.find((candidate) => candidate.path === file.path)?.content, file.path).toBe(file.content);
    expect(whole.files.find((file) => file.path === 'manifests/anthropic.json')!.content).not.toContain('tool_search');
  });

  it('type-checks against the pinned SDKs: @anthropic-ai/sdk ToolUnion (Tool.defer_loading, ToolSearchToolBm25_20251119), openai Responses Tool (FunctionTool.defer_loading, ToolSearchTool)', async () => {
    const source = [
      "import type { ToolUnion } from '@anthropic-ai/sdk/resources/messages';",
      "import type { Tool as ResponsesTool } from 'openai/resources/responses/responses';",
      "import { anthropicTools } from './manifests/anthropic.js';",
      "import { openaiResponsesTools } from './manifests/openai-responses.js';",
      "import { openaiResponsesStrictTools } from './manifests/openai-responses-strict.js';",
      `export const anthropic: ToolUnion[] = ${manifest('manifests/anthropic.json')};`,
      `export const responses: ResponsesTool[] = ${manifest('manifests/openai-responses.json')};`,
      `export const namespaced: ResponsesTool[] = ${manifest('manifests/openai-responses-namespaced.json')};`,
      'export const typedAnthropic: ToolUnion[] = anthropicTools;',
      'export const typedResponses: ResponsesTool[] = openaiResponsesTools;',
      'export const typedResponsesStrict: ResponsesTool[] = openaiResponsesStrictTools;',
      // The runtime builders take the same option per call.
      `import { toAnthropicTools, toOpenAIResponsesTools } from '${runtimeManifests}';`,
      `import type { ITool } from '${runtimeFromOut}';`,
      'declare const registered: ITool[];',
      "export const runtimeAnthropic: ToolUnion[] = toAnthropicTools(registered, { deferLoading: { loaded: ['ping'] } });",
      "export const runtimeResponses: ResponsesTool[] = toOpenAIResponsesTools(registered, { deferLoading: { loadedCategories: ['core'] }, strict: true });",
    ].join('\n');
    const result = await typeCheck(source);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
    // And it can fail: the search entry is no plain Anthropic `Tool`.
    const wrong = await typeCheck(
      [
        "import type { Tool } from '@anthropic-ai/sdk/resources/messages';",
        "import { anthropicTools } from './manifests/anthropic.js';",
        'export const plain: Tool[] = anthropicTools;',
      ].join('\n'),
    );
    expect(wrong.output).toMatch(/error TS/);
  }, 120_000);
});
