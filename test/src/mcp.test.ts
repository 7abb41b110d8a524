import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { Mcp2020OnlyValidator } from '../helpers/mcp-2020-validator.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTools } from '../../generated/registry.js';
import { ToolOrchestrator, toMcpToolFromTool, type ITool, type ToolExecutionContext } from '../../src/index.js';
import { createMcpServer, serveStdio, type McpServerOptions } from '../../src/mcp/index.js';
import { deferred, makeTool } from './helpers.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'generated/manifests/mcp.json'), 'utf8')) as {
  tools: Tool[];
};
const portable = JSON.parse(readFileSync(path.join(repoRoot, 'generated/manifests/mcp-portable.json'), 'utf8')) as {
  tools: Tool[];
};
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** The text of a result's first content block (every toolsmith result has exactly one, a text). */
function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  return (content[0] as { text: string }).text;
}

/** Checks `value` against `schema` with the SDK's own (Ajv + formats) validator. */
function conformance(schema: unknown, value: unknown): { valid: boolean; errorMessage?: string } {
  const result = new Mcp2020OnlyValidator().getValidator(schema as never)(value);
  return result.valid ? { valid: true } : { valid: false, errorMessage: result.errorMessage };
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

const typedTool = makeTool('measure', {
  displayName: 'Measure',
  description: 'Measures a count.',
  inputSchema: {
    type: 'object',
    required: ['count'],
    additionalProperties: false,
    properties: { count: { type: 'integer', minimum: 0 }, unit: { type: 'string', default: 'm' } },
  },
  outputSchema: {
    type: 'object',
    required: ['length'],
    additionalProperties: false,
    properties: { length: { type: 'string' } },
  },
  async execute(args) {
    return { success: true, output: { length: `${args.count} ${args.unit}` } };
  },
});

describe('createMcpServer (in process, official Client over InMemoryTransport)', () => {
  const connections: Array<{ client: Client; orchestrator: ToolOrchestrator }> = [];

  async function connect(tools: ITool[], options: McpServerOptions = {}): Promise<Client> {
    const orchestrator = new ToolOrchestrator({ tools, shutdownTimeoutMs: 50 });
    const server = createMcpServer(orchestrator, options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    connections.push({ client, orchestrator });
    return client;
  }

  afterEach(async () => {
    for (const { client, orchestrator } of connections.splice(0)) {
      await client.close();
      await orchestrator.shutdown();
    }
  });

  it('reports its name, version and the tools capability', async () => {
    const client = await connect([typedTool], { name: 'my-tools', version: '9.9.9' });
    expect(client.getServerVersion()).toEqual({ name: 'my-tools', version: '9.9.9' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists the example tools exactly as generated/manifests/mcp.json', async () => {
    const client = await connect(createTools(), {
      capabilities: ['capability:filesystem:read', 'capability:memory:write'],
    });
    const { tools } = await client.listTools();
    const byName = (list: Tool[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    expect(byName(tools)).toEqual(byName(manifest.tools));
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'calculator',
      'get_current_datetime',
      'list_directory',
      'memory_read',
      'memory_write',
      'read_file',
      'remember_calculation',
    ]);
  });

  it('stamps 2020-12 on every published schema and derives annotations from hasSideEffects', async () => {
    const writer = makeTool('writer', { hasSideEffects: true, inputSchema: { type: 'object', properties: {} } });
    const client = await connect([typedTool, writer]);
    const { tools } = await client.listTools();
    const measure = tools.find((tool) => tool.name === 'measure')!;
    expect(measure.inputSchema.$schema).toBe(DRAFT_2020_12);
    expect(measure.outputSchema?.$schema).toBe(DRAFT_2020_12);
    expect(measure).toEqual(JSON.parse(JSON.stringify(toMcpToolFromTool(typedTool))));
    expect(measure.annotations).toEqual({
      title: 'Measure',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    const listedWriter = tools.find((tool) => tool.name === 'writer')!;
    expect(listedWriter.outputSchema).toBeUndefined();
    expect(listedWriter.annotations).toEqual({ title: 'writer', readOnlyHint: false, destructiveHint: true });
  });

  it('lists only the tools the persona may call (a call to another fails PERMISSION_DENIED), and no disabled ones', async () => {
    const guarded = makeTool('guarded', { requiredCapabilities: ['capability:secret'] });
    const orchestrator = new ToolOrchestrator({
      tools: [guarded, makeTool('open'), makeTool('off')],
      disabledTools: ['off'],
    });
    const server = createMcpServer(orchestrator);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    connections.push({ client, orchestrator });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['open']);
    const allowed = createMcpServer(orchestrator, { capabilities: ['capability:secret'] });
    const [allowedClientSide, allowedServerSide] = InMemoryTransport.createLinkedPair();
    const allowedClient = new Client({ name: 'mcp-test', version: '1.0.0' });
    await Promise.all([allowed.connect(allowedServerSide), allowedClient.connect(allowedClientSide)]);
    expect((await allowedClient.listTools()).tools.map((tool) => tool.name)).toEqual(['guarded', 'open']);
    await allowedClient.close();
    const denied = await client.callTool({ name: 'guarded', arguments: {} });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(
      /^PERMISSION_DENIED: Tool 'guarded' needs capabilities the caller lacks: capability:secret\.\nDetails: \{"missing":\["capability:secret"\]\}$/,
    );
    const disabled = await client.callTool({ name: 'off', arguments: {} });
    expect(disabled.isError).toBe(true);
    expect(textOf(disabled)).toMatch(/^TOOL_DISABLED: /);
  });

  it('answers structuredContent conforming to the output schema, plus the same value as JSON text', async () => {
    const client = await connect([typedTool]);
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: 'measure', arguments: { count: 3 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ length: '3 m' });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    expect(conformance(tools[0]!.outputSchema, result.structuredContent)).toEqual({ valid: true });
  });

  it('answers the example calculator with a structured result', async () => {
    const client = await connect(createTools());
    await client.listTools();
    const result = await client.callTool({ name: 'calculator', arguments: { expression: '2*(3+4)' } });
    expect(result.structuredContent).toEqual({ expression: '2*(3+4)', result: 14 });
    expect(
      conformance(manifest.tools.find((tool) => tool.name === 'calculator')!.outputSchema, result.structuredContent),
    ).toEqual({ valid: true });
  });

  it('answers text only for a tool without an output schema', async () => {
    const client = await connect([makeTool('echo')]);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.structuredContent).toBeUndefined();
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({ echoed: { text: 'hi' } });
  });

  it('answers argument errors as isError results with the feedback text: each problem marked on the arguments', async () => {
    const client = await connect([typedTool]);
    await client.listTools();
    const result = await client.callTool({ name: 'measure', arguments: { count: -1, extra: true } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toBe(
      [
        "INVALID_ARGUMENTS: The arguments for tool 'measure' do not fit its input schema. Fix them and call again.",
        '{',
        '  "count": -1, // error: expected an integer >= 0',
        '  "extra": true // error: unknown property (allowed: "count", "unit")',
        '}',
      ].join('\n'),
    );
  });

  it('answers a failing and a throwing tool as isError results', async () => {
    const failing = makeTool('failing', {
      execute: async () => ({ success: false, error: 'disk full', details: { free: 0 } }),
    });
    const throwing = makeTool('throwing', {
      execute: async () => {
        throw new Error('boom');
      },
    });
    const client = await connect([failing, throwing]);
    const failed = await client.callTool({ name: 'failing', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe(`TOOL_FAILED: Tool 'failing' failed: disk full\nDetails: {"free":0}`);
    const thrown = await client.callTool({ name: 'throwing', arguments: {} });
    expect(thrown.isError).toBe(true);
    expect(textOf(thrown)).toBe(`TOOL_ERROR: Tool 'throwing' threw: boom`);
  });

  it('answers a declared failure with its structured failure in _meta; the SEP-3313 draft entry only when switched on', async () => {
    const quota = makeTool('quota', {
      outputSchema: { type: 'object', required: ['left'], properties: { left: { type: 'number' } } },
      errors: { RATE_LIMITED: { description: 'Wait and call again.', retryable: true } },
      execute: async () => ({ success: false, error: 'Rate limited', code: 'RATE_LIMITED' }),
    });
    const call = async (options: McpServerOptions) =>
      (await (await connect([quota], options)).callTool({ name: 'quota', arguments: {} })) as CallToolResult;
    const plain = await call({});
    expect(plain).not.toHaveProperty('structuredContent');
    expect(Object.keys(plain._meta ?? {})).toEqual(['dev.toolsmith/failure']);
    expect(plain._meta?.['dev.toolsmith/failure']).toEqual({
      code: 'RATE_LIMITED',
      retryable: true,
      correlationId: expect.stringMatching(/^mcp-/),
    });
    const draft = await call({ toolFailureMeta: true });
    const ours = draft._meta?.['dev.toolsmith/failure'] as { correlationId: string };
    expect(draft._meta?.['io.modelcontextprotocol/toolFailure']).toEqual({
      class: 'reliability',
      code: 'RATE_LIMITED',
      retryable: true,
      correlationId: ours.correlationId,
      agentGuidance: 'Wait and call again.',
    });
    const timedOut = await (
      await connect([makeTool('slow', { timeoutMs: 5, execute: () => new Promise(() => {}) })], {
        toolFailureMeta: true,
      })
    ).callTool({ name: 'slow', arguments: {} });
    expect(timedOut._meta?.['io.modelcontextprotocol/toolFailure']).toMatchObject({
      class: 'reliability',
      code: 'TIMEOUT',
      retryable: false,
    });
  });

  it('answers an unknown tool with a protocol error (InvalidParams) naming the registered tools', async () => {
    const client = await connect([typedTool]);
    const error = await rejection(client.callTool({ name: 'measur', arguments: {} }));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("'measur'");
    expect(error.message).toContain('measure');
  });

  it('calls with the configured persona and capabilities', async () => {
    let seen: ToolExecutionContext | undefined;
    const spy = makeTool('spy', {
      requiredCapabilities: ['capability:a'],
      async execute(_args, context) {
        seen = context;
        return { success: true, output: {} };
      },
    });
    const client = await connect([spy], {
      capabilities: ['capability:a', 'capability:b'],
      persona: { personaId: 'agent-7', userContext: { userId: 'u-1' } },
    });
    const result = await client.callTool({ name: 'spy', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(seen?.personaId).toBe('agent-7');
    expect(seen?.gmiId).toBe('mcp');
    expect(seen?.userContext).toEqual({ userId: 'u-1' });
    expect(seen?.personaCapabilities).toEqual(['capability:a', 'capability:b']);
    expect(seen?.correlationId).toMatch(/^mcp-/);
  });

  it('aborts the tool when the client cancels the request', async () => {
    const aborted = deferred<unknown>();
    const started = deferred();
    const slow = makeTool('slow', {
      execute: (_args, context) =>
        new Promise((resolve) => {
          started.resolve();
          context.signal?.addEventListener('abort', () => {
            aborted.resolve(context.signal?.reason);
            resolve({ success: true, output: {} });
          });
        }),
    });
    const client = await connect([slow]);
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
    await started.promise;
    controller.abort('enough');
    await expect(call).rejects.toThrow();
    await expect(aborted.promise).resolves.toBe('enough');
  });
});

describe('serveStdio (in process, streams given)', () => {
  it('stops on SIGTERM with that reason, and leaves no listener behind on the process or the streams', async () => {
    const { PassThrough } = await import('node:stream');
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const before = { SIGTERM: new Set(process.listeners('SIGTERM')), SIGINT: new Set(process.listeners('SIGINT')) };
    const added = (signal: 'SIGTERM' | 'SIGINT') =>
      process.listeners(signal).filter((listener) => !before[signal].has(listener));
    const served = serveStdio(new ToolOrchestrator({ tools: [makeTool('echo')] }), { stdin, stdout });
    expect([added('SIGTERM').length, added('SIGINT').length]).toEqual([1, 1]);
    // Its own listener only: the test runner's process must not get a signal.
    (added('SIGTERM')[0] as () => void)();
    expect(await served).toEqual({ reason: 'SIGTERM', shutdown: { abortedCalls: 0, errors: [] } });
    expect([added('SIGTERM'), added('SIGINT')]).toEqual([[], []]);
    expect([stdin.listenerCount('end'), stdin.listenerCount('close'), stdout.listenerCount('error')]).toEqual([
      0, 0, 0,
    ]);
  });

  it('resolves and shuts the orchestrator down when stdin ends', async () => {
    const { PassThrough } = await import('node:stream');
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let shutDown = 0;
    const tool = makeTool('echo', {
      async shutdown() {
        shutDown++;
      },
    });
    const orchestrator = new ToolOrchestrator({ tools: [tool] });
    const served = serveStdio(orchestrator, { stdin, stdout, handleSignals: false });
    const lines: string[] = [];
    stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    stdin.end();
    const result = await served;
    expect(result).toEqual({ reason: 'closed', shutdown: { abortedCalls: 0, errors: [] } });
    expect(shutDown).toBe(1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { serverInfo: { name: 'toolsmith' }, capabilities: { tools: {} } },
    });
  });
});

describe('toolsmith serve (child process, official Client over stdio)', () => {
  let folder: string;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  const protocolErrors: Error[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-mcp-'));
    mkdirSync(path.join(folder, 'files', 'notes'), { recursive: true });
    writeFileSync(path.join(folder, 'files', 'hello.txt'), 'Hello from the test.\n');
    writeFileSync(path.join(folder, 'files', 'notes', 'todo.md'), '- ship it\n');
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        'bin/toolsmith.js',
        'serve',
        '--allow-side-effects',
        '--capability',
        'capability:filesystem:read',
        '--capability',
        'capability:memory:write',
      ],
      cwd: repoRoot,
      env: { TOOLSMITH_DATA_DIR: path.join(folder, 'data'), TOOLSMITH_FILES_ROOT: path.join(folder, 'files') },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    // A line on stdout that is not a JSON-RPC message reaches the client as an error: collect them all.
    client.onerror = (error) => protocolErrors.push(error);
    await client.connect(transport);
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** Calls `name` and returns the result, after checking structured results against the listed output schema. */
  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  it('lists every example tool as the example project serves it: the portable profile (mcp-portable.json)', async () => {
    const { tools } = await client.listTools();
    expect(tools).toEqual(portable.tools);
    expect(tools.map((tool) => tool.name)).toEqual(manifest.tools.map((tool) => tool.name));
  });

  it('calls every example tool and answers real outputs', async () => {
    const { tools } = await client.listTools();
    const outputSchema = (name: string) => tools.find((tool) => tool.name === name)!.outputSchema;
    const structured = (name: string, result: CallToolResult) => {
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
      expect(conformance(outputSchema(name), result.structuredContent)).toEqual({ valid: true });
      return result.structuredContent as Record<string, any>;
    };

    expect(structured('calculator', await call('calculator', { expression: '2*(3+4)^2' }))).toEqual({
      expression: '2*(3+4)^2',
      result: 98,
    });

    const before = Date.now();
    const now = structured('get_current_datetime', await call('get_current_datetime', { timeZone: 'Asia/Tokyo' }));
    expect(now.timeZone).toBe('Asia/Tokyo');
    expect(now.iso).toMatch(/\+09:00$/);
    expect(Math.abs(Date.parse(now.utc) - before)).toBeLessThan(60_000);

    const written = structured(
      'memory_write',
      await call('memory_write', { key: 'notes.greeting', value: 'hello', tags: ['greeting'] }),
    );
    expect(written).toMatchObject({
      created: true,
      entry: { key: 'notes.greeting', value: 'hello', tags: ['greeting'] },
    });
    expect(existsSync(path.join(folder, 'data', 'memory.sqlite'))).toBe(true);

    const read = structured('memory_read', await call('memory_read', { query: { key: 'notes.greeting' } }));
    expect(read.total).toBe(1);
    expect(read.entries[0]).toMatchObject({ key: 'notes.greeting', value: 'hello' });

    const file = structured('read_file', await call('read_file', { path: 'hello.txt' }));
    expect(file).toEqual({
      path: 'hello.txt',
      size: 21,
      encoding: 'utf8',
      content: 'Hello from the test.\n',
      truncated: false,
    });

    const listing = structured('list_directory', await call('list_directory', {}));
    const children = (
      listing.root.children as Array<{ path: string; type: string; children?: Array<{ path: string }> }>
    ).map((entry) => `${entry.type}:${entry.path}`);
    expect(children).toEqual(expect.arrayContaining(['file:hello.txt', 'directory:notes']));
    expect(JSON.stringify(listing)).toContain('notes/todo.md');

    const remembered = structured(
      'remember_calculation',
      await call('remember_calculation', { expression: '12*7', key: 'calc.answer' }),
    );
    expect(remembered).toMatchObject({
      created: true,
      entry: { key: 'calc.answer', value: '84', tags: ['calculation'] },
    });
    const tagged = structured('memory_read', await call('memory_read', { query: { tag: 'calculation' } }));
    expect(tagged.entries.map((entry: { key: string }) => entry.key)).toEqual(['calc.answer']);
  }, 20_000);

  it('answers an input error as an isError result mentioning INVALID_ARGUMENTS', async () => {
    const result = await call('calculator', { expression: '' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toBe(
      [
        "INVALID_ARGUMENTS: The arguments for tool 'calculator' do not fit its input schema. Fix them and call again.",
        '{',
        '  "expression": "" // error: expected a string of at least 1 character',
        '}',
      ].join('\n'),
    );
  });

  it('answers tool refusals and failures as isError results', async () => {
    const outside = await call('read_file', { path: '../secret.txt' });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/^REFUSED: /);
    const division = await call('calculator', { expression: '1/0' });
    expect(division.isError).toBe(true);
    expect(textOf(division)).toMatch(/^TOOL_FAILED: Tool 'calculator' failed: division by zero/);
  });

  it('answers an unknown tool with a protocol error', async () => {
    const error = await rejection(call('no_such_tool', {}));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("'no_such_tool'");
  });

  it('wrote nothing but protocol on stdout and nothing on stderr, and exits when the client closes', async () => {
    expect(protocolErrors).toEqual([]);
    const started = Date.now();
    await client.close();
    // The transport sends SIGTERM only after 2 s without exit: a quick close means the server exited on stdin's end.
    expect(Date.now() - started).toBeLessThan(1_900);
    expect(stderr).toBe('');
  });
});
