import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { injectedArguments } from '../../src/hosts/host-table.js';
import { ToolOrchestrator, type ITool } from '../../src/index.js';
import { createMcpServer, HOST_INJECTED_ARGUMENTS, type McpServerOptions } from '../../src/mcp/index.js';
import { toMcpTool } from '../../src/mcp/tool.js';
import { makeTool } from './helpers.js';

/** What each tool was called with, by tool. */
const seen = new Map<string, unknown[]>();

function echo(name: string, inputSchema: object): ITool {
  return makeTool(name, {
    description: `Echoes ${name}.`,
    inputSchema,
    async execute(args) {
      seen.set(name, [...(seen.get(name) ?? []), args]);
      return { success: true, output: args };
    },
  });
}

/** Forbids other properties, as every example tool does. */
const closed = echo('closed', {
  type: 'object',
  additionalProperties: false,
  required: ['q'],
  properties: { q: { type: 'string', minLength: 2 } },
});
/** Declares a property of the injected name itself, with another meaning. */
const declares = echo('declares', {
  type: 'object',
  additionalProperties: false,
  properties: { wait_for_previous: { type: 'string' } },
});

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('the MCP server and the arguments hosts inject (wait_for_previous)', () => {
  const open: Array<{ client: Client; orchestrator: ToolOrchestrator }> = [];

  async function connect(options: McpServerOptions = {}, clientName = 'gemini-cli-mcp-client'): Promise<Client> {
    const orchestrator = new ToolOrchestrator({ tools: [closed, declares], shutdownTimeoutMs: 50 });
    const server = createMcpServer(orchestrator, options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: clientName, version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    open.push({ client, orchestrator });
    return client;
  }

  afterEach(async () => {
    seen.clear();
    for (const { client, orchestrator } of open.splice(0)) {
      await client.close();
      await orchestrator.shutdown();
    }
  });

  it('defaults to the host table’s list, each entry naming its host', () => {
    expect(HOST_INJECTED_ARGUMENTS).toEqual(injectedArguments());
    expect(HOST_INJECTED_ARGUMENTS.map(({ name, host }) => [name, host])).toEqual([
      ['wait_for_previous', 'gemini-cli'],
    ]);
  });

  it.each(['gemini-cli-mcp-client', 'some-other-client'])(
    'takes wait_for_previous out before validation, whoever the client (%s)',
    async (clientName) => {
      const client = await connect({}, clientName);
      const result = (await client.callTool({
        name: 'closed',
        arguments: { q: 'hello', wait_for_previous: true },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(seen.get('closed')).toEqual([{ q: 'hello' }]);
    },
  );

  it('keeps a wait_for_previous the tool declares, value untouched', async () => {
    const client = await connect();
    const result = (await client.callTool({
      name: 'declares',
      arguments: { wait_for_previous: 'after the build' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(seen.get('declares')).toEqual([{ wait_for_previous: 'after the build' }]);
  });

  it('loosens nothing else: another unknown argument is still refused', async () => {
    const client = await connect();
    const result = (await client.callTool({
      name: 'closed',
      arguments: { q: 'hello', wait_for_previous: true, also: 1 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('INVALID_ARGUMENTS');
    expect(text(result)).toContain('also');
    expect(text(result)).not.toContain('"wait_for_previous"');
    expect(seen.get('closed')).toBeUndefined();
  });

  it('takes out only what the configured list names: [] takes nothing out', async () => {
    const client = await connect({ injectedArguments: [] });
    const result = (await client.callTool({
      name: 'closed',
      arguments: { q: 'hello', wait_for_previous: true },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('INVALID_ARGUMENTS');
    const own = await connect({ injectedArguments: [{ name: 'trace_id', host: 'my-host' }] });
    const traced = (await own.callTool({ name: 'closed', arguments: { q: 'hello', trace_id: 'x' } })) as CallToolResult;
    expect(traced.isError).toBeFalsy();
    expect(seen.get('closed')).toEqual([{ q: 'hello' }]);
  });
});

describe('the MCP server with a served profile (listedTools)', () => {
  it('lists the given entries as they are and still validates calls against the full definition', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [closed, declares], shutdownTimeoutMs: 50 });
    // A looser list, as the portable profile's is: no `minLength` (told in the description instead).
    const portable = {
      ...toMcpTool(closed),
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object' as const,
        additionalProperties: false,
        required: ['q'],
        properties: { q: { type: 'string', description: 'At least 2 characters.' } },
      },
    };
    const server = createMcpServer(orchestrator, { listedTools: [portable] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'profile-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const { tools } = await client.listTools();
      // The listed entry as given; a tool without one is listed as its own.
      expect(tools).toEqual([portable, toMcpTool(declares)]);
      const short = (await client.callTool({ name: 'closed', arguments: { q: 'x' } })) as CallToolResult;
      expect(short.isError).toBe(true);
      expect(text(short)).toContain('INVALID_ARGUMENTS');
    } finally {
      await client.close();
      await orchestrator.shutdown();
    }
  });
});
