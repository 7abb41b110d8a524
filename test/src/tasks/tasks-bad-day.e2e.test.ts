import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer, startTcpProxy, type TcpProxy } from './redis-server.js';
import { type Replica, rpc, startReplica, stopReplica, until } from './serve-replica.js';

/*
 * Tasks on Redis on a bad day, with real `serve --http` processes and real redis-servers: a replica's
 * Redis cut by a TCP proxy while its tool finishes, Redis out of memory, a Redis that evicts, an
 * unauthenticated replica beside an authenticated one, questions nobody answers, many tasks waiting
 * for input, and the readiness probe while the store is away.
 */

let redis: RedisServer;
let folder: string;
let log: string;
/** An unauthenticated replica straight on `redis`, reading what the others write. */
let b: Replica;
const started: Replica[] = [];
const proxies: TcpProxy[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function replica(store: string, args: string[]): Promise<Replica> {
  const served = await startReplica(store, args, { TOOLSMITH_TASK_LOG: log });
  started.push(served);
  return served;
}

async function proxy(): Promise<TcpProxy> {
  const opened = await startTcpProxy(redis.port);
  proxies.push(opened);
  return opened;
}

function events(): string[] {
  return readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
}

const sawEvent = (line: string) =>
  until(
    async () => events(),
    (lines) => lines.includes(line),
  );

/** Calls `slow_report` as a task on `url`; its task id. */
async function slowReport(url: string, ms: number, tag: string): Promise<string> {
  const created = await rpc(url, 'tools/call', { name: 'slow_report', arguments: { ms, tag } });
  expect(created.result).toMatchObject({ resultType: 'task' });
  return created.result.taskId as string;
}

/** Calls `ask_choice` as a task on `url` from a client that can elicit; its task id. */
async function askChoice(url: string): Promise<string> {
  const created = await rpc(url, 'tools/call', { name: 'ask_choice', arguments: {} }, '2026-07-28', {
    elicitation: {},
  });
  expect(created.result).toMatchObject({ resultType: 'task' });
  return created.result.taskId as string;
}

const status = async (url: string, taskId: string) => (await rpc(url, 'tasks/get', { taskId })).result;

beforeAll(async () => {
  redis = await startRedisServer();
  folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-bad-day-'));
  log = path.join(folder, 'events.log');
  writeFileSync(log, '');
  b = await replica(redis.url, ['--no-auth']);
}, 60_000);

afterAll(async () => {
  await Promise.all(started.map((each) => stopReplica(each)));
  await Promise.all(proxies.map((each) => each.close()));
  await redis?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('a finished task is written, or failed with the true reason', () => {
  it("a result finished while the replica's Redis is cut off is written once Redis is back", async () => {
    const cutOff = await proxy();
    const a = await replica(cutOff.url, ['--no-auth']);
    const taskId = await slowReport(a.url, 800, 'cut');
    await sawEvent(`start ${a.child.pid} cut`);
    cutOff.cut();
    await sawEvent(`done ${a.child.pid} cut`);
    await sleep(300);
    expect((await status(b.url, taskId)).status).toBe('working');
    cutOff.restore();
    const done = await until(
      () => status(b.url, taskId),
      (task) => task?.status !== 'working',
    );
    expect(done.status).toBe('completed');
    expect(done.result.structuredContent).toEqual({ tag: 'cut', pid: a.child.pid });
  }, 60_000);

  it('a replica stopped while it holds a finished result writes it before it exits, never "shut down before the task finished"', async () => {
    const cutOff = await proxy();
    const a = await replica(cutOff.url, ['--no-auth', '--drain-timeout', '5000']);
    const taskId = await slowReport(a.url, 500, 'held');
    await sawEvent(`start ${a.child.pid} held`);
    cutOff.cut();
    await sawEvent(`done ${a.child.pid} held`);
    cutOff.restore();
    a.child.kill('SIGTERM');
    expect(await a.exit).toBe(0);
    const task = await status(b.url, taskId);
    expect(task.status).toBe('completed');
    expect(task.result.structuredContent).toEqual({ tag: 'held', pid: a.child.pid });
  }, 60_000);

  it('20 tasks that finish while Redis is out of memory (noeviction) are all completed once memory frees', async () => {
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const junk: string[] = [];
    try {
      const ids = await Promise.all(Array.from({ length: 20 }, (_, index) => slowReport(b.url, 1_000, `oom-${index}`)));
      await until(
        async () => events(),
        (lines) => ids.every((_, index) => lines.includes(`start ${b.child.pid} oom-${index}`)),
      );
      // Full: 2 MB written, then maxmemory set 1 MB below what is used; writes are refused (OOM) until keys go.
      for (let index = 0; index < 20; index++) {
        junk.push(`junk-${index}`);
        await raw.set(`junk-${index}`, 'x'.repeat(100_000));
      }
      const used = Number(/used_memory:(\d+)/.exec(await raw.info('memory'))?.[1]);
      await raw.configSet('maxmemory', String(used - 1_000_000));
      await expect(raw.set('one-more', 'x')).rejects.toThrow(/^OOM/);
      await until(
        async () => events(),
        (lines) => ids.every((_, index) => lines.includes(`done ${b.child.pid} oom-${index}`)),
      );
      await sleep(500);
      // Not written, not lost: still working, the results held by the replica.
      for (const taskId of ids) expect((await status(b.url, taskId)).status).toBe('working');
      await raw.del(junk);
      await raw.configSet('maxmemory', '0');
      const read = await until(
        () => Promise.all(ids.map((taskId) => status(b.url, taskId))),
        (tasks) => tasks.every((task) => task?.status === 'completed'),
      );
      expect(read.map((task) => task.status)).toEqual(ids.map(() => 'completed'));
      expect(read.map((task) => task.result.structuredContent.tag)).toEqual(ids.map((_, index) => `oom-${index}`));
    } finally {
      await raw.configSet('maxmemory', '0');
      if (junk.length > 0) await raw.del(junk);
      await raw.quit();
    }
  }, 60_000);
});

describe('a Redis that may evict task keys', () => {
  it('is refused at start, accepted with --task-store-accept-eviction (warned), and an evicted task is told so', async () => {
    const evicting = await startRedisServer(['--maxmemory-policy', 'allkeys-lru']);
    const raw = createClient({ url: evicting.url });
    await raw.connect();
    try {
      const refused = await replica(evicting.url, ['--no-auth']).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(
        /exited 1 before listening: .*may evict task keys: its maxmemory-policy is 'allkeys-lru'.*--task-store-accept-eviction/s,
      );
      const accepted = await replica(evicting.url, ['--no-auth', '--task-store-accept-eviction']);
      expect(accepted.stderr()).toContain(
        `toolsmith serve: warning: Redis at ${evicting.url} may evict task keys: its maxmemory-policy is 'allkeys-lru'`,
      );
      const ids = await Promise.all(
        Array.from({ length: 20 }, (_, index) => slowReport(accepted.url, 0, `kept-${index}`)),
      );
      await until(
        () => Promise.all(ids.map((taskId) => status(accepted.url, taskId))),
        (tasks) => tasks.every((task) => task?.status === 'completed'),
      );
      const used = Number(/used_memory:(\d+)/.exec(await raw.info('memory'))?.[1]);
      await raw.configSet('maxmemory', String(used + 500_000));
      for (let index = 0; index < 40; index++) await raw.set(`junk-${index}`, 'x'.repeat(100_000));
      expect(Number(/evicted_keys:(\d+)/.exec(await raw.info('stats'))?.[1])).toBeGreaterThan(0);
      const answers = await Promise.all(ids.map((taskId) => rpc(accepted.url, 'tasks/get', { taskId })));
      const gone = answers.filter((answer) => answer.error !== undefined);
      expect(gone.length).toBeGreaterThan(0);
      expect(gone[0]!.error!.message).toMatch(
        /not found: it never existed, it belongs to another caller, or it ended longer ago than it is kept .*; or Redis evicted it: its maxmemory-policy is 'allkeys-lru', which this server was told to accept/,
      );
    } finally {
      await raw.quit();
      await evicting.stop();
    }
  }, 60_000);
});

describe('an unauthenticated replica and an authenticated one on one Redis', () => {
  it("keep apart: a token whose sub is 'mcp' neither reads nor lists the unauthenticated callers' tasks", async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwks = path.join(folder, 'jwks.json');
    writeFileSync(jwks, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] }));
    const resource = 'https://tools.example.test/mcp';
    const issuer = 'https://idp.example.test/';
    const authed = await replica(redis.url, [
      '--auth-issuer',
      issuer,
      '--auth-resource',
      resource,
      '--auth-jwks',
      jwks,
    ]);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setSubject('mcp')
      .setIssuer(issuer)
      .setAudience(resource)
      .setExpirationTime('5m')
      .sign(privateKey);
    const anonymous = await slowReport(b.url, 0, 'anonymous');
    expect(
      (
        await until(
          () => status(b.url, anonymous),
          (task) => task?.status === 'completed',
        )
      ).status,
    ).toBe('completed');
    const read = await rpc(authed.url, 'tasks/get', { taskId: anonymous }, '2026-07-28', {}, token);
    expect(read.error?.message).toMatch(new RegExp(`^Task '${anonymous}' not found`));
    const init = await rpc(
      authed.url,
      'initialize',
      { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      '2025-11-25',
      {},
      token,
    );
    expect(init.result?.capabilities?.tasks?.list).toEqual({});
    const listed = await rpc(authed.url, 'tasks/list', {}, '2025-11-25', {}, token);
    expect(listed.result.tasks.map((task: { taskId: string }) => task.taskId)).not.toContain(anonymous);
    const cancel = await rpc(authed.url, 'tasks/cancel', { taskId: anonymous }, '2026-07-28', {}, token);
    expect(cancel.error?.message).toMatch(/not found/);
    // And the other way: the token's task is not the unauthenticated callers'.
    const created = await rpc(
      authed.url,
      'tools/call',
      { name: 'slow_report', arguments: { ms: 0, tag: 'token' } },
      '2026-07-28',
      {},
      token,
    );
    const owned = created.result.taskId as string;
    expect((await rpc(b.url, 'tasks/get', { taskId: owned })).error?.message).toMatch(/not found/);
    expect((await rpc(authed.url, 'tasks/get', { taskId: owned }, '2026-07-28', {}, token)).result.taskId).toBe(owned);
  }, 60_000);
});

