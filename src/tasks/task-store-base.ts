/**
 * What the memory and Redis task stores share around their own atomic step: ending a task from another
 * caller, cancel, the closed check, the drain loop, `list`'s page size and cursor check, and the
 * refusals and "not found" message both answer. Each store keeps its `transition` (the Lua scripts for
 * Redis stay atomic on their own: redis-scripts.ts).
 */
import { RunningTasks } from './running-tasks.js';
import {
  type CreateTaskInput,
  internalFailure,
  ownerOf,
  type ResolvedTaskStoreTimings,
  resolveTaskStoreTimings,
  type StoredTask,
  type TaskDrainReport,
  type TaskEnding,
  type TaskError,
  type TaskStatus,
  TaskStoreError,
  type TaskStoreTimings,
  type TaskTransition,
} from './task-store.js';

/** Tasks per `list` page when the caller asks for no size. */
const DEFAULT_TASK_PAGE_SIZE = 50;

/**
 * What both task stores do alike around their own atomic step (`transition`): ending a task from any
 * replica, cancelling it, refusing work once closed, draining this replica's running tasks, and the
 * words of their refusals.
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
  /** What this store adds to the causes `missing` names (a restart, an eviction), after a `; `. */
  protected missingCause = '';

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

  async complete(taskId: string, result: Record<string, unknown>): Promise<TaskTransition> {
    return this.endElsewhere(taskId, 'completed', { result });
  }

  async fail(taskId: string, error: TaskError, statusMessage?: string): Promise<TaskTransition> {
    return this.endElsewhere(taskId, 'failed', { error, statusMessage });
  }

  async cancel(taskId: string, subject?: string, statusMessage?: string): Promise<TaskTransition> {
    const message = statusMessage ?? 'Cancelled by the client (tasks/cancel).';
    const outcome = await this.transition(taskId, ownerOf(subject), 'cancelled', { statusMessage: message });
    if (outcome.ok) this.running.abort(taskId, 'cancelled', message);
    return outcome;
  }

  async check(): Promise<void> {
    this.assertOpen();
  }

  /** Why `taskId` is not found: the causes no store can tell apart (it keeps nothing of a task once it is gone), and its own. */
  missing(taskId: string): string {
    const { retentionMs, maxRetentionMs } = this.timings;
    return (
      `Task '${taskId.slice(0, 100)}' not found: it never existed, it belongs to another caller, or it ended longer ` +
      `ago than it is kept (${retentionMs} ms after its end, or the TTL its client asked for, up to ` +
      `${maxRetentionMs} ms)${this.missingCause}. The store keeps no record of a task once it is gone.`
    );
  }

  async drain(options: { deadlineMs?: number; reason?: string } = {}): Promise<TaskDrainReport> {
    this.closed = true;
    const before = this.running.ids().length;
    const remaining = await this.running.waitAll(options.deadlineMs ?? 0);
    this.drained = true;
    await Promise.all(
      remaining.map(async (taskId) => {
        const message = this.drainMessage(taskId, options.reason);
        // When the store is down this fails; Redis's lease then runs out and whoever reads the task fails it.
        await this.transition(taskId, undefined, 'failed', internalFailure(message)).catch(() => undefined);
        this.running.abort(taskId, 'drained', message);
      }),
    );
    return { finished: before - remaining.length, failed: remaining.length };
  }

  /** The reason written on a task still running at a drain's deadline. */
  protected drainMessage(_taskId: string, reason: string | undefined): string {
    return `Replica '${this.replicaId}' shut down before the task finished${reason ? ` (${reason})` : ''}; the task was not completed. Call the tool again.`;
  }

  /** Throws the error of `create` on a drained or closed store. */
  protected assertOpen(): void {
    if (!this.closed) return;
    throw new TaskStoreError(
      'TASK_STORE_CLOSED',
      `Task store of replica '${this.replicaId}' is draining or closed: it creates no new task. Send the call to another replica.`,
    );
  }

  /** The retention a new task gets: its client's ask clamped to the maximum, or the default. */
  protected retention(input: CreateTaskInput): number {
    const asked = input.ttlMs;
    if (asked === undefined || !Number.isFinite(asked) || asked <= 0) return this.timings.retentionMs;
    return Math.min(Math.floor(asked), this.timings.maxRetentionMs);
  }

  /**
   * A `list` page's size (`limit` when it is a positive integer, else the default) and where it
   * starts: `parse` of its cursor, which throws a `RangeError` for a cursor `parse` does not know.
   */
  protected listPage<T>(
    page: { cursor?: string; limit?: number },
    parse: (cursor: string) => T | undefined,
  ): { limit: number; after: T | undefined } {
    const { cursor, limit } = page;
    const after = cursor === undefined ? undefined : parse(cursor);
    if (cursor !== undefined && after === undefined) {
      throw new RangeError(
        `Task list cursor '${cursor.slice(0, 100)}' is not one this task store handed out; list again without a cursor.`,
      );
    }
    return {
      limit: limit !== undefined && Number.isSafeInteger(limit) && limit > 0 ? limit : DEFAULT_TASK_PAGE_SIZE,
      after,
    };
  }

  /** The refusal of a transition on a task that is not there. */
  protected notFoundRefusal(taskId: string): TaskTransition {
    return { ok: false, reason: 'not-found', message: this.missing(taskId) };
  }

  /** The refusal of a transition on a task that ended already, naming its status. */
  protected terminalRefusal(task: StoredTask, attempted: TaskStatus): TaskTransition {
    return {
      ok: false,
      reason: 'terminal',
      task,
      message: `Task '${task.taskId}' is already ${task.status}${task.statusMessage ? ` (${task.statusMessage})` : ''}; it cannot become ${attempted}.`,
    };
  }

  /** The refusal of a question while the task's subject has `waiting` tasks waiting for input, the cap. */
  protected tooManyWaitingRefusal(task: StoredTask, waiting: number): TaskTransition {
    const who = task.subject === undefined ? 'the unauthenticated callers' : `subject '${task.subject.slice(0, 100)}'`;
    return {
      ok: false,
      reason: 'too-many-waiting',
      task,
      message:
        `Task '${task.taskId}' cannot ask its client: ${who} ha${task.subject === undefined ? 've' : 's'} ${waiting} ` +
        'tasks waiting for input, the most this server allows (maxInputWaiting, serve --task-max-input-waiting). ' +
        'Answer or cancel one of them (tasks/update, tasks/cancel), then call the tool again.',
    };
  }

  /** The refusal of an answer to a request the task does not have open. */
  protected notWaitingRefusal(task: StoredTask, keys: readonly string[]): TaskTransition {
    const open = Object.keys(task.inputRequests ?? {});
    return {
      ok: false,
      reason: 'not-waiting',
      task,
      message: `Task '${task.taskId}' (${task.status}) asks no ${keys.map((key) => `'${key.slice(0, 100)}'`).join(', ')}; its open input requests: ${open.length === 0 ? 'none' : open.join(', ')}. Answer only the keys of inputRequests in tasks/get.`,
    };
  }

  /** An ending not made through the task's `RunningTask`: the running work is told by its signal. */
  private async endElsewhere(taskId: string, status: TaskStatus, ending: TaskEnding): Promise<TaskTransition> {
    const outcome = await this.transition(taskId, undefined, status, ending);
    if (outcome.ok) this.running.abort(taskId, 'ended-elsewhere', `Task '${taskId}' was ${status} by another caller.`);
    return outcome;
  }
}
