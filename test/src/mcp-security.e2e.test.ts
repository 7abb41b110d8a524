import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRpcAnswer, mcpRequest } from '../helpers/mcp-request.js';
import { startRedisServer, type RedisServer } from './tasks/redis-server.js';

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

/** A client that can ask its user and run a model call (2026-07-28 envelope capabilities). */
const ASKER = { elicitation: { form: {} }, sampling: {} };
const APPROVE = { 'approval-0': { action: 'accept', content: { approve: true } } };

/** One raw 2026-07-28 tools/call from a client that can ask; `extra` adds inputResponses / requestState. */
function callTool(url: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return rpc(url, 'tools/call', { name, arguments: args, ...extra }, { clientCapabilities: ASKER });
}

describe('approval of a side-effect tool outside a task (2026-07-28)', () => {
  it('asks a first call that already carries an approval, and one whose state was made for other arguments', async () => {
    const before = logged('sent').length;
    const presented = await callTool(server.url, 'send_note', { text: 'pre-sent' }, { inputResponses: APPROVE });
    expect(presented.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'approval-0': {} } });
    const state = presented.result.requestState as string;
    expect(typeof state).toBe('string');
    // The state is bound to its call: other arguments (or another tool) are asked afresh.
    const other = await callTool(
      server.url,
      'send_note',
      { text: 'other' },
      { inputResponses: APPROVE, requestState: state },
    );
    expect(other.result.resultType).toBe('input_required');
    // A state that is not this server's is refused by the SDK's check.
    const forged = await callTool(
      server.url,
      'send_note',
      { text: 'pre-sent' },
      {
        inputResponses: APPROVE,
        requestState: `${state.slice(0, -4)}AAAA`,
      },
    );
    expect(forged.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    expect(logged('sent').length).toBe(before);
  });

  it('runs the approved retry once: sent again, it is asked again', async () => {
    const before = logged('sent').length;
    const asked = await callTool(server.url, 'send_note', { text: 'once' });
    expect(asked.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'approval-0': {} } });
    const retry = { inputResponses: APPROVE, requestState: asked.result.requestState };
    const approved = await callTool(server.url, 'send_note', { text: 'once' }, retry);
    expect(approved.result.structuredContent ?? JSON.parse(approved.result.content.at(-1).text)).toEqual({
      sent: 'once',
    });
    const replayed = await callTool(server.url, 'send_note', { text: 'once' }, retry);
    expect(replayed.result.resultType).toBe('input_required');
    expect(logged('sent').slice(before)).toEqual([`sent ${server.child.pid} once`]);
  });

  it('the official client: one approval covers the call, its own later question included; its retry replayed runs nothing', async () => {
    const before = logged('sent').length;
    const bodies: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"tools/call"')) bodies.push(init.body);
      return fetch(input, init);
    };
    const client = new Client(
      { name: 'security', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
    );
    const questions: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push(request.params.message);
      const fields = (request.params as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema
        .properties;
      return { action: 'accept', content: 'approve' in fields ? { approve: true } : { ok: true } } as never;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: recording }));
    try {
      const result = await client.callTool({ name: 'send_note', arguments: { text: 'confirmed', confirm: true } });
      expect(firstText(result)).toEqual({ isError: false, text: '{"sent":"confirmed"}' });
      // Three rounds: the approval, the tool's own question (the approval carried in the state), the run.
      expect(questions).toHaveLength(2);
      expect(questions[0]).toContain("Allow the tool 'send_note' to run?");
      expect(questions[1]).toBe("Really send 'confirmed'?");
      expect(bodies).toHaveLength(3);
    } finally {
      await client.close();
    }
    const last = JSON.parse(bodies.at(-1)!) as { params: Record<string, unknown> };
    const replayed = await callTool(
      server.url,
      'send_note',
      { text: 'confirmed', confirm: true },
      {
        inputResponses: last.params.inputResponses,
        requestState: last.params.requestState,
      },
    );
    expect(replayed.result.resultType).toBe('input_required');
    expect(logged('sent').slice(before)).toEqual([`sent ${server.child.pid} confirmed`]);
  });
});

/** Waits until `check` holds, polling (a sequencing aid, not a timing assertion). */
async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A v2 client whose user answers every form with `content` (accepted), counting the questions. */
async function answering(
  url: string,
  mode: Mode,
  content: () => unknown,
): Promise<{ client: Client; asked: () => number }> {
  let asked = 0;
  const client = new Client(
    { name: 'security', version: '1' },
    { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} }, sampling: {} } },
  );
  client.setRequestHandler('elicitation/create', async () => {
    asked++;
    return { action: 'accept', content: content() } as never;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, asked: () => asked };
}