describe('questions to the client', () => {
  it('a question waits --task-input-wait, then the task fails saying so', async () => {
    const waiting = await replica(redis.url, ['--no-auth', '--task-input-wait', '800']);
    const taskId = await askChoice(waiting.url);
    expect(
      (
        await until(
          () => status(b.url, taskId),
          (task) => task?.status === 'input_required',
        )
      ).status,
    ).toBe('input_required');
    const failed = await until(
      () => status(b.url, taskId),
      (task) => task?.status === 'failed',
    );
    expect(failed.status).toBe('failed');
    expect(failed.statusMessage).toBe(
      "The client did not answer the task's question (Waiting for the user: Pick a or b) within 800 ms, the longest a question waits (inputWaitMs, serve --task-input-wait); the task failed. Call the tool again.",
    );
    expect(failed.error).toMatchObject({ code: -32603 });
  }, 60_000);

  it('a caller has at most --task-max-input-waiting tasks waiting for input; a further question is refused saying so', async () => {
    const capped = await replica(redis.url, ['--no-auth', '--task-max-input-waiting', '2']);
    const first = await askChoice(capped.url);
    const second = await askChoice(capped.url);
    for (const taskId of [first, second])
      await until(
        () => status(b.url, taskId),
        (task) => task?.status === 'input_required',
      );
    const third = await askChoice(capped.url);
    const refused = await until(
      () => status(b.url, third),
      (task) => task?.status === 'completed' || task?.status === 'failed',
    );
    expect(JSON.stringify(refused.result)).toContain(
      `cannot ask its client: the unauthenticated callers have 2 tasks waiting for input, the most this server allows (maxInputWaiting, serve --task-max-input-waiting)`,
    );
    // One answered: a place is free again.
    await rpc(b.url, 'tasks/update', { taskId: first, inputResponses: { 'elicit-0': { action: 'decline' } } });
    await until(
      () => status(b.url, first),
      (task) => task?.status === 'completed',
    );
    const fourth = await askChoice(capped.url);
    expect(
      (
        await until(
          () => status(b.url, fourth),
          (task) => task?.status === 'input_required',
        )
      ).status,
    ).toBe('input_required');
  }, 60_000);

  it('100 tasks waiting for input cost Redis less than one script per second each (they do not poll)', async () => {
    const count = 100;
    const many = await replica(redis.url, ['--no-auth', '--task-max-input-waiting', '1000', '--drain-timeout', '0']);
    const ids: string[] = [];
    for (let batch = 0; batch < count / 20; batch++)
      ids.push(...(await Promise.all(Array.from({ length: 20 }, () => askChoice(many.url)))));
    await until(
      () => Promise.all(ids.map((taskId) => status(many.url, taskId))),
      (tasks) => tasks.every((task) => task?.status === 'input_required'),
      30_000,
    );
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      await sleep(2_000);
      // Round trips: the scripts the replica runs (each a few commands inside Redis).
      const scripts = async () => {
        const stats = await raw.info('commandstats');
        const calls = (name: string) => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
        return calls('evalsha') + calls('eval');
      };
      // Two lease renewals (every 5 s) fall in the window.
      const before = await scripts();
      await sleep(10_000);
      const perSecond = ((await scripts()) - before) / 10;
      console.log(
        `${count} tasks waiting for input: ${perSecond.toFixed(0)} Redis scripts/s (INFO commandstats evalsha + eval over 10 s)`,
      );
      expect(perSecond).toBeLessThan(count);
      // Still answered at once, by any replica.
      await rpc(b.url, 'tasks/update', {
        taskId: ids[0],
        inputResponses: { 'elicit-0': { action: 'accept', content: { choice: 'a' } } },
      });
      const done = await until(
        () => status(b.url, ids[0]!),
        (task) => task?.status === 'completed',
      );
      expect(done.result.structuredContent).toEqual({ picked: 'a', pid: many.child.pid });
    } finally {
      await raw.quit();
    }
  }, 120_000);
});

describe('/readyz', () => {
  it('answers 503 while the task store is cut off, 200 once it is back; /healthz stays 200 throughout', async () => {
    const cutOff = await proxy();
    const served = await replica(cutOff.url, ['--no-auth']);
    const probe = async (name: string) => {
      const response = await fetch(new URL(name, served.url));
      return { status: response.status, body: (await response.json()) as { status: string; error?: string } };
    };
    expect(await probe('/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
    cutOff.cut();
    const down = await until(
      () => probe('/readyz'),
      (answer) => answer.status === 503,
    );
    expect(down.body.status).toBe('unavailable');
    expect(down.body.error).toMatch(new RegExp(`^Task store ${cutOff.url.replace(/\./g, '\\.')} is unavailable`));
    expect(await probe('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    cutOff.restore();
    expect(
      (
        await until(
          () => probe('/readyz'),
          (answer) => answer.status === 200,
        )
      ).body,
    ).toEqual({ status: 'ready' });
    const memory = await replica('memory', ['--no-auth']);
    expect((await fetch(new URL('/readyz', memory.url))).status).toBe(200);
  }, 60_000);
});
