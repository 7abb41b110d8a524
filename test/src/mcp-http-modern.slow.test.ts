import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolOrchestrator, type ITool } from '../../src/index.js';
import { startHttpServer, type McpHttpServer, type ServeHttpOptions } from '../../src/mcp/http.js';
import { mcpRequest, type McpRequestOptions } from '../helpers/mcp-request.js';
import { makeTool, sleep } from './helpers.js';

/*
 * The 2026-07-28 wire of `startHttpServer`, request by request (raw HTTP, as a browser, a proxy or
 * another SDK would send it), and the official v2 client for what it negotiates: `_meta` per request,
 * the standard headers and their error codes, cacheable `tools/list` with paging, and the Origin rule.
 */

const MODERN = '2026-07-28';

const tools: ITool[] = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((name) =>
  makeTool(name, {
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false },
    async execute(args) {
      return { success: true, output: { name, n: args.n ?? null } };
    },
  }),
);

const running: McpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function serve(options: ServeHttpOptions = {}, served: ITool[] = tools): Promise<McpHttpServer> {
  const orchestrator = new ToolOrchestrator({ tools: served, shutdownTimeoutMs: 50 });
  const server = await startHttpServer(orchestrator, { port: 0, handleSignals: false, ...options });
  running.push(server);
  return server;
}

/** A 2026-07-28 request: its revision, client info and capabilities in `_meta`, the standard headers. */
const modern = (method: string, params: Record<string, unknown> = {}, options: McpRequestOptions = {}) =>
  mcpRequest(method, params, options);

/** A raw HTTP exchange (node:http, so Host and Origin can be anything). */
function raw(
  url: string,
  init: { headers: Record<string, string>; body: string },
): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: init.headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON: kept as text for the assertion to show.
        }
        resolve({ status: response.statusCode ?? 0, body, headers: response.headers });
      });
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

