import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpClientTransportV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRequest } from '../helpers/mcp-request.js';

/*
 * `toolsmith serve` (stdio) and `toolsmith serve --http` as child processes, driven by the official
 * clients of both eras: the v2 client pinned to 2026-07-28 and in 'auto' mode negotiates the modern
 * revision (no initialize); the v1 client (1.32.2) does the 2025 handshake on the same binary.
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

  // A declared failure of a tool with an outputSchema: the client (which checks structuredContent
  // against that schema) accepts the isError result, which carries none; the text and _meta tell it.
  const missing = (await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } })) as {
    isError?: boolean;
    structuredContent?: unknown;
    content: { type: string; text: string }[];
    _meta?: Record<string, unknown>;
  };
  expect(missing.isError).toBe(true);
  expect(missing).not.toHaveProperty('structuredContent');
  expect(missing.content).toEqual([
    {
      type: 'text',
      text: [
        `TOOL_FAILED: Tool 'read_file' failed: "missing.txt" does not exist under the root folder`,
        'NOT_FOUND (the same call will fail again): Nothing exists at the path under the root folder: list the folder with `list_directory` and call again with a path it shows.',
        'Data: {"path":"missing.txt"}',
      ].join('\n'),
    },
  ]);
  expect(missing._meta?.['dev.toolsmith/failure']).toEqual({
    code: 'NOT_FOUND',
    retryable: false,
    data: { path: 'missing.txt' },
    correlationId: expect.stringMatching(/^mcp-/),
  });
  // The draft SEP-3313 entry only with --tool-failure-meta (or "toolFailureMeta" in the config).
  expect(missing._meta).not.toHaveProperty(['io.modelcontextprotocol/toolFailure']);
}

/** read_file's declared failure, as a client gets it: its `_meta`. */
async function missingFileMeta(client: ToolsClient): Promise<Record<string, unknown> | undefined> {
  const answer = (await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } })) as {
    isError?: boolean;
    _meta?: Record<string, unknown>;
  };
  expect(answer.isError).toBe(true);
  return answer._meta;
}

/** The draft SEP-3313 entry of read_file's NOT_FOUND, beside toolsmith's own. */
const DRAFT_NOT_FOUND = {
  class: 'capability',
  code: 'NOT_FOUND',
  retryable: false,
  correlationId: expect.stringMatching(/^mcp-/),
  agentGuidance: expect.stringContaining('list_directory'),
};

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

/** `serve --http` on a free port: the child and its endpoint, from its "MCP at <url>" line. */
async function startHttp(extra: string[] = []): Promise<{ child: ChildProcess; url: string; exit: Promise<unknown> }> {
  const child = spawn(process.execPath, [...serveArgs, '--http', '--no-auth', '--port', '0', ...extra], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 20 s; stderr: ${stderr}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /MCP at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exit.then(() => reject(new Error(`exited before listening; stderr: ${stderr}`)));
  });
  return { child, url, exit };
}

describe('toolsmith serve --http: both MCP eras on one endpoint (child process)', () => {
  let served: Awaited<ReturnType<typeof startHttp>>;
  beforeAll(async () => {
    served = await startHttp();
  }, 30_000);
  afterAll(async () => {
    if (served === undefined || served.child.exitCode !== null) return;
    served.child.kill('SIGTERM');
    await served.exit;
  });

  for (const mode of [{ pin: '2026-07-28' }, 'auto'] as const) {
    it(`v2 client (${JSON.stringify(mode)}) negotiates 2026-07-28, lists and calls`, async () => {
      const client = new ClientV2({ name: 'eras-http', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(new HttpClientTransportV2(new URL(served.url)));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        await exercise(client as unknown as ToolsClient);
      } finally {
        await client.close();
      }
    }, 30_000);
  }

  it('v2 client in legacy mode and v1 client 1.32.2 do the 2025 handshake on the same endpoint', async () => {
    const legacy = new ClientV2({ name: 'eras-http-legacy', version: '1.0.0' });
    await legacy.connect(new HttpClientTransportV2(new URL(served.url)));
    try {
      expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      await exercise(legacy as unknown as ToolsClient);
    } finally {
      await legacy.close();
    }
    const v1 = new ClientV1({ name: 'eras-http-v1', version: '1.0.0' });
    await v1.connect(new HttpClientTransportV1(new URL(served.url)));
    try {
      expect(v1.getServerVersion()?.name).toBe('toolsmith');
      await exercise(v1 as unknown as ToolsClient);
    } finally {
      await v1.close();
    }
  }, 30_000);
});

describe('toolsmith serve --http --page-size', () => {
  it('answers tools/list in pages with a cursor to the next, which the v2 client follows to the full list', async () => {
    const paged = await startHttp(['--page-size', '2']);
    try {
      const response = await fetch(paged.url, { method: 'POST', ...mcpRequest('tools/list') });
      const { result } = (await response.json()) as { result: { tools: unknown[]; nextCursor?: string } };
      expect([result.tools.length, result.nextCursor]).toEqual([2, 'p2']);
      const client = new ClientV2({ name: 'pager', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new HttpClientTransportV2(new URL(paged.url)));
      try {
        const { tools } = await client.listTools();
        expect(tools.length).toBeGreaterThan(2);
        expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
      } finally {
        await client.close();
      }
    } finally {
      paged.child.kill('SIGTERM');
      await paged.exit;
    }
  }, 30_000);
});

describe('toolsmith serve --tool-failure-meta', () => {
  it('over stdio: a declared failure also carries the draft SEP-3313 entry (v2 client)', async () => {
    const client = new ClientV2({ name: 'failure-meta', version: '1.0.0' });
    await client.connect(
      new StdioClientTransportV2({
        command: process.execPath,
        args: [...serveArgs, '--tool-failure-meta'],
        cwd: repoRoot,
        env,
        stderr: 'pipe',
      }),
    );
    try {
      const meta = await missingFileMeta(client as unknown as ToolsClient);
      expect(meta?.['io.modelcontextprotocol/toolFailure']).toEqual(DRAFT_NOT_FOUND);
      expect(meta?.['dev.toolsmith/failure']).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await client.close();
    }
  }, 30_000);

  it('over HTTP: the same, for the v1 client on the 2025 path', async () => {
    const served = await startHttp(['--tool-failure-meta']);
    const client = new ClientV1({ name: 'failure-meta-v1', version: '1.0.0' });
    try {
      await client.connect(new HttpClientTransportV1(new URL(served.url)));
      const meta = await missingFileMeta(client as unknown as ToolsClient);
      expect(meta?.['io.modelcontextprotocol/toolFailure']).toEqual(DRAFT_NOT_FOUND);
    } finally {
      await client.close();
      served.child.kill('SIGTERM');
      await served.exit;
    }
  }, 30_000);
});
