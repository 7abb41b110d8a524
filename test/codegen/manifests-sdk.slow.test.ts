import { execFile } from 'node:child_process';
import { MANIFEST_TARGETS } from '../../src/manifest-targets/table.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_TOOLS } from './manifest-fixtures.js';
import { makeProject, makeTool, TEST_CONTEXT, emitManifests } from './model-factory.js';
import { typeCheckFolder } from '../helpers/temp-project.js';

/*
 * The type checker as the oracle: the typed modules generate writes (manifests/<target>.ts) and the runtime
 * builders (src/manifest-targets/index.ts) are assigned to the official SDK types — openai's ChatCompletionTool and
 * Responses FunctionTool, @anthropic-ai/sdk's Tool, @google/genai's Tool and FunctionDeclaration, the MCP
 * SDK's Tool — and tsc must accept them, for the fixture tools (recursion, free-form object, tuple,
 * dependencies, $ref siblings, $ref output root) and two plain ones.
 */

const _run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
// Inside node_modules so the SDK packages resolve, and outside git.
const cacheDir = join(root, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const dir = mkdtempSync(join(cacheDir, 'toolsmith-manifest-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const project = makeProject([
  ...FIXTURE_TOOLS,
  makeTool({
    name: 'research',
    description: 'Looks things up.',
    inputSchema: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', maxLength: 200 },
        limit: { type: 'integer', default: 10 },
        origin: { $ref: '#/definitions/GeoPoint' },
      },
      definitions: { GeoPoint: { type: 'object', properties: { lat: { type: 'number' } } } },
    },
    outputSchema: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } } },
    // Anthropic's `input_examples` (`Tool.input_examples` in the pinned SDK).
    examples: [{ input: { query: 'tides', limit: 3 } }, { input: { query: 'moon', origin: { lat: 1.5 } } }],
  }),
  makeTool({ name: 'ping' }),
]);

const runtimeFromOut = `./${relative(dir, join(root, 'src', 'index.js'))}`;
const emission = emitManifests(
  project,
  { ...TEST_CONTEXT, runtimeImport: runtimeFromOut },
  { targets: MANIFEST_TARGETS },
);
for (const file of emission.files) {
  mkdirSync(dirname(join(dir, file.path)), { recursive: true });
  writeFileSync(join(dir, file.path), file.content);
}

it('the Anthropic manifest carries the examples as input_examples (so the type check below covers them)', () => {
  const research = JSON.parse(manifest('manifests/anthropic.json')).find(
    (tool: { name: string }) => tool.name === 'research',
  );
  expect(research.input_examples).toEqual([
    { query: 'tides', limit: 3 },
    { query: 'moon', origin: { lat: 1.5 } },
  ]);
});

it('the OpenAI Responses manifests carry output_schema for a tool with an output schema (so the type check covers it)', () => {
  for (const file of ['manifests/openai-responses.json', 'manifests/openai-responses-strict.json']) {
    const entries = JSON.parse(manifest(file)) as { name: string; output_schema?: unknown }[];
    expect(entries.find((tool) => tool.name === 'research')!.output_schema).toEqual({
      type: 'object',
      properties: { hits: { type: 'array', items: { type: 'string' } } },
    });
    expect(entries.find((tool) => tool.name === 'ping')).not.toHaveProperty('output_schema');
  }
});

function manifest(path: string): string {
  return emission.files.find((file) => file.path === path)!.content;
}

/** Type-checks `source` as check.ts beside the emitted manifests. */
function typeCheck(source: string): Promise<{ code: number; output: string }> {
  writeFileSync(join(dir, 'check.ts'), source);
  return typeCheckFolder(dir, ['check.ts'], { verbatimModuleSyntax: false });
}

const runtime = `./${relative(dir, join(root, 'src', 'manifest-targets', 'index.js'))}`;
const IMPORTS = [
  "import type { ChatCompletionTool } from 'openai/resources/chat/completions';",
  "import type { FunctionTool } from 'openai/resources/responses/responses';",
  "import type { Tool as AnthropicSdkTool } from '@anthropic-ai/sdk/resources/messages';",
  "import { Type, type FunctionDeclaration, type Tool as GeminiSdkTool } from '@google/genai';",
  "import type { Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';",
];

