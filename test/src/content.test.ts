import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CONTENT_BYTES, findContentProblem, type ContentBlock } from '../../src/index.js';
import { callTool, makeTool, useOrchestrators } from './helpers.js';

const orchestrator = useOrchestrators();

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');

function returning(content: unknown, extra: Record<string, unknown> = {}) {
  return makeTool('shot', {
    ...extra,
    execute: async () => ({ success: true, output: { ok: true }, content }),
  });
}

describe('content blocks on a successful result', () => {
  it('answers every MCP block kind as the call’s content, beside the output', async () => {
    const content: ContentBlock[] = [
      { type: 'text', text: 'a screenshot' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
      { type: 'resource', resource: { uri: 'file:///a.bin', blob: PNG } },
      { type: 'resource_link', uri: 'file:///b.txt', name: 'b.txt', mimeType: 'text/plain' },
    ];
    const o = orchestrator({ tools: [returning(content)] });
    const result = await callTool(o, 'shot');
    expect(result.isError).toBe(false);
    expect(result.output).toEqual({ ok: true });
    expect(result.content).toEqual(content);
  });

  it('leaves `content` off a result whose tool answered none', async () => {
    const o = orchestrator({ tools: [makeTool('echo')] });
    const result = await callTool(o, 'echo', { text: 'x' });
    expect('content' in result).toBe(false);
  });

  it.each([
    [[{ type: 'video', data: PNG }], "content[0] has unknown type 'video'; expected one of text, image, audio"],
    [
      [
        { type: 'text', text: 'ok' },
        { type: 'image', data: 'not base64!', mimeType: 'image/png' },
      ],
      'content[1] data is not base64 data',
    ],
    [[{ type: 'image', data: PNG }], 'content[0] mimeType must be a non-empty string'],
    [[{ type: 'resource', resource: { uri: 'file:///x' } }], 'content[0] resource has neither text nor blob'],
    [[{ type: 'resource_link', uri: 'file:///x' }], 'content[0] name must be a non-empty string'],
    [[null], 'content[0] is not an object'],
    [{ type: 'text', text: 'x' }, 'content must be an array of content blocks, got object'],
  ])('fails OUTPUT_INVALID naming the block: %j', async (content, message) => {
    const o = orchestrator({ tools: [returning(content)] });
    const result = await callTool(o, 'shot');
    expect(result.isError).toBe(true);
    expect(result.output).toBeNull();
    expect(result.errorDetails?.code).toBe('OUTPUT_INVALID');
    expect(result.errorDetails?.message).toContain(`Tool 'shot' answered invalid content: ${message}`);
  });

  it('fails content over maxContentBytes, one limit for all the blocks of a result (default 16 MiB)', async () => {
    const big = 'A'.repeat(Math.ceil((50 * 1024 * 1024) / 3) * 4);
    expect(
      findContentProblem([{ type: 'image', data: big, mimeType: 'image/png' }], DEFAULT_MAX_CONTENT_BYTES, undefined),
    ).toMatch(
      /^content\[0\] data holds 52428\d+ bytes, over the limit of 16777216 for a result's content \(maxContentBytes\)$/,
    );
    // Ten blocks of 2 MiB each fit one by one, not together: the sixth brings the total over 11 MiB.
    const twoMiB = { type: 'image', data: 'A'.repeat(Math.ceil((2 * 1024 * 1024) / 3) * 4), mimeType: 'image/png' };
    expect(findContentProblem(Array(10).fill(twoMiB), 11 * 1024 * 1024, undefined)).toMatch(
      /^content\[5\] data holds 209715\d bytes \(125829\d+ with the blocks before it\), over the limit of 11534336 for a result's content \(maxContentBytes\)$/,
    );
    const o = orchestrator({ maxContentBytes: 4, tools: [returning([{ type: 'text', text: 'hello' }])] });
    const result = await callTool(o, 'shot');
    expect(result.errorDetails?.code).toBe('OUTPUT_INVALID');
    expect(result.errorDetails?.message).toContain(
      "content[0] text holds 5 bytes, over the limit of 4 for a result's content (maxContentBytes)",
    );
    const small = orchestrator({
      maxContentBytes: 8,
      tools: [returning([{ type: 'image', data: PNG, mimeType: 'image/png' }])],
    });
    expect((await callTool(small, 'shot')).isError).toBe(false);
    const twice = orchestrator({
      maxContentBytes: 8,
      tools: [
        returning([
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'text', text: 'abcd' },
        ]),
      ],
    });
    expect((await callTool(twice, 'shot')).errorDetails?.message).toMatch(/content\[1\] text holds 4 bytes \(\d+ with/);
  });

  it('fails a kind the tool does not declare in contentTypes', async () => {
    const o = orchestrator({
      tools: [
        returning(
          [
            { type: 'text', text: 't' },
            { type: 'image', data: PNG, mimeType: 'image/png' },
          ],
          { contentTypes: ['text'] },
        ),
      ],
    });
    const result = await callTool(o, 'shot');
    expect(result.errorDetails?.message).toContain(
      "content[1] is of kind 'image', which the definition does not declare (contentTypes: text)",
    );
  });

  it('rejects a maxContentBytes that is not a positive integer', () => {
    expect(() => orchestrator({ maxContentBytes: 0 })).toThrow('maxContentBytes must be a positive integer; got 0.');
  });
});
