import type { CallReportEvent } from '../caller/call-reporting.js';
import type { ApprovalGate, ToolExecutionContext } from '../context.js';
import { truncateText, type ToolErrorCode } from '../errors.js';
import type { CallStepName } from '../call-order.js';
import { nextCorrelationId } from './ids.js';
import type { ToolRegistry } from '../registry.js';
import type { ContentBlock } from '../caller/content.js';
import type { ValueCoercion } from '../schema/validator-runtime.js';
import type { ITool, ToolExecutionResult } from '../tool.js';
import { ToolCallFailure, thrownFailure } from './failure.js';
import { releaseEntry, type RegisteredTool } from './registered-tool.js';
import { noop } from './settle.js';
import type { ApprovalPolicy, RetryPolicy, ToolCallDetails, ToolCallRequest } from './types.js';

/**
 * What runs calls through the pipeline (the orchestrator, the executor view): the settings the
 * steps read and the few things only the host can do. The steps are the same for every host; a
 * host without a gate, a queue or a shutdown simply answers "nothing to do" there.
 */
export interface CallHost {
  /** True once the host accepts no more calls (`SHUTTING_DOWN`). */
  readonly closing: boolean;
  /** The registered tools, by exact name. */
  readonly registry: ToolRegistry<RegisteredTool>;
  /** Most composed tools nested above one call. */
  readonly maxCompositionDepth: number;
  /** The timeout of calls whose request and tool set none. */
  readonly defaultTimeoutMs: number | undefined;
  /** Asked before a call that needs approval, unless the turn brings its own gate. */
  readonly approvalGate: ApprovalGate | undefined;
  readonly requireApproval: ApprovalPolicy;
  /** True when a side-effect tool may run with no approval gate at all (else `APPROVAL_REJECTED`). */
  readonly allowSideEffects: boolean;
  /** The retry policy of calls that set none (`retry.ts`); undefined: no retries. */
  readonly retry: RetryPolicy | undefined;
  /** Most bytes one content block may carry (decoded base64, or UTF-8 text). */
  readonly maxContentBytes: number;
  /** Sees every progress and log report of every call (the `onCallReport` hook), if set. */
  readonly onCallReport: ((event: CallReportEvent) => void) | undefined;
  /** True for a tool disabled by configuration (`TOOL_DISABLED`). */
  isDisabled(tool: ITool): boolean;
  /** Most calls executing at once; undefined: no limit, `acquireSlot` always answers "run now". */
  readonly maxConcurrency: number | undefined;
  /** The steps a plain call of `entry` skips (`planSteps` of the driver, which the steps cannot import). */
  planSteps(entry: RegisteredTool): number;
  /** Called with a lazy tool once it has loaded (the orchestrator attaches composed tools to itself). */
  attach(tool: ITool): void;
  /**
   * The slot step: `undefined` when the call may run now (or was failed, `QUEUE_FULL`), else a
   * promise that resolves once it holds a slot.
   */
  acquireSlot(call: PipelineCall): PromiseLike<void> | undefined;
  /** Called once per call before its first step, once it knows its id and name (the orchestrator tracks it and calls its hook). */
  begin(call: PipelineCall): void;
  /** Called once per call, when it is answered: releases what the host holds for it and resolves it. */
  settle(call: PipelineCall): void;
}

/** Default of `maxCompositionDepth`: most composed tools nested above one call. */
export const DEFAULT_MAX_COMPOSITION_DEPTH = 32;

/** Why a call is stopped from outside its steps. */
export type StopReason = 'caller' | 'timeout' | 'shutdown';

/**
 * The state of one call on its way through the steps, until it is answered; it is answered once,
 * whoever finishes it first (a step, the deadline, the caller's signal, shutdown). Every field is
 * set in the constructor so all calls share one shape.
 */
