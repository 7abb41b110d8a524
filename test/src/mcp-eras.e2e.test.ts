import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * `toolsmith serve` (stdio) as a child process, driven by the official clients of both eras: the v2
 * client pinned to 2026-07-28 and in 'auto' mode negotiates the modern revision (no initialize); the
 * v1 client (1.32.2) does the 2025 handshake on the same binary.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'generated/manifests/mcp.json'), 'utf8')) as {
  tools: { name: string }[];
};
const serveArgs = ['bin/toolsmith.js', 'serve', '--capability', 'capability:filesystem:read'];

interface ToolsClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

let folder: string;
let env: Record<string, string>;

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-eras-'));
  mkdirSync(path.join(folder, 'files'), { recursive: true });
  writeFileSync(path.join(folder, 'files', 'hello.txt'), 'Hello.\n');
  env = {
    PATH: process.env.PATH ?? '',
    TOOLSMITH_DATA_DIR: path.join(folder, 'data'),
    TOOLSMITH_FILES_ROOT: path.join(folder, 'files'),
  };
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The same checks for any client: list, a good call, bad arguments (isError), an unknown tool (-32602). */
async function exercise(client: ToolsClient): Promise<void> {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  // Capability-filtered: memory_write needs capability:memory:write, which this server lacks.
  expect(names).toContain('calculator');
  expect(names).toContain('read_file');
  expect(names).not.toContain('memory_write');
  expect(manifest.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(names));
  const calculator = tools.find((tool) => tool.name === 'calculator');
  expect(JSON.stringify(calculator?.inputSchema)).not.toContain('draft-07');

  const good = (await client.callTool({ name: 'calculator', arguments: { expression: '2*(3+4)' } })) as {
    isError?: boolean;
    structuredContent?: unknown;
  };
  expect(good.isError).toBeFalsy();
  expect(good.structuredContent).toEqual({ expression: '2*(3+4)', result: 14 });

  const bad = (await client.callTool({ name: 'calculator', arguments: {} })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  expect(bad.isError).toBe(true);
  expect(bad.content[0]?.text).toMatch(/VALIDATION|INVALID|argument/i);

  await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
}

describe('toolsmith serve over stdio: both MCP eras on one binary (child processes)', () => {
  for (const mode of [{ pin: '2026-07-28' }, 'auto'] as const) {
    it(`v2 client (${JSON.stringify(mode)}) negotiates 2026-07-28, lists and calls`, async () => {
      const client = new ClientV2({ name: 'eras-e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(
        new StdioClientTransportV2({ command: process.execPath, args: serveArgs, cwd: repoRoot, env, stderr: 'pipe' }),
      );
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        await exercise(client as unknown as ToolsClient);
      } finally {
        await client.close();
      }
    }, 30_000);
  }

  it('v1 client 1.32.2 does the 2025 handshake, lists and calls', async () => {
    const client = new ClientV1({ name: 'eras-e2e-v1', version: '1.0.0' });
    await client.connect(
      new StdioClientTransportV1({ command: process.execPath, args: serveArgs, cwd: repoRoot, env, stderr: 'pipe' }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('toolsmith');
      await exercise(client as unknown as ToolsClient);
    } finally {
      await client.close();
    }
  }, 30_000);
});
