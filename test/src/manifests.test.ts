import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLazyTools } from '../../generated/lazy-registry.js';
import { geminiTool } from '../../generated/manifests/gemini.js';
import { mcpToolList } from '../../generated/manifests/mcp.js';
import { openaiResponsesTools } from '../../generated/manifests/openai-responses.js';
import { createTools } from '../../generated/registry.js';
import { ToolOrchestrator } from '../../src/index.js';
import { DEFAULT_MANIFEST_TARGETS } from '../../src/manifest-targets/table.js';
import {
  buildManifest,
  toAnthropicTools,
  toGeminiLegacyTool,
  toGeminiTool,
  toMcpTools,
  toOpenAIResponsesTools,
  toOpenAIStrictParameters,
  toOpenAITools,
} from '../../src/manifest-targets/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = (name: string) =>
  JSON.parse(readFileSync(path.join(repoRoot, 'generated', 'manifests', name), 'utf8'));

/** A tool's examples as its definition under schemas/ gives them. */
function definitionExamples(name: string): { input: unknown }[] {
  const files = readdirSync(path.join(repoRoot, 'schemas'), { recursive: true }) as string[];
  for (const file of files.filter((candidate) => candidate.endsWith('.tool.json'))) {
    const definition = JSON.parse(readFileSync(path.join(repoRoot, 'schemas', file), 'utf8'));
    if (definition.name === name) return definition.examples ?? [];
  }
  throw new Error(`no definition of ${name}`);
}

describe('runtime manifest builders (toolsmith-sdk/manifests)', () => {
  const orchestrator = new ToolOrchestrator({ tools: createTools() });

  it('build from the registry exactly what generate wrote (one implementation)', () => {
    const listed = orchestrator.listTools();
    expect(toOpenAITools(listed)).toEqual(manifest('openai.json'));
    expect(toOpenAITools(listed, { strict: true })).toEqual(manifest('openai-strict.json'));
    expect(toOpenAIResponsesTools(listed)).toEqual(manifest('openai-responses.json'));
    expect(toOpenAIResponsesTools(listed, { strict: true })).toEqual(manifest('openai-responses-strict.json'));
    // A registry's tools carry no examples: given the definitions' ones, the builder adds Anthropic's
    // `input_examples` as generate does; without them, the same entries without that field.
    const withExamples = listed.map((tool) => ({ ...tool, examples: definitionExamples(tool.name) }));
    expect(toAnthropicTools(withExamples)).toEqual(manifest('anthropic.json'));
    expect(manifest('anthropic.json').some((tool: object) => 'input_examples' in tool)).toBe(true);
    expect(toAnthropicTools(listed)).toEqual(
      manifest('anthropic.json').map(({ input_examples: _, ...tool }: { input_examples?: unknown }) => tool),
    );
    expect(toGeminiTool(listed)).toEqual(manifest('gemini.json'));
    // Every target generate writes by default, by name, without a function of its own.
    for (const target of DEFAULT_MANIFEST_TARGETS.filter((name) => name !== 'mcp'))
      expect(buildManifest(target, withExamples), target).toEqual(manifest(`${target}.json`));
    const registered = listed.map((definition) => orchestrator.getTool(definition.name)!);
    expect(toMcpTools(registered)).toEqual(manifest('mcp.json').tools);
    // The portable profile's list, from the same tools (titles and annotations are the tools').
    expect(buildManifest('mcp-portable', registered)).toEqual(manifest('mcp-portable.json'));
    // Lazy stand-ins carry the definition's annotations in their catalog metadata too.
    expect(toMcpTools(createLazyTools())).toEqual(manifest('mcp.json').tools);
  });

  it('the typed modules generate writes hold the JSON beside them', () => {
    expect(openaiResponsesTools).toEqual(manifest('openai-responses.json'));
    expect(openaiResponsesTools[0]!.type).toBe('function');
    expect(geminiTool).toEqual(manifest('gemini.json'));
    expect(mcpToolList).toEqual(manifest('mcp.json'));
  });

  it('send each persona only the tools it may call', () => {
    const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name);
    expect(names(toOpenAIResponsesTools(orchestrator.listTools({ personaCapabilities: [] })))).toEqual([
      'calculator',
      'get_current_datetime',
      'memory_read',
      'remember_calculation',
    ]);
    expect(
      names(toOpenAIResponsesTools(orchestrator.listTools({ personaCapabilities: ['capability:filesystem:read'] }))),
    ).toEqual([
      'calculator',
      'get_current_datetime',
      'list_directory',
      'memory_read',
      'read_file',
      'remember_calculation',
    ]);
  });

  it('leave out a tool the target cannot take and say why; describeLosses: false keeps descriptions as written', () => {
    const omitted: string[] = [];
    const tree = {
      name: 'tree',
      description: 'Trees.',
      inputSchema: {
        type: 'object',
        properties: { root: { $ref: '#/definitions/N' } },
        definitions: {
          N: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/definitions/N' } } } },
        },
      },
    };
    const plain = {
      name: 'plain',
      description: 'Plain.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer', default: 3 } } },
    };
    const legacy = toGeminiLegacyTool([tree, plain], {
      onOmitted: (tool, reason) => omitted.push(`${tool}: ${reason}`),
    });
    expect(legacy.functionDeclarations.map((entry) => entry.name)).toEqual(['plain']);
    expect(legacy.functionDeclarations[0]!.parameters).toEqual({
      type: 'OBJECT',
      properties: { n: { type: 'INTEGER', description: 'Default: 3.' } },
    });
    expect(omitted).toEqual([
      expect.stringMatching(/^tree: Tool 'tree' cannot be sent to gemini-legacy: its schema is recursive/),
    ]);
    expect(
      toGeminiTool([tree, plain], { describeLosses: false }).functionDeclarations.map(
        (entry) => entry.parametersJsonSchema.properties,
      ),
    ).toEqual([{ n: { type: 'integer' } }, { root: { $ref: '#/$defs/N' } }]);
  });

  it('give a 2020-12 tool to the draft-07 builders in its draft-07 form, as generate does (the target table)', () => {
    const tuple = {
      name: 'pair',
      description: 'A pair.',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false } },
      },
    };
    expect(toOpenAITools([tuple])[0]!.function.parameters).toEqual({
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false } },
    });
    // The strict parameters the OpenAI Agents adapter uses come from the same builder.
    expect(toOpenAIStrictParameters(tuple)?.properties).toEqual({
      pair: { type: ['array', 'null'], items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
    });
    expect(toOpenAIStrictParameters({ ...tuple, name: 'not a name' })).toBeUndefined();
  });

  it('import no provider SDK at run time (type-only imports)', () => {
    const files = [
      'src/mcp/tool.ts',
      'src/schema/json-schema-2020.ts',
      ...['index', 'anthropic', 'build', 'gemini', 'gemini-legacy', 'mcp', 'openai', 'openai-strict', 'table'].map(
        (name) => `src/manifest-targets/${name}.ts`,
      ),
    ];
    for (const file of files) {
      const source = readFileSync(path.join(repoRoot, file), 'utf8');
      expect(source, file).not.toMatch(
        /^import (?!type )[^;]*from '(openai|@anthropic-ai\/sdk|@google\/genai|@modelcontextprotocol\/sdk)[^']*'/m,
      );
    }
  });
});