export class PipelineCall {
  done = false;
  /** Resolves the host's promise; `settle` hands it the host's own result shape. */
  resolve: (result: unknown) => void = noop;
  toolCallId = '';
  toolName = 'unknown';
  correlationId = '';
  startedAt = 0;
  /** The request as given (read once: a getter is not asked twice). */
  details: ToolCallDetails = undefined as never;
  request: ToolCallRequest | undefined = undefined;
  /** `request.name` as given, before any check. */
  name: unknown = undefined;
  /** Set by the lookup: the registration, counted in its `inFlight`. */
  entry: RegisteredTool | undefined = undefined;
  /** The call's own copy of the arguments (validated in place by the arguments step). */
  args: Record<string, unknown> | undefined = undefined;
  /** The argument values the arguments step converted to fit the schema (`"212"` → `212`), if any. */
  coercions: readonly ValueCoercion[] | undefined = undefined;
  context: ToolExecutionContext | undefined = undefined;
  /** The caller's signal this call listens to. */
  signal: AbortSignal | undefined = undefined;
  /** Only when a timeout applies: the signal the tool gets (caller's stop or the deadline). */
  controller: AbortController | undefined = undefined;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  timeoutMs = 0;
  /** When the deadline falls (`performance.now()`), while one is armed. */
  deadlineAt: number | undefined = undefined;
  /** How many times the tool ran, counted once a retryable failure met a retry policy (`retry.ts`); else 0. */
  attempts = 0;
  /** When the deadline was armed (`performance.now()`), kept only while a lazy tool loads (its own timeout may re-arm it); else -1. */
  armedAt = -1;
  /** The host's concurrency bookkeeping (the orchestrator's queue). */
  queued = false;
  holdsSlot = false;
  grant: (() => void) | undefined = undefined;
  nextQueued: PipelineCall | undefined = undefined;
  /** Neighbours in the host's list of calls in flight (a list, not a Set: no hashing per call, which P1 needs). */
  previous: PipelineCall | undefined = undefined;
  next: PipelineCall | undefined = undefined;
  /** What `execute` answered, as the tool gave it. */
  toolResult: ToolExecutionResult | undefined = undefined;
  /** The checked (coerced) output of a successful call. */
  output: unknown = undefined;
  /** The checked content blocks of a successful call whose result carried some. */
  content: ContentBlock[] | undefined = undefined;
  /** Set when the call failed: its code, message, details and what was thrown (for hooks, never in a result). */
  failure: ToolCallFailure | undefined = undefined;
  /** The positions of the steps the driver skips for this call (bit `1 << index`), set by the lookup. */
  skip = 0;

  constructor(readonly host: CallHost) {}

  /** The caller's signal fired (`addEventListener` takes this object as the listener: no closure per call). */
  handleEvent(): void {
    stopCall(this, 'caller');
  }
}

/** Reads what the call is known by (id, name, correlation id) before any step runs; may throw on a hostile request. */
export function identifyCall(call: PipelineCall, details: ToolCallDetails): void {
  call.details = details;
  const request = details?.toolCallRequest;
  call.request = request;
  const name: unknown = request?.name;
  call.name = name;
  if (typeof request?.id === 'string') call.toolCallId = request.id;
  if (typeof name === 'string' && name !== '') call.toolName = name.length > 256 ? truncateText(name, 256) : name;
  call.correlationId = details?.correlationId || nextCorrelationId();
}

/** Answers `call` once: releases its timer, listener and registration, then lets the host settle it. */
export function endCall(call: PipelineCall): void {
  if (call.done) return;
  call.done = true;
  if (call.timer !== undefined) clearTimeout(call.timer);
  if (call.signal !== undefined) {
    try {
      call.signal.removeEventListener('abort', call);
    } catch {
      // a signal-like object whose method throws: the call is answered anyway
    }
  }
  if (call.entry !== undefined) releaseEntry(call.entry);
  call.host.settle(call);
}

/** Ends `call` with a failure (nothing happens when it is already answered). */
export function failCall(
  call: PipelineCall,
  code: ToolErrorCode,
  message: string,
  details?: Record<string, any>,
): void {
  failWith(call, new ToolCallFailure(code, message, details));
}

