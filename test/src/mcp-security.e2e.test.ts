import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRpcAnswer, mcpRequest } from '../helpers/mcp-request.js';

/*
 * The MCP server under a hostile client: real `serve --http` processes serving the tools of
 * test/fixtures/security/entry.ts, reached by the official clients and by raw HTTP on loopback.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = 'test/fixtures/security/entry.ts';

interface Served {
  child: ChildProcess;
  url: string;
  port: number;
  exit: Promise<number | null>;
  stderr: () => string;
}

let folder: string;
let log: string;

/** `serve --http --no-auth --entry <fixture>` with `extra` flags and `env`, once it listens. */
async function serve(extra: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(
    process.execPath,
    ['bin/toolsmith.js', 'serve', '--http', '--no-auth', '--port', '0', '--entry', ENTRY, ...extra],
    { cwd: repoRoot, env: { ...process.env, TOOLSMITH_SECURITY_LOG: log, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 30 s: ${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /MCP at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exit.then((code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
  });
  return { child, url, port: Number(new URL(url).port), exit, stderr: () => stderr };
}

async function stop(served: Served | undefined): Promise<void> {
  if (served === undefined || served.child.exitCode !== null) return;
  served.child.kill('SIGTERM');
  await served.exit;
}

/** Lines of the fixture's log starting with `event`. */
function logged(event: string): string[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith(`${event} `));
}

/** One POST with any `Host` header (node:http, which does not check it as fetch does). */
function post(port: number, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** One raw 2026-07-28 (default) or 2025 request; its JSON-RPC answer. */
async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: Parameters<typeof mcpRequest>[2] = {},
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const request = mcpRequest(method, params, { clientName: 'hostile', ...options });
  const response = await fetch(url, { method: 'POST', ...request });
  return jsonRpcAnswer(await response.text());
}

let server: Served;
/** The fixture's maxContentBytes: 1 MiB for all the blocks of a result. */
const MAX_CONTENT_BYTES = 1024 * 1024;

type Mode = { pin: '2026-07-28' } | 'legacy';
const MODES: Mode[] = [{ pin: '2026-07-28' }, 'legacy'];

/** An official v2 client on `url`, in `mode`, with `capabilities`. */
async function connect(url: string, mode: Mode, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: 'security', version: '1' }, { versionNegotiation: { mode }, capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The text of a tool result's first block, and whether it is an error. */
function firstText(result: unknown): { isError: boolean; text: string } {
  const answer = result as { isError?: boolean; content: { type: string; text?: string }[] };
  return { isError: answer.isError === true, text: answer.content[0]?.text ?? '' };
}

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-security-'));
  log = path.join(folder, 'events.log');
  writeFileSync(log, '');
  server = await serve([], { TOOLSMITH_MAX_CONTENT_BYTES: String(MAX_CONTENT_BYTES) });
}, 60_000);

afterAll(async () => {
  await stop(server);
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('Host headers', () => {
  it('answers a malformed Host 400 and a foreign one 403, never 500, and keeps serving', async () => {
    const { headers, body } = mcpRequest('tools/list', {}, { version: '2025-11-25' });
    const statusOf = async (host: string) => (await post(server.port, { ...headers, host }, body)).status;
    for (const host of ['localhost:evil.com', '[::1]evil.com:1', 'localhost:99999']) {
      const answer = await post(server.port, { ...headers, host }, body);
      expect([host, answer.status]).toEqual([host, 400]);
      expect(JSON.parse(answer.body).error.message).toContain('is not a host name with an optional port');
    }
    // The host name of `localhost:1@evil.com` is evil.com (the part before @ is a user name).
    expect(await statusOf('localhost:1@evil.com')).toBe(403);
    expect(await statusOf('evil.com')).toBe(403);
    expect(await statusOf(`localhost:${server.port}`)).toBe(200);
    expect(await statusOf(`[::1]:${server.port}`)).toBe(200);
    expect(server.stderr()).not.toMatch(/Internal error|Invalid URL/);
  });
});

describe('content blocks', () => {
  for (const mode of MODES) {
    it(`${JSON.stringify(mode)}: the blocks of a result share one limit, refused OUTPUT_INVALID naming it`, async () => {
      const client = await connect(server.url, mode);
      try {
        const fits = await client.callTool({ name: 'make_images', arguments: { count: 2, bytes: 400_000 } });
        expect((fits as { content: unknown[] }).content).toHaveLength(2);
        expect(firstText(fits).isError).toBe(false);
        // Each block is under the limit; three together are not.
        const over = firstText(await client.callTool({ name: 'make_images', arguments: { count: 3, bytes: 400_000 } }));
        expect(over.isError).toBe(true);
        expect(over.text).toBe(
          "OUTPUT_INVALID: Tool 'make_images' answered invalid content: content[2] data holds 400000 bytes " +
            "(1200000 with the blocks before it), over the limit of 1048576 for a result's content (maxContentBytes).",
        );
      } finally {
        await client.close();
      }
    });

    it(`${JSON.stringify(mode)}: a block the SDK would refuse is OUTPUT_INVALID naming the field, not -32602`, async () => {
      const client = await connect(server.url, mode);
      try {
        const answer = firstText(
          await client.callTool({ name: 'make_images', arguments: { count: 1, bytes: 3, audience: 'robot' } }),
        );
        expect(answer.isError).toBe(true);
        expect(answer.text).toMatch(
          /^OUTPUT_INVALID: Tool 'make_images' answered content MCP cannot carry: content\[0\]\.annotations\.audience\.0: /,
        );
        expect(answer.text.length).toBeLessThan(300);
        const fine = firstText(
          await client.callTool({ name: 'make_images', arguments: { count: 1, bytes: 3, audience: 'user' } }),
        );
        expect(fine.isError).toBe(false);
      } finally {
        await client.close();
      }
    });
  }
});

export { logged, rpc, stop };
