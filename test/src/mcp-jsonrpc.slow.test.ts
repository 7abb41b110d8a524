import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../src/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { makeTool } from './helpers.js';
import { HOSTILE_VALUES, makeHostile } from './hostile.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LIMIT = 64 * 1024;

interface JsonRpcAnswer {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** A server process spoken to in raw lines: each `send` waits for the next line the server writes. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  #buffer = '';
  #lines: string[] = [];
  #waiting: Array<(line: string) => void> = [];
  readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], cwd: string) {
    this.child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let newline: number;
      while ((newline = this.#buffer.indexOf('\n')) !== -1) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        const waiter = this.#waiting.shift();
        if (waiter !== undefined) waiter(line);
        else this.#lines.push(line);
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  nextLine(): Promise<string> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer; stderr: ${this.stderr}`)), 10_000);
      this.#waiting.push((answer) => (clearTimeout(timer), resolve(answer)));
    });
  }

  /** Writes raw bytes (a line, or anything) and answers the parsed next line. */
  async send(raw: string | Buffer): Promise<JsonRpcAnswer> {
    this.child.stdin.write(raw);
    return JSON.parse(await this.nextLine()) as JsonRpcAnswer;
  }

  request(id: number | string, method: string, params?: unknown): Promise<JsonRpcAnswer> {
    return this.send(
      `${JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params })}\n`,
    );
  }
}

const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };

describe('toolsmith serve answers every line as JSON-RPC says (raw bytes on its real stdin)', () => {
  let server: RawServer;

  beforeAll(async () => {
    server = new RawServer(process.execPath, ['bin/toolsmith.js', 'serve', '--max-message-bytes', String(LIMIT)], REPO);
    const answer = await server.request(1, 'initialize', initialize);
    expect(answer.result?.serverInfo).toMatchObject({ name: 'toolsmith' });
    server.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }, 30_000);

  afterAll(() => {
    server?.child.kill();
  });

  it('malformed JSON → -32700 Parse error, id null', async () => {
    for (const line of ['{not json', '{"jsonrpc":"2.0","id":2,', 'nul', '\u0000\u0001']) {
      const answer = await server.send(`${line}\n`);
      expect(answer, line).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError } });
      expect(answer.error?.message).toMatch(/^Parse error: .+\. Send one JSON-RPC message per line\.$/);
    }
  });

  it('valid JSON that is not a JSON-RPC message → -32600 Invalid Request (with the id when a request names one)', async () => {
    const cases: Array<[string, string | number | null, RegExp]> = [
      ['[1,2]', null, /got an array \(MCP has no batches\)\.$/],
      ['[]', null, /got an array/],
      ['"text"', null, /got a string\.$/],
      ['42', null, /got a number\.$/],
      ['null', null, /got null\.$/],
      ['{"jsonrpc":"2.0","id":3}', null, /neither a "method"/],
      ['{"jsonrpc":"1.0","id":4,"method":"ping"}', 4, /without "jsonrpc": "2.0"/],
      ['{"jsonrpc":"2.0","id":5.5,"method":"ping"}', null, /id is neither a string nor an integer/],
    ];
    for (const [line, id, message] of cases) {
      const answer = await server.send(`${line}\n`);
      expect(answer, line).toMatchObject({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest } });
      expect(answer.error?.message, line).toMatch(message);
    }
  });

  it('tools/call without a name or with non-object arguments → -32602 Invalid params saying what is wrong', async () => {
    const cases: Array<[unknown, string]> = [
      [
        { name: 'calculator', arguments: [1] },
        "tools/call params.arguments must be an object (the tool's input); got an array for tool 'calculator'.",
      ],
      [
        { name: 'calculator', arguments: '{"expression":"1+1"}' },
        "tools/call params.arguments must be an object (the tool's input); got a string for tool 'calculator'.",
      ],
      [
        { name: 'calculator', arguments: null },
        "tools/call params.arguments must be an object (the tool's input); got null for tool 'calculator'.",
      ],
      [{ arguments: {} }, "tools/call needs params.name, the tool's name as a non-empty string; got nothing."],
      [
        { name: '', arguments: {} },
        "tools/call needs params.name, the tool's name as a non-empty string; got an empty string.",
      ],
      [{ name: 7 }, "tools/call needs params.name, the tool's name as a non-empty string; got a number."],
      [undefined, 'tools/call needs params { name, arguments }; got nothing.'],
      [[1, 2], 'tools/call needs params { name, arguments }; got an array.'],
      ['text', 'tools/call needs params { name, arguments }; got a string.'],
    ];
    let id = 100;
    for (const [params, message] of cases) {
      const answer = await server.request(++id, 'tools/call', params);
      expect(answer).toEqual({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message } });
    }
    // Any method: MCP's params are objects, never by position.
    expect(await server.request(++id, 'ping', [1])).toEqual({
      jsonrpc: '2.0',
      id,
      error: {
        code: ErrorCode.InvalidParams,
        message: 'ping needs params as an object (MCP has no by-position params); got an array.',
      },
    });
  });

  it('on 2026-07-28 (no initialize) too: non-object params and arguments → -32602', async () => {
    const modern = new RawServer(process.execPath, ['bin/toolsmith.js', 'serve'], REPO);
    try {
      const _meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      expect((await modern.request(1, 'server/discover', { _meta })).result?.supportedVersions).toContain('2026-07-28');
      for (const [id, params, kind] of [
        [2, [1, 2], 'params { name, arguments }; got an array'],
        [
          3,
          { name: 'calculator', arguments: [1, 2], _meta },
          "params.arguments must be an object (the tool's input); got an array",
        ],
      ] as const) {
        const answer = await modern.request(id, 'tools/call', params);
        expect(answer.error?.code, JSON.stringify(params)).toBe(ErrorCode.InvalidParams);
        expect(answer.error?.message).toContain(`tools/call ${kind.startsWith('params {') ? 'needs ' : ''}${kind}`);
      }
    } finally {
      modern.child.kill();
    }
  });

  it('an unknown tool: -32602 whose message is not prefixed (the client adds "MCP error -32602: " once)', async () => {
    const answer = await server.request(200, 'tools/call', { name: 'no_such_tool', arguments: {} });
    expect(answer.error?.code).toBe(ErrorCode.InvalidParams);
    expect(answer.error?.message).toMatch(/^Tool 'no_such_tool' not found\. /);
  });

  it('a line over the limit is answered -32600 for its id (first or last in the line), skipped, and the server keeps serving', async () => {
    const pad = 'x'.repeat(LIMIT + 10);
    // The SDK's client writes the id last.
    const idLast = await server.send(
      `${JSON.stringify({ method: 'tools/call', params: { name: 'calculator', arguments: { expression: '1+1', pad } }, jsonrpc: '2.0', id: 300 })}\n`,
    );
    expect(idLast).toMatchObject({ id: 300, error: { code: ErrorCode.InvalidRequest, data: { limit: LIMIT } } });
    expect(idLast.error?.message).toMatch(
      new RegExp(`^Invalid Request: the message is \\d+ bytes, more than this server's limit of ${LIMIT} bytes`),
    );
    const idFirst = await server.send(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'tools/call', params: { name: 'calculator', arguments: { pad } } })}\n`,
    );
    expect(idFirst).toMatchObject({ id: 'big', error: { code: ErrorCode.InvalidRequest } });
    // Written in many small chunks, a line several times the limit: one answer.
    const chunks = `{"jsonrpc":"2.0","method":"x","params":{"a":"${'y'.repeat(4 * LIMIT)}"}}\n`;
    for (let offset = 0; offset < chunks.length; offset += 1000)
      server.child.stdin.write(chunks.slice(offset, offset + 1000));
    expect(await server.nextLine().then((line) => JSON.parse(line))).toMatchObject({
      id: null,
      error: { code: ErrorCode.InvalidRequest },
    });
    // Still serving: a real call, a message just under the limit.
    const under = await server.request(301, 'tools/call', {
      name: 'calculator',
      arguments: { expression: `1+${' '.repeat(LIMIT - 200)}1` },
    });
    expect(under.error?.message ?? '').not.toMatch(/limit/);
    const call = await server.request(302, 'tools/call', { name: 'calculator', arguments: { expression: '6*7' } });
    expect(call.result?.structuredContent).toEqual({ expression: '6*7', result: 42 });
  });

  it('two messages in one write, CRLF endings and blank lines are read as the SDK reads them', async () => {
    server.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 400, method: 'ping' })}\r\n\n${JSON.stringify({ jsonrpc: '2.0', id: 401, method: 'ping' })}\n`,
    );
    expect(JSON.parse(await server.nextLine())).toEqual({ jsonrpc: '2.0', id: 400, result: {} });
    expect(JSON.parse(await server.nextLine())).toEqual({ jsonrpc: '2.0', id: 401, result: {} });
  });

  it('exits 0 when stdin closes, having written nothing to stderr', async () => {
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    expect(server.stderr).toBe('');
  });
});

