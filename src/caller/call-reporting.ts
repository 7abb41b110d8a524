import { checkedElicit, type Elicit, type Sample } from './elicitation.js';

/**
 * What a running tool tells its caller before its result: progress and log messages. A caller that
 * listens (the MCP server, for a request that asked for progress or a client that takes logs) passes a
 * `CallReporter` with the call; the tool gets `context.progress` and `context.log`, which check what
 * they are given, drop what would flood the caller, and never throw into the tool.
 */

/** MCP's log levels (RFC 5424 severities), least severe first. */
export const LOG_LEVELS = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const);

/** A log message's severity. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How far a tool has come: `progress` of `total` (when known), with an optional message. */
export interface ProgressUpdate {
  /** Work done so far; each update's must be larger than the last one sent. */
  progress: number;
  /** Work in all, when known. */
  total?: number;
  /** A short human-readable note on the current step. */
  message?: string;
}

/** Where a call's progress and log messages go (each optional: what is missing is dropped). */
export interface CallReporter {
  progress?(update: ProgressUpdate): void;
  log?(level: LogLevel, data: unknown): void;
  /** Asks the user (the tool gets it checked: see `checkedElicit`). */
  elicit?: Elicit;
  /** Asks the client for a model call. */
  sample?: Sample;
}

/** What the `onCallReport` hook sees: one report of one call, after the checks and the rate limit. */
export type CallReportEvent = { toolName: string; toolCallId: string; correlationId: string } & (
  { kind: 'progress'; progress: ProgressUpdate } | { kind: 'log'; level: LogLevel; data: unknown }
);

/**
 * The caller's reporter and the host's hook as one reporter: each report goes to both (the hook's
 * event names the call). Either may be missing; both missing is `undefined`.
 */
export function withReportHook(
  reporter: CallReporter | undefined,
  hook: ((event: CallReportEvent) => void) | undefined,
  call: { toolName: string; toolCallId: string; correlationId: string },
): CallReporter | undefined {
  if (hook === undefined) return reporter;
  const { toolName, toolCallId, correlationId } = call;
  const notify = quietly(hook); // hook errors are ignored, as the other hooks'
  const combined: CallReporter = {
    progress: (update) => {
      notify({ toolName, toolCallId, correlationId, kind: 'progress', progress: update });
      reporter?.progress?.(update);
    },
    log: (level, data) => {
      notify({ toolName, toolCallId, correlationId, kind: 'log', level, data });
      reporter?.log?.(level, data);
    },
  };
  if (reporter?.elicit !== undefined) combined.elicit = reporter.elicit;
  if (reporter?.sample !== undefined) combined.sample = reporter.sample;
  return combined;
}

/** How many reports of each kind may go out at once, and how fast the allowance refills (per second). */
export interface ReportLimits {
  /** Default 10. */
  burst?: number;
  /** Default 20 per second. */
  perSecond?: number;
}

/** `send` made safe to call from a tool: what it throws is the caller's problem, never the tool's. */
function quietly<TArgs extends unknown[]>(send: (...args: TArgs) => void): (...args: TArgs) => void {
  return (...args) => {
    try {
      send(...args);
    } catch {
      // Reporting never fails a call.
    }
  };
}

const DEFAULT_BURST = 10;
const DEFAULT_PER_SECOND = 20;
const LEVELS: ReadonlySet<string> = new Set(LOG_LEVELS);

/**
 * A token bucket: the function it answers is true while the allowance lasts; it refills at
 * `perSecond`. A tight loop of reports gets the first `burst` through, then about `perSecond` a second.
 */
function tokenBucket(burst: number, perSecond: number): () => boolean {
  let tokens = burst;
  let last = performance.now();
  return () => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - last) / 1000) * perSecond);
    last = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/**
 * The `progress` and `log` a tool's context gets for `reporter`. Progress that does not grow, or is
 * not a finite number, is dropped, as is a report over the rate limit — except the last step of a
 * known total (`progress === total`), which always goes out. A log level MCP does not know is
 * reported as `info`. Whatever the reporter throws is swallowed: reporting never fails a call.
 */
export function reportingFunctions(reporter: CallReporter, limits: ReportLimits = {}): CallReporter {
  const burst = limits.burst ?? DEFAULT_BURST;
  const perSecond = limits.perSecond ?? DEFAULT_PER_SECOND;
  const functions: CallReporter = {};
  if (reporter.progress !== undefined) {
    const send = quietly(reporter.progress.bind(reporter));
    const take = tokenBucket(burst, perSecond);
    let last = Number.NEGATIVE_INFINITY;
    functions.progress = (update) => {
      const progress = update?.progress;
      if (typeof progress !== 'number' || !Number.isFinite(progress) || progress <= last) return;
      const total = typeof update.total === 'number' && Number.isFinite(update.total) ? update.total : undefined;
      if (progress !== total && !take()) return;
      last = progress;
      const sent: ProgressUpdate = { progress };
      if (total !== undefined) sent.total = total;
      if (typeof update.message === 'string') sent.message = update.message;
      send(sent);
    };
  }
  if (reporter.log !== undefined) {
    const send = quietly(reporter.log.bind(reporter));
    const take = tokenBucket(burst, perSecond);
    functions.log = (level, data) => {
      if (take()) send(LEVELS.has(level) ? level : 'info', data);
    };
  }
  if (reporter.elicit !== undefined) functions.elicit = checkedElicit(reporter.elicit);
  if (reporter.sample !== undefined) functions.sample = reporter.sample.bind(reporter);
  return functions;
}
