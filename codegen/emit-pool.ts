import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GeneratedFile, ToolModel } from './model.js';
import type { EmitReply, EmitTask, EmitWorkerData, WireFile } from './emit-worker.js';

/** Below this many tools to emit, `emitAll` stays in process: starting workers costs more than it saves. */
export const DEFAULT_WORKER_THRESHOLD = 50;

/** How many worker threads emit tools, and from how many tools on. */
export interface WorkerOptions {
  /** Worker threads; 1 emits in process (default: `TOOLSMITH_WORKERS`, else one per core). */
  count?: number;
  /** The fewest tools to emit for which workers are used (default 50, or `TOOLSMITH_WORKER_THRESHOLD`). */
  threshold?: number;
}

/** A whole number ≥ 1 from the environment, or undefined. */
function fromEnv(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const parsed = Number.parseInt(value, 10);
  return parsed >= 1 ? parsed : undefined;
}

/** The number of workers to use for `tools` tools to emit: 1 means in process. */
export function workerCount(tools: number, options: WorkerOptions = {}): number {
  const count = options.count ?? fromEnv('TOOLSMITH_WORKERS') ?? os.availableParallelism();
  const threshold = options.threshold ?? fromEnv('TOOLSMITH_WORKER_THRESHOLD') ?? DEFAULT_WORKER_THRESHOLD;
  if (count <= 1 || tools < Math.max(threshold, 2)) return 1;
  return Math.min(count, tools);
}

/** What one tool's emission gave: its formatted files (held as bytes) and stub, or what it threw. */
export type EmitOutcome = { files: GeneratedFile[]; stub?: GeneratedFile } | { error: Error };

/** A wire file back as a `GeneratedFile` held as bytes, as `heldAsBytes` makes it. */
function fromWire(wire: WireFile): GeneratedFile {
  const base = { path: wire.path, kind: wire.kind, ...(wire.preformatted ? { preformatted: true as const } : {}) };
  if (wire.bytes === undefined) return { ...base, content: wire.content! };
  const bytes = Buffer.from(wire.bytes.buffer, wire.bytes.byteOffset, wire.bytes.byteLength);
  return Object.defineProperty({ ...base, bytes }, 'content', { get: () => bytes.toString('utf8'), enumerable: true }) as GeneratedFile;
}

/** An Error carrying a worker's error name and message, so `emitFailure` describes it as in process. */
function remoteError(error: { name: string; message: string }): Error {
  const made = new Error(error.message);
  made.name = error.name;
  return made;
}

/**
 * Starts one emit worker. From the TypeScript sources (tsx, vitest) the worker gets no loader of
 * its own in Node 20, so a small CommonJS bootstrap registers tsx before importing the entry; from
 * the built package the entry is plain JavaScript.
 */
function startWorker(data: EmitWorkerData): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './emit-worker.ts' : './emit-worker.js', import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData: data });
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: data });
}

/** Tasks handed to one worker before its answers come back (keeps it busy between messages). */
const TASKS_PER_WORKER = 2;

/**
 * Emits `tools` on `count` worker threads and returns each tool's outcome at its index in `tools`,
 * so what the caller assembles does not depend on which worker finished first. A tool whose
 * emitter throws, or a worker that dies, becomes that tool's error, never a rejection.
 */
export async function emitInWorkers(
  tools: readonly ToolModel[],
  stubWanted: readonly boolean[],
  data: EmitWorkerData,
  count: number,
  onDone?: () => void,
): Promise<EmitOutcome[]> {
  const outcomes: (EmitOutcome | undefined)[] = new Array(tools.length).fill(undefined);
  let next = 0;
  let settled = 0;
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve) => {
      let alive = 0;
      const finishIfDone = () => {
        if (settled === tools.length) resolve();
      };
      const settle = (index: number, outcome: EmitOutcome) => {
        if (outcomes[index] !== undefined) return;
        outcomes[index] = outcome;
        settled++;
        onDone?.();
      };
      const start = () => {
        const worker = startWorker(data);
        workers.push(worker);
        alive++;
        const inFlight = new Set<number>();
        const feed = () => {
          while (inFlight.size < TASKS_PER_WORKER && next < tools.length) {
            const index = next++;
            inFlight.add(index);
            const task: EmitTask = { index, tool: tools[index]!, stub: stubWanted[index] ?? false };
            try {
              worker.postMessage(task);
            } catch (error) {
              inFlight.delete(index);
              settle(index, { error: error instanceof Error ? error : new Error(String(error)) });
            }
          }
        };
        let dead = false;
        const die = (error: Error) => {
          if (dead) return;
          dead = true;
          alive--;
          for (const index of inFlight) settle(index, { error });
          inFlight.clear();
          // The last worker gone: what no worker took fails with the same error.
          if (alive === 0) while (next < tools.length) settle(next++, { error });
          finishIfDone();
        };
        worker.on('message', (reply: EmitReply) => {
          inFlight.delete(reply.index);
          settle(reply.index, 'error' in reply ? { error: remoteError(reply.error) } : { files: reply.files.map(fromWire), ...(reply.stub ? { stub: fromWire(reply.stub) } : {}) });
          feed();
          finishIfDone();
        });
        worker.on('error', die);
        worker.on('exit', (code) => die(new Error(`the emit worker stopped (exit code ${code})`)));
        feed();
      };
      for (let i = 0; i < count; i++) start();
      finishIfDone();
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return outcomes as EmitOutcome[];
}