describe('toolsmith serve exits when a tool’s own shutdown never settles', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-stuck-'));
    mkdirSync(path.join(folder, 'generated'));
    writeFileSync(path.join(folder, 'package.json'), '{"type":"module"}\n');
    // A project registry with one tool whose shutdown never settles and holds a timer (the event loop stays busy).
    writeFileSync(
      path.join(folder, 'generated', 'registry.ts'),
      `export function createTools() {
  return [{
    id: 'stuck', name: 'stuck', displayName: 'stuck', description: 'Never finishes shutting down.',
    inputSchema: { type: 'object' },
    async execute() { return { success: true, output: { ok: true } }; },
    shutdown: () => new Promise(() => void setInterval(() => {}, 1000)),
  }];
}
`,
    );
  });
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('answers, then on stdin end reports the stuck tool and exits 0 at the --shutdown-timeout deadline', async () => {
    const server = new RawServer(
      process.execPath,
      [path.join(REPO, 'bin/toolsmith.js'), 'serve', '--shutdown-timeout', '300'],
      folder,
    );
    const answer = await server.request(1, 'tools/call', { name: 'stuck', arguments: {} });
    expect(answer.result?.content).toEqual([{ type: 'text', text: '{"ok":true}' }]);
    server.child.stdin.end();
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
    const code = await server.exited;
    clearTimeout(timer);
    expect(code).toBe(0);
    expect(server.stderr).toBe(
      "toolsmith serve: tool 'stuck' failed to shut down: Tool 'stuck' did not finish shutting down within the 300 ms deadline; it was left running.\n",
    );
  }, 30_000);

  it('rejects a malformed --max-message-bytes as a usage error', async () => {
    const server = new RawServer(
      process.execPath,
      [path.join(REPO, 'bin/toolsmith.js'), 'serve', '--max-message-bytes', '10MB'],
      folder,
    );
    expect(await server.exited).toBe(2);
    expect(server.stderr).toBe(
      "error: option '--max-message-bytes <n>' argument '10MB' is invalid. It must be a positive whole number, e.g. --max-message-bytes 1048576.\n",
    );
  }, 30_000);
});

