import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createLazyTools } from '../../generated/lazy-registry.js';
import { createTools } from '../../generated/registry.js';
import { ComposedTool, ToolOrchestrator, type ITool } from '../../src/index.js';
import { createMcpServer } from '../../src/mcp/index.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'toolsmith-composed-annotations-'));
const previousDataDir = process.env.TOOLSMITH_DATA_DIR;
process.env.TOOLSMITH_DATA_DIR = dataDir;
afterAll(() => {
  if (previousDataDir === undefined) delete process.env.TOOLSMITH_DATA_DIR;
  else process.env.TOOLSMITH_DATA_DIR = previousDataDir;
  rmSync(dataDir, { recursive: true, force: true });
});

/** What the MCP SDK client lists for `tools`, served by the package's MCP server over an in-memory pair. */
async function listOverMcp(tools: ITool[]): Promise<Tool[]> {
  const orchestrator = new ToolOrchestrator({ tools, shutdownTimeoutMs: 50 });
  const server = createMcpServer(orchestrator);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'composed-annotations-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await orchestrator.shutdown();
  }
}

describe('a composed tool keeps the annotations of its definition', () => {
  it('a ComposedTool made from a definition with annotations carries them', () => {
    const tool = new ComposedTool({
      name: 'twice',
      description: 'Runs a step.',
      inputSchema: { type: 'object' },
      annotations: { idempotentHint: true, openWorldHint: false },
      steps: [{ tool: 'echo', arguments: {} }],
    });
    expect(tool.annotations).toEqual({ idempotentHint: true, openWorldHint: false });
  });

  it('the generated composed base (eager) reports the same annotations as its lazy stand-in', () => {
    const eager = createTools().find((tool) => tool.name === 'remember_calculation')!;
    const lazy = createLazyTools().find((tool) => tool.name === 'remember_calculation')!;
    expect(eager).toBeInstanceOf(ComposedTool);
    expect(eager.annotations).toEqual({ openWorldHint: false });
    expect(lazy.annotations).toEqual(eager.annotations);
  });

  it('the MCP SDK client lists the same hints for it through an eager and a lazy registry', async () => {
    const hints = async (tools: ITool[]) =>
      (await listOverMcp(tools)).find((tool) => tool.name === 'remember_calculation')?.annotations;
    const eager = await hints(createTools());
    expect(eager).toEqual({
      title: 'Remember Calculation',
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(await hints(createLazyTools())).toEqual(eager);
  });
});
