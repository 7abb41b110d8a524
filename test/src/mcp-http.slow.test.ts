import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToolOrchestrator, type ITool, type ToolExecutionContext } from '../../src/index.js';
import { startHttpServer, type McpHttpServer, type ServeHttpOptions } from '../../src/mcp/http.js';
import { mcpRequest } from '../helpers/mcp-request.js';
import { makeTool, sleep } from './helpers.js';

const ISSUER = 'https://auth.test.example/';
const RESOURCE = 'https://tools.test.example/mcp';
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A tool answering who called it and with which capabilities. */
const whoami = makeTool('whoami', {
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async execute(_args, context: ToolExecutionContext) {
    return {
      success: true,
      output: { userId: context.userContext.userId, capabilities: context.personaCapabilities ?? [] },
    };
  },
});
/** A tool needing a capability the scope table grants. */
const readSecret = makeTool('read_secret', {
  requiredCapabilities: ['capability:secrets:read'],
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async execute() {
    return { success: true, output: { secret: 42 } };
  },
});

/** A tool that runs until its signal aborts or `ms` pass; records what happened. */
function slowTool(ms: number, log: string[]): ITool {
  return makeTool('slow', {
    inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, additionalProperties: false },
    async execute(args, context) {
      log.push(`start:${String(args.tag)}`);
      const aborted = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        context.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      log.push(`${aborted ? 'aborted' : 'done'}:${String(args.tag)}`);
      return { success: true, output: { tag: args.tag } };
    },
  });
}

const running: McpHttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function serve(tools: ITool[], options: ServeHttpOptions = {}): Promise<McpHttpServer> {
  const orchestrator = new ToolOrchestrator({ tools, shutdownTimeoutMs: 50 });
  const server = await startHttpServer(orchestrator, { port: 0, handleSignals: false, ...options });
  running.push(server);
  return server;
}

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } },
  );
  await client.connect(transport);
  clients.push(client);
  return client;
}

function structured(result: unknown): Record<string, unknown> {
  const answer = result as CallToolResult;
  expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
  return JSON.parse((answer.content[0] as { text: string }).text) as Record<string, unknown>;
}

/** The JSON-RPC messages of an SSE body (its `data:` lines). */
function sseMessages(body: string): any[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).trim())
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}

/** A raw HTTP exchange (node:http, so the Host header can be anything). */
function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method ?? 'POST', headers: init.headers ?? {} }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

