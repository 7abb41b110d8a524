import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { raceDeadline } from '../pipeline/settle.js';
import {
  CREATE_SCRIPT,
  FINISH_SCRIPT,
  GET_SCRIPT,
  LIST_SCRIPT,
  MARK_SCRIPT,
  RENEW_SCRIPT,
  RESPOND_SCRIPT,
  WAIT_SCRIPT,
} from './redis-scripts.js';
import { TaskStoreBase } from './task-store-base.js';
import {
  internalFailure,
  type CreateTaskInput,
  newTaskId,
  ownerOf,
  type RunningTask,
  type StoredTask,
  type TaskEnding,
  type TaskError,
  type TaskPage,
  type TaskStatus,
  type TaskStore,
  TaskStoreError,
  type TaskStoreTimings,
  type TaskTransition,
} from './task-store.js';

/** A node-redis 6 client (a type only: the package is loaded on `connect`). */
type RedisClient = import('redis').RedisClientType;

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
  /**
   * Connect even when Redis's `maxmemory-policy` may evict task keys (anything but `noeviction`:
   * every key the store writes has a TTL, so the `volatile-*` policies may take them as well as the
   * `allkeys-*` ones); `warning` then says so. Default false: `connect` refuses with
   * `TASK_STORE_MAY_EVICT`, naming the policy.
   */
  acceptEviction?: boolean;
}

/** How many ids of a subject's task list each create checks (`sweepIndex`). */
const INDEX_SWEEP = 4;

/** Each script's SHA-1 (for EVALSHA), made the first time it runs. */
const SCRIPT_SHAS = new Map<string, string>();

/** The longest pause between two attempts to write a finished task's ending. */
const MAX_WRITE_BACKOFF_MS = 2_000;

interface ScriptAnswer {
  verdict: 'ok' | 'not-found' | 'terminal' | 'not-waiting';
  task?: Record<string, string>;
}

/**
 * Redis replies that mean "not now" rather than a bug: the server is loading, busy, failing over,
 * or out of memory under `noeviction` (writes are refused until keys expire or are deleted).
 */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|NOREPLICAS|OOM)\b/;

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
 * reconnects by itself. A finished task's ending is the exception: the replica holds it and writes
 * it again with backoff until Redis takes it (`writeEnding`).
 *
 * A task's owner is `=<subject>`, or `-` for an unauthenticated caller: no subject can name the
 * unauthenticated callers' tasks, list or waiting set.
 */
export class RedisTaskStore extends TaskStoreBase implements TaskStore {
  readonly location: string;
  /** Set when Redis may evict task keys and `acceptEviction` allowed it: the policy, and what it costs. */
  warning: string | undefined;
  private readonly prefix: string;
  /** The pub/sub channel prefix: `<channel><replicaId>` tells a replica of a cancel, an ending or an answer. */
  private readonly channel: string;
  /** When each running task's lease was last renewed, by the local clock. */
  private readonly renewedAt = new Map<string, number>();
  /**
   * Tasks whose tool finished and whose ending is being written: no longer leased (a replica that
   * cannot write must not look alive), by the last write error ('' before one).
   */
  private readonly holding = new Map<string, string>();
  /** The waiting set (`waiting-of:<owner>`) of each task this replica has waiting for input. */
  private readonly waitingKeys = new Map<string, string>();
  private readonly heartbeat: NodeJS.Timeout;
  private lastError: Error | undefined;
  private renewing = false;
  private indexed = 0;

