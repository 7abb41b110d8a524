/**
 * The task store: where an MCP task (a `tools/call` answered with a task handle, polled and
 * cancelled later) keeps its state, so that any replica can read, answer and cancel a task another
 * replica runs. Two implementations: `MemoryTaskStore` (one process) and `RedisTaskStore` (replicas).
 *
 * The MCP SDK v2 (`@modelcontextprotocol/server` 2.4.0) has no task runtime and no store interface
 * (its task types are marked "2025-11-25 wire vocabulary with no SDK runtime"); the v1 SDK's
 * experimental `TaskStore` is bound to its own `Protocol` and has no lease, owner or cancellation
 * signal. So this interface is toolsmith's own, shaped after both task wires (the 2026-07-28
 * extension `io.modelcontextprotocol/tasks` and the 2025-11-25 methods), and `src/tasks/task-wire.ts`
 * turns a `StoredTask` into either era's result.
 */

/** A task's status, the same five words in both MCP eras. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** The JSON-RPC error a `failed` task carries (MCP: `failed` is for protocol-level faults only). */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** JSON-RPC's internal error, the code of a task failed by its replica's death or drain. */
export const TASK_INTERNAL_ERROR = -32603;

/** The ending of a task failed by the store itself (a drain, an unwritable result): `message` as error and status message. */
export function internalFailure(message: string): TaskEnding {
  return { error: { code: TASK_INTERNAL_ERROR, message }, statusMessage: message };
}

