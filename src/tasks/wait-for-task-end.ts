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
 * Resolves at the first of: `ms` passed (never, when infinite), `signal` fired (or had), one of
 * `wakers` called (this call adds its own waker to the set while it waits).
 */
export function pause(ms: number, signal: AbortSignal | undefined, wakers?: Set<() => void>): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    function done() {
      clearTimeout(timer);
      wakers?.delete(done);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    wakers?.add(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
