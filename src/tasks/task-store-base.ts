/**
 * What the memory and Redis task stores share around their own atomic step: ending a task from another
 * caller, cancel, the closed check and the drain loop. Each store keeps its `transition` (the Lua scripts
 * for Redis stay atomic on their own: redis-scripts.ts) and how it stops a task it runs.
 */
import { RunningTasks } from './running-tasks.js';
import {
  closedError,
  internalFailure,
  ownerOf,
  type ResolvedTaskStoreTimings,
  resolveTaskStoreTimings,
  type TaskAbortCause,
  type TaskDrainReport,
  type TaskEnding,
  type TaskError,
  type TaskStatus,
  type TaskStoreTimings,
  type TaskTransition,
} from './task-store.js';

/**
 * What both task stores do alike around their own atomic step (`transition`): ending a task from any
 * replica, cancelling it, refusing work once closed, and draining this replica's running tasks.
 */
export abstract class TaskStoreBase {
  readonly replicaId: string;
  readonly timings: ResolvedTaskStoreTimings;
  /** The tasks this replica runs, with their signals. */
  protected readonly running = new RunningTasks();
  /** Set when a drain starts: no task is created any more. */
  protected closed = false;
  /** Set at a drain's deadline: what still runs is failed, nothing is waited for any more. */
  protected drained = false;

  protected constructor(replicaId: string, timings: TaskStoreTimings) {
    this.replicaId = replicaId;
    this.timings = resolveTaskStoreTimings(timings);
  }

  /**
   * Moves a task to `status` in one atomic step, refused once it ended (an ending is written once).
   * `owner` (`ownerOf`) is whose task it must be, `undefined` for the store's own transitions.
   */
  protected abstract transition(
    taskId: string,
    owner: string | undefined,
    status: TaskStatus,
    ending: TaskEnding,
  ): Promise<TaskTransition>;

  /** Stops a task this replica runs, if it does: its signal fires with `kind` and `message`. */
  protected abstract stop(taskId: string, kind: TaskAbortCause, message: string): void;

  async complete(taskId: string, result: Record<string, unknown>): Promise<TaskTransition> {
    return this.endElsewhere(taskId, 'completed', { result });
  }

  async fail(taskId: string, error: TaskError, statusMessage?: string): Promise<TaskTransition> {
    return this.endElsewhere(taskId, 'failed', { error, statusMessage });
  }

  async cancel(taskId: string, subject?: string, statusMessage?: string): Promise<TaskTransition> {
    const message = statusMessage ?? 'Cancelled by the client (tasks/cancel).';
    const outcome = await this.transition(taskId, ownerOf(subject), 'cancelled', { statusMessage: message });
    if (outcome.ok) this.stop(taskId, 'cancelled', message);
    return outcome;
  }

  async check(): Promise<void> {
    if (this.closed) throw closedError(this.replicaId);
  }

  async drain(options: { deadlineMs?: number; reason?: string } = {}): Promise<TaskDrainReport> {
    this.closed = true;
    const before = this.running.size;
    const remaining = await this.running.waitAll(options.deadlineMs ?? 0);
    this.drained = true;
    await Promise.all(
      remaining.map(async (taskId) => {
        const message = this.drainMessage(taskId, options.reason);
        // When the store is down this fails; Redis's lease then runs out and whoever reads the task fails it.
        await this.transition(taskId, undefined, 'failed', internalFailure(message)).catch(() => undefined);
        this.stop(taskId, 'drained', message);
      }),
    );
    return { finished: before - remaining.length, failed: remaining.length };
  }

  /** The reason written on a task still running at a drain's deadline. */
  protected drainMessage(_taskId: string, reason: string | undefined): string {
    return `Replica '${this.replicaId}' shut down before the task finished${reason ? ` (${reason})` : ''}; the task was not completed. Call the tool again.`;
  }

  /** An ending not made through the task's `RunningTask`: the running work is told by its signal. */
  private async endElsewhere(taskId: string, status: TaskStatus, ending: TaskEnding): Promise<TaskTransition> {
    const outcome = await this.transition(taskId, undefined, status, ending);
    if (outcome.ok) this.stop(taskId, 'ended-elsewhere', `Task '${taskId}' was ${status} by another caller.`);
    return outcome;
  }
}