/** One task as the store holds it; `src/tasks/task-wire.ts` maps it onto either MCP era's shape. */
export interface StoredTask {
  readonly taskId: string;
  readonly status: TaskStatus;
  /** Why it is in its status: a failure's reason, a cancellation's, a drain's. */
  readonly statusMessage?: string;
  /** ISO 8601, from the store's clock (Redis's `TIME` for `RedisTaskStore`, so replicas agree). */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /**
   * How long after `createdAt` the task may be gone (MCP's `ttlMs`). It grows while the task runs
   * and once more when it ends, so a result is kept for the store's retention after it was written.
   */
  readonly ttlMs: number;
  /** Suggested polling interval for `tasks/get`. */
  readonly pollIntervalMs: number;
  /** The tool the task runs. */
  readonly toolName: string;
  /**
   * The authenticated subject that created it; absent for a caller nobody authenticated. Only the
   * same subject finds it, and a task without one is found only by callers without one.
   */
  readonly subject?: string;
  /** The replica running (or that ran) it. */
  readonly replicaId: string;
  /** The `CallToolResult` of a `completed` task (with `isError: true` for a tool-level failure). */
  readonly result?: Record<string, unknown>;
  /** The JSON-RPC error of a `failed` task. */
  readonly error?: TaskError;
  /**
   * What an `input_required` task asks the client (2026-07-28 `inputRequests`): by key, each a
   * server-to-client request `{ method, params }`; those not answered yet.
   */
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  /** The client's answers by key (`respond`), which the running call reads. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
}

/** What ends a task: the result of a `completed` one, the error of a `failed` one, and why. */
export interface TaskEnding {
  readonly result?: Record<string, unknown>;
  readonly error?: TaskError;
  readonly statusMessage?: string | undefined;
}

/** What `create` needs. */
export interface CreateTaskInput {
  toolName: string;
  /**
   * The caller's authenticated subject (the JWT `sub`); tasks are found only by the same subject.
   * Absent for an unauthenticated caller: its tasks live apart from every subject's.
   */
  subject?: string;
  /**
   * How long the client asked to keep the result (the 2025 `task.ttl`); clamped to the store's
   * `maxRetentionMs`, and the store's `retentionMs` when absent.
   */
  ttlMs?: number;
  pollIntervalMs?: number;
}

/**
 * Why a transition was refused (`not-waiting`: an answer to a question the task does not ask;
 * `too-many-waiting`: a question while the subject has `maxInputWaiting` tasks waiting already).
 */
type TaskRefusal = 'not-found' | 'terminal' | 'not-waiting' | 'too-many-waiting';

/** The outcome of `complete`, `fail` and `cancel`: the task after it, or why nothing changed. */
export type TaskTransition =
  | { readonly ok: true; readonly task: StoredTask }
  | { readonly ok: false; readonly reason: TaskRefusal; readonly message: string; readonly task?: StoredTask };

/** Why a running task's `signal` fired (its `reason` is a `TaskAbortedError` carrying one). */
export type TaskAbortCause = 'cancelled' | 'ended-elsewhere' | 'lease-lost' | 'drained';

/** The `reason` of a running task's aborted signal. */
export class TaskAbortedError extends Error {
  readonly kind: TaskAbortCause;
  constructor(kind: TaskAbortCause, message: string) {
    super(message);
    this.name = 'TaskAbortedError';
    this.kind = kind;
  }
}

/**
 * A task this replica created and runs. Hand `signal` to the tool; end it with `complete` or
 * `fail` exactly once (a second ending, or one after a cancel or a lost lease, is refused).
 */
export interface RunningTask {
  /** The seed state, durable before `create` resolved (what `CreateTaskResult` carries). */
  readonly task: StoredTask;
  /**
   * Fires when a client cancels the task from any replica, when another replica ended it, when its
   * lease is lost, or at a drain's deadline; its `reason` is a `TaskAbortedError`.
   */
  readonly signal: AbortSignal;
  /**
   * Writes the result and `completed`, once. The lease is no longer renewed from here on: while the
   * store is unreachable (or out of memory) the write is retried with backoff, for as long as this
   * replica lives and holds the result; a result the store refuses for good (one that cannot be
   * serialized, a write Redis rejects) fails the task with that reason instead. Resolves with the
   * transition written; rejects only when the store was closed before it could write anything.
   */
  complete(result: Record<string, unknown>): Promise<TaskTransition>;
  /** Writes the JSON-RPC error and `failed`, once (retried as `complete`). */
  fail(error: TaskError, statusMessage?: string): Promise<TaskTransition>;
  /**
   * Marks the running task `input_required` (it waits for the client's answer to `inputRequests`,
   * added to those still open, with `statusMessage` saying what it asked) or `working` again (the
   * open requests dropped); refused once it ended, and refused `too-many-waiting` when it starts to
   * wait while its subject has `maxInputWaiting` tasks waiting for input already.
   */
  mark(
    status: 'working' | 'input_required',
    statusMessage?: string,
    inputRequests?: Record<string, unknown>,
  ): Promise<TaskTransition>;
  /**
   * The client's answer to the open input request `key` (`respond`, from any replica), or
   * `undefined` once the task ended; rejects with `signal`'s reason when it fires. Woken by the
   * answer itself (Redis: pub/sub to the running replica, with a re-read backing off from 1 s to
   * the lease as the backstop), never by polling the store in a loop.
   */
  answer(key: string, signal?: AbortSignal): Promise<unknown>;
}

/** What `drain` did. */
export interface TaskDrainReport {
  /** Tasks that ended (completed, failed or cancelled) before the deadline. */
  readonly finished: number;
  /** Tasks still running at the deadline, marked `failed` with the drain's reason. */
  readonly failed: number;
}

/** One page of a subject's tasks (`TaskStore.list`). */
export interface TaskPage {
  /** Oldest first. */
  readonly tasks: readonly StoredTask[];
  /** Where the next page starts; absent on the last page. */
  readonly nextCursor?: string;
}

/** The task store every replica reads. */
export interface TaskStore {
  /** This replica's id, recorded as the `replicaId` of the tasks it creates. */
  readonly replicaId: string;
  /** `memory`, or the Redis URL without its password; named in errors. */
  readonly location: string;
  /** The settings it runs with, defaults filled in. */
  readonly timings: ResolvedTaskStoreTimings;
  /** What an operator must know about it, when anything (a Redis that may evict task keys, accepted). */
  readonly warning?: string | undefined;
  /** Creates a `working` task run by this replica, durably (a `get` on any replica finds it once this resolves). */
  create(input: CreateTaskInput): Promise<RunningTask>;
  /** The task, or `undefined` when it never existed, expired, or belongs to another subject (`missing` says). */
  get(taskId: string, subject?: string): Promise<StoredTask | undefined>;
  /** Why a task id is not found, as much as this store can know (it keeps no record of a task that is gone). */
  missing(taskId: string): string;
  /** Resolves when the store answers, rejects with a `TaskStoreError` when it cannot (`/readyz`). */
  check(): Promise<void>;
  /**
   * The tasks `subject` created (those created without a subject when `subject` is undefined) that
   * are still kept, oldest first, `limit` a page (default 50), from `cursor` (a
   * `nextCursor` this store handed out). A cursor it did not hand out throws a `RangeError`.
   */
  list(subject: string | undefined, page?: { cursor?: string; limit?: number }): Promise<TaskPage>;
  /**
   * Writes a task's result and `completed`, from any replica, once: refused when the task already
   * ended (its result is never overwritten). The running replica's `signal` fires (`ended-elsewhere`).
   */
  complete(taskId: string, result: Record<string, unknown>): Promise<TaskTransition>;
  /** Writes a task's JSON-RPC error and `failed`, from any replica, once (as `complete`). */
  fail(taskId: string, error: TaskError, statusMessage?: string): Promise<TaskTransition>;
  /**
   * Records the client's answers to an `input_required` task's open requests, from any replica (the
   * running call reads them: `get`'s `inputResponses`): each key must be an open request's, which
   * it closes; once none is open the task is `working` again. Refused `not-waiting` for a key the
   * task does not ask, `terminal` once it ended.
   */
  respond(
    taskId: string,
    subject: string | undefined,
    inputResponses: Record<string, unknown>,
  ): Promise<TaskTransition>;
  /** Marks a task `cancelled` (refused when it already ended) and fires its `signal` on the replica running it. */
  cancel(taskId: string, subject?: string, statusMessage?: string): Promise<TaskTransition>;
  /**
   * Stops creating tasks, waits up to `deadlineMs` for this replica's running tasks to end, then
   * marks the rest `failed` with `reason` and fires their signals. Never leaves a task `working`.
   */
  drain(options?: { deadlineMs?: number; reason?: string }): Promise<TaskDrainReport>;
  /** `drain({ deadlineMs: 0 })`, then releases the store's connections and timers. */
  close(): Promise<void>;
  /**
   * Records `key` as used for `ttlMs`, for every replica that shares the store: true the first time,
   * false while it is kept. For what may be used once, such as the answers a 2026-07-28 call is
   * retried with (src/mcp/request-state.ts).
   */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
}

/** Codes of `TaskStoreError`. */
export type TaskStoreErrorCode =
  'TASK_STORE_UNAVAILABLE' | 'TASK_STORE_CLOSED' | 'TASK_STORE_CLIENT_MISSING' | 'TASK_STORE_MAY_EVICT';

/**
 * A task store operation that could not run: the store is unreachable, closed, its client is not
 * installed, or (at connect) Redis may evict task keys.
 */
export class TaskStoreError extends Error {
  readonly code: TaskStoreErrorCode;
  constructor(code: TaskStoreErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TaskStoreError';
    this.code = code;
  }
}

/** Retention, lease and question settings shared by both stores. */
export interface TaskStoreTimings {
  /** How long a result is kept after it was written, when the client asks for no TTL. Default 1 hour. */
  retentionMs?: number;
  /** The longest retention a client may ask for. Default 24 hours. */
  maxRetentionMs?: number;
  /** Default `pollIntervalMs` handed to clients. Default 1 second. */
  pollIntervalMs?: number;
  /**
   * How long a running task's lease lasts without renewal; renewed every third of it. A replica
   * that stops renewing (dead, frozen, cut off from the store) has its tasks marked `failed` once
   * the lease is over. Default 15 seconds.
   */
  leaseMs?: number;
  /**
   * How long a task's question to its client (elicitation, sampling, approval) waits for the answer;
   * then the task fails saying so. Default 10 minutes.
   */
  inputWaitMs?: number;
  /**
   * How many tasks of one subject (all unauthenticated callers counting as one) may wait for input
   * at once; a further question is refused `too-many-waiting`. Default 20.
   */
  maxInputWaiting?: number;
}

/** The settled timings with their defaults. */
export type ResolvedTaskStoreTimings = Readonly<Required<TaskStoreTimings>>;

/** Fills in the defaults and checks the numbers (a programmer mistake throws a `RangeError`). */
export function resolveTaskStoreTimings(timings: TaskStoreTimings = {}): ResolvedTaskStoreTimings {
  const resolved = {
    retentionMs: timings.retentionMs ?? 3_600_000,
    maxRetentionMs: timings.maxRetentionMs ?? 86_400_000,
    pollIntervalMs: timings.pollIntervalMs ?? 1_000,
    leaseMs: timings.leaseMs ?? 15_000,
    inputWaitMs: timings.inputWaitMs ?? 600_000,
    maxInputWaiting: timings.maxInputWaiting ?? 20,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      const unit = name === 'maxInputWaiting' ? 'tasks' : 'milliseconds';
      throw new RangeError(`Task store option '${name}' must be a positive integer of ${unit}, got ${value}.`);
    }
  }
  return Object.freeze(resolved);
}

/** The owner a task records: `=<subject>`, or `-` (which no subject can be) for no subject. */
export function ownerOf(subject: string | undefined): string {
  return subject === undefined ? '-' : `=${subject}`;
}

/** A task id: a random UUID, unguessable, since an id is all a caller needs to read a task. */
export function newTaskId(): string {
  return globalThis.crypto.randomUUID();
}
