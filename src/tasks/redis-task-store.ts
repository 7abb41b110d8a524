import { createHash } from 'node:crypto';
import { closedError, drainMessage } from './memory-task-store.js';
import {
  CREATE_SCRIPT,
  FINISH_SCRIPT,
  GET_SCRIPT,
  LIST_SCRIPT,
  MARK_SCRIPT,
  RENEW_SCRIPT,
  RESPOND_SCRIPT,
} from './redis-scripts.js';
import { RunningTasks } from './running-tasks.js';
import {
  type CreateTaskInput,
  newTaskId,
  notFoundRefusal,
  notWaitingRefusal,
  type ResolvedTaskStoreTimings,
  type RunningTask,
  resolveTaskStoreTimings,
  retentionFor,
  type StoredTask,
  TASK_INTERNAL_ERROR,
  badTaskCursor,
  type TaskDrainReport,
  type TaskError,
  type TaskPage,
  taskPageSize,
  type TaskStatus,
  type TaskStore,
  TaskStoreError,
  type TaskStoreTimings,
  type TaskTransition,
  terminalRefusal,
} from './task-store.js';

/** The part of a node-redis 6 client the store uses. */
export interface RedisTaskClient {
  sendCommand(args: string[]): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  duplicate(): RedisTaskClient;
  connect(): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  readonly isReady: boolean;
}

/** Options of `RedisTaskStore.connect`. */
export interface RedisTaskStoreOptions extends TaskStoreTimings {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /** Default `<hostname>-<pid>-<random>`. */
  replicaId?: string;
  /** Prefix of every key and channel. Default `toolsmith:`. */
  keyPrefix?: string;
  /** How long `connect` waits for Redis before it fails. Default 5 seconds. */
  connectTimeoutMs?: number;
}

interface Script {
  readonly source: string;
  readonly sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** How many ids of a subject's task list each create checks (`sweepIndex`). */
const INDEX_SWEEP = 4;

const SCRIPTS = {
  create: script(CREATE_SCRIPT),
  get: script(GET_SCRIPT),
  finish: script(FINISH_SCRIPT),
  renew: script(RENEW_SCRIPT),
  list: script(LIST_SCRIPT),
  mark: script(MARK_SCRIPT),
  respond: script(RESPOND_SCRIPT),
};

interface ScriptAnswer {
  verdict: 'ok' | 'not-found' | 'terminal' | 'not-waiting';
  task?: Record<string, string>;
}

/** Redis replies that mean "not now" rather than a bug: the server is loading, busy or failing over. */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|NOREPLICAS)\b/;

/**
 * The task store of replicas: every task is a Redis hash that any replica reads, each transition a
 * Lua script (atomic: a result is written once, never overwritten), a running task holds a lease its
 * replica renews every `leaseMs / 3` (a dead replica's tasks are marked `failed` once their lease is
 * over, by whichever replica looks first), and a cancel reaches the running replica through Redis
 * pub/sub at once, with the lease renewal — which reads the status — as the backstop for a message
 * lost while that replica's subscriber was reconnecting.
 *
 * Needs the `redis` package (node-redis 6), loaded on `connect`; a Redis that is down makes every
 * operation reject with a `TaskStoreError` `TASK_STORE_UNAVAILABLE` (no queueing), and the client
 * reconnects by itself.
 */
export class RedisTaskStore implements TaskStore {
  readonly replicaId: string;
  readonly location: string;
  private readonly timings: ResolvedTaskStoreTimings;
  private readonly prefix: string;
  private readonly running = new RunningTasks();
  /** When each running task's lease was last renewed, by the local clock. */
  private readonly renewedAt = new Map<string, number>();
  private readonly heartbeat: NodeJS.Timeout;
  private lastError: Error | undefined;
  private closed = false;
  private renewing = false;
  private indexed = 0;

