import { isTerminalTaskStatus, type StoredTask, TaskAbortedError, type TaskAbortCause } from './task-store.js';
import { raceDeadline } from '../pipeline/settle.js';
import { pause } from './wait-for-task-end.js';

interface RunningEntry {
  readonly controller: AbortController;
  readonly settled: Promise<void>;
  readonly settle: () => void;
  /** The running store's own bookkeeping to drop once the task is no longer tracked. */
  readonly ended: (() => void) | undefined;
  /** Wakes the calls waiting for an answer (`answer`) to read the task again. */
  readonly wakers: Set<() => void>;
}

/**
 * The tasks one replica is running, with their abort controllers: what a cancel, a lost lease or a
 * drain fires, what a drain waits for, and what wakes a call waiting for its client's answer.
 * Shared by both stores.
 */
export class RunningTasks {
  private readonly entries = new Map<string, RunningEntry>();

  /** Starts tracking a task; its signal. `ended` runs when it stops being tracked (settled or aborted). */
  add(taskId: string, ended?: () => void): AbortSignal {
    const controller = new AbortController();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.entries.set(taskId, { controller, settled, settle, ended, wakers: new Set() });
    return controller.signal;
  }

  /** Something changed for a running task (an answer came): its waiting call reads it again. */
  poke(taskId: string): void {
    for (const wake of this.entries.get(taskId)?.wakers ?? []) wake();
  }

  /**
   * The answer to input request `key` of running task `taskId`: reads it with `read`, and between
   * reads sleeps until `poke`, `signal` (whose reason it rejects with) or `backstopMs(round)` (by
   * default none: only a `poke` or the task's end wakes it). `undefined` once the task ended or is gone.
   */
  async answer(
    taskId: string,
    key: string,
    read: () => Promise<StoredTask | undefined>,
    signal?: AbortSignal,
    backstopMs: (round: number) => number = () => Number.POSITIVE_INFINITY,
  ): Promise<unknown> {
    for (let round = 0; ; round++) {
      signal?.throwIfAborted();
      const entry = this.entries.get(taskId);
      let woken = false;
      const wake = () => (woken = true);
      entry?.wakers.add(wake);
      try {
        const task = await read();
        if (task === undefined || isTerminalTaskStatus(task.status)) return undefined;
        if (task.inputResponses !== undefined && Object.hasOwn(task.inputResponses, key))
          return task.inputResponses[key];
        if (entry === undefined || !this.entries.has(taskId)) return undefined;
        if (!woken) await pause(backstopMs(round), signal, entry.wakers);
      } finally {
        entry?.wakers.delete(wake);
      }
    }
  }

  /** The ids of the tasks still running. */
  ids(): string[] {
    return [...this.entries.keys()];
  }

  /** Fires a task's signal and stops tracking it: its work can no longer be answered. */
  abort(taskId: string, kind: TaskAbortCause, message: string): void {
    const entry = this.entries.get(taskId);
    this.settle(taskId);
    entry?.controller.abort(new TaskAbortedError(kind, message));
  }

  /** Stops tracking a task that ended. */
  settle(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (entry === undefined) return;
    this.entries.delete(taskId);
    entry.settle();
    entry.ended?.();
    for (const wake of entry.wakers) wake();
  }

  /** Waits until every task tracked now has ended or `deadlineMs` passed; the ids still running. */
  async waitAll(deadlineMs: number): Promise<string[]> {
    const pending = [...this.entries.values()].map((entry) => entry.settled);
    if (pending.length > 0 && deadlineMs > 0) await raceDeadline(Promise.all(pending), deadlineMs);
    return this.ids();
  }
}