describe('serve --http on 2026-07-28: the request envelope and what the result carries', () => {
  it('answers server/discover and a tools/list with no initialize, stamping resultType, ttlMs, cacheScope and serverInfo', async () => {
    const server = await serve({ name: 'modern-test', version: '9.9.9' });
    const discover = await raw(server.url, modern('server/discover'));
    expect(discover.status).toBe(200);
    expect(discover.body.result.supportedVersions).toContain(MODERN);
    expect(discover.body.result.capabilities.tools).toBeDefined();

    const listed = await raw(server.url, modern('tools/list'));
    expect(listed.status).toBe(200);
    const { result } = listed.body;
    expect(result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'alpha',
      'beta',
      'gamma',
      'delta',
      'epsilon',
    ]);
    expect(result.nextCursor).toBeUndefined();
    expect(result.resultType).toBe('complete');
    // Without auth every caller sees the same list: a shared cache may keep it.
    expect([result.ttlMs, result.cacheScope]).toEqual([60_000, 'public']);
    expect(result._meta[SERVER_INFO_META_KEY]).toMatchObject({ name: 'modern-test', version: '9.9.9' });
    expect(listed.headers['mcp-session-id']).toBeUndefined();
  });

  it('pages tools/list with pageSize, in registry order, and refuses a cursor it did not hand out -32602', async () => {
    const server = await serve({ pageSize: 2 });
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { body } = await raw(server.url, modern('tools/list', cursor === undefined ? {} : { cursor }));
      names.push(...body.result.tools.map((tool: { name: string }) => tool.name));
      cursor = body.result.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 10);
    expect([pages, names]).toEqual([3, ['alpha', 'beta', 'gamma', 'delta', 'epsilon']]);
    const bad = await raw(server.url, modern('tools/list', { cursor: 'not-ours' }));
    expect(bad.body.error.code).toBe(-32602);
    expect(bad.body.error.message).toContain("cursor 'not-ours' is not one this server handed out");
  });

  it('the official v2 client walks the pages to the full list', async () => {
    const server = await serve({ pageSize: 2 });
    const client = new Client({ name: 'pager', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      // The v2 client follows nextCursor itself: three pages of two, two and one.
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
      const last = await client.listTools({ cursor: 'p4' });
      expect(last.tools.map((tool) => tool.name)).toEqual(['epsilon']);
    } finally {
      await client.close();
    }
  });

  it('refuses a request whose Mcp-Method header is missing or disagrees with the body -32020, and an Mcp-Name that disagrees', async () => {
    const server = await serve();
    const missing = await raw(server.url, modern('tools/list', {}, { headers: { 'mcp-method': undefined } }));
    expect([missing.status, missing.body.error.code]).toEqual([400, -32020]);
    const other = await raw(server.url, modern('tools/list', {}, { headers: { 'mcp-method': 'tools/call' } }));
    expect(other.body.error.code).toBe(-32020);
    const name = await raw(
      server.url,
      modern('tools/call', { name: 'alpha', arguments: {} }, { headers: { 'mcp-name': 'beta' } }),
    );
    expect(name.body.error.code).toBe(-32020);
  });

  it('answers a revision it does not serve -32022 naming the ones it does', async () => {
    const server = await serve();
    const answer = await raw(server.url, modern('tools/list', {}, { version: '2027-03-01' }));
    expect(answer.body.error.code).toBe(-32022);
    expect(JSON.stringify(answer.body.error.data)).toContain(MODERN);
  });

  it('calls a tool; array or string arguments are -32602 in both eras, an unknown tool -32602, bad arguments isError', async () => {
    const server = await serve();
    const good = await raw(server.url, modern('tools/call', { name: 'beta', arguments: { n: 3 } }));
    expect(good.body.result.isError).toBeFalsy();
    expect(JSON.parse(good.body.result.content[0].text)).toEqual({ name: 'beta', n: 3 });
    for (const args of [[1, 2], 'text']) {
      const refused = await raw(server.url, modern('tools/call', { name: 'beta', arguments: args }));
      expect([refused.status, refused.body.error.code]).toEqual([200, -32602]);
      expect(refused.body.error.message).toContain('params.arguments must be an object');
      expect(refused.body.id).toBe(1);
      const legacy = await raw(server.url, {
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 4,
          method: 'tools/call',
          params: { name: 'beta', arguments: args },
        }),
      });
      expect([legacy.body.error.code, legacy.body.id]).toEqual([-32602, 4]);
    }
    const unknown = await raw(server.url, modern('tools/call', { name: 'nope', arguments: {} }));
    expect(unknown.body.error.code).toBe(-32602);
    const bad = await raw(server.url, modern('tools/call', { name: 'beta', arguments: { n: 'three' } }));
    expect(bad.body.result.isError).toBe(true);
  });

  it('the official v2 client gets the feedback text for bad arguments, within the orchestrator’s maxFeedbackLength', async () => {
    const orchestrator = new ToolOrchestrator({ tools, shutdownTimeoutMs: 50, maxFeedbackLength: 200 });
    const server = await startHttpServer(orchestrator, { port: 0, handleSignals: false });
    running.push(server);
    const client = new Client({ name: 'feedback', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const result = await client.callTool({ name: 'beta', arguments: { n: 'three', extra: 1 } });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([
        {
          type: 'text',
          text: [
            "INVALID_ARGUMENTS: The arguments for tool 'beta' do not fit its input schema. Fix them and call again.",
            '- /extra: unknown property (allowed: "n") (received 1)',
            '- … and 1 more problem',
          ].join('\n'),
        },
      ]);
    } finally {
      await client.close();
    }
  });

  it('aborts a 2026-07-28 call over the request timeout and answers it 504', async () => {
    let aborted = false;
    const slow = makeTool('slow', {
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      async execute(_args, context) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5_000);
          context.signal?.addEventListener('abort', () => {
            aborted = true;
            clearTimeout(timer);
            resolve();
          });
        });
        return { success: true, output: {} };
      },
    });
    const server = await serve({ requestTimeoutMs: 200 }, [slow]);
    const answer = await raw(server.url, modern('tools/call', { name: 'slow', arguments: {} }, { id: 9 }));
    expect([answer.status, answer.body.error.code, answer.body.id]).toEqual([504, -32001, 9]);
    for (let i = 0; i < 50 && !aborted; i++) await sleep(10);
    expect(aborted).toBe(true);
  });
});

describe('Origin on serve --http (DNS-rebinding protection, both eras)', () => {
  it('on a loopback bind without auth, accepts pages of this machine on any port and refuses others 403', async () => {
    const server = await serve();
    for (const origin of [
      `http://localhost:${server.port}`,
      'http://localhost:5173',
      'http://127.0.0.1:8080',
      'https://[::1]:3000',
    ]) {
      const answer = await raw(server.url, modern('tools/list', {}, { headers: { origin } }));
      expect([origin, answer.status]).toEqual([origin, 200]);
    }
    for (const origin of ['http://evil.example', 'http://localhost.evil.example', 'null', 'file://localhost']) {
      const answer = await raw(server.url, modern('tools/list', {}, { headers: { origin } }));
      expect([origin, answer.status]).toEqual([origin, 403]);
      expect(answer.body.error.message).toContain('--allowed-origin');
    }
  });

  it('accepts an origin given in allowedOrigins, and nothing else beyond loopback', async () => {
    const server = await serve({ allowedOrigins: ['https://app.example'] });
    expect(
      (await raw(server.url, modern('tools/list', {}, { headers: { origin: 'https://app.example' } }))).status,
    ).toBe(200);
    expect(
      (await raw(server.url, modern('tools/list', {}, { headers: { origin: 'https://app2.example' } }))).status,
    ).toBe(403);
  });
});