  private constructor(
    private readonly client: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly errorReply: typeof import('redis').ErrorReply,
    options: RedisTaskStoreOptions,
  ) {
    super(options.replicaId ?? `${hostname()}-${process.pid}-${newTaskId().slice(0, 8)}`, options);
    this.location = redactUrl(options.url);
    this.prefix = options.keyPrefix ?? 'toolsmith:';
    this.channel = `${this.prefix}task-cancel:`;
    this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(1, Math.floor(this.timings.leaseMs / 3)));
    this.heartbeat.unref();
    for (const connection of [client, subscriber]) connection.on('error', (error) => (this.lastError = error));
  }

  /** Connects two clients (commands, and the cancel subscription) and answers the store, or a clear error. */
  static async connect(options: RedisTaskStoreOptions): Promise<RedisTaskStore> {
    const location = redactUrl(options.url);
    if (!URL.canParse(options.url) || !/^rediss?:$/.test(new URL(options.url).protocol)) {
      throw new RangeError(
        `The Redis task store needs a redis:// or rediss:// URL (redis://host:port), got '${location}'.`,
      );
    }
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
    });
    const subscriber = client.duplicate();
    // A bad timing throws here, before anything connects.
    const store = new RedisTaskStore(client, subscriber, redis.ErrorReply, options);
    try {
      // The clients retry a Redis that is down by themselves (reconnectStrategy): the deadline bounds the wait.
      const connected = await raceDeadline(Promise.all([client.connect(), subscriber.connect()]), timeoutMs);
      if (connected === 'deadline') throw store.lastError ?? new Error(`no answer in ${timeoutMs} ms`);
      await subscriber.subscribe(`${store.channel}${store.replicaId}`, (message) => store.onCancelMessage(message));
    } catch (error) {
      await store.close();
      throw unavailable(location, error);
    }
    const policy = await readEvictionPolicy(client);
    if (policy !== 'noeviction') {
      const risk = evictionRisk(location, policy);
      if (options.acceptEviction !== true) {
        await store.close();
        throw new TaskStoreError(
          'TASK_STORE_MAY_EVICT',
          `${risk} Set maxmemory-policy to noeviction (CONFIG SET maxmemory-policy noeviction, or your provider's ` +
            'parameter for it), or accept the loss with serve --task-store-accept-eviction (acceptEviction: true).',
        );
      }
      store.missingCause = `; or Redis evicted it: its maxmemory-policy is '${policy ?? 'unknown'}', which this server was told to accept`;
      store.warning = `${risk} Accepted (--task-store-accept-eviction): a missing task's client is told it may have been evicted.`;
    }
    return store;
  }

  async create(input: CreateTaskInput): Promise<RunningTask> {
    this.assertOpen();
    const taskId = newTaskId();
    const owner = ownerOf(input.subject);
    // The list entry goes in the same round trip; one whose task was not created is dropped by `list`.
    const [answer] = await Promise.all([
      this.run(CREATE_SCRIPT, taskId, [
        this.replicaId,
        String(this.timings.leaseMs),
        String(this.retention(input)),
        String(input.pollIntervalMs ?? this.timings.pollIntervalMs),
        input.toolName,
        owner,
      ]),
      this.index(owner, taskId),
    ]);
    const task = this.toTask(taskId, answer.task ?? {});
    // However it stops running here (ended, cancelled, lease lost, drained): no lease, no waiting entry.
    const signal = this.running.add(taskId, () => {
      this.renewedAt.delete(taskId);
      this.leaveWaiting(taskId);
    });
    this.renewedAt.set(taskId, Date.now());
    const finish = async (status: TaskStatus, ending: TaskEnding) => {
      this.holding.set(taskId, '');
      try {
        return await this.writeEnding(taskId, status, ending);
      } finally {
        this.holding.delete(taskId);
        this.running.settle(taskId);
      }
    };
    return {
      task,
      signal,
      complete: (result) => finish('completed', { result }),
      fail: (error, statusMessage) => finish('failed', { error, statusMessage }),
      mark: async (status, statusMessage, inputRequests) => {
        if (status === 'input_required' && !this.waitingKeys.has(taskId)) {
          const refused = await this.enterWaiting(taskId, input.subject);
          if (refused !== undefined) return refused;
        }
        const pairs = jsonPairs(inputRequests ?? {});
        const marked = await this.run(MARK_SCRIPT, taskId, [status, statusMessage ?? '', this.replicaId, ...pairs]);
        const outcome = this.outcome(taskId, marked, status);
        if (status === 'working' || !outcome.ok) this.leaveWaiting(taskId);
        return outcome;
      },
      answer: async (key, signal) => {
        let read: StoredTask | undefined;
        const answer = await this.running.answer(
          taskId,
          key,
          async () => (read = await this.get(taskId, input.subject)),
          signal,
          // A lost pub/sub message (the subscriber reconnecting) is caught up by a re-read: 1 s, 2 s, … the lease.
          (round) => Math.min(1_000 * 2 ** round, this.timings.leaseMs),
        );
        // Its last open question answered: it no longer counts among its owner's waiting tasks.
        if (read?.status !== 'input_required') this.leaveWaiting(taskId);
        return answer;
      },
    };
  }

  async get(taskId: string, subject?: string): Promise<StoredTask | undefined> {
    const { task } = await this.run(GET_SCRIPT, taskId, []);
    return task?.owner === ownerOf(subject) ? this.toTask(taskId, task) : undefined;
  }

  override async check(): Promise<void> {
    await super.check();
    await this.command(['PING']);
  }

  async list(subject: string | undefined, page: { cursor?: string; limit?: number } = {}): Promise<TaskPage> {
    const { limit, after: [from, after] = ['-inf', ''] } = this.listPage(page, (cursor) =>
      /^r(\d[\d.e+]*):([0-9a-f-]{36})$/.exec(cursor)?.slice(1, 3),
    );
    const key = `${this.prefix}tasks-of:${ownerOf(subject)}`;
    // `id, score` pairs, one more than the page when there is a next page.
    const reply = (await this.eval(LIST_SCRIPT, key, [from, after, String(limit)])) as string[];
    const shown = reply.slice(0, 2 * limit).filter((_, i) => i % 2 === 0);
    const read = await Promise.all(shown.map((taskId) => this.get(taskId, subject)));
    const gone = shown.filter((_, i) => read[i] === undefined);
    if (gone.length > 0) await this.command(['ZREM', key, ...gone]).catch(() => undefined);
    const tasks = read.filter((task): task is StoredTask => task !== undefined);
    if (reply.length <= 2 * limit) return { tasks };
    return { tasks, nextCursor: `r${reply[2 * limit - 1]}:${reply[2 * limit - 2]}` };
  }

  async respond(
    taskId: string,
    subject: string | undefined,
    inputResponses: Record<string, unknown>,
  ): Promise<TaskTransition> {
    const pairs = jsonPairs(inputResponses);
    const answer = await this.run(RESPOND_SCRIPT, taskId, [ownerOf(subject), this.channel, ...pairs]);
    if (answer.verdict === 'not-waiting' && answer.task !== undefined)
      return this.notWaitingRefusal(this.toTask(taskId, answer.task), Object.keys(inputResponses));
    return this.outcome(taskId, answer, 'working');
  }

  /** A task whose tool finished is not said to have been cut short: its ending could not be written. */
  protected override drainMessage(taskId: string, reason: string | undefined): string {
    const held = this.holding.get(taskId);
    if (held === undefined) return super.drainMessage(taskId, reason);
    return (
      `Replica '${this.replicaId}' shut down before it could write the task's ending: the tool finished, but ` +
      `${this.location} did not take the write (${held || 'no answer yet'}). Call the tool again.`
    );
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
    const ttl = String(Math.max(1, ttlMs));
    return (await this.command(['SET', `${this.prefix}claimed:${key}`, '1', 'NX', 'PX', ttl])) === 'OK';
  }

  /** A FINISH script run. */
  protected async transition(
    taskId: string,
    owner: string | undefined,
    status: TaskStatus,
    ending: TaskEnding,
  ): Promise<TaskTransition> {
    const field = ending.result !== undefined ? 'result' : ending.error !== undefined ? 'error' : '';
    // A payload that cannot be serialized throws here, a refusal for good (`writeEnding`).
    const payload = field === '' ? '' : JSON.stringify(ending[field]);
    const args = [status, field, payload, ending.statusMessage ?? '', owner ?? '', this.channel, this.replicaId];
    return this.outcome(taskId, await this.run(FINISH_SCRIPT, taskId, args), status);
  }

  /**
   * Writes the ending of a task this replica ran, however long Redis takes to accept it: a write
   * that does not reach Redis (or finds it out of memory) is tried again — 100 ms, 200 ms, … 2 s
   * apart — while this replica lives and holds it; one Redis refuses for good (and an ending that
   * cannot be serialized) fails the task with that reason instead. After a drain, one attempt.
   */
  private async writeEnding(
    taskId: string,
    status: TaskStatus,
    ending: TaskEnding,
    lastResort = false,
  ): Promise<TaskTransition> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.transition(taskId, undefined, status, ending);
      } catch (error) {
        if (!(error instanceof TaskStoreError)) {
          // Refused for good; when even the failure saying so is refused, the lease runs out instead.
          if (lastResort) throw error;
          const message = `The tool finished, but its result could not be written to the task store ${this.location}: ${(error as Error)?.message ?? String(error)}. Call the tool again.`;
          return this.writeEnding(taskId, 'failed', internalFailure(message), true);
        }
        if (this.drained || !this.holding.has(taskId)) throw error;
        this.holding.set(taskId, error.message);
        await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** attempt, MAX_WRITE_BACKOFF_MS)));
      }
    }
  }

  /**
   * Counts `taskId` among its owner's tasks waiting for input (`waiting-of:<owner>`, a sorted set by
   * the time each wait ends, so a dead replica's entries leave by themselves); the refusal when the
   * owner has `maxInputWaiting` already.
   */
  private async enterWaiting(taskId: string, subject: string | undefined): Promise<TaskTransition | undefined> {
    const key = `${this.prefix}waiting-of:${ownerOf(subject)}`;
    const waitMs = String(this.timings.inputWaitMs + this.timings.leaseMs);
    const count = (await this.eval(WAIT_SCRIPT, key, [taskId, String(this.timings.maxInputWaiting), waitMs])) as number;
    if (count < 0) {
      this.waitingKeys.set(taskId, key);
      return undefined;
    }
    const task = await this.get(taskId, subject);
    return task === undefined ? this.notFoundRefusal(taskId) : this.tooManyWaitingRefusal(task, count);
  }

  /** Takes `taskId` out of its owner's waiting set (a failure leaves it to expire with its wait). */
  private leaveWaiting(taskId: string): void {
    const key = this.waitingKeys.get(taskId);
    if (key === undefined) return;
    this.waitingKeys.delete(taskId);
    void this.command(['ZREM', key, taskId]).catch(() => undefined);
  }

  private onCancelMessage(message: string): void {
    const [taskId = '', kind, ...rest] = message.split('\n');
    if (kind === 'answered') return this.running.poke(taskId);
    const elsewhere = kind === 'ended-elsewhere';
    const reason =
      rest.join('\n') ||
      (elsewhere ? `Task '${taskId}' was ended by another replica.` : 'Cancelled by the client (tasks/cancel).');
    this.running.abort(taskId, elsewhere ? 'ended-elsewhere' : 'cancelled', reason);
  }

  /** Renews the lease of every running task; fires the signal of one that ended elsewhere or whose lease is lost. */
  private async renewLeases(): Promise<void> {
    // One round at a time: a slow Redis must not pile rounds up.
    if (this.renewing) return;
    this.renewing = true;
    // A task holding its ending is not renewed: if it cannot be written, the task must not look alive.
    const leased = this.running.ids().filter((taskId) => !this.holding.has(taskId));
    const args = [this.replicaId, String(this.timings.leaseMs)];
    await Promise.all(
      leased.map(async (taskId) => {
        try {
          const { verdict, task } = await this.run(RENEW_SCRIPT, taskId, args);
          if (verdict === 'ok') {
            this.renewedAt.set(taskId, Date.now());
          } else if (task === undefined) {
            const message = `Task '${taskId}' is gone from ${this.location} (Redis restarted without persistence, or the key was evicted); its result cannot be stored.`;
            this.running.abort(taskId, 'lease-lost', message);
          } else if (task.status === 'cancelled') {
            this.running.abort(taskId, 'cancelled', task.statusMessage ?? 'Cancelled by the client.');
          } else {
            const message = task.statusMessage ?? `Task '${taskId}' was ${task.status} by another replica.`;
            this.running.abort(taskId, /stopped renewing/.test(message) ? 'lease-lost' : 'ended-elsewhere', message);
          }
        } catch (error) {
          const renewed = this.renewedAt.get(taskId) ?? 0;
          if (Date.now() - renewed > this.timings.leaseMs) {
            this.running.abort(
              taskId,
              'lease-lost',
              `Replica '${this.replicaId}' could not renew the lease of task '${taskId}' for ${this.timings.leaseMs} ms: ${(error as Error).message}`,
            );
          }
        }
      }),
    );
    // Never rejects: each task's round catches its own failure.
    this.renewing = false;
  }

  /** Runs a script on one task's key, answering its JSON. */
  private async run(source: string, taskId: string, args: string[]): Promise<ScriptAnswer> {
    return JSON.parse(String(await this.eval(source, `${this.prefix}task:${taskId}`, args))) as ScriptAnswer;
  }

  /** A script's answer as the outcome of a transition toward `attempted`. */
  private outcome(taskId: string, answer: ScriptAnswer, attempted: TaskStatus): TaskTransition {
    if (answer.verdict === 'not-found' || answer.task === undefined) return this.notFoundRefusal(taskId);
    const task = this.toTask(taskId, answer.task);
    return answer.verdict === 'ok' ? { ok: true, task } : this.terminalRefusal(task, attempted);
  }

  /** Runs a script on `key`: EVALSHA, EVAL when Redis lost its script cache (a restart). */
  private async eval(source: string, key: string, args: string[]): Promise<unknown> {
    let sha = SCRIPT_SHAS.get(source);
    if (sha === undefined) SCRIPT_SHAS.set(source, (sha = createHash('sha1').update(source).digest('hex')));
    return this.command(['EVALSHA', sha, '1', key, ...args]).catch((error: unknown) => {
      if (!(error instanceof this.errorReply && error.message.startsWith('NOSCRIPT'))) throw error;
      return this.command(['EVAL', source, '1', key, ...args]);
    });
  }

  /** One command; an unreachable (or not now answering) Redis is `TASK_STORE_UNAVAILABLE`. */
  private async command(args: string[]): Promise<unknown> {
    try {
      return await this.client.sendCommand(args);
    } catch (error) {
      if (error instanceof this.errorReply && !TRANSIENT_REPLY.test(error.message)) throw error;
      throw unavailable(this.location, error, this.lastError);
    }
  }

  /**
   * Lists a new task under its subject, scored by this replica's clock (milliseconds × 1000 plus a
   * counter, so its tasks list in the order it made them). The set expires twice the longest
   * retention after its newest task was created; `list` drops the ids whose task is gone, and each
   * create also sweeps a few ids picked at random (`sweepIndex`), so a subject that creates tasks
   * without ever listing them does not grow its set with ids of tasks long gone.
   */
  private async index(owner: string, taskId: string): Promise<void> {
    const key = `${this.prefix}tasks-of:${owner}`;
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
  private async sweepIndex(key: string): Promise<void> {
    const picked = ((await this.command(['ZRANDMEMBER', key, String(INDEX_SWEEP)])) ?? []) as string[];
    const exists = await Promise.all(picked.map((id) => this.command(['EXISTS', `${this.prefix}task:${id}`])));
    const gone = picked.filter((_, index) => exists[index] === 0);
    if (gone.length > 0) await this.command(['ZREM', key, ...gone]);
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
      ...(fields.owner?.startsWith('=') ? { subject: fields.owner.slice(1) } : {}),
      replicaId: fields.replicaId ?? '',
      ...(fields.result === undefined ? {} : { result: JSON.parse(fields.result) as Record<string, unknown> }),
      ...(fields.error === undefined ? {} : { error: JSON.parse(fields.error) as TaskError }),
      ...(fields.status === 'input_required' ? inputFields(fields, 'in:', 'inputRequests') : {}),
      ...inputFields(fields, 'out:', 'inputResponses'),
    });
  }
}

