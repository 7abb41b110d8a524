import { TaskStoreBase } from './task-store-base.js';
import {
  type CreateTaskInput,
  isTerminalTaskStatus,
  newTaskId,
  ownerOf,
  type RunningTask,
  type StoredTask,
  type TaskEnding,
  type TaskPage,
  type TaskStatus,
  type TaskStore,
  type TaskStoreTimings,
  type TaskTransition,
} from './task-store.js';

/** Writable `T`. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A task as this store keeps it: the `StoredTask` fields it changes in place, its times in ms. */
type MemoryRecord = Mutable<Omit<StoredTask, 'createdAt' | 'lastUpdatedAt' | 'ttlMs' | 'replicaId'>> & {
  /** Creation order, for `list`'s cursor. */
  seq: number;
  createdAt: number;
  lastUpdatedAt: number;
  expiresAt: number;
  retentionMs: number;
};

/** Options of `MemoryTaskStore`. */
export interface MemoryTaskStoreOptions extends TaskStoreTimings {
  /** Default `memory-<random>`. */
  replicaId?: string;
}

/**
 * The task store of one process: tasks live in a `Map` and die with the process, so it serves a
 * single `serve` (stdio, or one HTTP replica). Same contract as `RedisTaskStore`; no lease, since
 * the tasks cannot outlive the replica that runs them.
 */
export class MemoryTaskStore extends TaskStoreBase implements TaskStore {
  readonly location = 'memory';
  protected override missingCause = "; or this server restarted: it keeps its tasks in its process's memory";
  private readonly records = new Map<string, MemoryRecord>();
  /** `claimOnce`'s keys, each with when it may be claimed again. */
  private readonly claimed = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;
  private created = 0;