describe('output that cannot be serialized and hostile values, over a real stdio pipe (official client)', () => {
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  beforeAll(async () => {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'test/fixtures/hostile/serve-hostile-tools.ts', String(1024 * 1024), '200'],
      cwd: REPO,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'hostile', version: '1' });
    await client.connect(transport);
  }, 30_000);

  const call = async (name: string) => (await client.callTool({ name, arguments: {} })) as CallToolResult;
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

  it('a BigInt, a cycle, a 100,000-deep value or a Proxy as output: an isError result with OUTPUT_INVALID, not -32603', async () => {
    for (const [name, cause] of [
      ['bigint', /BigInt/],
      ['bigint_structured', /BigInt/],
      ['cycle', /circular/],
      ['deep', /call stack/],
      ['hostile_output', /: trap$/], // what its trap threw
    ] as const) {
      const result = await call(name);
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(text(result), name).toMatch(
        new RegExp(`^OUTPUT_INVALID: Tool '${name}' answered output that cannot be serialized to JSON: `),
      );
      expect(text(result), name).toMatch(cause);
    }
  });

  it('a tool throwing a hostile value, or failing with unreadable details: isError results', async () => {
    // The structured failure in _meta: the runtime's code, not retryable, the call's correlation id.
    const meta = {
      'dev.toolsmith/failure': { code: 'TOOL_ERROR', retryable: false, correlationId: expect.any(String) },
    };
    expect(await call('hostile_throw')).toEqual({
      content: [{ type: 'text', text: "TOOL_ERROR: Tool 'hostile_throw' threw: unprintable value" }],
      isError: true,
      _meta: meta,
    });
    expect(await call('hostile_details')).toEqual({
      content: [
        { type: 'text', text: "TOOL_ERROR: Tool 'hostile_details' answered a result that cannot be read: trap" },
      ],
      isError: true,
      _meta: meta,
    });
  });

  it('an unknown tool: the client’s error says "MCP error -32602" once', async () => {
    const error = await client.callTool({ name: 'nope', arguments: {} }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toMatch(/^MCP error -32602: Tool 'nope' not found\. Nearest registered: /);
    expect((error as McpError).message.match(/MCP error/g)).toHaveLength(1);
  });

  it('still serves after all that, and exits at the shutdown deadline though one tool never finishes shutting down', async () => {
    expect((await client.callTool({ name: 'echo', arguments: { a: 1 } })).content).toEqual([
      { type: 'text', text: '{"a":1}' },
    ]);
    const started = Date.now();
    await client.close();
    // The client transport kills the server only after 2 s: a quicker close means the server exited itself.
    expect(Date.now() - started).toBeLessThan(1_900);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stderr).toBe(
      "closed: closed; Tool 'stuck' did not finish shutting down within the 200 ms deadline; it was left running.\n",
    );
  });
});

