import { isTerminalTaskStatus, type StoredTask, type TaskStore } from './task-store.js';

/**
 * Polls a task until it ended (the 2025-11-25 `tasks/result` blocks until then), the task is gone
 * (`undefined`), or `signal` fires (rejects with its reason). Polling rather than a subscription:
 * the store is read by whichever replica took the request, and a poll every `intervalMs` (default
 * 100 ms) is one cheap Redis script per waiting request.
 */
export async function waitForTaskEnd(
  store: TaskStore,
  taskId: string,
  options: { subject?: string; intervalMs?: number; signal?: AbortSignal } = {},
): Promise<StoredTask | undefined> {
  const intervalMs = options.intervalMs ?? 100;
  for (;;) {
    options.signal?.throwIfAborted();
    const task = await store.get(taskId, options.subject);
    if (task === undefined || isTerminalTaskStatus(task.status)) return task;
    await pause(intervalMs, options.signal);
  }
}

/**
 * Polls a task until the client answered its input request `key` (the answer), the task ended or is
 * gone (`undefined`), or `signal` fires (rejects with its reason).
 */
export async function waitForTaskInput(
  store: TaskStore,
  taskId: string,
  key: string,
  options: { subject?: string; intervalMs?: number; signal?: AbortSignal } = {},
): Promise<unknown> {
  const intervalMs = options.intervalMs ?? 100;
  for (;;) {
    options.signal?.throwIfAborted();
    const task = await store.get(taskId, options.subject);
    if (task === undefined || isTerminalTaskStatus(task.status)) return undefined;
    const responses = task.inputResponses;
    if (responses !== undefined && Object.hasOwn(responses, key)) return responses[key];
    await pause(intervalMs, options.signal);
  }
}

/** Resolves after `ms`, or at once when `signal` fires. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
