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
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, intervalMs);
      function done() {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', done);
        resolve();
      }
      options.signal?.addEventListener('abort', done, { once: true });
    });
  }
}
