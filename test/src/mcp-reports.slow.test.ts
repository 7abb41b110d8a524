import { Client, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportingFunctions, ToolOrchestrator, type ContentBlock, type ProgressUpdate } from '../../src/index.js';
import { startHttpServer, type McpHttpServer } from '../../src/mcp/http.js';
import { makeTool, sleep } from './helpers.js';

/*
 * What a tool says before and beside its result: `context.progress` and `context.log` as MCP
 * notifications, content blocks as the call's content — for the official v2 client on 2026-07-28 and
 * the 2025 handshake, and the v1 client, over `serve --http`.
 */

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const reporting = makeTool('steps', {
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async execute(_args, context) {
    for (const progress of [1, 2, 3]) {
      context.progress?.({ progress, total: 3, message: `step ${progress}` });
      context.log?.('info', { step: progress });
      await sleep(5);
    }
    return { success: true, output: { steps: 3 } };
  },
});

const picture = makeTool('picture', {
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async execute() {
    const content: ContentBlock[] = [
      { type: 'image', data: PIXEL, mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///tmp/pixel.png', name: 'pixel.png', mimeType: 'image/png' },
    ];
    return { success: true, content };
  },
});

const chart = makeTool('chart', {
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: { type: 'object', properties: { points: { type: 'integer' } }, required: ['points'] },
  async execute() {
    return { success: true, output: { points: 1 }, content: [{ type: 'image', data: PIXEL, mimeType: 'image/png' }] };
  },
});

let server: McpHttpServer;
beforeAll(async () => {
  server = await startHttpServer(new ToolOrchestrator({ tools: [reporting, picture, chart] }), {
    port: 0,
    handleSignals: false,
  });
});
afterAll(async () => {
  await server.close();
});

describe('progress and log messages over MCP', () => {
  for (const mode of [{ pin: '2026-07-28' } as const, 'legacy' as const]) {
    it(`reach the v2 client (${JSON.stringify(mode)}) before the result, in order`, async () => {
      const client = new Client({ name: 'reports', version: '1' }, { versionNegotiation: { mode } });
      const logs: unknown[] = [];
      client.setNotificationHandler('notifications/message', (notification) => {
        logs.push(notification.params);
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      try {
        if (typeof mode === 'object') {
          // On 2026-07-28 a request carries the client's log level in its _meta: without one, no logs.
          await client.callTool({ name: 'steps', arguments: {} });
          expect(logs).toEqual([]);
        }
        // 2025: logging/setLevel (which a stateless server cannot keep: every level is sent);
        // 2026-07-28: the level in the request's _meta.
        if (typeof mode !== 'object') await client.setLoggingLevel('info');
        const progress: ProgressUpdate[] = [];
        const result = await client.callTool(
          { name: 'steps', arguments: {}, _meta: typeof mode === 'object' ? { [LOG_LEVEL_META_KEY]: 'info' } : {} },
          { onprogress: (update) => progress.push(update) },
        );
        expect(result.isError).toBeFalsy();
        expect(progress).toEqual([
          { progress: 1, total: 3, message: 'step 1' },
          { progress: 2, total: 3, message: 'step 2' },
          { progress: 3, total: 3, message: 'step 3' },
        ]);
        expect(logs).toEqual([1, 2, 3].map((step) => ({ level: 'info', logger: 'steps', data: { step } })));
      } finally {
        await client.close();
      }
    });
  }

  it('reach the v1 client; a level it set filters the log messages', async () => {
    const client = new ClientV1({ name: 'reports-v1', version: '1' });
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.level);
    });
    await client.connect(new TransportV1(new URL(server.url)));
    try {
      const progress: unknown[] = [];
      await client.callTool({ name: 'steps', arguments: {} }, undefined, {
        onprogress: (update) => progress.push(update),
      });
      expect([progress.length, logs]).toEqual([3, ['info', 'info', 'info']]);
    } finally {
      await client.close();
    }
  });

  it('without a progress token the tool gets no progress function; log still goes to the stream', async () => {
    const seen: string[] = [];
    const probe = makeTool('probe', {
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      async execute(_args, context) {
        seen.push(`progress:${typeof context.progress}`, `log:${typeof context.log}`);
        return { success: true, output: {} };
      },
    });
    const own = await startHttpServer(new ToolOrchestrator({ tools: [probe] }), { port: 0, handleSignals: false });
    const client = new Client({ name: 'probe', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(own.url)));
    try {
      await client.callTool({ name: 'probe', arguments: {} });
      await client.callTool({ name: 'probe', arguments: {} }, { onprogress: () => {} });
      expect(seen).toEqual(['progress:undefined', 'log:function', 'progress:function', 'log:function']);
    } finally {
      await client.close();
      await own.close();
    }
  });
});

describe('content blocks over MCP', () => {
  for (const mode of [{ pin: '2026-07-28' } as const, 'legacy' as const]) {
    it(`are the call's content for the v2 client (${JSON.stringify(mode)}), before the output's text mirror`, async () => {
      const client = new Client({ name: 'content', version: '1' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      try {
        const only = await client.callTool({ name: 'picture', arguments: {} });
        expect(only.content).toEqual([
          { type: 'image', data: PIXEL, mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///tmp/pixel.png', name: 'pixel.png', mimeType: 'image/png' },
        ]);
        expect(only.structuredContent).toBeUndefined();
        const both = await client.callTool({ name: 'chart', arguments: {} });
        expect(both.content).toEqual([
          { type: 'image', data: PIXEL, mimeType: 'image/png' },
          { type: 'text', text: '{"points":1}' },
        ]);
        expect(both.structuredContent).toEqual({ points: 1 });
      } finally {
        await client.close();
      }
    });
  }
});

describe('reportingFunctions', () => {
  it('drops progress that does not grow or is not a number, and never throws into the tool', () => {
    const sent: ProgressUpdate[] = [];
    const { progress } = reportingFunctions({
      progress: (update) => {
        sent.push(update);
        if (update.progress === 3) throw new Error('the connection is gone');
      },
    });
    for (const value of [1, 1, 0.5, Number.NaN, 2, 3, 4]) progress!({ progress: value });
    progress!(undefined as never);
    expect(sent.map((update) => update.progress)).toEqual([1, 2, 3, 4]);
  });

  it('lets a burst through, then about perSecond a second, and always the last step of a known total', async () => {
    const sent: number[] = [];
    const logs: string[] = [];
    const { progress, log } = reportingFunctions(
      { progress: (update) => sent.push(update.progress), log: (level) => logs.push(level) },
      { burst: 3, perSecond: 10 },
    );
    for (let i = 1; i <= 100; i++) progress!({ progress: i, total: 100 });
    expect(sent).toEqual([1, 2, 3, 100]);
    for (let i = 0; i < 50; i++) log!('debug', i);
    expect(logs).toHaveLength(3);
    await sleep(250);
    log!('nonsense' as never, 'x');
    expect(logs.at(-1)).toBe('info');
  });
});