  private constructor(
    private readonly client: RedisTaskClient,
    private readonly subscriber: RedisTaskClient,
    private readonly errorReply: new (...args: never[]) => Error,
    options: RedisTaskStoreOptions,
    replicaId: string,
  ) {
    this.timings = resolveTaskStoreTimings(options);
    this.replicaId = replicaId;
    this.location = redactUrl(options.url);
    this.prefix = options.keyPrefix ?? 'toolsmith:';
    this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(1, Math.floor(this.timings.leaseMs / 3)));
    this.heartbeat.unref();
  }

  /** Connects two clients (commands, and the cancel subscription) and answers the store, or a clear error. */
  static async connect(options: RedisTaskStoreOptions): Promise<RedisTaskStore> {
    if (!URL.canParse(options.url) || !/^rediss?:$/.test(new URL(options.url).protocol)) {
      throw new RangeError(
        `The Redis task store needs a redis:// or rediss:// URL (redis://host:port), got '${redactUrl(options.url)}'.`,
      );
    }
    resolveTaskStoreTimings(options); // a bad number throws before anything connects
    const location = redactUrl(options.url);
    let redis: typeof import('redis');
    try {
      redis = await import('redis');
    } catch (error) {
      throw new TaskStoreError(
        'TASK_STORE_CLIENT_MISSING',
        `The Redis task store (${location}) needs the 'redis' package: npm install -E redis@6.3.1`,
        { cause: error },
      );
    }
    const timeoutMs = options.connectTimeoutMs ?? 5_000;
    const client = redis.createClient({
      url: options.url,
      disableOfflineQueue: true,
      socket: { connectTimeout: timeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000) },
    }) as unknown as RedisTaskClient;
    const subscriber = client.duplicate();
    let connectError: Error | undefined;
    for (const connection of [client, subscriber]) {
      connection.on('error', (error) => {
        connectError = error;
      });
    }
    const replicaId =
      options.replicaId ?? `${(await import('node:os')).hostname()}-${process.pid}-${newTaskId().slice(0, 8)}`;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.all([client.connect(), subscriber.connect()]),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(connectError ?? new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      client.destroy();
      subscriber.destroy();
      throw unavailable(location, error);
    } finally {
      clearTimeout(timer);
    }
    const store = new RedisTaskStore(client, subscriber, redis.ErrorReply, options, replicaId);
    for (const connection of [client, subscriber]) {
      connection.on('error', (error) => {
        store.lastError = error;
      });
    }
    try {
      await subscriber.subscribe(`${store.prefix}task-cancel:${replicaId}`, (message) =>
        store.onCancelMessage(message),
      );
    } catch (error) {
      await store.close();
      throw unavailable(location, error);
    }
    return store;
  }

  async create(input: CreateTaskInput): Promise<RunningTask> {
    if (this.closed) throw closedError(this.replicaId);
    const taskId = newTaskId();
    // The list entry goes in the same round trip; one whose task was not created is dropped by `list`.
    const [answer] = await Promise.all([
      this.run(SCRIPTS.create, taskId, [
        this.replicaId,
        String(this.timings.leaseMs),
        String(retentionFor(input, this.timings)),
        String(input.pollIntervalMs ?? this.timings.pollIntervalMs),
        input.toolName,
        input.subject ?? '',
      ]),
      this.index(input.subject, taskId),
    ]);
    const task = this.toTask(taskId, answer.task ?? {});
    const signal = this.running.add(taskId);
    this.renewedAt.set(taskId, Date.now());
    const finish = async (status: TaskStatus, field: 'result' | 'error', payload: unknown, message?: string) => {
      const outcome = await this.transition(taskId, undefined, status, field, JSON.stringify(payload), message);
      this.settle(taskId);
      return outcome;
    };
    return {
      task,
      signal,
      complete: (result) => finish('completed', 'result', result),
      fail: (error: TaskError, statusMessage?: string) => finish('failed', 'error', error, statusMessage),
      mark: async (status, statusMessage, inputRequests) => {
        const pairs = Object.entries(inputRequests ?? {}).flatMap(([key, request]) => [key, JSON.stringify(request)]);
        const marked = await this.run(SCRIPTS.mark, taskId, [status, statusMessage ?? '', this.replicaId, ...pairs]);
        if (marked.verdict === 'not-found' || marked.task === undefined) return notFoundRefusal(taskId);
        const now = this.toTask(taskId, marked.task);
        return marked.verdict === 'ok' ? { ok: true, task: now } : terminalRefusal(now, status);
      },
    };
  }

  async get(taskId: string, subject?: string): Promise<StoredTask | undefined> {
    const answer = await this.run(SCRIPTS.get, taskId, []);
    if (answer.verdict !== 'ok' || answer.task === undefined) return undefined;
    if (answer.task.subject !== undefined && answer.task.subject !== subject) return undefined;
    return this.toTask(taskId, answer.task);
  }

  async list(subject: string | undefined, page: { cursor?: string; limit?: number } = {}): Promise<TaskPage> {
    let from = '-inf';
    let after = '';
    if (page.cursor !== undefined) {
      const match = /^r(\d[\d.e+]*):([0-9a-f-]{36})$/.exec(page.cursor);
      if (match === null) throw badTaskCursor(page.cursor);
      [from, after] = [match[1]!, match[2]!];
    }
    const limit = taskPageSize(page.limit);
    const key = this.indexKey(subject);
    const reply = (await this.command(['EVALSHA', SCRIPTS.list.sha, '1', key, from, after, String(limit)], () => [
      'EVAL',
      SCRIPTS.list.source,
      '1',
      key,
      from,
      after,
      String(limit),
    ])) as string[];
    const listed: { taskId: string; score: string }[] = [];
    for (let i = 0; i < reply.length; i += 2) listed.push({ taskId: reply[i]!, score: reply[i + 1]! });
    const more = listed.length > limit;
    const shown = listed.slice(0, limit);
    const read = await Promise.all(shown.map(({ taskId }) => this.get(taskId, subject)));
    const gone = shown.filter((_, i) => read[i] === undefined).map(({ taskId }) => taskId);
    if (gone.length > 0) await this.command(['ZREM', key, ...gone]).catch(() => undefined);
    const tasks = read.filter((task): task is StoredTask => task !== undefined);
    const last = shown[shown.length - 1];
    return more && last !== undefined ? { tasks, nextCursor: `r${last.score}:${last.taskId}` } : { tasks };
  }

  async complete(taskId: string, result: Record<string, unknown>): Promise<TaskTransition> {
    return this.endHere(taskId, 'completed', 'result', result, undefined);
  }

  async fail(taskId: string, error: TaskError, statusMessage?: string): Promise<TaskTransition> {
    return this.endHere(taskId, 'failed', 'error', error, statusMessage);
  }

  async respond(
    taskId: string,
    subject: string | undefined,
    inputResponses: Record<string, unknown>,
  ): Promise<TaskTransition> {
    const pairs = Object.entries(inputResponses).flatMap(([key, answer]) => [key, JSON.stringify(answer)]);
    const answer = await this.run(SCRIPTS.respond, taskId, [`=${subject ?? ''}`, ...pairs]);
    if (answer.verdict === 'not-found' || answer.task === undefined) return notFoundRefusal(taskId);
    const task = this.toTask(taskId, answer.task);
    if (answer.verdict === 'not-waiting') return notWaitingRefusal(task, Object.keys(inputResponses));
    return answer.verdict === 'ok' ? { ok: true, task } : terminalRefusal(task, 'working');
  }

  async cancel(taskId: string, subject?: string, statusMessage?: string): Promise<TaskTransition> {
    const message = statusMessage ?? 'Cancelled by the client (tasks/cancel).';
    const outcome = await this.transition(taskId, subject ?? '', 'cancelled', '', '', message);
    if (outcome.ok && this.running.has(taskId)) {
      this.renewedAt.delete(taskId);
      this.running.abort(taskId, 'cancelled', message);
    }
    return outcome;
  }

  async drain(options: { deadlineMs?: number; reason?: string } = {}): Promise<TaskDrainReport> {
    this.closed = true;
    const before = this.running.size;
    const remaining = await this.running.waitAll(options.deadlineMs ?? 0);
    const message = drainMessage(this.replicaId, options.reason);
    const error = JSON.stringify({ code: TASK_INTERNAL_ERROR, message });
    await Promise.all(
      remaining.map(async (taskId) => {
        // When Redis is down this fails; the lease then runs out and the task is failed by whoever reads it.
        await this.transition(taskId, undefined, 'failed', 'error', error, message).catch(() => undefined);
        this.renewedAt.delete(taskId);
        this.running.abort(taskId, 'drained', message);
      }),
    );
    return { finished: before - remaining.length, failed: remaining.length };
  }

  async close(): Promise<void> {
    await this.drain({ deadlineMs: 0 });
    clearInterval(this.heartbeat);
    for (const connection of [this.subscriber, this.client]) {
      if (connection.isReady) await connection.close().catch(() => connection.destroy());
      else connection.destroy();
    }
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    const set = await this.command([
      'SET',
      `${this.prefix}claimed:${key}`,
      '1',
      'NX',
      'PX',
      String(Math.max(1, ttlMs)),
    ]);
    return set === 'OK';
  }

  private async transition(
    taskId: string,
    subject: string | undefined,
    status: TaskStatus,
    field: '' | 'result' | 'error',
    payload: string,
    message: string | undefined,
  ): Promise<TaskTransition> {
    const answer = await this.run(SCRIPTS.finish, taskId, [
      status,
      field,
      payload,
      message ?? '',
      subject === undefined ? '' : `=${subject}`,
      `${this.prefix}task-cancel:`,
      this.replicaId,
    ]);
    if (answer.verdict === 'not-found' || answer.task === undefined) return notFoundRefusal(taskId);
    const task = this.toTask(taskId, answer.task);
    return answer.verdict === 'ok' ? { ok: true, task } : terminalRefusal(task, status);
  }

  /** An ending written by id; when this replica runs the task itself, its signal fires. */
  private async endHere(
    taskId: string,
    status: TaskStatus,
    field: 'result' | 'error',
    payload: unknown,
    message: string | undefined,
  ): Promise<TaskTransition> {
    const outcome = await this.transition(taskId, undefined, status, field, JSON.stringify(payload), message);
    if (outcome.ok && this.running.has(taskId)) {
      this.renewedAt.delete(taskId);
      this.running.abort(taskId, 'ended-elsewhere', `Task '${taskId}' was ${status} by another caller.`);
    }
    return outcome;
  }

  private settle(taskId: string): void {
    this.renewedAt.delete(taskId);
    this.running.settle(taskId);
  }

  private onCancelMessage(message: string): void {
    const [taskId = '', kind, ...rest] = message.split('\n');
    const elsewhere = kind === 'ended-elsewhere';
    const reason =
      rest.join('\n') ||
      (elsewhere ? `Task '${taskId}' was ended by another replica.` : 'Cancelled by the client (tasks/cancel).');
    this.renewedAt.delete(taskId);
    this.running.abort(taskId, elsewhere ? 'ended-elsewhere' : 'cancelled', reason);
  }

  /** Renews the lease of every running task; fires the signal of one that ended elsewhere or whose lease is lost. */
  private async renewLeases(): Promise<void> {
    // One round at a time: a slow Redis must not pile rounds up.
    if (this.renewing) return;
    this.renewing = true;
    try {
      await this.renewRound();
    } finally {
      this.renewing = false;
    }
  }

  private async renewRound(): Promise<void> {
    await Promise.all(
      this.running.ids().map(async (taskId) => {
        try {
          const answer = await this.run(SCRIPTS.renew, taskId, [this.replicaId, String(this.timings.leaseMs)]);
          if (answer.verdict === 'ok') {
            this.renewedAt.set(taskId, Date.now());
            return;
          }
          this.renewedAt.delete(taskId);
          if (answer.verdict === 'not-found' || answer.task === undefined) {
            this.running.abort(
              taskId,
              'lease-lost',
              `Task '${taskId}' is gone from ${this.location} (Redis restarted without persistence, or the key was evicted); its result cannot be stored.`,
            );
          } else if (answer.task.status === 'cancelled') {
            this.running.abort(taskId, 'cancelled', answer.task.statusMessage ?? 'Cancelled by the client.');
          } else {
            const message =
              answer.task.statusMessage ?? `Task '${taskId}' was ${answer.task.status} by another replica.`;
            this.running.abort(taskId, /stopped renewing/.test(message) ? 'lease-lost' : 'ended-elsewhere', message);
          }
        } catch (error) {
          const renewed = this.renewedAt.get(taskId) ?? 0;
          if (Date.now() - renewed > this.timings.leaseMs) {
            this.renewedAt.delete(taskId);
            this.running.abort(
              taskId,
              'lease-lost',
              `Replica '${this.replicaId}' could not renew the lease of task '${taskId}' for ${this.timings.leaseMs} ms: ${(error as Error).message}`,
            );
          }
        }
      }),
    );
  }

  /** Runs a script on one task's key: EVALSHA, EVAL when Redis lost its script cache (a restart). */
  private async run(scriptToRun: Script, taskId: string, args: string[]): Promise<ScriptAnswer> {
    const key = `${this.prefix}task:${taskId}`;
    const reply = await this.command(['EVALSHA', scriptToRun.sha, '1', key, ...args], () => [
      'EVAL',
      scriptToRun.source,
      '1',
      key,
      ...args,
    ]);
    return JSON.parse(String(reply)) as ScriptAnswer;
  }

  /** One command; `fallback` (EVAL) when Redis answers NOSCRIPT; an unreachable Redis is `TASK_STORE_UNAVAILABLE`. */
  private async command(args: string[], fallback?: () => string[]): Promise<unknown> {
    try {
      try {
        return await this.client.sendCommand(args);
      } catch (error) {
        if (fallback === undefined || !(error instanceof this.errorReply && error.message.startsWith('NOSCRIPT')))
          throw error;
        return await this.client.sendCommand(fallback());
      }
    } catch (error) {
      if (error instanceof this.errorReply && !TRANSIENT_REPLY.test(error.message)) throw error;
      throw unavailable(this.location, error, this.lastError);
    }
  }

  /** The sorted set listing `subject`'s tasks. */
  private indexKey(subject: string | undefined): string {
    return `${this.prefix}tasks-of:${subject === undefined ? '-' : `=${subject}`}`;
  }

  /**
   * Lists a new task under its subject, scored by this replica's clock (milliseconds × 1000 plus a
   * counter, so its tasks list in the order it made them). The set expires twice the longest
   * retention after its newest task was created; `list` drops the ids whose task is gone, and each
   * create also sweeps a few ids picked at random (`sweepIndex`), so a subject that creates tasks
   * without ever listing them does not grow its set with ids of tasks long gone.
   */
  private async index(subject: string | undefined, taskId: string): Promise<void> {
    const key = this.indexKey(subject);
    const score = Date.now() * 1000 + (this.indexed++ % 1000);
    await Promise.all([
      this.command(['ZADD', key, String(score), taskId]),
      this.command(['PEXPIRE', key, String(2 * this.timings.maxRetentionMs + this.timings.leaseMs)]),
    ]);
    void this.sweepIndex(key).catch(() => undefined);
  }

  /**
   * Drops from a subject's set the ids among `INDEX_SWEEP` random ones whose task is gone: with one
   * id added and four checked per create, the ids of gone tasks settle near a third of the live
   * ones, whatever order the tasks end in. Off the create's path; a failure leaves it to the next.
   */
  async sweepIndex(key: string): Promise<number> {
    const picked = (await this.command(['ZRANDMEMBER', key, String(INDEX_SWEEP)])) as string[] | null;
    if (picked === null || picked.length === 0) return 0;
    const exists = (await Promise.all(
      picked.map((id) => this.command(['EXISTS', `${this.prefix}task:${id}`])),
    )) as number[];
    const gone = picked.filter((_, index) => exists[index] === 0);
    if (gone.length > 0) await this.command(['ZREM', key, ...gone]);
    return gone.length;
  }

  private toTask(taskId: string, fields: Record<string, string>): StoredTask {
    const createdAt = Number(fields.createdAt);
    return Object.freeze({
      taskId,
      status: fields.status as TaskStatus,
      ...(fields.statusMessage === undefined ? {} : { statusMessage: fields.statusMessage }),
      createdAt: new Date(createdAt).toISOString(),
      lastUpdatedAt: new Date(Number(fields.lastUpdatedAt)).toISOString(),
      ttlMs: Number(fields.expiresAt) - createdAt,
      pollIntervalMs: Number(fields.pollIntervalMs),
      toolName: fields.toolName ?? '',
      ...(fields.subject === undefined ? {} : { subject: fields.subject }),
      replicaId: fields.replicaId ?? '',
      ...(fields.result === undefined ? {} : { result: JSON.parse(fields.result) as Record<string, unknown> }),
      ...(fields.error === undefined ? {} : { error: JSON.parse(fields.error) as TaskError }),
      ...(fields.status === 'input_required' ? inputFields(fields, 'in:', 'inputRequests') : {}),
      ...inputFields(fields, 'out:', 'inputResponses'),
    });
  }
}

/** The hash's `in:<key>` (or `out:<key>`) fields as `{ [name]: { key: parsed } }`, nothing when there are none. */
function inputFields(
  fields: Record<string, string>,
  prefix: 'in:' | 'out:',
  name: 'inputRequests' | 'inputResponses',
): Record<string, Record<string, unknown>> {
  const found: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let any = false;
  for (const [field, value] of Object.entries(fields)) {
    if (!field.startsWith(prefix)) continue;
    found[field.slice(prefix.length)] = JSON.parse(value) as unknown;
    any = true;
  }
  return any ? { [name]: { ...found } } : {};
}

/** A URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@').slice(0, 200);
  }
}

function unavailable(location: string, error: unknown, lastError?: Error): TaskStoreError {
  const detail = (error as Error)?.message ?? String(error);
  const socket =
    lastError !== undefined && lastError.message !== detail ? ` (last connection error: ${lastError.message})` : '';
  return new TaskStoreError(
    'TASK_STORE_UNAVAILABLE',
    `Task store ${location} is unavailable: ${detail}${socket}. ` +
      'Tasks cannot be created, read or cancelled until Redis answers again; the store reconnects by itself.',
    { cause: error },
  );
}
