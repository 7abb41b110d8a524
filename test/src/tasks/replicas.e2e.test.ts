import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { type Replica, rpc, startReplica as startServeReplica, stopReplica, until } from './serve-replica.js';

/*
 * Long calls as tasks across replicas: two real `serve --http` processes sharing one real Redis
 * (`--task-store redis://…`), the task-capable tool of test/fixtures/tasks/entry.ts. A task created
 * on A is polled and answered on B; a cancel sent to B stops the tool's signal on A; A drained
 * mid-task leaves the task failed with the reason, never lost; with Redis down a call fails clearly
 * and works again once Redis is back.
 */

let redis: RedisServer;
let folder: string;
let log: string;

const startReplica = (extra: string[] = []) =>
  startServeReplica(redis.url, ['--no-auth', ...extra], { TOOLSMITH_TASK_LOG: log });

function events(): string[] {
  try {
    return readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

let a: Replica;
let b: Replica;

beforeAll(async () => {
  redis = await startRedisServer();
  folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-replicas-'));
  log = path.join(folder, 'events.log');
  writeFileSync(log, '');
  [a, b] = await Promise.all([startReplica(), startReplica()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([stopReplica(a), stopReplica(b)]);
  await redis?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('serve --http replicas sharing a Redis task store', () => {
  it('lists the tool as task-capable; a task created on A is polled on B and answered there', async () => {
    // 2025-11-25 lists it with execution.taskSupport (the 2026-07-28 wire has no such field).
    const listed = await rpc(a.url, 'tools/list', {}, '2025-11-25');
    expect(listed.result.tools[0]).toMatchObject({ name: 'slow_report', execution: { taskSupport: 'optional' } });
    const created = await rpc(a.url, 'tools/call', { name: 'slow_report', arguments: { ms: 400, tag: 'first' } });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result.taskId as string;
    expect((await rpc(b.url, 'tasks/get', { taskId })).result).toMatchObject({ status: 'working', taskId });
    const done = await until(
      () => rpc(b.url, 'tasks/get', { taskId }),
      (answer) => answer.result?.status !== 'working',
    );
    expect(done.result.status).toBe('completed');
    expect(done.result.result.structuredContent).toEqual({ tag: 'first', pid: a.child.pid });
    expect(events()).toContain(`done ${a.child.pid} first`);
  }, 30_000);

  it('2026-07-28: a task on A asks its user; B shows the question and takes the answer; A resumes', async () => {
    const created = await rpc(a.url, 'tools/call', { name: 'ask_choice', arguments: {} }, '2026-07-28', {
      elicitation: {},
    });
    const taskId = created.result.taskId as string;
    const waiting = await until(
      () => rpc(b.url, 'tasks/get', { taskId }),
      (answer) => answer.result?.status === 'input_required',
    );
    expect(waiting.result.inputRequests['elicit-0']).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Pick a or b' },
    });
    const updated = await rpc(b.url, 'tasks/update', {
      taskId,
      inputResponses: { 'elicit-0': { action: 'accept', content: { choice: 'b' } } },
    });
    expect(updated.result).toMatchObject({ resultType: 'complete' });
    const done = await until(
      () => rpc(b.url, 'tasks/get', { taskId }),
      (answer) => answer.result?.status === 'completed' || answer.result?.status === 'failed',
    );
    expect(done.result.result.structuredContent).toEqual({ picked: 'b', pid: a.child.pid });
  }, 30_000);

  it('2025-11-25: params.task on B, tasks/result on A blocks until the result', async () => {
    const created = await rpc(
      b.url,
      'tools/call',
      { name: 'slow_report', arguments: { ms: 300, tag: 'legacy' }, task: { ttl: 60_000 } },
      '2025-11-25',
    );
    const taskId = created.result.task.taskId as string;
    expect(created.result.task.status).toBe('working');
    const result = await rpc(a.url, 'tasks/result', { taskId }, '2025-11-25');
    expect(result.result.structuredContent).toEqual({ tag: 'legacy', pid: b.child.pid });
  }, 30_000);

  it("a cancel sent to B stops the tool's signal on A; the task reads cancelled", async () => {
    const created = await rpc(a.url, 'tools/call', {
      name: 'slow_report',
      arguments: { ms: 30_000, tag: 'cancel-me' },
    });
    const taskId = created.result.taskId as string;
    await until(
      async () => events(),
      (lines) => lines.includes(`start ${a.child.pid} cancel-me`),
    );
    expect((await rpc(b.url, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    const lines = await until(
      async () => events(),
      (all) => all.includes(`aborted ${a.child.pid} cancel-me`),
      5_000,
    );
    expect(lines).toContain(`aborted ${a.child.pid} cancel-me`);
    expect((await rpc(b.url, 'tasks/get', { taskId })).result.status).toBe('cancelled');
    // Its late answer is refused: the task stays cancelled.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await rpc(a.url, 'tasks/get', { taskId })).result.status).toBe('cancelled');
  }, 30_000);

  it('with Redis down a call fails clearly, and works again once Redis is back', async () => {
    await redis.kill();
    const refused = await rpc(a.url, 'tools/call', { name: 'slow_report', arguments: { ms: 10, tag: 'down' } });
    expect(refused.error?.message).toMatch(/Task store .* is unavailable/);
    await redis.restart();
    const back = await until(
      () => rpc(a.url, 'tools/call', { name: 'slow_report', arguments: { ms: 10, tag: 'back' } }),
      (answer) => answer.result !== undefined,
      10_000,
    );
    expect(back.result).toMatchObject({ resultType: 'task' });
    const done = await until(
      () => rpc(b.url, 'tasks/get', { taskId: back.result.taskId }),
      (answer) => answer.result?.status === 'completed',
    );
    expect(done.result.status).toBe('completed');
  }, 40_000);

  it('A drained (SIGTERM) mid-task: the task is marked failed with the reason on B, not lost', async () => {
    const drained = await startReplica(['--drain-timeout', '300']);
    const created = await rpc(drained.url, 'tools/call', {
      name: 'slow_report',
      arguments: { ms: 60_000, tag: 'drained' },
    });
    const taskId = created.result.taskId as string;
    await until(
      async () => events(),
      (lines) => lines.includes(`start ${drained.child.pid} drained`),
    );
    drained.child.kill('SIGTERM');
    expect(await drained.exit).toBe(0);
    const task = (await rpc(b.url, 'tasks/get', { taskId })).result;
    expect(task.status).toBe('failed');
    expect(task.statusMessage).toMatch(/shut down before the task finished/);
    expect(events()).toContain(`aborted ${drained.child.pid} drained`);
  }, 40_000);
});
