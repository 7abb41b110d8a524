/**
 * Measuring helpers: tinybench rounds compared in the same process, child processes for
 * start-up and memory, medians.
 */
import { execFile } from 'node:child_process';
import { Bench } from 'tinybench';

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** How long each micro-benchmark round runs. */
export interface MicroOptions {
  /** Rounds; each round runs every task once (interleaved, so load changes hit both sides). */
  rounds: number;
  /** tinybench time budget per task per round, ms. */
  time: number;
  /** tinybench warm-up per task per round, ms. */
  warmupTime: number;
  /** Operations per task iteration, so one sample is well above the timer's resolution. */
  batch: number;
}

/** Per task: the median latency of one operation (µs) in each round. */
export type MicroResult = Record<string, number[]>;

/**
 * Runs the tasks in `rounds` tinybench rounds and returns, per task and round, the median time of
 * one operation in microseconds. A task's function performs one operation; it is called `batch`
 * times per sample.
 */
export async function compareMicro(tasks: Record<string, () => unknown>, options: MicroOptions): Promise<MicroResult> {
  const out: MicroResult = Object.fromEntries(Object.keys(tasks).map((name) => [name, [] as number[]]));
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({
      time: options.time,
      warmupTime: options.warmupTime,
      iterations: 10,
      warmupIterations: 5,
      throws: true,
    });
    // Alternate the order between rounds so neither side always runs first.
    const names = round % 2 === 0 ? Object.keys(tasks) : Object.keys(tasks).reverse();
    for (const name of names) {
      const operation = tasks[name]!;
      const probe = operation();
      if (probe instanceof Promise) {
        await probe;
        bench.add(name, async () => {
          for (let i = 0; i < options.batch; i++) await operation();
        });
      } else {
        bench.add(name, () => {
          for (let i = 0; i < options.batch; i++) operation();
        });
      }
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result as { state: string; latency?: { p50: number }; error?: unknown };
      if (result.state !== 'completed' || result.latency === undefined)
        throw new Error(`benchmark task ${task.name} did not complete: ${String(result.error ?? result.state)}`);
      out[task.name]!.push((result.latency.p50 * 1000) / options.batch);
    }
  }
  return out;
}

/** The median over rounds of `numerator / denominator` computed per round. */
export function roundRatio(result: MicroResult, numerator: string, denominator: string): number {
  return median(result[numerator]!.map((value, round) => value / result[denominator]![round]!));
}

/** What a child process reported (its last stdout line, JSON) and how long it ran as seen from here. */
export interface ChildReport {
  report: Record<string, unknown>;
  wallMs: number;
}

/** A child that did not finish: killed at its deadline, or crashed (e.g. out of memory). */
export class ChildFailedError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    readonly wallMs: number,
  ) {
    super(message);
    this.name = 'ChildFailedError';
  }
}

/** Runs `node <args>` and parses the JSON line it prints last; `timeoutMs` kills it (0: no deadline). */
export function runChild(args: string[], cwd: string, timeoutMs = 0): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile(
      process.execPath,
      args,
      {
        cwd,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NODE_OPTIONS: '' },
      },
      (error, stdout, stderr) => {
        const wallMs = performance.now() - started;
        if (error) {
          const timedOut = timeoutMs > 0 && wallMs >= timeoutMs - 50 && error.signal === 'SIGKILL';
          const reason = timedOut
            ? `did not finish within ${Math.round(timeoutMs / 1000)} s`
            : /heap out of memory/.test(stderr)
              ? 'ran out of memory (JavaScript heap)'
              : `failed: ${error.message.split('\n')[0]}`;
          return reject(new ChildFailedError(`${reason}\n${stderr.slice(-1500)}`, timedOut, wallMs));
        }
        const line = stdout.trim().split('\n').pop() ?? '';
        try {
          resolve({ report: JSON.parse(line) as Record<string, unknown>, wallMs });
        } catch {
          reject(
            new ChildFailedError(
              `printed no JSON report: ${stdout.slice(-500)}\n${stderr.slice(0, 2000)}`,
              false,
              wallMs,
            ),
          );
        }
      },
    );
  });
}

/** Silences console output (AgentOS logs every call) while `work` runs; restores it after. */
export async function withSilentConsole<T>(work: () => Promise<T>): Promise<T> {
  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
  const saved = methods.map((method) => console[method]);
  for (const method of methods) console[method] = () => {};
  try {
    return await work();
  } finally {
    methods.forEach((method, index) => (console[method] = saved[index]!));
  }
}