/** Ends `call` with a prepared failure. */
export function failWith(call: PipelineCall, failure: ToolCallFailure): void {
  if (call.done) return;
  call.failure = failure;
  endCall(call);
}

/** Ends `call` with `TOOL_ERROR` for something thrown where nothing should throw. */
export function internalError(call: PipelineCall, error: unknown): void {
  failWith(call, thrownFailure('TOOL_ERROR', `Internal error while calling tool '${call.toolName}'`, error));
}

/** Ends a call from outside its steps: the caller's stop, its deadline, or the host's shutdown. */
export function stopCall(call: PipelineCall, reason: StopReason): void {
  if (call.done) return;
  const name = call.toolName;
  let abortReason: unknown;
  if (reason === 'timeout') {
    failCall(call, 'TIMEOUT', `Tool '${name}' did not finish within ${call.timeoutMs} ms; the call was stopped.`, {
      timeoutMs: call.timeoutMs,
    });
    abortReason = new DOMException(`Tool '${name}' timed out after ${call.timeoutMs} ms.`, 'TimeoutError');
  } else if (reason === 'caller') {
    failCall(call, 'ABORTED', `The call to tool '${name}' was aborted by the caller.`);
    try {
      abortReason = call.signal?.reason;
    } catch (error) {
      abortReason = error;
    }
  } else {
    failCall(call, 'ABORTED', `The call to tool '${name}' was aborted because the orchestrator shut down.`, {
      reason: 'shutdown',
    });
    abortReason = new DOMException('The orchestrator shut down.', 'AbortError');
  }
  call.controller?.abort(abortReason);
}

/** The longest delay `setTimeout` takes (a longer one fires at once). */
export const MAX_TIMER_MS = 2_147_483_647;

/** Starts (or restarts, `elapsed` ms into the call) the call's deadline; a controller gives the tool a signal that fires at it. */
export function armDeadline(call: PipelineCall, timeoutMs: number, elapsed = 0): void {
  if (!(timeoutMs > 0) || timeoutMs === Number.POSITIVE_INFINITY) return;
  call.timeoutMs = timeoutMs;
  call.controller ??= new AbortController();
  if (call.timer !== undefined) clearTimeout(call.timer);
  if (elapsed >= timeoutMs) return stopCall(call, 'timeout');
  call.deadlineAt = performance.now() + timeoutMs - elapsed;
  call.timer = setTimeout(stopCall, Math.min(timeoutMs - elapsed, MAX_TIMER_MS), call, 'timeout');
}

/** What a step answers: nothing (go on, unless it ended the call) or something pending to wait for. */
export type StepOutcome = PromiseLike<unknown> | undefined | void;

/**
 * One step of the call, as the driver runs it. `run` goes synchronously; when it returns a pending
 * value the driver waits for it and hands the settled value to `resume` (which may again return
 * something pending) or what it rejected with to `reject` (default: an internal `TOOL_ERROR`).
 * A step ends the call with `failCall`; the driver stops at the first step that did.
 */
export interface CallStepImplementation {
  run(call: PipelineCall): StepOutcome;
  resume?(call: PipelineCall, value: unknown): StepOutcome;
  reject?(call: PipelineCall, error: unknown): void;
  /**
   * True when the step has nothing to do for any plain call (see `isPlainRequest`) of this
   * registration on this host; asked once per registration, so the driver skips the step there.
   * It may read only what is fixed at registration (the tool, its prepared validators, the host's
   * settings), never the call. A step without it always runs.
   */
  plain?(entry: RegisteredTool, host: CallHost): boolean;
}

/**
 * True for a request that sets none of the per-call options a step may read (`timeoutMs`,
 * `callerTurn`): for it, the steps that answer `plain` for its registration are skipped.
 */
export function isPlainRequest(details: ToolCallDetails): boolean {
  return details.timeoutMs === undefined && details.callerTurn === undefined;
}

/** A step with its name and the codes it may answer (from `CALL_STEP_ORDER`). */
export interface CallStep extends CallStepImplementation {
  readonly name: CallStepName;
  readonly codes: readonly ToolErrorCode[];
}