/** `{ key: value }` as the `key, value JSON` arguments of MARK_SCRIPT and RESPOND_SCRIPT. */
function jsonPairs(values: Record<string, unknown>): string[] {
  return Object.entries(values).flatMap(([key, value]) => [key, JSON.stringify(value)]);
}

/** The hash's `in:<key>` (or `out:<key>`) fields as `{ [name]: { key: parsed } }`, nothing when there are none. */
function inputFields(
  fields: Record<string, string>,
  prefix: 'in:' | 'out:',
  name: 'inputRequests' | 'inputResponses',
): Record<string, Record<string, unknown>> {
  const found = Object.entries(fields).filter(([field]) => field.startsWith(prefix));
  if (found.length === 0) return {};
  return { [name]: Object.fromEntries(found.map(([field, value]) => [field.slice(prefix.length), JSON.parse(value)])) };
}

/**
 * Redis's `maxmemory-policy`, from `CONFIG GET`, else from `INFO memory` (which managed Redis
 * services allow where they refuse CONFIG); `undefined` when neither says.
 */
async function readEvictionPolicy(client: RedisClient): Promise<string | undefined> {
  const config = await client.sendCommand(['CONFIG', 'GET', 'maxmemory-policy']).catch(() => undefined);
  if (Array.isArray(config) && typeof config[1] === 'string') return config[1];
  const info = await client.sendCommand(['INFO', 'memory']).catch(() => '');
  return /^maxmemory_policy:(\S+)/m.exec(String(info))?.[1];
}

/** What an eviction policy may do to task keys, for the refusal and the warning. */
function evictionRisk(location: string, policy: string | undefined): string {
  if (policy === undefined)
    return `Could not read the maxmemory-policy of Redis at ${location} (neither CONFIG GET nor INFO memory said it), so it may evict task keys.`;
  const which = policy.startsWith('volatile-') ? 'keys with a TTL (every task key has one)' : 'any key';
  return (
    `Redis at ${location} may evict task keys: its maxmemory-policy is '${policy}', under which a full Redis ` +
    `deletes ${which}, so a task could vanish, its result unread, and its client be told it is not found.`
  );
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