describe('forms MCP cannot carry', () => {
  const CASES: Array<[string, number, string]> = [
    ['ref', 0, "requestedSchema.properties.city.$ref: MCP forms do not carry '$ref' on a string field"],
    ['allOf', 0, "requestedSchema.allOf: MCP forms do not carry 'allOf'"],
    ['if', 0, "requestedSchema.if: MCP forms do not carry 'if'"],
    ['additionalProperties', 0, 'requestedSchema.additionalProperties: MCP forms carry only false here'],
    ['bad-regex', 0, "requestedSchema.properties.city.pattern: MCP forms do not carry 'pattern'"],
    ['slow-regex', 0, "requestedSchema.properties.city.pattern: MCP forms do not carry 'pattern'"],
    ['deep', 10_000, "requestedSchema.properties.city.not: MCP forms do not carry 'not'"],
    ['huge-enum', 40_000, 'requestedSchema.properties.city.enum must be an array of at most 1000 strings'],
  ];
  for (const mode of MODES) {
    it(`${JSON.stringify(mode)}: refused before the user is asked, naming the keyword`, async () => {
      const { client, asked } = await answering(server.url, mode, () => ({ city: 'city-1' }));
      try {
        for (const [kind, size, message] of CASES) {
          const answer = firstText(await client.callTool({ name: 'ask_form', arguments: { kind, size } }));
          expect([kind, answer.isError]).toEqual([kind, true]);
          expect(answer.text).toContain(message);
        }
        expect(asked()).toBe(0);
        const fair = firstText(await client.callTool({ name: 'ask_form', arguments: { kind: 'plain' } }));
        expect(JSON.parse(fair.text)).toMatchObject({ action: 'accept', content: { city: 'city-1' } });
      } finally {
        await client.close();
      }
    });
  }

  it('a 200,000-choice form is refused before anything is asked or compiled; SIGTERM meanwhile drains and exits 0', async () => {
    const own = await serve();
    const { client, asked } = await answering(own.url, 'legacy', () => ({ city: 'city-1' }));
    const call = client
      .callTool({ name: 'ask_form', arguments: { kind: 'huge-enum', size: 200_000 } })
      .then(firstText, (error: unknown) => ({ isError: true, text: String(error) }));
    await until(() => logged('asking').includes(`asking ${own.child.pid} huge-enum`));
    own.child.kill('SIGTERM');
    expect(await own.exit).toBe(0);
    expect(own.stderr()).toMatch(/SIGTERM: drained \d+ request/);
    const answer = await call;
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('enum must be an array of at most 1000 strings');
    expect(asked()).toBe(0);
    await client.close().catch(() => undefined);
  }, 60_000);
});

describe('answers held to their question', () => {
  for (const mode of MODES) {
    it(`${JSON.stringify(mode)}: keys the form does not have, a prototype, an oversize field never reach the tool`, async () => {
      let content: unknown;
      const { client } = await answering(server.url, mode, () => content);
      const ask = async (answer: unknown) => {
        content = answer;
        return firstText(await client.callTool({ name: 'ask_form', arguments: { kind: 'plain' } }));
      };
      try {
        for (const [answer, message] of [
          [
            { city: 'Oslo', constructor: 'x' },
            "elicit: the answer has 'constructor', which is not a field of the form.",
          ],
          [{ city: 'Oslo', admin: true }, "elicit: the answer has 'admin', which is not a field of the form."],
          [{ city: 'x'.repeat(900_000) }, 'more than an answer may (65536)'],
        ] as const) {
          const refused = await ask(answer);
          expect(refused.isError).toBe(true);
          expect(refused.text).toContain(message);
        }
        // The SDK's parse of an answer drops a `__proto__` key: nothing of it reaches the tool.
        const proto = await ask(JSON.parse('{"city":"Oslo","__proto__":{"admin":true}}'));
        expect(JSON.parse(proto.text)).toEqual({
          action: 'accept',
          keys: ['city'],
          plainPrototype: true,
          content: { city: 'Oslo' },
        });
      } finally {
        await client.close();
      }
    });
  }
});

