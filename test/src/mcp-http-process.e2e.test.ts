import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'generated/manifests/mcp.json'), 'utf8')) as {
  tools: Tool[];
};
const portable = JSON.parse(readFileSync(path.join(repoRoot, 'generated/manifests/mcp-portable.json'), 'utf8')) as {
  tools: Tool[];
};

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exit: Promise<number | null>;
}

/** Starts `args` (a node script and its arguments) and waits for its "MCP at <url>" line. */
async function start(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
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
    void exit.then((code) => reject(new Error(`exited ${code} before listening; stderr: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exit };
}

async function stop(served: Served | undefined): Promise<void> {
  if (served === undefined || served.child.exitCode !== null) return;
  served.child.kill('SIGTERM');
  await served.exit;
}

function structured(result: unknown): Record<string, any> {
  const answer = result as CallToolResult;
  expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
  expect(JSON.parse((answer.content[0] as { text: string }).text)).toEqual(answer.structuredContent);
  return answer.structuredContent as Record<string, any>;
}

describe('toolsmith serve --http (child processes, official Client over Streamable HTTP)', () => {
  let folder: string;
  const servers: Served[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-http-'));
    mkdirSync(path.join(folder, 'files', 'notes'), { recursive: true });
    writeFileSync(path.join(folder, 'files', 'hello.txt'), 'Hello from the test.\n');
    writeFileSync(path.join(folder, 'files', 'notes', 'todo.md'), '- ship it\n');
    const env = { TOOLSMITH_DATA_DIR: path.join(folder, 'data'), TOOLSMITH_FILES_ROOT: path.join(folder, 'files') };
    const args = [
      'bin/toolsmith.js',
      'serve',
      '--http',
      '--no-auth',
      '--port',
      '0',
      '--allow-side-effects',
      '--capability',
      'capability:filesystem:read',
      '--capability',
      'capability:memory:write',
    ];
    servers.push(...(await Promise.all([start(args, env), start(args, env)])));
  }, 40_000);

  afterAll(async () => {
    await Promise.all(servers.map(stop));
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('lists and calls every example tool', async () => {
    const client = new Client({ name: 'http-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(servers[0]!.url)));
    try {
      // The example project serves the portable profile (manifests.servedProfile in toolsmith.config.json).
      expect((await client.listTools()).tools).toEqual(portable.tools);
      const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
      expect(structured(await call('calculator', { expression: '2*(3+4)^2' }))).toEqual({
        expression: '2*(3+4)^2',
        result: 98,
      });
      const now = structured(await call('get_current_datetime', { timeZone: 'Asia/Tokyo' }));
      expect(now.iso).toMatch(/\+09:00$/);
      expect(
        structured(await call('memory_write', { key: 'notes.greeting', value: 'hello', tags: ['greeting'] })),
      ).toMatchObject({ created: true, entry: { key: 'notes.greeting', value: 'hello' } });
      expect(structured(await call('memory_read', { query: { key: 'notes.greeting' } })).entries[0]).toMatchObject({
        key: 'notes.greeting',
        value: 'hello',
      });
      expect(structured(await call('read_file', { path: 'hello.txt' }))).toEqual({
        path: 'hello.txt',
        size: 21,
        encoding: 'utf8',
        content: 'Hello from the test.\n',
        truncated: false,
      });
      expect(JSON.stringify(structured(await call('list_directory', {})))).toContain('notes/todo.md');
      expect(structured(await call('remember_calculation', { expression: '12*7', key: 'calc.answer' }))).toMatchObject({
        created: true,
        entry: { key: 'calc.answer', value: '84' },
      });
      expect(manifest.tools.map((tool) => tool.name).sort()).toEqual([
        'calculator',
        'get_current_datetime',
        'list_directory',
        'memory_read',
        'memory_write',
        'read_file',
        'remember_calculation',
      ]);
    } finally {
      await client.close();
    }
  }, 20_000);

  it('answers requests alternating between two processes, with no affinity', async () => {
    const [a, b] = [servers[0]!.url, servers[1]!.url];
    const hits = new Map<string, number>([
      [a, 0],
      [b, 0],
    ]);
    let next = 0;
    // A balancer without affinity: every HTTP request goes to the other process.
    const alternating: typeof fetch = (_input, init) => {
      const target = next++ % 2 === 0 ? a : b;
      hits.set(target, hits.get(target)! + 1);
      return fetch(target, init);
    };
    const client = new Client({ name: 'http-balanced', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(a), { fetch: alternating }));
    try {
      for (let index = 0; index < 10; index++) {
        const expression = `${index}*${index}+1`;
        expect(structured(await client.callTool({ name: 'calculator', arguments: { expression } }))).toEqual({
          expression,
          result: index * index + 1,
        });
        expect((await client.listTools()).tools).toHaveLength(manifest.tools.length);
      }
    } finally {
      await client.close();
    }
    expect(hits.get(a)! + hits.get(b)!).toBeGreaterThanOrEqual(22);
    expect(Math.abs(hits.get(a)! - hits.get(b)!)).toBeLessThanOrEqual(1);
  }, 20_000);

  it('by default lists only what the capabilities allow and runs no tool with side effects', async () => {
    const data = path.join(folder, 'secure-data');
    const secure = await start(
      ['bin/toolsmith.js', 'serve', '--http', '--no-auth', '--port', '0', '--capability', 'capability:filesystem:read'],
      { TOOLSMITH_DATA_DIR: data, TOOLSMITH_FILES_ROOT: path.join(folder, 'files') },
    );
    const client = new Client({ name: 'http-secure', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(secure.url)));
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(
        manifest.tools
          .map((tool) => tool.name)
          .filter((name) => name !== 'memory_write')
          .sort(),
      );
      expect(structured(await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } })).content).toBe(
        'Hello from the test.\n',
      );
      const refused = (await client.callTool({
        name: 'remember_calculation',
        arguments: { expression: '1+1', key: 'calc.x' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect((refused.content[0] as { text: string }).text).toMatch(
        /^APPROVAL_REJECTED: The call to tool 'remember_calculation' was not approved: 'remember_calculation' has side effects, .*restart it with --allow-side-effects/,
      );
      const hidden = (await client.callTool({
        name: 'memory_write',
        arguments: { key: 'k', value: 'v' },
      })) as CallToolResult;
      expect((hidden.content[0] as { text: string }).text).toMatch(/^PERMISSION_DENIED: /);
      expect(existsSync(path.join(data, 'memory.json'))).toBe(false);
    } finally {
      await client.close();
      await stop(secure);
    }
  }, 30_000);

  it('refuses --http without auth settings, and --no-auth beyond loopback, exit 1 naming what to give; a malformed number exit 2', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/toolsmith.js', 'serve', '--http', '--port', '0', ...args], {
          cwd: repoRoot,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        child.once('exit', (code) => resolve({ code, stderr }));
      });
    const noAuth = await run([]);
    expect(noAuth.code).toBe(1);
    expect(noAuth.stderr).toContain('--http needs bearer-token auth: give --auth-issuer, --auth-resource, --auth-jwks');
    const open = await run(['--no-auth', '--host', '0.0.0.0']);
    expect(open.code).toBe(1);
    expect(open.stderr).toContain("serves without auth only on loopback; '0.0.0.0'");
    // A malformed number is a usage error (exit 2) saying what is wanted; the port's variable a setup one.
    const badPort = await run(['--no-auth', '--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toBe(
      "error: option '--port <port>' argument 'eighty' is invalid. It must be a whole number (0 or more), e.g. --port 3000.\n",
    );
    const spawnedWithEnv = (env: Record<string, string>) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/toolsmith.js', 'serve', '--http', '--no-auth'], {
          cwd: repoRoot,
          env: { ...process.env, ...env },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        child.once('exit', (code) => resolve({ code, stderr }));
      });
    const badEnv = await spawnedWithEnv({ TOOLSMITH_PORT: '1e3' });
    expect(badEnv.code).toBe(1);
    expect(badEnv.stderr).toContain("TOOLSMITH_PORT must be a port, a whole number (0 or more); got '1e3'.");
  }, 20_000);
});

describe('toolsmith serve --http with auth from flags and environment (child process)', () => {
  it('verifies tokens against the JWKS file, maps scopes through the scope map and serves the metadata', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-http-auth-'));
    writeFileSync(path.join(folder, 'hello.txt'), 'Hello from the test.\n');
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    writeFileSync(
      path.join(folder, 'jwks.json'),
      JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] }),
    );
    writeFileSync(
      path.join(folder, 'scopes.json'),
      JSON.stringify({ 'files:read': ['capability:filesystem:read'], 'mcp:tools': [] }),
    );
    const resource = 'https://tools.example.test/mcp';
    const served = await start(
      [
        'bin/toolsmith.js',
        'serve',
        '--http',
        '--port',
        '0',
        '--auth-jwks',
        path.join(folder, 'jwks.json'),
        '--scope-map',
        path.join(folder, 'scopes.json'),
        '--required-scope',
        'mcp:tools',
      ],
      {
        TOOLSMITH_AUTH_ISSUER: 'https://idp.example.test/',
        TOOLSMITH_AUTH_RESOURCE: resource,
        TOOLSMITH_FILES_ROOT: folder,
        TOOLSMITH_DATA_DIR: path.join(folder, 'data'),
      },
    );
    const sign = (scope: string) =>
      new SignJWT({ scope })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setSubject('carol')
        .setIssuer('https://idp.example.test/')
        .setAudience(resource)
        .setExpirationTime('2m')
        .sign(privateKey);
    const clients: Client[] = [];
    const connect = async (scope: string) => {
      const client = new Client({ name: 'http-auth-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), {
          requestInit: { headers: { Authorization: `Bearer ${await sign(scope)}` } },
        }),
      );
      clients.push(client);
      return client;
    };
    try {
      expect(served.stderr()).toContain('bearer tokens from https://idp.example.test/');
      const metadata = await fetch(served.url.replace(/\/mcp$/, '/.well-known/oauth-protected-resource/mcp'));
      expect(await metadata.json()).toEqual({
        resource,
        authorization_servers: ['https://idp.example.test/'],
        scopes_supported: ['files:read', 'mcp:tools'],
        bearer_methods_supported: ['header'],
      });
      const anonymous = await fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe(
        'Bearer resource_metadata="https://tools.example.test/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"',
      );

      const reader = await connect('mcp:tools files:read');
      expect((await reader.listTools()).tools.map((tool) => tool.name)).toContain('read_file');
      expect(structured(await reader.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } })).content).toBe(
        'Hello from the test.\n',
      );
      const plain = await connect('mcp:tools');
      expect((await plain.listTools()).tools.map((tool) => tool.name)).not.toContain('read_file');
      await expect(plain.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } })).rejects.toThrow(
        /insufficient_scope/,
      );
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await stop(served);
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('SIGTERM with calls in flight (child process)', () => {
  it('finishes every call in flight, answers new requests 503, then exits 0', async () => {
    const served = await start(
      [
        ...['--import', 'tsx', 'codegen/cli/main.ts', 'serve', '--http', '--no-auth', '--port', '0'],
        ...['--drain-timeout', '5000', '--entry', 'test/fixtures/http/slow-entry.ts'],
      ],
      { SLOW_MS: '800' },
    );
    try {
      const clients = await Promise.all(
        [0, 1, 2, 3, 4].map(async () => {
          const client = new Client({ name: 'drain', version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
          return client;
        }),
      );
      const calls = clients.map((client, index) =>
        client.callTool({ name: 'slow', arguments: { tag: `call-${index}` } }),
      );
      // Wait until the process has every call running.
      const deadline = Date.now() + 10_000;
      while ((served.stderr().match(/started call-/g) ?? []).length < 5 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      served.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const late = await fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      expect(late.status).toBe(503);
      const results = await Promise.all(calls);
      expect(
        results.map((result) => JSON.parse(((result as CallToolResult).content[0] as { text: string }).text)),
      ).toEqual([0, 1, 2, 3, 4].map((index) => ({ tag: `call-${index}` })));
      expect(await served.exit).toBe(0);
      expect(served.stderr()).toContain('SIGTERM: drained 5 requests in flight, 0 aborted at the deadline.');
      await Promise.all(clients.map((client) => client.close()));
    } finally {
      await stop(served);
    }
  }, 30_000);
});
