import { readFileSync } from 'node:fs';
import { inflateSync, crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../src/index.js';
import { createTools } from './generated/registry.js';
import { RED_PIXEL_PNG, SILENT_WAV } from './tools/samples.js';
import { SIMPLE_TEXT } from './tools/test-simple-text.js';

/*
 * The conformance project's tools answer what the suite's scenarios ask for (their descriptions in
 * @modelcontextprotocol/conformance), through the orchestrator that `serve` runs them with: the output
 * step checks every content block (shape, base64, the tool's contentTypes).
 */

const orchestrator = new ToolOrchestrator({ tools: createTools(), shutdownTimeoutMs: 50 });
afterAll(() => orchestrator.shutdown());

function call(name: string, args: Record<string, unknown> = {}) {
  return orchestrator.processToolCall({
    toolCallRequest: { id: `conformance-${name}`, name, arguments: args },
    gmiId: 'conformance',
    personaId: 'conformance',
    userContext: { userId: 'conformance' },
    personaCapabilities: [],
  });
}

describe('the conformance tools, through the orchestrator', () => {
  it('test_simple_text answers the text as output and as a text block', async () => {
    const result = await call('test_simple_text');
    expect(result.isError).toBe(false);
    expect(result.output).toBe('This is a simple text response for testing.');
    expect(result.content).toEqual([{ type: 'text', text: SIMPLE_TEXT }]);
  });

  it.each([
    ['test_image_content', [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }]],
    ['test_audio_content', [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }]],
    [
      'test_embedded_resource',
      [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    ],
    [
      'test_multiple_content_types',
      [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: '{"test":"data","value":123}',
          },
        },
      ],
    ],
  ])('%s answers the blocks its scenario expects, and they pass the content check', async (name, content) => {
    const result = await call(name);
    expect(result.errorDetails).toBeUndefined();
    expect(result.content).toEqual(content);
  });

  it('test_error_handling fails with the scenario’s message', async () => {
    const result = await call('test_error_handling');
    expect(result.isError).toBe(true);
    expect(result.errorDetails?.message).toContain('This tool intentionally returns an error for testing');
  });

  it.each([
    ['test_tool_with_logging', 'Tool execution started\nTool processing data\nTool execution completed'],
    ['test_tool_with_progress', 'Progress 0/100, 50/100, 100/100'],
  ])('%s runs its three steps about 50 ms apart', async (name, output) => {
    const started = performance.now();
    const result = await call(name);
    expect(result.output).toBe(output);
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('test_reconnection answers at once', async () => {
    expect((await call('test_reconnection')).output).toBe('Reconnection test completed successfully');
  });

  it('json_schema_2020_12_tool validates by its 2020-12 schema and is listed with $schema, $defs and additionalProperties', async () => {
    const address = { street: '1 Main St', city: 'Springfield' };
    expect((await call('json_schema_2020_12_tool', { name: 'Ada', address })).output).toEqual({ name: 'Ada', address });
    const refused = await call('json_schema_2020_12_tool', { name: 'Ada', extra: 1 });
    expect(refused.errorDetails?.code).toBe('INVALID_ARGUMENTS');
    // As `serve` lists it: the generator's MCP manifest is built by the function tools/list uses.
    const manifest = JSON.parse(readFileSync(new URL('./generated/manifests/mcp.json', import.meta.url), 'utf8')) as {
      tools: { name: string; inputSchema: Record<string, unknown> }[];
    };
    const listed = manifest.tools.find((tool) => tool.name === 'json_schema_2020_12_tool')!.inputSchema;
    expect(listed.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(listed.$defs).toEqual({
      address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
    });
    expect(listed.additionalProperties).toBe(false);
  });
});

describe('the sample media', () => {
  it('RED_PIXEL_PNG is a 1×1 8-bit RGB PNG of one red pixel with valid chunk CRCs', () => {
    const png = Buffer.from(RED_PIXEL_PNG, 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks: { type: string; data: Buffer }[] = [];
    for (let at = 8; at < png.length;) {
      const length = png.readUInt32BE(at);
      const typed = png.subarray(at + 4, at + 8 + length);
      expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(typed));
      chunks.push({ type: typed.subarray(0, 4).toString('latin1'), data: typed.subarray(4) });
      at += 12 + length;
    }
    expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const header = chunks[0]!.data;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([1, 1, 8, 2]);
    expect([...inflateSync(chunks[1]!.data)]).toEqual([0, 255, 0, 0]);
  });

  it('SILENT_WAV is a PCM RIFF/WAVE file whose sizes add up', () => {
    const wav = Buffer.from(SILENT_WAV, 'base64');
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('latin1', 8, 16)).toBe('WAVEfmt ');
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([
      1, 1, 8000, 8,
    ]);
    expect(wav.toString('latin1', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
  });
});

describe("a definition's contentTypes", () => {
  it('reach the generated base (test_image_content declares image) and the docs page', () => {
    const tool = createTools().find((candidate) => candidate.name === 'test_image_content')!;
    expect(tool.contentTypes).toEqual(['image']);
    const page = readFileSync(new URL('./generated/docs/tools/test-image-content.md', import.meta.url), 'utf8');
    expect(page).toContain('| Content | `image` (blocks beside the output) |');
  });

  it('refuse a block of another kind OUTPUT_INVALID', async () => {
    const tool = createTools().find((candidate) => candidate.name === 'test_image_content')!;
    const liar = Object.assign(Object.create(Object.getPrototypeOf(tool)) as typeof tool, tool, {
      execute: async () => ({ success: true, content: [{ type: 'text', text: 'not an image' }] }),
    });
    const own = new ToolOrchestrator({ tools: [liar] });
    const result = await own.processToolCall({
      toolCallRequest: { id: 'x', name: 'test_image_content', arguments: {} },
      gmiId: 'g',
      personaId: 'p',
      userContext: { userId: 'u' },
    });
    expect(result.errorDetails?.code).toBe('OUTPUT_INVALID');
    expect(result.errorDetails?.message).toContain(
      "content[0] is of kind 'text', which the definition does not declare (contentTypes: image)",
    );
    await own.shutdown();
  });
});