describe('answers held to their question, raw 2026-07-28 retries', () => {
  /** Asks `name` once, then retries with `answer` under `key` (as raw JSON text) and the state. */
  async function retried(name: string, key: string, answer: string) {
    const asked = await callTool(server.url, name, {});
    expect(asked.result.inputRequests[key]).toBeDefined();
    const request = mcpRequest(
      'tools/call',
      { name, arguments: {}, requestState: asked.result.requestState, inputResponses: { [key]: '@' } },
      { clientName: 'hostile', clientCapabilities: ASKER },
    );
    const body = request.body.replace('"@"', answer);
    return jsonRpcAnswer<any>(
      await (await fetch(server.url, { method: 'POST', headers: request.headers, body })).text(),
    );
  }

  it('an own __proto__ key in the answer is refused: it is not a field of the form', async () => {
    const answer = await retried(
      'ask_form',
      'elicit-0',
      '{"action":"accept","content":{"city":"Oslo","__proto__":{"admin":true}}}',
    );
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0].text).toContain(
      "elicit: the answer has '__proto__', which is not a field of the form.",
    );
  });

  it('a model answer outside a task that is no CreateMessageResult never reaches the tool', async () => {
    const answer = await retried('ask_model', 'sample-0', '{"role":"system","content":42}');
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0].text).toContain('is not a CreateMessageResult');
  });
});

/**
 * A raw 2025 tools/call over stateless HTTP whose question (elicitation/create or sampling/createMessage,
 * sent on the call's SSE stream) is answered by POSTing `answer(id)`: the answer POST's status and
 * body, and the call's own final message.
 */
async function call2025(
  name: string,
  args: Record<string, unknown>,
  answer: (id: string) => unknown,
): Promise<{ posted: { status: number; body: string }; final: any }> {
  const request = mcpRequest('tools/call', { name, arguments: args }, { version: '2025-11-25', id: 7 });
  const response = await fetch(server.url, { method: 'POST', ...request });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let posted = { status: 0, body: '' };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended before the call's answer: ${buffer}`);
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      buffer = buffer.slice(end + 2);
      if (data === '') continue;
      const message = JSON.parse(data) as { id?: string | number; method?: string };
      if (message.id === 7) {
        await reader.cancel();
        return { posted, final: message };
      }
      if (typeof message.method === 'string' && typeof message.id === 'string') {
        const reply = await fetch(server.url, {
          method: 'POST',
          headers: request.headers,
          body: JSON.stringify(answer(message.id)),
        });
        posted = { status: reply.status, body: await reply.text() };
      }
    }
  }
}

describe('answers held to their question, raw 2025 answers over stateless HTTP', () => {
  for (const result of ['yes', null]) {
    it(`an answer whose result is ${JSON.stringify(result)} is refused 400 at once, and the waiting call told`, async () => {
      const { posted, final } = await call2025('ask_form', { kind: 'plain' }, (id) => ({ jsonrpc: '2.0', id, result }));
      expect(posted.status).toBe(400);
      expect(JSON.parse(posted.body).error.message).toContain("The client's answer is not a JSON-RPC response");
      expect(final.result.isError).toBe(true);
      expect(final.result.content[0].text).toContain("The client's answer is not a JSON-RPC response");
    });
  }

  it('a model answer that is no CreateMessageResult never reaches the tool', async () => {
    const { posted, final } = await call2025('ask_model', {}, (id) => ({
      jsonrpc: '2.0',
      id,
      result: { role: 'system', content: 42, model: 'm' },
    }));
    expect(posted.status).toBe(202);
    expect(final.result.isError).toBe(true);
    expect(final.result.content[0].text).toBe(
      "TOOL_ERROR: Tool 'ask_model' threw: The client's answer to a model call is not a CreateMessageResult " +
        '({ role: "user" | "assistant", content, model }).',
    );
  });
});

describe('approval across replicas sharing a Redis task store and a signing key', () => {
  let redis: RedisServer;
  let a: Served;
  let b: Served;

  beforeAll(async () => {
    redis = await startRedisServer();
    const shared = { TOOLSMITH_REQUEST_STATE_KEY: randomBytes(32).toString('base64') };
    [a, b] = await Promise.all([
      serve(['--task-store', redis.url], shared),
      serve(['--task-store', redis.url], shared),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
    await redis?.stop();
  });

  it('asked on A, approved on B, the retry replayed on A is asked again; a replica with another key refuses the state', async () => {
    const before = logged('sent').length;
    const asked = await callTool(a.url, 'send_note', { text: 'across' });
    const retry = { inputResponses: APPROVE, requestState: asked.result.requestState };
    const approved = await callTool(b.url, 'send_note', { text: 'across' }, retry);
    expect(firstText(approved.result).isError).toBe(false);
    expect((await callTool(a.url, 'send_note', { text: 'across' }, retry)).result.resultType).toBe('input_required');
    expect((await callTool(b.url, 'send_note', { text: 'across' }, retry)).result.resultType).toBe('input_required');
    expect(logged('sent').slice(before)).toEqual([`sent ${b.child.pid} across`]);
    // The shared server of this file signs with its own process key: the state is not its own.
    const elsewhere = await callTool(server.url, 'send_note', { text: 'across' }, retry);
    expect(elsewhere.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
  });
});
