import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../src/index.js';
import { JSON_SCHEMA_2020_12 } from '../../src/schema/json-schema-2020.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { Mcp2020OnlyValidator } from '../helpers/mcp-2020-validator.js';
import { makeTool } from './helpers.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'generated/manifests/mcp.json'), 'utf8')) as {
  tools: Tool[];
};

describe('a 2020-12-only MCP client (as the SDK v2 betas default) against `toolsmith serve`', () => {
  let folder: string;
  let client: Client;
  let validator: Mcp2020OnlyValidator;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-mcp2020-'));
    mkdirSync(path.join(folder, 'files'), { recursive: true });
    writeFileSync(path.join(folder, 'files', 'hello.txt'), 'Hello.\n');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        'bin/toolsmith.js',
        'serve',
        // The exact schemas (the example project serves the portable profile by default).
        '--profile',
        'exact',
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
    validator = new Mcp2020OnlyValidator();
    client = new Client({ name: 'mcp-2020-only', version: '1.0.0' }, { jsonSchemaValidator: validator });
    await client.connect(transport);
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('lists every tool with 2020-12 schemas the client accepts, as in mcp.json', async () => {
    const { tools } = await client.listTools();
    expect(tools).toEqual(manifest.tools);
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'calculator',
      'get_current_datetime',
      'list_directory',
      'memory_read',
      'memory_write',
      'read_file',
      'remember_calculation',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.$schema).toBe(JSON_SCHEMA_2020_12);
      // The 1.x client compiles only output schemas: compile the input schemas with the same validator.
      expect(() => validator.getValidator(tool.inputSchema)).not.toThrow();
      expect(JSON.stringify(tool)).not.toContain('#/definitions/');
    }
    // Every tool of the examples has an output schema; the client compiled each one when listing.
    const outputs = tools.map((tool) => tool.outputSchema);
    expect(outputs.every((schema) => schema?.$schema === JSON_SCHEMA_2020_12)).toBe(true);
    expect(validator.seen.filter((schema) => outputs.includes(schema as never)).length).toBe(tools.length);
  });

  it('calls every example tool; the client validates each structuredContent against the 2020-12 outputSchema', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['calculator', { expression: '6*7' }],
      ['get_current_datetime', { timeZone: 'UTC' }],
      ['memory_write', { key: 'a.b', value: 'v' }],
      ['memory_read', { query: { key: 'a.b' } }],
      ['remember_calculation', { expression: '2+2', key: 'calc.four' }],
      ['read_file', { path: 'hello.txt' }],
      ['list_directory', {}],
    ];
    const structured: Record<string, any> = {};
    for (const [name, args] of calls) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(result.structuredContent).toBeDefined();
      structured[name] = result.structuredContent;
    }
    expect(structured.calculator).toEqual({ expression: '6*7', result: 42 });
    expect(structured.memory_read.entries[0]).toMatchObject({ key: 'a.b', value: 'v' });
    expect(structured.remember_calculation.entry).toMatchObject({ key: 'calc.four', value: '4' });
    expect(structured.read_file.content).toBe('Hello.\n');
  }, 20_000);

  it('refuses a draft-07 outputSchema (what toolsmith published before), so the checks above can fail', async () => {
    const server = new Server({ name: 'old', version: '1.0.0' }, { capabilities: { tools: {} } });
    const old = {
      ...manifest.tools[0]!,
      outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' as const, properties: {} },
    };
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [old] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const strict = new Client(
      { name: 'strict', version: '1.0.0' },
      { jsonSchemaValidator: new Mcp2020OnlyValidator() },
    );
    await Promise.all([server.connect(serverSide), strict.connect(clientSide)]);
    await expect(strict.listTools()).rejects.toThrow(
      'JSON Schema declares an unsupported dialect ("$schema": "http://json-schema.org/draft-07/schema#")',
    );
    await strict.close();
  });
});

describe('a tool whose outputSchema is a $ref to a shared object schema', () => {
  const entrySchema = {
    type: 'object',
    required: ['key', 'value'],
    additionalProperties: false,
    properties: { key: { type: 'string' }, value: { type: 'string' } },
  };
  const outputSchema = { $ref: '#/definitions/MemoryEntry', definitions: { MemoryEntry: entrySchema } };

  async function connect(output: unknown) {
    const tool = makeTool('lookup', { outputSchema, execute: async () => ({ success: true, output }) });
    const server = createMcpServer(new ToolOrchestrator({ tools: [tool] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client(
      { name: 'strict', version: '1.0.0' },
      { jsonSchemaValidator: new Mcp2020OnlyValidator() },
    );
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return client;
  }

  it('keeps its output schema and sends structuredContent, which the 2020-12-only client validates', async () => {
    const client = await connect({ key: 'k', value: 'v' });
    const { tools } = await client.listTools();
    expect(tools[0]!.outputSchema).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      type: 'object',
      $ref: '#/$defs/MemoryEntry',
      $defs: { MemoryEntry: entrySchema },
    });
    const result = (await client.callTool({ name: 'lookup', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toEqual({ key: 'k', value: 'v' });
    await client.close();
  });

  it('the listed schema is really applied: the same validator refuses a value without `value`', async () => {
    const client = await connect({ key: 'k', value: 'v' });
    const { tools } = await client.listTools();
    const validate = new Mcp2020OnlyValidator().getValidator(tools[0]!.outputSchema!);
    expect(validate({ key: 'k', value: 'v' }).valid).toBe(true);
    expect(validate({ key: 'k' }).valid).toBe(false);
    await client.close();
  });
});
