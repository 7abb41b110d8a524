import { createRequire } from 'node:module';
import os from 'node:os';
import v8 from 'node:v8';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GenerateOptions } from '../../config/options.js';
import type { GeneratedFile, ToolModel } from '../../model.js';
import type { ToolEmitterOptions, ToolOutput } from '../tool-files.js';
import type { EmitReply, EmitTask, WireFile } from './messages.js';

/** Below this many tools to emit, the emit stage stays in process: starting workers costs more than it saves. */
const DEFAULT_WORKER_THRESHOLD = 200;

/**
 * How many threads emit tools, the main thread one of them (`workers`: 1 emits in process only), and
 * from how many tools to emit on (`workerThreshold`): the generate options' (how the tools are emitted,
 * not what: no part of the cache key).
 */
export type WorkerOptions = Pick<GenerateOptions, 'workers' | 'workerThreshold'>;

/** A whole number ≥ 1 from the environment, or undefined. */
function fromEnv(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const parsed = Number.parseInt(value, 10);
  return parsed >= 1 ? parsed : undefined;
}

/** The number of threads to emit `tools` tools on, the main thread included: 1 means in process only. */
export function workerCount(tools: number, options: WorkerOptions = {}): number {
  const count = options.workers ?? fromEnv('TOOLSMITH_WORKERS') ?? os.availableParallelism();
  const threshold = options.workerThreshold ?? fromEnv('TOOLSMITH_WORKER_THRESHOLD') ?? DEFAULT_WORKER_THRESHOLD;
  if (count <= 1 || tools < Math.max(threshold, 2)) return 1;
  return Math.min(count, tools);
}

/** What one tool's emission gave: its formatted files and its part of the manifests, or what it threw. */
export type EmitOutcome = ToolOutput | { error: unknown };

/** A wire file back as a `GeneratedFile` holding its bytes (its text decoded only when read). */
function fromWire(wire: WireFile): GeneratedFile {
  const base = { path: wire.path, kind: wire.kind, ...(wire.preformatted ? { preformatted: true as const } : {}) };
  if (wire.bytes === undefined) return { ...base, content: wire.content! };
  const bytes = Buffer.from(wire.bytes.buffer, wire.bytes.byteOffset, wire.bytes.byteLength);
  return Object.defineProperty({ ...base, bytes }, 'content', {
    get: () => bytes.toString('utf8'),
    enumerable: true,
  }) as GeneratedFile;
}

/**
 * A worker's heap cap: its live set is one tool in flight plus the emitters, and a cap makes
 * V8 collect instead of letting garbage grow the heap to a multiple of that (peak RSS, P7). Its
 * young generation is set larger than V8 gives a heap that small: an emission allocates a lot that
 * dies young, and fewer scavenges made a 1,000-tool generate ~4 % faster at the same peak.
 */
const workerLimits = () => ({
  maxOldGenerationSizeMb: fromEnv('TOOLSMITH_WORKER_HEAP_MB') ?? 128,
  maxYoungGenerationSizeMb: 48,
});

/** The V8 heap-size flags this process was started with (`--max-old-space-size=N`, ...), as given. */
function heapFlags(): string[] {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return given.filter((arg) => /^--max[-_](old|semi)[-_]space[-_]size=\d+$/.test(arg));
}

/**
 * Runs `start` with the process's heap-size flags cleared until `online` settles (the workers'
 * isolates exist then), and restores them after. Why: V8 gives those flags precedence over a
 * worker's `resourceLimits`, so under `--max-old-space-size` (a common CI setting) every worker
 * would get that whole heap instead of its cap.
 *
 * @lintignore exported for test/codegen/emit-memory.test.ts, whose child process imports it by path.
 */
export function withWorkerLimits<T>(start: () => T, online: (started: T) => Promise<unknown>): T {
  const flags = heapFlags();
  if (flags.length === 0) return start();
  v8.setFlagsFromString('--max-old-space-size=0');
  v8.setFlagsFromString('--max-semi-space-size=0');
  let started: T;
  try {
    started = start();
  } catch (error) {
    for (const flag of flags) v8.setFlagsFromString(flag);
    throw error;
  }
  void online(started).finally(() => {
    for (const flag of flags) v8.setFlagsFromString(flag);
  });
  return started;
}

/**
 * Starts one emit worker, the set-up every task shares as its `workerData`. From the TypeScript
 * sources (tsx, vitest) the worker gets no loader of its own in Node 20, so a small CommonJS
 * bootstrap loads the emitters' packages, registers tsx and imports the entry; from the built
 * package the entry is plain JavaScript.
 */