  constructor(options: MemoryTaskStoreOptions = {}) {
    super(options.replicaId ?? `memory-${newTaskId().slice(0, 8)}`, options);
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.timings.retentionMs, 60_000));
    this.sweeper.unref();
  }

  async create(input: CreateTaskInput): Promise<RunningTask> {
    this.assertOpen();
    const now = Date.now();
    const retentionMs = this.retention(input);
    const taskId = newTaskId();
    const record: MemoryRecord = {
      seq: ++this.created,
      taskId,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      expiresAt: now + retentionMs,
      retentionMs,
      pollIntervalMs: input.pollIntervalMs ?? this.timings.pollIntervalMs,
      toolName: input.toolName,
      ...(input.subject === undefined ? {} : { subject: input.subject }),
    };
    this.records.set(taskId, record);
    const signal = this.running.add(taskId);
    const finish = (status: TaskStatus, ending: TaskEnding) =>
      this.transition(taskId, undefined, status, ending).finally(() => this.running.settle(taskId));
    return {
      task: this.view(record),
      signal,
      complete: (result) => finish('completed', { result }),
      fail: (error, statusMessage) => finish('failed', { error, statusMessage }),
      mark: async (status, statusMessage, inputRequests) => {
        if (status === 'input_required' && record.status !== 'input_required') {
          const waiting = this.waiting(record.subject);
          if (waiting >= this.timings.maxInputWaiting) return this.tooManyWaitingRefusal(this.view(record), waiting);
        }
        const open = status === 'working' ? undefined : { ...record.inputRequests, ...inputRequests };
        return this.transition(taskId, undefined, status, { statusMessage, inputRequests: open });
      },
      answer: (key, signal) => this.running.answer(taskId, key, () => this.get(taskId, input.subject), signal),
    };
  }

  async get(taskId: string, subject?: string): Promise<StoredTask | undefined> {
    const record = this.find(taskId, ownerOf(subject));
    return record === undefined ? undefined : this.view(record);
  }

  async list(subject: string | undefined, page: { cursor?: string; limit?: number } = {}): Promise<TaskPage> {
    let { limit, after = 0 } = this.listPage(page, (cursor) => {
      const seq = Number(/^m(\d+)$/.exec(cursor)?.[1]);
      return Number.isSafeInteger(seq) && seq <= this.created ? seq : undefined;
    });
    const tasks: StoredTask[] = [];
    // The map keeps creation order, so the records after the cursor's are the next page.
    for (const record of this.records.values()) {
      if (record.seq <= after || this.find(record.taskId, ownerOf(subject)) === undefined) continue;
      if (tasks.length === limit) return { tasks, nextCursor: `m${after}` };
      tasks.push(this.view(record));
      after = record.seq;
    }
    return { tasks };
  }

  async respond(
    taskId: string,
    subject: string | undefined,
    inputResponses: Record<string, unknown>,
  ): Promise<TaskTransition> {
    const record = this.find(taskId, ownerOf(subject));
    if (record === undefined) return this.notFoundRefusal(taskId);
    if (isTerminalTaskStatus(record.status)) return this.terminalRefusal(this.view(record), 'working');
    const keys = Object.keys(inputResponses);
    const open = record.inputRequests ?? {};
    if (keys.length === 0 || keys.some((key) => !Object.hasOwn(open, key)))
      return this.notWaitingRefusal(this.view(record), keys);
    const left = Object.entries(open).filter(([key]) => !keys.includes(key));
    record.inputResponses = { ...record.inputResponses, ...inputResponses };
    record.inputRequests = Object.fromEntries(left);
    if (left.length === 0) {
      delete record.inputRequests;
      record.status = 'working';
      delete record.statusMessage;
    }
    record.lastUpdatedAt = Date.now();
    this.running.poke(taskId);
    return { ok: true, task: this.view(record) };
  }

  async close(): Promise<void> {
    await this.drain({ deadlineMs: 0 });
    clearInterval(this.sweeper);
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    if ((this.claimed.get(key) ?? 0) > now) return false;
    this.claimed.set(key, now + ttlMs);
    return true;
  }

  protected async transition(
    taskId: string,
    owner: string | undefined,
    status: TaskStatus,
    fields: Partial<MemoryRecord>,
  ): Promise<TaskTransition> {
    const record = this.find(taskId, owner);
    if (record === undefined) return this.notFoundRefusal(taskId);
    if (isTerminalTaskStatus(record.status)) return this.terminalRefusal(this.view(record), status);
    const now = Date.now();
    Object.assign(record, fields, { status, lastUpdatedAt: now, expiresAt: now + record.retentionMs });
    if (record.statusMessage === undefined) delete record.statusMessage;
    if (record.inputRequests === undefined || isTerminalTaskStatus(status)) delete record.inputRequests;
    return { ok: true, task: this.view(record) };
  }

  /** The record of a task still kept; `owner` (`ownerOf`) is whose it must be, `undefined` for any. */
  private find(taskId: string, owner: string | undefined): MemoryRecord | undefined {
    const record = this.records.get(taskId);
    if (record === undefined) return undefined;
    // A running task is kept however long it runs; its retention counts from its end.
    if (isTerminalTaskStatus(record.status) && record.expiresAt <= Date.now()) {
      this.records.delete(taskId);
      return undefined;
    }
    // Strictly: a task without a subject (an unauthenticated caller's) is no subject's either.
    return owner === undefined || ownerOf(record.subject) === owner ? record : undefined;
  }

  /** How many tasks of `subject` wait for input. */
  private waiting(subject: string | undefined): number {
    const records = [...this.records.values()];
    return records.filter((task) => task.subject === subject && task.status === 'input_required').length;
  }

  private sweep(): void {
    for (const taskId of this.records.keys()) this.find(taskId, undefined); // drops the expired
    const now = Date.now();
    for (const [key, until] of this.claimed) if (until <= now) this.claimed.delete(key);
  }

  private view(record: MemoryRecord): StoredTask {
    // The record's request and response maps are replaced on each change, never edited: shared as they are.
    const { seq, createdAt, lastUpdatedAt, expiresAt, retentionMs, ...task } = record;
    return Object.freeze({
      ...task,
      createdAt: new Date(createdAt).toISOString(),
      lastUpdatedAt: new Date(lastUpdatedAt).toISOString(),
      ttlMs: (isTerminalTaskStatus(record.status) ? expiresAt : Date.now() + retentionMs) - createdAt,
      replicaId: this.replicaId,
    });
  }
}
