/**
 * P10: a task round trip across replicas — `tools/call` of a task-capable tool on replica A (a
 * 2026-07-28 request declaring the tasks extension) answered with a task, then `tasks/get` on
 * replica B until the task reads completed. Two `serve --http` processes share one real
 * `redis-server` (`--task-store redis://…`), serving `slow_report` of test/fixtures/tasks/entry.ts
 * with `ms: 0`. Its baseline is a plain `tools/call` of the same tool on A without the extension
 * declared, which A answers directly. Both sides are sequential requests from this process over
 * loopback (fetch, keep-alive), one in flight at a time.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import { TASKS_EXTENSION_ID } from '../src/tasks/index.js';
import { jsonRpcAnswer, mcpRequest } from '../test/helpers/mcp-request.js';
import { REPO_ROOT } from './project.js';

const ENTRY = 'test/fixtures/tasks/entry.ts';
const VERSION = '2026-07-28';

/** What P10 says when there is no `redis-server` to run. */
const REDIS_MISSING = 'redis-server missing (apt-get install -y redis-server)';

export interface TaskBenchPlan {
  /** Untimed round trips of each side first. */
  warmup: number;
  /** Timed round trips of each side. */
  roundTrips: number;
}

/** Milliseconds of one side's round trips. */
interface Latencies {
  medianMs: number;
  p99Ms: number;
  meanMs: number;
}

export type TaskBenchResult =
  | { notMeasured: string }
  | {
      task: Latencies & { pollsPerRoundTrip: number };
      plain: Latencies;
      /** Task round trip median / plain call median. */
      ratio: number;
      roundTrips: number;
      warmup: number;
      method: string;
    };