function startWorker(setup: ToolEmitterOptions): Worker {
  const options = { workerData: setup, resourceLimits: workerLimits() };
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url);
  if (!fromSource) return new Worker(entry, options);
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const preload = JSON.stringify(preloadedPackages());
  const bootstrap = `(async () => {
    const [prettier] = await Promise.all(${preload}.map((url) => import(url)));
    await prettier.format('a', { parser: 'typescript' });
    await prettier.format('a', { parser: 'babel' });
    (await import(${JSON.stringify(tsxApi)})).register();
    await import(${JSON.stringify(entry.href)});
  })();`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * The emitters' packages (prettier first), as URLs: a worker from the sources imports them, and
 * formats once with each parser (prettier loads its parser plugins on first use), before tsx is
 * registered. Why: every module loaded through tsx's hooks costs a copy of its source in the hooks
 * thread, and these are megabytes of plain JavaScript that need no transform.
 */
function preloadedPackages(): string[] {
  return ['prettier', 'json-schema-to-typescript', 'handlebars', 'ajv'].map((name) => import.meta.resolve(name));
}

/** Tasks handed to one worker before its answers come back (keeps it busy between messages). */
const TASKS_PER_WORKER = 2;

/**
 * Emits `tools` on `count` new worker threads and, one tool at a time, on the calling thread
 * (`local`: the main thread has the emitters loaded anyway and mostly waits; one worker fewer is one
 * copy of the emitters fewer, peak RSS, P7), handing each tool's outcome to `onOutcome` as soon as it
 * arrives, in any order. A tool whose emitter throws is its error, one whose worker stopped under it
 * (out of memory, a crash) is `{ lost }` (the caller emits it in process); never a rejection. The
 * workers are stopped, and the calling thread's last tool done, before this settles.
 */
export async function emitOnPool(
  tools: readonly ToolModel[],
  setup: ToolEmitterOptions,
  count: number,
  local: (tool: ToolModel) => Promise<EmitOutcome>,
  onOutcome: (tool: ToolModel, outcome: EmitOutcome | { lost: Error }) => void,
): Promise<void> {
  const workers = withWorkerLimits(
    () => Array.from({ length: count }, () => startWorker(setup)),
    (started) =>
      Promise.all(started.map((worker) => new Promise((settle) => worker.once('online', settle).once('exit', settle)))),
  );
  // The tools go out to the workers, `TASKS_PER_WORKER` each at a time, and one at a time to `local`.
  const done = new Uint8Array(tools.length);
  let next = 0;
  let settled = 0;
  let failed = false;
  let localLane = Promise.resolve();
  const handedOut = new Promise<void>((resolve, reject) => {
    const settle = (index: number, outcome: EmitOutcome | { lost: Error }) => {
      if (done[index] === 1 || failed) return;
      done[index] = 1;
      settled++;
      // The caller's own failure (its output cannot be written) ends the run as it would in process:
      // no tool is handed out after it, and no outcome handed to the caller.
      try {
        onOutcome(tools[index]!, outcome);
      } catch (error) {
        failed = true;
        next = tools.length;
        reject(error);
      }
      if (settled === tools.length) resolve();
    };
    // Each worker's listeners are set in the tick that started it, so no error or exit goes unheard.
    for (const worker of workers) {
      const inFlight = new Set<number>();
      let stopped = false;
      const stop = (error: Error) => {
        stopped = true;
        for (const index of inFlight) settle(index, { lost: error });
        inFlight.clear();
      };
      worker.on('error', stop);
      worker.on('exit', (code) => stop(new Error(`the emit worker stopped (exit code ${code})`)));
      const feed = () => {
        while (!stopped && inFlight.size < TASKS_PER_WORKER && next < tools.length) {
          const index = next++;
          inFlight.add(index);
          const task: EmitTask = { index, tool: tools[index]! };
          try {
            worker.postMessage(task);
          } catch (error) {
            inFlight.delete(index);
            settle(index, { error });
          }
        }
      };
      worker.on('message', (reply: EmitReply) => {
        inFlight.delete(reply.index);
        feed();
        // A worker's error as an Error of its name and message, so `emitFailure` describes it as in process.
        settle(
          reply.index,
          'error' in reply
            ? { error: Object.assign(new Error(reply.error.message), { name: reply.error.name }) }
            : { files: reply.files.map(fromWire), manifests: reply.manifests },
        );
      });
      feed();
    }
    localLane = (async () => {
      // The local lane: the next tool while any is left, letting the workers' answers in between.
      while (next < tools.length) {
        const index = next++;
        settle(index, await local(tools[index]!));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
  });
  try {
    await handedOut;
  } finally {
    await Promise.all([localLane, ...workers.map((worker) => worker.terminate())]);
  }
}