describe('startHttpServer without auth (official Client over Streamable HTTP)', () => {
  it('lists and calls tools statelessly: a session id handed out but never needed, every request answered on its own', async () => {
    const server = await serve([whoami], { capabilities: ['capability:a'] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(server.url);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami']);
    expect(structured(await client.callTool({ name: 'whoami', arguments: {} }))).toEqual({
      userId: 'mcp',
      capabilities: ['capability:a'],
    });
    // The handshake's answer hands out a session id (the client sends it back on every request).
    const transport = client.transport as StreamableHTTPClientTransport;
    expect(transport.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const again = await fetch(server.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(INIT) });
    expect(again.headers.get('mcp-session-id')).not.toBe(transport.sessionId);
    // A tools/list with no initialize before it, as a request reaching another replica would be: with
    // a session id this server never handed out, and with none.
    for (const session of [{ 'mcp-session-id': 'from-another-replica' }, {}] as Record<string, string>[]) {
      const listed = await fetch(server.url, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-protocol-version': '2025-11-25', ...session },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('mcp-session-id')).toBeNull();
      expect(
        ((await listed.json()) as { id: number; result: { tools: Array<{ name: string }> } }).result.tools.map(
          (tool) => tool.name,
        ),
      ).toEqual(['whoami']);
    }
  });

  it('answers /healthz, 404 elsewhere, 405 for GET /mcp, and refuses to bind beyond loopback', async () => {
    const server = await serve([whoami]);
    const base = server.url.replace(/\/mcp$/, '');
    const health = await fetch(`${base}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    expect((await fetch(`${base}/other`)).status).toBe(404);
    const get = await fetch(server.url, { headers: { accept: 'text/event-stream' } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    // No metadata without auth.
    expect((await fetch(`${base}/.well-known/oauth-protected-resource`)).status).toBe(404);
    const orchestrator = new ToolOrchestrator({ tools: [whoami] });
    await expect(startHttpServer(orchestrator, { host: '0.0.0.0', port: 0, handleSignals: false })).rejects.toThrow(
      /without auth only on loopback; '0\.0\.0\.0'/,
    );
    await orchestrator.shutdown();
  });

  it('rejects when the port is taken, saying so', async () => {
    const server = await serve([whoami]);
    const orchestrator = new ToolOrchestrator({ tools: [whoami] });
    await expect(startHttpServer(orchestrator, { port: server.port, handleSignals: false })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
    await orchestrator.shutdown();
  });

  it('refuses an Origin not allowed and a Host that is not loopback (DNS rebinding), 403', async () => {
    const server = await serve([whoami], { allowedOrigins: ['https://app.example'] });
    const body = JSON.stringify(INIT);
    const evil = await raw(server.url, { headers: { ...HEADERS, origin: 'https://evil.example' }, body });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error.message).toContain("Origin 'https://evil.example' is not allowed");
    const allowed = await raw(server.url, { headers: { ...HEADERS, origin: 'https://app.example' }, body });
    expect(allowed.status).toBe(200);
    expect(JSON.parse(allowed.body).result.serverInfo.name).toBe('toolsmith');
    const rebound = await raw(server.url, { headers: { ...HEADERS, host: `attacker.example:${server.port}` }, body });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toContain("Host 'attacker.example:");
    const localhost = await raw(server.url, { headers: { ...HEADERS, host: `localhost:${server.port}` }, body });
    expect(localhost.status).toBe(200);
  });

  it('answers a body over the limit 413 and a body that is not JSON 400 -32700', async () => {
    const server = await serve([whoami], { maxBodyBytes: 1000 });
    const big = JSON.stringify({ ...INIT, params: { ...INIT.params, padding: 'x'.repeat(2000) } });
    const tooLarge = await raw(server.url, { headers: HEADERS, body: big });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).error.message).toBe('The request body is larger than 1000 bytes.');
    const chunked = await raw(server.url, { headers: { ...HEADERS, 'transfer-encoding': 'chunked' }, body: big });
    expect(chunked.status).toBe(413);
    const broken = await raw(server.url, { headers: HEADERS, body: '{"jsonrpc":' });
    expect([broken.status, JSON.parse(broken.body).error.code]).toEqual([400, -32700]);
  });

  it('answers a request over the timeout 504 and aborts its call', async () => {
    const log: string[] = [];
    const server = await serve([slowTool(5_000, log)], { requestTimeoutMs: 200 });
    const started = Date.now();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'slow', arguments: { tag: 't' } },
      }),
    });
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32001, message: 'The request took longer than 200 ms and was aborted.' },
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    await sleep(50);
    expect(log).toEqual(['start:t', 'aborted:t']);
  });

  it('ends a streamed call over the timeout with its aborted result in the stream', async () => {
    const log: string[] = [];
    const slow = slowTool(5_000, log);
    const reporting = makeTool('slow_reporting', {
      inputSchema: slow.inputSchema,
      async execute(args, context) {
        context.progress?.({ progress: 1 });
        return slow.execute(args, context);
      },
    });
    const server = await serve([reporting], { requestTimeoutMs: 300 });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'slow_reporting', arguments: { tag: 's' }, _meta: { progressToken: 'p' } },
      }),
    });
    // The progress began the stream before the deadline: the call is stopped and its result ends the stream.
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const messages = sseMessages(await response.text());
    expect(messages.map((message) => message.method ?? `answer ${message.id}`)).toEqual([
      'notifications/progress',
      'answer 4',
    ]);
    expect(messages[1].result.isError).toBe(true);
    expect(messages[1].result.content[0].text).toMatch(/^ABORTED: The call to tool 'slow_reporting' was aborted/);
    expect(log).toEqual(['start:s', 'aborted:s']);
  });
});

describe("startHttpServer: a failure's _meta", () => {
  it("carries the SEP-3313 draft entry beside toolsmith's only with toolFailureMeta", async () => {
    const failing = makeTool('failing', {
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      errors: { BUSY: { description: 'Busy: call again.', retryable: true } },
      async execute() {
        return { success: false, error: 'Busy', code: 'BUSY' };
      },
    });
    const keys = async (options: ServeHttpOptions) => {
      const client = await connect((await serve([failing], options)).url);
      const result = (await client.callTool({ name: 'failing', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      return Object.keys(result._meta ?? {});
    };
    expect(await keys({})).toEqual(['dev.toolsmith/failure']);
    expect(await keys({ toolFailureMeta: true })).toEqual([
      'dev.toolsmith/failure',
      'io.modelcontextprotocol/toolFailure',
    ]);
  });
});

describe('a 2025 tools/call answered once, or as a stream when the tool reports first', () => {
  it('is one JSON body when the tool reports nothing; an SSE stream with the progress first when it does', async () => {
    const reporting = makeTool('reporting', {
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      async execute(_args, context) {
        context.progress?.({ progress: 1, total: 2 });
        await sleep(20);
        context.progress?.({ progress: 2, total: 2 });
        return { success: true, output: { done: true } };
      },
    });
    const server = await serve([whoami, reporting]);
    const call = (name: string, meta: object = {}) =>
      fetch(server.url, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name, arguments: {}, _meta: meta },
        }),
      });
    const plain = await call('whoami');
    expect(plain.headers.get('content-type')).toBe('application/json');
    expect(((await plain.json()) as { id: number }).id).toBe(5);
    // Without a progress token the tool has nothing to report to: one JSON body too.
    const quiet = await call('reporting');
    expect(quiet.headers.get('content-type')).toBe('application/json');
    const streamed = await call('reporting', { progressToken: 'p' });
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    const messages = sseMessages(await streamed.text());
    expect(messages.map((message) => message.method ?? `answer ${message.id}`)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'answer 5',
    ]);
    expect(messages[1].params).toEqual({ progressToken: 'p', progress: 2, total: 2 });
    expect(messages[2].result.structuredContent ?? JSON.parse(messages[2].result.content[0].text)).toEqual({
      done: true,
    });
  });
});

describe('drain (close): in-flight calls finish, new requests 503', () => {
  it('lets calls in flight finish and answers 503 to requests arriving meanwhile', async () => {
    const log: string[] = [];
    const server = await serve([slowTool(400, log)], { drainTimeoutMs: 5_000 });
    const client = await connect(server.url);
    const calls = [1, 2, 3].map((n) => client.callTool({ name: 'slow', arguments: { tag: String(n) } }));
    await sleep(150);
    const closing = server.close();
    await sleep(20);
    const late = await fetch(server.url.replace(/\/mcp$/, '/healthz'));
    expect([late.status, late.headers.get('retry-after')]).toEqual([503, '1']);
    const results = await Promise.all(calls);
    expect(results.map((result) => structured(result).tag)).toEqual(['1', '2', '3']);
    const result = await closing;
    expect([result.reason, result.completed, result.abandoned]).toEqual(['closed', 3, 0]);
    expect(log.filter((line) => line.startsWith('done:')).sort()).toEqual(['done:1', 'done:2', 'done:3']);
    running.splice(running.indexOf(server), 1);
    clients.splice(clients.indexOf(client), 1);
  });

  it('aborts the calls still running at the deadline and answers them 503', async () => {
    const log: string[] = [];
    const server = await serve([slowTool(10_000, log)], { drainTimeoutMs: 150 });
    const pending = fetch(server.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'slow', arguments: { tag: 'x' } },
      }),
    });
    await sleep(100);
    const result = await server.close();
    running.splice(running.indexOf(server), 1);
    expect([result.completed, result.abandoned]).toEqual([0, 1]);
    const response = await pending;
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      'shut down before the request finished',
    );
    expect(log).toEqual(['start:x', 'aborted:x']);
  });
});

describe('startHttpServer with bearer-token auth (OAuth 2.1 resource server)', () => {
  let folder: string;
  let jwksFile: string;
  let signingKey: CryptoKey;
  let otherKey: CryptoKey;
  let publicJwk: JWK;
  let jwksServer: Server;
  let jwksUrl: string;
  let jwksFetches = 0;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-http-auth-'));
    const pair = await generateKeyPair('ES256');
    signingKey = pair.privateKey;
    otherKey = (await generateKeyPair('ES256')).privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' };
    jwksFile = path.join(folder, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify({ keys: [publicJwk] }));
    jwksServer = createServer((_request, response) => {
      jwksFetches += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
  });

  afterAll(async () => {
    await new Promise((resolve) => jwksServer.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  function token(
    claims: Record<string, unknown>,
    options: { key?: CryptoKey; audience?: string; issuer?: string; expires?: string | number } = {},
  ): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key' })
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? RESOURCE)
      .setIssuedAt()
      .setExpirationTime(options.expires ?? '5m')
      .sign(options.key ?? signingKey);
  }

  const auth = (jwks: string, extra: object = {}) => ({
    auth: {
      issuer: ISSUER,
      resource: RESOURCE,
      jwks,
      scopeCapabilities: { 'secrets:read': ['capability:secrets:read'], 'tools:basic': [] },
      requiredScopes: ['tools:basic'],
      ...extra,
    },
  });

  it('serves the RFC 9728 metadata and answers no token 401 with WWW-Authenticate pointing at it', async () => {
    const server = await serve([whoami], auth(jwksFile));
    const base = server.url.replace(/\/mcp$/, '');
    for (const metadataPath of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const metadata = await fetch(`${base}${metadataPath}`);
      expect(await metadata.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [ISSUER],
        scopes_supported: ['secrets:read', 'tools:basic'],
        bearer_methods_supported: ['header'],
      });
    }
    const response = await raw(server.url, { headers: HEADERS, body: JSON.stringify(INIT) });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe(
      'Bearer resource_metadata="https://tools.test.example/.well-known/oauth-protected-resource/mcp", scope="tools:basic"',
    );
  });

  it('answers a bad signature, another audience, another issuer, an expired token and no subject 401 invalid_token', async () => {
    const server = await serve([whoami], auth(jwksFile));
    const cases: Array<[Promise<string>, string]> = [
      [token({ sub: 'ann', scope: 'tools:basic' }, { key: otherKey }), 'The token signature does not verify.'],
      [
        token({ sub: 'ann', scope: 'tools:basic' }, { audience: 'https://other.example/mcp' }),
        'The token is not meant for this server (aud).',
      ],
      [
        token({ sub: 'ann', scope: 'tools:basic' }, { issuer: 'https://evil.example/' }),
        'The token comes from another issuer (iss).',
      ],
      [
        token({ sub: 'ann', scope: 'tools:basic' }, { expires: Math.floor(Date.now() / 1000) - 60 }),
        'The token has expired.',
      ],
      [token({ scope: 'tools:basic' }), 'The token has no subject (sub).'],
      [Promise.resolve('not-a-jwt'), 'The token is not valid: Invalid Compact JWS.'],
    ];
    for (const [signed, description] of cases) {
      const response = await raw(server.url, {
        headers: { ...HEADERS, authorization: `Bearer ${await signed}` },
        body: JSON.stringify(INIT),
      });
      expect(response.status, description).toBe(401);
      expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
      expect(response.headers['www-authenticate']).toContain(
        'resource_metadata="https://tools.test.example/.well-known/oauth-protected-resource/mcp"',
      );
      expect(JSON.parse(response.body)).toEqual({ error: 'invalid_token', error_description: description });
    }
  });

  it('answers a token without a required scope 403 insufficient_scope', async () => {
    const server = await serve([whoami], auth(jwksFile));
    const response = await raw(server.url, {
      headers: { ...HEADERS, authorization: `Bearer ${await token({ sub: 'ann', scope: 'secrets:read' })}` },
      body: JSON.stringify(INIT),
    });
    expect(response.status).toBe(403);
    expect(response.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", error_description="The token lacks the scope tools:basic.", scope="tools:basic", resource_metadata="https://tools.test.example/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it("makes the token's subject the call's user and its scopes the persona's capabilities (JWKS by URL)", async () => {
    const server = await serve([whoami, readSecret], auth(jwksUrl));
    const fetchesBefore = jwksFetches;
    const client = await connect(
      server.url,
      await token({ sub: 'ann@example.com', scope: 'tools:basic secrets:read' }),
    );
    expect(structured(await client.callTool({ name: 'whoami', arguments: {} }))).toEqual({
      userId: 'ann@example.com',
      capabilities: ['capability:secrets:read'],
    });
    expect(structured(await client.callTool({ name: 'read_secret', arguments: {} }))).toEqual({ secret: 42 });
    expect(jwksFetches - fetchesBefore).toBe(1);

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'read_secret']);

    const basic = await connect(server.url, await token({ sub: 'bob', scp: ['tools:basic'] }));
    expect(structured(await basic.callTool({ name: 'whoami', arguments: {} }))).toEqual({
      userId: 'bob',
      capabilities: [],
    });
    // tools/list shows a caller only what its token's scopes allow.
    expect((await basic.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami']);
    // A call the scopes do not cover: 403 naming the scope that would grant it (step-up).
    const refused = await raw(server.url, {
      headers: {
        ...HEADERS,
        'mcp-protocol-version': '2025-11-25',
        authorization: `Bearer ${await token({ sub: 'bob', scope: 'tools:basic' })}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'read_secret', arguments: {} },
      }),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toMatch(
      /^Bearer error="insufficient_scope", error_description="[^"]+", scope="tools:basic secrets:read", resource_metadata="/,
    );
    expect(JSON.parse(refused.body).error_description).toBe(
      "Tool 'read_secret' needs capability:secrets:read; a token with scope secrets:read grants it.",
    );
    await expect(basic.callTool({ name: 'read_secret', arguments: {} })).rejects.toThrow(/insufficient_scope/);
  });

  it('does the same for a 2026-07-28 client (v2, pinned): subject, scopes, filtered private list, step-up 403', async () => {
    const server = await serve([whoami, readSecret], auth(jwksUrl));
    const connectModern = async (bearer: string) => {
      const client = new ClientV2(
        { name: 'modern-auth', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new HttpTransportV2(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }),
      );
      return client;
    };
    const ann = await connectModern(await token({ sub: 'ann@example.com', scope: 'tools:basic secrets:read' }));
    try {
      expect(ann.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(structured(await ann.callTool({ name: 'whoami', arguments: {} }))).toEqual({
        userId: 'ann@example.com',
        capabilities: ['capability:secrets:read'],
      });
      expect((await ann.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'read_secret']);
    } finally {
      await ann.close();
    }
    const bob = await connectModern(await token({ sub: 'bob', scope: 'tools:basic' }));
    try {
      expect((await bob.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami']);
      await expect(bob.callTool({ name: 'read_secret', arguments: {} })).rejects.toThrow(
        /Insufficient scope: required "tools:basic secrets:read"/,
      );
    } finally {
      await bob.close();
    }
    // The list depends on the token: a shared cache must not keep it.
    const listed = await fetch(server.url, {
      method: 'POST',
      ...mcpRequest(
        'tools/list',
        {},
        {
          id: 3,
          headers: { authorization: `Bearer ${await token({ sub: 'bob', scope: 'tools:basic' })}` },
        },
      ),
    });
    expect(((await listed.json()) as { result: { cacheScope: string } }).result.cacheScope).toBe('private');
  });
});
