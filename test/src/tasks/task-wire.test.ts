import { isSpecType, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  MemoryTaskStore,
  type StoredTask,
  toCreateTaskResult,
  toGetTaskResult,
  toLegacyCreateTaskResult,
  toLegacyTask,
  toLegacyTaskPayload,
  waitForTaskEnd,
} from '../../../src/tasks/index.js';

const base: StoredTask = {
  taskId: '786512e2-9e0d-44bd-8f29-789f320fe840',
  status: 'working',
  createdAt: '2026-12-02T10:30:00.000Z',
  lastUpdatedAt: '2026-12-02T10:30:00.000Z',
  ttlMs: 3_600_000,
  pollIntervalMs: 1_000,
  toolName: 'report',
  replicaId: 'replica-a',
};
const completed: StoredTask = {
  ...base,
  status: 'completed',
  result: { content: [{ type: 'text', text: 'done' }], isError: false },
};
const failed: StoredTask = {
  ...base,
  status: 'failed',
  statusMessage: 'Replica gone.',
  error: { code: -32603, message: 'Replica gone.' },
};

describe('task wire shapes', () => {
  it('2026-07-28: CreateTaskResult and tasks/get carry the extension fields, result or error inline', () => {
    expect(toCreateTaskResult(base)).toEqual({
      resultType: 'task',
      taskId: base.taskId,
      status: 'working',
      createdAt: base.createdAt,
      lastUpdatedAt: base.lastUpdatedAt,
      ttlMs: 3_600_000,
      pollIntervalMs: 1_000,
    });
    expect(toGetTaskResult(completed)).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      result: completed.result,
    });
    expect(toGetTaskResult(failed)).toMatchObject({
      status: 'failed',
      error: failed.error,
      statusMessage: 'Replica gone.',
    });
    expect(toGetTaskResult(base)).not.toHaveProperty('result');
    // Store-only fields (tool, replica, subject) never reach the wire.
    expect(toGetTaskResult({ ...base, subject: 'alice' })).not.toHaveProperty('subject');
    expect(toGetTaskResult(base)).not.toHaveProperty('replicaId');
  });

  it("2025-11-25: the shapes pass the SDK's own schemas", () => {
    expect(isSpecType.Task(toLegacyTask(base))).toBe(true);
    expect(isSpecType.Task({ ...toLegacyTask(base), ttl: 'an hour' })).toBe(false);
    expect(isSpecType.CreateTaskResult(toLegacyCreateTaskResult(base))).toBe(true);
    expect(isSpecType.GetTaskResult(toLegacyTask(failed))).toBe(true);
    expect(isSpecType.CancelTaskResult(toLegacyTask({ ...base, status: 'cancelled' }))).toBe(true);
    const payload = toLegacyTaskPayload(completed);
    expect(payload && 'result' in payload && isSpecType.CallToolResult(payload.result)).toBe(true);
    expect(payload && 'result' in payload && payload.result._meta).toEqual({
      [RELATED_TASK_META_KEY]: { taskId: base.taskId },
    });
    expect(toLegacyTaskPayload(failed)).toEqual({ error: failed.error });
    expect(toLegacyTaskPayload(base)).toBeUndefined();
  });
});

describe('waitForTaskEnd', () => {
  it('returns the task once it ended, and stops waiting when the signal fires', async () => {
    const store = new MemoryTaskStore();
    try {
      const running = await store.create({ toolName: 't' });
      setTimeout(() => void running.complete({ n: 1 }), 60);
      const ended = await waitForTaskEnd(store, running.task.taskId, { intervalMs: 10 });
      expect(ended?.result).toEqual({ n: 1 });
      const stuck = await store.create({ toolName: 't' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('client went away')), 50);
      await expect(waitForTaskEnd(store, stuck.task.taskId, { signal: controller.signal })).rejects.toThrow(
        'client went away',
      );
      expect(await waitForTaskEnd(store, 'missing')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