describe('manifests type-check against the official SDK types', () => {
  it('every target is emitted for every tool here (nothing omitted but gemini-legacy’s recursion and free-form object)', () => {
    expect(emission.problems).toEqual([]);
    expect(
      Object.fromEntries(Object.entries(emission.unavailable).map(([tool, byTarget]) => [tool, Object.keys(byTarget)])),
    ).toEqual({ free_form: ['gemini-legacy'], recursive_tree: ['gemini-legacy'] });
  });

  it('every JSON manifest, as written, is the SDK’s type', async () => {
    const source = [
      ...IMPORTS,
      `export const chat: ChatCompletionTool[] = ${manifest('manifests/openai.json')};`,
      `export const chatStrict: ChatCompletionTool[] = ${manifest('manifests/openai-strict.json')};`,
      `export const responses: FunctionTool[] = ${manifest('manifests/openai-responses.json')};`,
      `export const responsesStrict: FunctionTool[] = ${manifest('manifests/openai-responses-strict.json')};`,
      `export const anthropic: AnthropicSdkTool[] = ${manifest('manifests/anthropic.json')};`,
      `export const gemini: GeminiSdkTool = ${manifest('manifests/gemini.json')};`,
      `export const mcp: { tools: McpSdkTool[] } = ${manifest('manifests/mcp.json')};`,
      'export const used = Type.STRING;',
    ].join('\n');
    const result = await typeCheck(source);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('the typed modules read those files as the SDKs’ types, with `type: "function"` kept a literal; so are the runtime builders’ results', async () => {
    const source = [
      ...IMPORTS,
      "import { openaiTools } from './manifests/openai.js';",
      "import { openaiStrictTools } from './manifests/openai-strict.js';",
      "import { openaiResponsesTools } from './manifests/openai-responses.js';",
      "import { openaiResponsesStrictTools } from './manifests/openai-responses-strict.js';",
      "import { anthropicTools } from './manifests/anthropic.js';",
      "import { geminiTool } from './manifests/gemini.js';",
      "import { mcpToolList } from './manifests/mcp.js';",
      `import { toAnthropicTools, toGeminiTool, toMcpTools, toOpenAIResponsesTools, toOpenAITools } from '${runtime}';`,
      `import type { ITool, ToolDefinitionForLLM } from '${runtimeFromOut}';`,
      'export const chat: ChatCompletionTool[] = openaiTools;',
      'export const chatStrict: ChatCompletionTool[] = openaiStrictTools;',
      'export const responses: FunctionTool[] = openaiResponsesTools;',
      'export const responsesStrict: FunctionTool[] = openaiResponsesStrictTools;',
      'export const anthropic: AnthropicSdkTool[] = anthropicTools;',
      'export const gemini: GeminiSdkTool = geminiTool;',
      'export const declarations: FunctionDeclaration[] = geminiTool.functionDeclarations;',
      'export const mcp: McpSdkTool[] = mcpToolList.tools;',
      "export const literal: 'function' = openaiResponsesTools[0]!.type;",
      'declare const listed: ToolDefinitionForLLM[];',
      'declare const registered: ITool[];',
      'export const runtimeChat: ChatCompletionTool[] = toOpenAITools(listed, { strict: true });',
      'export const runtimeResponses: FunctionTool[] = toOpenAIResponsesTools(listed);',
      'export const runtimeAnthropic: AnthropicSdkTool[] = toAnthropicTools(listed);',
      'export const runtimeGemini: GeminiSdkTool = toGeminiTool(listed);',
      'export const runtimeMcp: McpSdkTool[] = toMcpTools(registered);',
      'export const used = Type.STRING;',
    ].join('\n');
    const result = await typeCheck(source);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('gemini-legacy.json is FunctionDeclaration[] once its type names are the SDK’s `Type` enum members (a TS enum takes no string literal)', async () => {
    const legacy = JSON.parse(manifest('manifests/gemini-legacy.json')).functionDeclarations;
    const literal = JSON.stringify(legacy, null, 2).replace(/"type": "([A-Z]+)"/g, 'type: Type.$1');
    expect(literal).toContain('type: Type.OBJECT');
    const result = await typeCheck([...IMPORTS, `export const legacy: FunctionDeclaration[] = ${literal};`].join('\n'));
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('the check fails for a manifest of the wrong shape, or a count given as a number (so it can fail)', async () => {
    const wrong = await typeCheck(
      [
        ...IMPORTS,
        "import { anthropicTools } from './manifests/anthropic.js';",
        'export const openai: ChatCompletionTool[] = anthropicTools;',
      ].join('\n'),
    );
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toMatch(/error TS/);
    const number = await typeCheck(
      [
        ...IMPORTS,
        "export const legacy: FunctionDeclaration[] = [{ name: 'x', parameters: { type: Type.STRING, maxLength: 5 } }];",
      ].join('\n'),
    );
    expect(number.output).toContain("error TS2322: Type 'number' is not assignable to type 'string'.");
  }, 120_000);
});
