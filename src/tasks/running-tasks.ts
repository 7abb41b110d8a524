import { TaskAbortedError, type TaskAbortCause } from './task-store.js';

interface RunningEntry {
  readonly controller: AbortController;
  readonly settled: Promise<void>;
  readonly settle: () => void;
}

/**
 * The tasks one replica is running, with their abort controllers: what a cancel, a lost lease or a
 * drain fires, and what a drain waits for. Shared by both stores.
 */
export class RunningTasks {
  private readonly entries = new Map<string, RunningEntry>();

  /** Starts tracking a task; its signal. */
  add(taskId: string): AbortSignal {
    const controller = new AbortController();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.entries.set(taskId, { controller, settled, settle });
    return controller.signal;
  }

  has(taskId: string): boolean {
    return this.entries.has(taskId);
  }

  /** The ids of the tasks still running. */
  ids(): string[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }

  /** Fires a task's signal and stops tracking it: its work can no longer be answered. */
  abort(taskId: string, kind: TaskAbortCause, message: string): void {
    const entry = this.entries.get(taskId);
    if (entry === undefined) return;
    this.entries.delete(taskId);
    entry.controller.abort(new TaskAbortedError(kind, message));
    entry.settle();
  }

  /** Stops tracking a task that ended. */
  settle(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (entry === undefined) return;
    this.entries.delete(taskId);
    entry.settle();
  }

  /** Waits until every task tracked now has ended or `deadlineMs` passed; the ids still running. */
  async waitAll(deadlineMs: number): Promise<string[]> {
    const pending = [...this.entries.values()].map((entry) => entry.settled);
    if (pending.length > 0 && deadlineMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(pending),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, deadlineMs);
        }),
      ]);
      clearTimeout(timer);
    }
    return this.ids();
  }
}