describe('createMcpServer over any transport (official client, in memory)', () => {
  async function connect(orchestrator: ToolOrchestrator): Promise<Client> {
    const server = createMcpServer(orchestrator);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return client;
  }

  it('every hostile value a tool throws reaches the client as one isError TOOL_ERROR result', async () => {
    const tools = HOSTILE_VALUES.map(([kind], index) =>
      makeTool(`t${index}`, {
        execute: async () => {
          throw makeHostile(kind);
        },
      }),
    );
    const orchestrator = new ToolOrchestrator({ tools, shutdownTimeoutMs: 20 });
    const client = await connect(orchestrator);
    for (let index = 0; index < HOSTILE_VALUES.length; index++) {
      const result = (await client.callTool({ name: `t${index}`, arguments: {} })) as CallToolResult;
      expect(result.isError, HOSTILE_VALUES[index]![0]).toBe(true);
      expect(text(result)).toMatch(new RegExp(`^TOOL_ERROR: Tool 't${index}' threw: `));
    }
    await client.close();
    await orchestrator.shutdown();

    function text(result: CallToolResult): string {
      return (result.content[0] as { text: string }).text;
    }
  });

  it('non-object arguments are -32602 with a plain message on any transport', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [makeTool('echo')], shutdownTimeoutMs: 20 });
    const client = await connect(orchestrator);
    const error = await client.callTool({ name: 'echo', arguments: [1, 2] as never }).then(
      () => undefined,
      (thrown: unknown) => thrown as McpError,
    );
    expect(error?.code).toBe(ErrorCode.InvalidParams);
    expect(error?.message).toBe(
      "MCP error -32602: tools/call params.arguments must be an object (the tool's input); got an array for tool 'echo'.",
    );
    await client.close();
    await orchestrator.shutdown();
  });
});