interface JsonRpcAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The path of `redis-server`, or undefined when it is not installed. */
function findRedisServer(): string | undefined {
  try {
    return execFileSync('/bin/sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** True when something on the port answers `PING` with `+PONG`. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (value: boolean) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** A child process and the promise of its exit. */
interface Running {
  child: ChildProcess;
  exit: Promise<unknown>;
}

function launch(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Running {
  const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = new Promise((resolve) => child.once('exit', resolve));
  return { child, exit };
}

async function stop(running: Running | undefined): Promise<void> {
  if (running === undefined || running.child.exitCode !== null || running.child.signalCode !== null) return;
  running.child.kill('SIGTERM');
  const timer = setTimeout(() => running.child.kill('SIGKILL'), 5_000);
  await running.exit;
  clearTimeout(timer);
}

async function startRedis(binary: string, port: number): Promise<Running> {
  const redis = launch(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  let output = '';
  redis.child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  redis.child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (redis.child.exitCode !== null || Date.now() > deadline) {
      await stop(redis);
      throw new Error(`P10: redis-server did not start on port ${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return redis;
}

/** Starts `serve --http` against the Redis task store and waits for its `MCP at <url>` line. */
async function startReplica(taskStore: string): Promise<Running & { url: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  delete env.TOOLSMITH_TASK_LOG;
  const replica = launch(
    process.execPath,
    ['bin/toolsmith.js', 'serve', '--http', '--no-auth', '--port', '0', '--entry', ENTRY, '--task-store', taskStore],
    env,
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      replica.child.kill('SIGKILL');
      reject(new Error(`P10: no listening line within 30 s: ${stderr}`));
    }, 30_000);
    replica.child.stdout!.resume();
    replica.child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /MCP at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void replica.exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`P10: serve --http exited ${String(code)} before listening: ${stderr}`));
    });
  });
  return { ...replica, url };
}

/** One 2026-07-28 request; `tasks` declares the tasks extension in clientCapabilities. */
async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  tasks: boolean,
): Promise<JsonRpcAnswer> {
  const request = mcpRequest(method, params, {
    version: VERSION,
    clientName: 'bench',
    clientCapabilities: tasks ? { extensions: { [TASKS_EXTENSION_ID]: {} } } : {},
  });
  const response = await fetch(url, { method: 'POST', ...request });
  return jsonRpcAnswer<JsonRpcAnswer>(await response.text());
}

const CALL = { name: 'slow_report', arguments: { ms: 0, tag: 'p10' } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A task created on A, polled on B (at once, then every 1 ms) until completed; its polls. */
async function taskRoundTrip(a: string, b: string): Promise<number> {
  const created = await rpc(a, 'tools/call', CALL, true);
  if (created.result?.resultType !== 'task' || typeof created.result.taskId !== 'string')
    throw new Error(`P10: tools/call on A did not answer a task: ${JSON.stringify(created)}`);
  const taskId = created.result.taskId;
  for (let polls = 1; ; polls++) {
    const got = await rpc(b, 'tasks/get', { taskId }, true);
    const status = got.result?.status;
    if (status === 'completed') {
      const output = (got.result?.result as { structuredContent?: { tag?: unknown } } | undefined)?.structuredContent;
      if (output?.tag !== 'p10') throw new Error(`P10: the completed task's result is wrong: ${JSON.stringify(got)}`);
      return polls;
    }
    if (status !== 'working' || polls > 10_000)
      throw new Error(`P10: tasks/get on B: ${JSON.stringify(got)} after ${polls} polls`);
    await sleep(1);
  }
}

/** The same tool called on A without the extension: answered directly. */
async function plainCall(a: string): Promise<void> {
  const answer = await rpc(a, 'tools/call', CALL, false);
  const output = (answer.result as { structuredContent?: { tag?: unknown } } | undefined)?.structuredContent;
  if (answer.result?.resultType === 'task' || output?.tag !== 'p10')
    throw new Error(`P10: a plain tools/call on A did not answer directly: ${JSON.stringify(answer)}`);
}

function latencies(samples: number[]): Latencies {
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const middle = Math.floor(sorted.length / 2);
  const medianMs = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { medianMs, p99Ms: at(0.99), meanMs: samples.reduce((sum, value) => sum + value, 0) / samples.length };
}

/**
 * Starts redis-server and two replicas, runs the warm-up and `roundTrips` of each side in interleaved
 * blocks of 10 (so drift in the machine's load falls on both), and stops every process it started.
 */
export async function measureTaskRoundTrip(plan: TaskBenchPlan, log: (text: string) => void): Promise<TaskBenchResult> {
  const binary = findRedisServer();
  if (binary === undefined) return { notMeasured: REDIS_MISSING };
  let redis: Running | undefined;
  const replicas: (Running & { url: string })[] = [];
  try {
    const port = await freePort();
    redis = await startRedis(binary, port);
    const store = `redis://127.0.0.1:${port}`;
    const started = await Promise.allSettled([startReplica(store), startReplica(store)]);
    for (const outcome of started) if (outcome.status === 'fulfilled') replicas.push(outcome.value);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const [a, b] = replicas as [Running & { url: string }, Running & { url: string }];
    log(`  redis-server on ${port}; replicas ${a.url} and ${b.url}; ${plan.warmup} warm-up, ${plan.roundTrips} timed`);
    for (let i = 0; i < plan.warmup; i++) {
      await taskRoundTrip(a.url, b.url);
      await plainCall(a.url);
    }
    const task: number[] = [];
    const plain: number[] = [];
    let polls = 0;
    const block = 10;
    for (let done = 0; done < plan.roundTrips; done += block) {
      const count = Math.min(block, plan.roundTrips - done);
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        polls += await taskRoundTrip(a.url, b.url);
        task.push(performance.now() - started);
      }
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        await plainCall(a.url);
        plain.push(performance.now() - started);
      }
    }
    const taskLatencies = latencies(task);
    const plainLatencies = latencies(plain);
    return {
      task: { ...taskLatencies, pollsPerRoundTrip: polls / task.length },
      plain: plainLatencies,
      ratio: taskLatencies.medianMs / plainLatencies.medianMs,
      roundTrips: plan.roundTrips,
      warmup: plan.warmup,
      method:
        'two serve --http --no-auth replicas sharing one redis-server (--task-store), slow_report of test/fixtures/tasks/entry.ts with ms 0; a round trip: tools/call on A (2026-07-28, tasks extension declared) → tasks/get on B at once, then every 1 ms, until completed; baseline: tools/call on A without the extension (answered directly); sequential fetch from the bench process, sides interleaved in blocks of 10',
    };
  } finally {
    await Promise.all(replicas.map(stop));
    await stop(redis);
  }
}
