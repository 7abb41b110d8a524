import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openTaskStore,
  RedisTaskStore,
  type TaskAbortedError,
  type TaskStore,
  TaskStoreError,
  type TaskTransition,
} from '../../../src/tasks/index.js';
import { freePort, type RedisServer, startRedisServer, startTcpProxy } from './redis-server.js';
import { describeTaskStoreContract, eventually } from './task-store-contract.js';

// One real redis-server for this file (fails, with the install command, when redis-server is missing).
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

describeTaskStoreContract('RedisTaskStore', (timings) => RedisTaskStore.connect({ url: redis.url, ...timings }), {
  leases: true,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two replicas: two stores, each with its own two Redis connections, on one Redis. */
async function replicas(options: { leaseMs?: number } = {}): Promise<[RedisTaskStore, RedisTaskStore]> {
  const a = await RedisTaskStore.connect({ url: redis.url, replicaId: 'replica-a', ...options });
  const b = await RedisTaskStore.connect({ url: redis.url, replicaId: 'replica-b', ...options });
  return [a, b];
}

async function closeAll(...stores: TaskStore[]): Promise<void> {
  await Promise.all(stores.map((store) => store.close()));
}

describe('RedisTaskStore across replicas', () => {
  it('a task created on A is read on B, completed on B, and read completed on A', async () => {
    const [a, b] = await replicas();
    try {
      const running = await a.create({ toolName: 'report', subject: 'alice' });
      expect(await b.get(running.task.taskId, 'alice')).toMatchObject({ status: 'working', replicaId: 'replica-a' });
      const done = await b.complete(running.task.taskId, { content: [{ type: 'text', text: 'from B' }] });
      expect(done.ok).toBe(true);
      const read = await a.get(running.task.taskId, 'alice');
      expect(read?.status).toBe('completed');
      expect(read?.result).toEqual({ content: [{ type: 'text', text: 'from B' }] });
      // A is told at once (pub/sub), and its own later answer is refused.
      await eventually(() => running.signal.aborted, 1_000);
      expect((running.signal.reason as TaskAbortedError).kind).toBe('ended-elsewhere');
      const late = await running.complete({ content: [{ type: 'text', text: 'from A' }] });
      expect(late.ok).toBe(false);
      expect((await b.get(running.task.taskId, 'alice'))?.result).toEqual({
        content: [{ type: 'text', text: 'from B' }],
      });
    } finally {
      await closeAll(a, b);
    }
  });

  it('A and B racing to complete: exactly one wins, over 50 tasks', async () => {
    const [a, b] = await replicas();
    try {
      for (let round = 0; round < 50; round++) {
        const running = await a.create({ toolName: 'race' });
        const [fromA, fromB] = await Promise.all([
          running.complete({ by: 'A' }),
          b.complete(running.task.taskId, { by: 'B' }),
        ]);
        expect(Number(fromA.ok) + Number(fromB.ok)).toBe(1);
        const winner = fromA.ok ? 'A' : 'B';
        expect((await b.get(running.task.taskId))?.result).toEqual({ by: winner });
      }
    } finally {
      await closeAll(a, b);
    }
  });

  it('cancel on B fires the signal on A through pub/sub, long before a lease renewal could', async () => {
    // A 60 s lease renews every 20 s: a signal within 500 ms can only have come by pub/sub.
    const [a, b] = await replicas({ leaseMs: 60_000 });
    try {
      const running = await a.create({ toolName: 'slow' });
      const started = Date.now();
      const outcome = await b.cancel(running.task.taskId, undefined, 'Stopped from replica B.');
      expect(outcome.ok).toBe(true);
      const waited = await eventually(() => running.signal.aborted, 500);
      expect(Date.now() - started).toBeLessThan(500);
      expect((running.signal.reason as TaskAbortedError).kind).toBe('cancelled');
      expect((running.signal.reason as TaskAbortedError).message).toBe('Stopped from replica B.');
      expect((await running.complete({ late: true })).ok).toBe(false);
      expect((await a.get(running.task.taskId))?.status).toBe('cancelled');
      console.log(`cancel on B → signal on A: ${waited} ms`);
    } finally {
      await closeAll(a, b);
    }
  });

  it('a cancel whose pub/sub message never arrives still reaches A, by its next lease renewal', async () => {
    const [a, b] = await replicas({ leaseMs: 900 });
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const running = await a.create({ toolName: 'slow' });
      // The state a cancel leaves, written without its PUBLISH: as if A's subscriber was reconnecting.
      await raw.sendCommand([
        'HSET',
        `toolsmith:task:${running.task.taskId}`,
        'status',
        'cancelled',
        'statusMessage',
        'Stopped while A was deaf.',
      ]);
      const waited = await eventually(() => running.signal.aborted, 3_000);
      expect((running.signal.reason as TaskAbortedError).kind).toBe('cancelled');
      expect((running.signal.reason as Error).message).toBe('Stopped while A was deaf.');
      expect(waited).toBeLessThan(1_000);
      expect((await b.get(running.task.taskId))?.status).toBe('cancelled');
      console.log(`cancel without its pub/sub message → signal on A: ${waited} ms (renewal every 300 ms)`);
    } finally {
      await raw.close();
      await closeAll(a, b);
    }
  });

  it('a live replica keeps renewing its lease: its task stays working well past the lease', async () => {
    const [a, b] = await replicas({ leaseMs: 1_000 });
    try {
      const running = await a.create({ toolName: 'long' });
      await sleep(3_000);
      expect((await b.get(running.task.taskId))?.status).toBe('working');
      expect(running.signal.aborted).toBe(false);
      expect((await running.complete({ ok: true })).ok).toBe(true);
    } finally {
      await closeAll(a, b);
    }
  });

  it('a replica killed mid-task (SIGKILL): once its lease is over the task is failed with a reason, never answered', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/src/tasks/replica-child.ts', redis.url, '600'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [b] = await replicas({ leaseMs: 600 });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`replica child exited (${code}) before creating its task`)));
      });
      const { taskId, replicaId } = JSON.parse(line) as { taskId: string; replicaId: string };
      expect((await b.get(taskId))?.status).toBe('working');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const killedAt = Date.now();
      const waited = await eventually(async () => (await b.get(taskId))?.status === 'failed', 5_000);
      const failed = await b.get(taskId);
      expect(failed?.statusMessage).toMatch(new RegExp(`Replica '${replicaId}' stopped renewing the task's lease`));
      expect(failed?.error).toMatchObject({ code: -32603 });
      expect(Date.now() - killedAt).toBeLessThan(3_000);
      expect((await b.complete(taskId, { late: true })).ok).toBe(false);
      console.log(`killed replica's task marked failed ${waited} ms after the kill (lease 600 ms)`);
    } finally {
      child.kill('SIGKILL');
      await closeAll(b);
    }
  });

  it('Redis killed mid-run: operations reject with a clear error while it is down, and work again after', async () => {
    const [a, b] = await replicas({ leaseMs: 5_000 });
    try {
      const before = await a.create({ toolName: 'before' });
      expect((await before.complete({ n: 1 })).ok).toBe(true);
      const inFlight = await a.create({ toolName: 'in-flight' });
      const finishing = await a.create({ toolName: 'finishing' });
      await redis.kill();
      await sleep(300); // the clients are now reconnecting: a queued command would wait, not fail
      // A running task's own ending is held and written again until Redis takes it, not dropped.
      let ended: TaskTransition | undefined;
      void finishing.complete({ n: 2 }).then((outcome) => (ended = outcome));
      for (const attempt of [
        () => a.create({ toolName: 'during' }),
        () => b.get(before.task.taskId),
        () => b.cancel(before.task.taskId),
        () => a.complete(before.task.taskId, { n: 2 }),
      ]) {
        const started = Date.now();
        const error = await Promise.race([
          attempt().then(
            () => undefined,
            (caught: unknown) => caught,
          ),
          sleep(1_000).then(() => new Error('the operation waited for Redis instead of failing')),
        ]);
        expect(Date.now() - started).toBeLessThan(1_000);
        expect(error).toBeInstanceOf(TaskStoreError);
        expect((error as TaskStoreError).code).toBe('TASK_STORE_UNAVAILABLE');
        expect((error as Error).message).toMatch(
          new RegExp(`Task store redis://127\\.0\\.0\\.1:${redis.port} is unavailable: .*reconnects by itself`),
        );
      }
      expect(inFlight.signal.aborted).toBe(false);
      expect(ended).toBeUndefined();
      await redis.restart();
      // Redis came back empty (no persistence): the held ending finds its task gone, and says so.
      await eventually(() => ended !== undefined, 5_000);
      expect(ended).toMatchObject({ ok: false, reason: 'not-found' });
      // Redis came back empty (no persistence): the next renewal finds the task gone and gives it up.
      await eventually(() => inFlight.signal.aborted, 5_000);
      expect((inFlight.signal.reason as TaskAbortedError).kind).toBe('lease-lost');
      expect((inFlight.signal.reason as Error).message).toMatch(
        /is gone from redis:.*Redis restarted without persistence/,
      );
      const recovery = await eventually(async () => {
        try {
          await a.create({ toolName: 'probe' }).then((probe) => probe.complete({}));
          await b.get('any');
          return true;
        } catch {
          return false;
        }
      }, 10_000);
      // A fresh task round-trips A → B after the restart (the scripts are loaded again by EVAL).
      const after = await a.create({ toolName: 'after' });
      expect((await b.get(after.task.taskId))?.status).toBe('working');
      expect((await b.complete(after.task.taskId, { n: 3 })).ok).toBe(true);
      expect((await a.get(after.task.taskId))?.result).toEqual({ n: 3 });
      // And a cancel still reaches A: its subscriber resubscribed after the reconnect.
      const cancellable = await a.create({ toolName: 'cancel-after' });
      await b.cancel(cancellable.task.taskId);
      await eventually(() => cancellable.signal.aborted, 1_000);
      console.log(`stores answered again ${recovery} ms after redis-server restarted`);
    } finally {
      await closeAll(a, b);
    }
  });

  it('Redis down for longer than the lease: the running replica gives up the task (lease-lost), never answers it later', async () => {
    const [a] = await replicas({ leaseMs: 600 });
    try {
      const running = await a.create({ toolName: 'outage' });
      await redis.kill();
      const waited = await eventually(() => running.signal.aborted, 3_000);
      expect((running.signal.reason as TaskAbortedError).kind).toBe('lease-lost');
      expect((running.signal.reason as Error).message).toMatch(
        /could not renew the lease of task .* for 600 ms: .*unavailable/,
      );
      await redis.restart();
      // Redis ran without persistence: the task is gone, and the late answer is refused, not written.
      await eventually(async () => (await a.get(running.task.taskId).catch(() => 'down')) === undefined, 10_000);
      expect((await running.complete({ late: true })).ok).toBe(false);
      console.log(`lease-lost signal ${waited} ms after Redis died (lease 600 ms)`);
    } finally {
      await closeAll(a);
    }
  });

  it("a running task's ending is held while Redis is cut off, and written once it answers again", async () => {
    const proxy = await startTcpProxy(redis.port);
    const a = await RedisTaskStore.connect({ url: proxy.url, replicaId: 'replica-a' });
    const [b] = await replicas();
    try {
      const running = await a.create({ toolName: 'report' });
      proxy.cut();
      let ended: TaskTransition | undefined;
      const ending = running.complete({ content: [{ type: 'text', text: 'finished while cut off' }] });
      void ending.then((outcome) => (ended = outcome));
      await sleep(400);
      expect(ended).toBeUndefined();
      expect((await b.get(running.task.taskId))?.status).toBe('working');
      proxy.restore();
      const outcome = await ending;
      expect(outcome.ok && outcome.task.status).toBe('completed');
      expect((await b.get(running.task.taskId))?.result).toEqual({
        content: [{ type: 'text', text: 'finished while cut off' }],
      });
    } finally {
      await closeAll(a, b);
      await proxy.close();
    }
  });

  it('a held ending is no longer leased: cut off past the lease, the task is failed saying it could not be written', async () => {
    const proxy = await startTcpProxy(redis.port);
    const a = await RedisTaskStore.connect({ url: proxy.url, replicaId: 'replica-a', leaseMs: 600 });
    const [b] = await replicas({ leaseMs: 600 });
    try {
      const running = await a.create({ toolName: 'report' });
      proxy.cut();
      const ending = running.complete({ content: [] });
      await eventually(async () => (await b.get(running.task.taskId))?.status === 'failed', 5_000);
      expect((await b.get(running.task.taskId))?.statusMessage).toMatch(
        /^Replica 'replica-a' stopped renewing the task's lease \d+ ms ago \(it died, froze, lost Redis, or could not write the task's result to it\) before the task's result was written/,
      );
      proxy.restore();
      // Someone saw the lease run out first: the late ending is refused, never written over it.
      const outcome = await ending;
      expect(outcome).toMatchObject({ ok: false, reason: 'terminal' });
      expect((await b.get(running.task.taskId))?.status).toBe('failed');
    } finally {
      await closeAll(a, b);
      await proxy.close();
    }
  });

  it('a result Redis cannot take fails the task with that reason at once, and its lease stops', async () => {
    const [a, b] = await replicas({ leaseMs: 600 });
    try {
      const running = await a.create({ toolName: 'report' });
      const outcome = await running.complete({ structuredContent: { count: 10n } });
      expect(outcome.ok && outcome.task.status).toBe('failed');
      const read = await b.get(running.task.taskId);
      expect(read?.statusMessage).toBe(
        `The tool finished, but its result could not be written to the task store ${redis.url}: Do not know how to serialize a BigInt. Call the tool again.`,
      );
      expect(read?.error).toMatchObject({ code: -32603 });
    } finally {
      await closeAll(a, b);
    }
  });

  it('refuses a Redis whose maxmemory-policy may evict task keys, each policy; accepts it when told, with a warning', async () => {
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const evicting = [
        'allkeys-lru',
        'allkeys-lfu',
        'allkeys-random',
        'volatile-lru',
        'volatile-lfu',
        'volatile-random',
        'volatile-ttl',
      ];
      for (const policy of evicting) {
        await raw.configSet('maxmemory-policy', policy);
        const error = await RedisTaskStore.connect({ url: redis.url }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(TaskStoreError);
        expect((error as TaskStoreError).code).toBe('TASK_STORE_MAY_EVICT');
        expect((error as Error).message).toContain(
          `Redis at ${redis.url} may evict task keys: its maxmemory-policy is '${policy}', under which a full Redis deletes ${policy.startsWith('volatile') ? 'keys with a TTL (every task key has one)' : 'any key'}`,
        );
        expect((error as Error).message).toMatch(
          /CONFIG SET maxmemory-policy noeviction.*--task-store-accept-eviction/,
        );
        const accepted = await RedisTaskStore.connect({ url: redis.url, acceptEviction: true });
        expect(accepted.warning).toContain(`its maxmemory-policy is '${policy}'`);
        expect(accepted.missing('gone')).toContain(
          `or Redis evicted it: its maxmemory-policy is '${policy}', which this server was told to accept`,
        );
        await accepted.close();
      }
      await raw.configSet('maxmemory-policy', 'noeviction');
      const safe = await RedisTaskStore.connect({ url: redis.url });
      expect(safe.warning).toBeUndefined();
      expect(safe.missing('gone')).not.toContain('evicted');
      await safe.close();
    } finally {
      await raw.configSet('maxmemory-policy', 'noeviction');
      await raw.quit();
    }
  });

  it('reads the policy from INFO memory where CONFIG is refused (managed Redis)', async () => {
    const managed = await startRedisServer(['--rename-command', 'CONFIG', '', '--maxmemory-policy', 'volatile-lru']);
    try {
      const error = await RedisTaskStore.connect({ url: managed.url }).catch((caught: unknown) => caught);
      expect((error as TaskStoreError).code).toBe('TASK_STORE_MAY_EVICT');
      expect((error as Error).message).toContain("its maxmemory-policy is 'volatile-lru'");
    } finally {
      await managed.stop();
    }
  });

  it('openTaskStore opens a RedisTaskStore for a redis:// URL', async () => {
    const store = await openTaskStore(redis.url, { replicaId: 'from-flag' });
    try {
      expect(store).toBeInstanceOf(RedisTaskStore);
      expect(store.location).toBe(redis.url);
      const running = await store.create({ toolName: 't' });
      expect(running.task.replicaId).toBe('from-flag');
    } finally {
      await store.close();
    }
  });

  it('connect refuses what is not a Redis URL, without echoing a password', async () => {
    await expect(RedisTaskStore.connect({ url: 'http://127.0.0.1:6379' })).rejects.toThrow(
      "The Redis task store needs a redis:// or rediss:// URL (redis://host:port), got 'http://127.0.0.1:6379'.",
    );
    const error = await RedisTaskStore.connect({ url: 'redis://user:hunter2@exa mple:1' }).catch(
      (caught: Error) => caught,
    );
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('connect to a Redis that is not there fails with the address and the cause', async () => {
    const port = await freePort();
    const error = await RedisTaskStore.connect({
      url: `redis://:secret@127.0.0.1:${port}`,
      connectTimeoutMs: 500,
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TaskStoreError);
    expect((error as TaskStoreError).code).toBe('TASK_STORE_UNAVAILABLE');
    expect((error as Error).message).toContain(`redis://:***@127.0.0.1:${port} is unavailable`);
    expect((error as Error).message).not.toContain('secret');
  });

  it("without the optional 'redis' package, connect says how to install it", async () => {
    const script = `const { RedisTaskStore } = await import('./src/tasks/index.ts');
      await RedisTaskStore.connect({ url: '${redis.url}' }).then(
        (store) => { console.log('CONNECTED'); return store.close(); },
        (error) => console.log(error.code + ' ' + error.message));`;
    const run = (preload: string[]) =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', ...preload, '--input-type=module', '-e', script], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        child.once('exit', () => resolve(output.trim()));
      });
    expect(await run(['--import', './test/src/tasks/no-redis-package.mjs'])).toBe(
      `TASK_STORE_CLIENT_MISSING The Redis task store (${redis.url}) needs the 'redis' package: npm install -E redis@6.3.1`,
    );
    expect(await run([])).toBe('CONNECTED');
  });

  it("a subject that creates tasks and never lists them does not keep the gone ones' ids", async () => {
    const keyPrefix = `sweep-${Date.now()}:`;
    const store = await RedisTaskStore.connect({ url: redis.url, keyPrefix });
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const indexKey = `${keyPrefix}tasks-of:=batch`;
      // 40 tasks that ended and are gone, their ids still listed (written as such: a loop of short-lived
      // tasks would race its own sweeps on a busy machine).
      for (let index = 0; index < 40; index++) await raw.zAdd(indexKey, { score: index, value: randomUUID() });
      expect(await raw.zCard(indexKey)).toBe(40);
      // 40 tasks that stay: each create sweeps a few random ids, and the gone ones go.
      for (let index = 0; index < 40; index++) await store.create({ toolName: 'job', subject: 'batch' });
      await eventually(async () => (await raw.zCard(indexKey)) < 40 + 15, 2_000);
      expect(await raw.zCard(indexKey)).toBeLessThan(40 + 15);
      expect((await store.list('batch', { limit: 100 })).tasks).toHaveLength(40);
    } finally {
      await raw.quit();
      await store.close();
    }
  });

  it('pages through tasks that share one score (replicas on one clock tick): each listed once, in order', async () => {
    const keyPrefix = `ties-${Date.now()}:`;
    const store = await RedisTaskStore.connect({ url: redis.url, keyPrefix });
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const ids: string[] = [];
      for (let index = 0; index < 150; index++) {
        ids.push((await store.create({ toolName: 'job', subject: 'ties' })).task.taskId);
      }
      // All but the last on one score, more of them than the list script reads at a time: Redis orders them by id.
      const indexKey = `${keyPrefix}tasks-of:=ties`;
      for (const id of ids.slice(0, -1)) await raw.zAdd(indexKey, { score: 1, value: id }, { XX: true });
      const expected = [...ids.slice(0, -1)].sort().concat(ids.at(-1)!);
      const listed: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.list('ties', { limit: 7, ...(cursor === undefined ? {} : { cursor }) });
        listed.push(...page.tasks.map((task) => task.taskId));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(listed).toEqual(expected);
    } finally {
      await raw.quit();
      await store.close();
    }
  });

  it('round trip: create on A, complete on A, result read on B (median of 200)', async () => {
    const [a, b] = await replicas();
    try {
      const times: number[] = [];
      for (let round = 0; round < 220; round++) {
        const started = performance.now();
        const running = await a.create({ toolName: 'bench' });
        await running.complete({ content: [{ type: 'text', text: 'ok' }] });
        const read = await b.get(running.task.taskId);
        const elapsed = performance.now() - started;
        expect(read?.status).toBe('completed');
        if (round >= 20) times.push(elapsed);
      }
      times.sort((x, y) => x - y);
      const median = times[Math.floor(times.length / 2)]!;
      const p95 = times[Math.floor(times.length * 0.95)]!;
      console.log(
        `task round trip on Redis (create A → complete A → get B): median ${median.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms, n=${times.length}`,
      );
      expect(median).toBeLessThan(50);
    } finally {
      await closeAll(a, b);
    }
  });
});
