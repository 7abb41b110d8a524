import { ATTACH_ORCHESTRATOR, CALL_CHAIN, ComposedTool } from './composed.js';
import type { ApprovalGate, CallerTurn, ToolExecutionContext } from './context.js';
import { ToolsmithError, describeThrown, truncateText, type ToolErrorCode } from './errors.js';
import { nextCorrelationId } from './ids.js';
import {
  ToolCallFailure,
  ToolExecutor,
  checkArguments,
  checkOutput,
  missingCapabilities,
  prepareTool,
  readArguments,
  releaseEntry,
  waitForIdle,
  withoutStack,
  type RegisterOptions,
  type RegisteredTool,
  type ToolExecutionRequestDetails,
} from './executor.js';
import type { ITool, JSONSchemaObject, ToolExecutionResult } from './tool.js';

/** When a call needs approval: tools with side effects (default), every call, or none. */
export type ApprovalPolicy = 'side-effects' | 'always' | 'never';

/** One call for `processToolCall`: the LLM's request, who calls, and how the call may be stopped. */
export interface ToolCallDetails extends ToolExecutionRequestDetails {
  /** Stops the call: before it starts (`ABORTED`, nothing runs), while approval is pending, queued or running. */
  signal?: AbortSignal;
  /** The LLM turn the call belongs to: its shared budget and an approval gate that wins over the orchestrator's. */
  callerTurn?: CallerTurn;
  /**
   * This call's timeout in milliseconds; wins over the tool's `timeoutMs` and the orchestrator
   * default. The deadline covers the whole call from the lookup on: a lazy load, the refusal, the
   * approval gate, the wait for a slot and `execute`.
   */
  timeoutMs?: number;
  /** Set by a composed tool on its steps' calls: the composed tools running above this call, outermost first. */
  [CALL_CHAIN]?: readonly string[];
}

/** What a failed call reports: a stable code, a message naming the tool, and details. */
export interface ToolCallErrorDetails {
  code: ToolErrorCode;
  message: string;
  details?: Record<string, any>;
}

/** The answer to one tool call, ready to hand back to an LLM; `output` is `null` whenever `isError`. */
export interface ToolCallResult<TOutput = any> {
  toolCallId: string;
  toolName: string;
  output: TOutput | null;
  isError: boolean;
  errorDetails?: ToolCallErrorDetails;
}

/** What `onCallStart` gets. */
export interface CallStartEvent {
  toolName: string;
  toolCallId: string;
  correlationId: string;
}

/** What `onCallEnd` gets: the call, how long it took, its code, and what was thrown (with its stack) if anything. */
export interface CallEndEvent extends CallStartEvent {
  durationMs: number;
  isError: boolean;
  code?: ToolErrorCode;
  error?: unknown;
}

/** Callbacks around every call, to wire logging or tracing; nothing is printed by default. Hook errors are ignored. */
export interface OrchestratorHooks {
  onCallStart?(event: CallStartEvent): void;
  onCallEnd?(event: CallEndEvent): void;
}

/** How an orchestrator is set up. */
export interface ToolOrchestratorOptions {
  /** Tools registered at construction. */
  tools?: ITool[];
  /** Asked before a call that needs approval (see `requireApproval`); a turn's own gate wins. */
  approvalGate?: ApprovalGate;
  /** Default `'side-effects'`: asked only when a gate exists. `'always'` without a gate fails `APPROVAL_UNAVAILABLE`. */
  requireApproval?: ApprovalPolicy;
  /** Timeout for calls whose tool and request set none. */
  defaultTimeoutMs?: number;
  /** Most calls executing at once; more wait in a queue (in order). Unset: no limit. */
  maxConcurrency?: number;
  /** Most calls waiting for a slot; beyond it a call fails `QUEUE_FULL`. Unset: unbounded. */
  maxQueue?: number;
  /** Tool names (or ids) that may not be called nor listed. */
  disabledTools?: string[];
  hooks?: OrchestratorHooks;
  /**
   * The deadline of `shutdown()` (default 5,000 ms): calls in flight are waited for until then and
   * aborted at it, and a tool whose own `shutdown()` has not settled by then is reported, not awaited.
   */
  shutdownTimeoutMs?: number;
  /**
   * Most composed tools nested above one call (default 32): a composed tool that reaches itself
   * through its steps ends `COMPOSITION_TOO_DEEP` instead of running until the stack or memory runs out.
   */
  maxCompositionDepth?: number;
}

/** A tool as offered to an LLM. */
export interface ToolDefinitionForLLM {
  name: string;
  description: string;
  inputSchema: JSONSchemaObject;
  outputSchema?: JSONSchemaObject;
}

/** A tool shutdown that failed; collected and reported by `shutdown()`, never thrown. */
export interface ToolShutdownError {
  toolName: string;
  message: string;
  error: unknown;
}

/** What `shutdown()` reports. */
export interface ShutdownReport {
  /** Calls still in flight at the deadline, aborted (each resolved `ABORTED`). */
  abortedCalls: number;
  /** Tool shutdowns that failed (also those of tools replaced or unregistered earlier). */
  errors: ToolShutdownError[];
}

const MAX_TIMER_MS = 2_147_483_647;
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5_000;
/** Default of `maxCompositionDepth`. */
export const DEFAULT_MAX_COMPOSITION_DEPTH = 32;

type StopReason = 'caller' | 'timeout' | 'shutdown';
type StopCall = (call: PendingCall, reason: StopReason) => void;

/** The state of one `processToolCall` until it resolves; it resolves once, whoever finishes it first. */
class PendingCall {
  done = false;
  resolve: (result: ToolCallResult) => void = noop;
  toolCallId = '';
  toolName = 'unknown';
  correlationId = '';
  startedAt = 0;
  entry: RegisteredTool | undefined = undefined;
  /** Set once the tool is found: the request, the call's own copy of the arguments, the tool's context. */
  details: ToolCallDetails | undefined = undefined;
  args: Record<string, unknown> | undefined = undefined;
  context: ToolExecutionContext | undefined = undefined;
  /** The caller's signal this call listens to. */
  signal: AbortSignal | undefined = undefined;
  /** Only when a timeout applies: the signal the tool gets (caller's stop or the deadline). */
  controller: AbortController | undefined = undefined;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  timeoutMs = 0;
  /** When the deadline was armed (`performance.now()`), kept only while a lazy tool loads (its own timeout may re-arm it); else -1. */
  armedAt = -1;
  queued = false;
  holdsSlot = false;
  grant: (() => void) | undefined = undefined;
  /** Neighbours in the orchestrator's list of calls in flight (a list, not a Set: no hashing per call). */
  previous: PendingCall | undefined = undefined;
  next: PendingCall | undefined = undefined;

  constructor(readonly stop: StopCall) {}

  /** The caller's signal fired (`addEventListener` takes this object as the listener: no closure per call). */
  handleEvent(): void {
    this.stop(this, 'caller');
  }
}

function noop(): void {}

function onCallTimeout(call: PendingCall): void {
  call.stop(call, 'timeout');
}

function callHook<T>(hook: (event: T) => unknown, event: T): void {
  try {
    const returned = hook(event) as { then?: unknown } | undefined;
    if (returned !== null && typeof returned === 'object' && typeof returned.then === 'function')
      follow(returned, noop, noop);
  } catch {
    // A hook must never change the outcome of a call.
  }
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

const promiseThen = Promise.prototype.then;

/**
 * Continues with `onValue` or `onError` once `pending` settles, whatever it is. A native promise is
 * subscribed to with the intrinsic `then` (its own `then`, if any, is not trusted); anything else
 * is adopted by `Promise.resolve`, so a thenable whose `then` throws becomes a rejection. A promise
 * whose `constructor` or species lookup throws gets its constructor pinned and is subscribed to
 * anyway, so its rejection is still handled: nothing escapes, nothing is left unhandled.
 */
function follow<T>(pending: T | PromiseLike<T>, onValue: (value: T) => void, onError: (error: unknown) => void): void {
  try {
    if (pending instanceof Promise) promiseThen.call(pending, onValue as (value: unknown) => void, onError);
    else Promise.resolve(pending).then(onValue, onError);
  } catch (error) {
    if (!subscribePinned(pending, onValue as (value: unknown) => void, onError)) onError(error);
  }
}

function subscribePinned(
  pending: unknown,
  onValue: (value: unknown) => void,
  onError: (error: unknown) => void,
): boolean {
  try {
    Object.defineProperty(pending, 'constructor', { value: Promise, configurable: true, writable: true });
    promiseThen.call(pending, onValue, onError);
    return true;
  } catch {
    return false; // not a promise, or one that cannot be changed: nothing to subscribe to
  }
}

function isApproved(answer: unknown): boolean {
  return (
    answer === true ||
    (answer !== null && typeof answer === 'object' && (answer as { approved?: unknown }).approved === true)
  );
}

/**
 * Runs tool calls from an LLM, in one order for every call (see `processToolCall`), with
 * approval, permissions, budgets, timeouts, aborts, a concurrency limit, hooks and shutdown.
 */
export class ToolOrchestrator {
  readonly #executor = new ToolExecutor();
  readonly #approvalGate: ApprovalGate | undefined;
  readonly #requireApproval: ApprovalPolicy;
  readonly #defaultTimeoutMs: number | undefined;
  readonly #maxConcurrency: number | undefined;
  readonly #maxQueue: number;
  readonly #disabled: ReadonlySet<string>;
  readonly #onCallStart: ((event: CallStartEvent) => void) | undefined;
  readonly #onCallEnd: ((event: CallEndEvent) => void) | undefined;
  readonly #shutdownTimeoutMs: number;
  readonly #maxCompositionDepth: number;

  /** Calls not yet resolved, as a doubly linked list (shutdown waits for them, then aborts them). */
  #firstCall: PendingCall | undefined = undefined;
  #callCount = 0;
  #running = 0;
  #queue: Array<PendingCall | undefined> = [];
  #queueHead = 0;
  #queued = 0;

  #closing = false;
  #shutdown: Promise<ShutdownReport> | undefined;
  #onAllSettled: (() => void) | undefined;
  readonly #shutDownTools = new WeakSet<ITool>();
  /** Tool shutdowns started and not settled yet, with the tool's name (reported at shutdown's deadline). */
  readonly #pendingShutdowns = new Map<ITool, string>();
  readonly #retiring = new Set<Promise<void>>();
  readonly #shutdownErrors: ToolShutdownError[] = [];
  readonly #stop: StopCall = (call, reason) => this.#stopCall(call, reason);

  constructor(options: ToolOrchestratorOptions = {}) {
    this.#approvalGate = options.approvalGate;
    this.#requireApproval = options.requireApproval ?? 'side-effects';
    this.#defaultTimeoutMs = options.defaultTimeoutMs;
    this.#maxConcurrency = options.maxConcurrency;
    this.#maxQueue = options.maxQueue ?? Number.POSITIVE_INFINITY;
    this.#disabled = new Set(options.disabledTools ?? []);
    this.#onCallStart = options.hooks?.onCallStart?.bind(options.hooks);
    this.#onCallEnd = options.hooks?.onCallEnd?.bind(options.hooks);
    this.#shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    this.#maxCompositionDepth = options.maxCompositionDepth ?? DEFAULT_MAX_COMPOSITION_DEPTH;
    if (!(Number.isInteger(this.#maxCompositionDepth) && this.#maxCompositionDepth > 0)) {
      throw new ToolsmithError(
        'INVALID_TOOL',
        `maxCompositionDepth must be a positive integer; got ${String(options.maxCompositionDepth)}.`,
      );
    }
    if (this.#maxConcurrency !== undefined && !(Number.isInteger(this.#maxConcurrency) && this.#maxConcurrency > 0)) {
      throw new ToolsmithError(
        'INVALID_TOOL',
        `maxConcurrency must be a positive integer; got ${String(this.#maxConcurrency)}.`,
      );
    }
    for (const tool of options.tools ?? []) this.registerTool(tool);
  }

  /**
   * Registers `tool`. Throws `ALREADY_REGISTERED` for a taken name unless `replace` is set,
   * `INVALID_TOOL` for a malformed tool, `SHUTTING_DOWN` after `shutdown()`. The tool is callable
   * as soon as this returns; the promise (which never rejects) resolves once a replaced tool has
   * finished its in-flight calls and been shut down.
   */
  registerTool(tool: ITool, options: RegisterOptions = {}): Promise<void> {
    if (this.#closing)
      throw new ToolsmithError('SHUTTING_DOWN', 'The orchestrator is shutting down; no tool can be registered.');
    const entry = prepareTool(tool);
    const attach = (tool as { [ATTACH_ORCHESTRATOR]?: unknown })[ATTACH_ORCHESTRATOR];
    if (!options.replace) this.#executor.registry.assertAvailable(entry.name);
    if (typeof attach === 'function') attach.call(tool, this);
    const previous = this.#executor.registry.add(entry, options);
    if (previous === undefined || previous.tool === tool) return Promise.resolve();
    return this.#retire(previous);
  }

  /** Removes the tool under exactly `name`, waits for its in-flight calls, then shuts it down. False when not registered. */
  async unregisterTool(name: string): Promise<boolean> {
    const entry = this.#executor.removeTool(name);
    if (entry === undefined) return false;
    await this.#retire(entry);
    return true;
  }

  /** The tool registered under exactly `name`. */
  getTool(name: string): ITool | undefined {
    return this.#executor.getTool(name);
  }

  /**
   * What an LLM may be offered: name, description, input and output schema of every enabled tool,
   * and, given a context, only those whose required capabilities its `personaCapabilities` has.
   */
  listTools(context?: { personaCapabilities?: readonly string[] }): ToolDefinitionForLLM[] {
    const definitions: ToolDefinitionForLLM[] = [];
    for (const entry of this.#executor.registry.values()) {
      const tool = entry.tool;
      if (this.#isDisabled(tool)) continue;
      if (context !== undefined && missingCapabilities(entry, context.personaCapabilities) !== undefined) continue;
      const definition: ToolDefinitionForLLM = {
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
      };
      if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
      definitions.push(definition);
    }
    return definitions;
  }

  /**
   * Runs one tool call and resolves exactly once with its result; never rejects. The order, the
   * same for every call (the first failing step decides the code):
   *
   * 0. `SHUTTING_DOWN` after `shutdown()` was called;
   * 1. `INVALID_REQUEST`: no name, or arguments neither an object nor a JSON string of one;
   * 2. `TOOL_NOT_FOUND` (exact names; the message lists the nearest); `COMPOSITION_TOO_DEEP` for a
   *    step of composed tools nested deeper than `maxCompositionDepth`; from here on the call's
   *    deadline runs (`TIMEOUT` whatever is pending: a lazy load, the refusal, approval, execute);
   * 3. `ABORTED` when the signal already fired: nothing starts;
   * 4. `REFUSED` when `tool.refusal` answers a result (before anyone is asked to approve);
   * 5. `PERMISSION_DENIED` (missing capabilities in `details.missing`), `TOOL_DISABLED`;
   * 6. `BUDGET_EXCEEDED` once `callerTurn.budget.remaining` is spent (else it is decremented);
   * 7. `SCHEMA_INVALID`, `INVALID_ARGUMENTS` (input coerced and defaulted on a copy, then `validateArgs`);
   * 8. approval: `APPROVAL_UNAVAILABLE`, `APPROVAL_REJECTED`, `APPROVAL_FAILED`, `ABORTED` while pending;
   * 9. execute: `QUEUE_FULL`, `TIMEOUT` (at the deadline, even if the tool ignores its signal),
   *    `ABORTED`, `TOOL_FAILED`, `TOOL_ERROR`, `STEP_FAILED`;
   * 10. `OUTPUT_INVALID`; otherwise the coerced output.
   */
  processToolCall(details: ToolCallDetails): Promise<ToolCallResult> {
    const call = new PendingCall(this.#stop);
    const result = new Promise<ToolCallResult>((resolve) => {
      call.resolve = resolve;
    });
    this.#begin(details, call);
    return result;
  }

  /**
   * Stops accepting calls (every later call ends `SHUTTING_DOWN`), waits for calls in flight up to
   * `timeoutMs` (default: the `shutdownTimeoutMs` option) and then aborts them, and calls every
   * tool's `shutdown()` exactly once. Tool shutdown errors are collected in the report, never
   * thrown. Idempotent: later calls return the same promise.
   */
  shutdown(options: { timeoutMs?: number } = {}): Promise<ShutdownReport> {
    return (this.#shutdown ??= this.#shutdownOnce(options.timeoutMs ?? this.#shutdownTimeoutMs));
  }

  /**
   * The call pipeline, in the order documented on `processToolCall`, as a chain of steps: each
   * runs synchronously and hands over to the next, and only an answer that really is pending (a
   * lazy load, an async refusal, the approval gate, a queue slot, `execute`) continues in a `then`.
   * A plain call therefore costs no async function and no extra promise. Every step finishes
   * `call` on each of its paths and turns anything thrown into `TOOL_ERROR`, so no promise made
   * here can reject.
   *
   * Steps 0–2: shutting down, request shape, lookup (and a lazy tool's first load).
   */
  #begin(details: ToolCallDetails, call: PendingCall): void {
    try {
      const request = details?.toolCallRequest;
      const name: unknown = request?.name;
      if (typeof request?.id === 'string') call.toolCallId = request.id;
      if (typeof name === 'string' && name !== '') call.toolName = name.length > 256 ? truncateText(name, 256) : name;
      call.correlationId = details?.correlationId || nextCorrelationId();
      this.#track(call);
      if (this.#onCallEnd !== undefined) call.startedAt = performance.now();
      if (this.#onCallStart !== undefined) {
        callHook(this.#onCallStart, {
          toolName: call.toolName,
          toolCallId: call.toolCallId,
          correlationId: call.correlationId,
        });
      }

      // 0. Shutting down.
      if (this.#closing) {
        return this.#fail(call, 'SHUTTING_DOWN', 'The orchestrator is shutting down and accepts no more calls.');
      }

      // 1. Request shape.
      if (typeof name !== 'string' || name === '') {
        return this.#fail(call, 'INVALID_REQUEST', "The tool call has no 'name'. Send { id, name, arguments }.");
      }
      const args = readArguments(request.arguments, call.toolName);
      if (args instanceof ToolCallFailure) return this.#failWith(call, args);

      // 2. Lookup.
      const entry = this.#executor.getRegisteredTool(name);
      if (entry === undefined) return this.#fail(call, 'TOOL_NOT_FOUND', this.#executor.registry.notFoundMessage(name));
      entry.inFlight++;
      call.entry = entry;
      call.details = details;
      call.args = args;
      const chain = details[CALL_CHAIN];
      if (chain !== undefined && chain.length >= this.#maxCompositionDepth) return this.#tooDeep(call, chain);

      // The deadline: from here on it covers whatever the call waits for.
      const lazy = entry.load !== undefined;
      const timeoutMs = details.timeoutMs ?? (lazy ? undefined : entry.tool.timeoutMs) ?? this.#defaultTimeoutMs;
      if (timeoutMs !== undefined) this.#arm(call, timeoutMs);
      if (lazy) {
        // A lazy tool loads on its first call (its implementation and generated validators).
        if (details.timeoutMs === undefined) call.armedAt = performance.now();
        follow(
          entry.load!(),
          (failure) => this.#afterLoad(call, failure),
          (error: unknown) => this.#internalError(call, error),
        );
        return;
      }
      this.#screen(call, entry);
    } catch (error) {
      this.#internalError(call, error);
    }
  }

  #afterLoad(call: PendingCall, failure: ToolCallFailure | undefined): void {
    try {
      if (call.done) return;
      if (failure !== undefined) return this.#failWith(call, failure);
      const entry = call.entry!;
      if (call.armedAt !== -1) {
        // The loaded tool's own timeout applies (the request set none), counted from the lookup.
        const own = entry.tool.timeoutMs;
        const elapsed = performance.now() - call.armedAt;
        call.armedAt = -1;
        if (own !== undefined) this.#arm(call, own, elapsed);
        if (call.done) return; // loaded past its own deadline
      }
      const attach = (entry.tool as { [ATTACH_ORCHESTRATOR]?: unknown })[ATTACH_ORCHESTRATOR];
      if (typeof attach === 'function') attach.call(entry.tool, this);
      this.#screen(call, entry);
    } catch (error) {
      this.#internalError(call, error);
    }
  }

  /** Starts (or restarts, `elapsed` ms into the call) the call's deadline; a controller gives the tool a signal that fires at it. */
  #arm(call: PendingCall, timeoutMs: number, elapsed = 0): void {
    if (!(timeoutMs > 0) || timeoutMs === Number.POSITIVE_INFINITY) return;
    call.timeoutMs = timeoutMs;
    call.controller ??= new AbortController();
    if (call.timer !== undefined) clearTimeout(call.timer);
    if (elapsed >= timeoutMs) return this.#stopCall(call, 'timeout');
    call.timer = setTimeout(onCallTimeout, Math.min(timeoutMs - elapsed, MAX_TIMER_MS), call);
  }

  #tooDeep(call: PendingCall, chain: readonly string[]): void {
    const name = call.toolName;
    const cycleStart = chain.lastIndexOf(name); // the shortest cycle back to this tool
    const path = [...chain, name];
    const shown = path.length > 8 ? [...path.slice(0, 4), '…', ...path.slice(-3)] : path;
    const why =
      cycleStart === -1
        ? 'shorten the chain or raise the maxCompositionDepth option'
        : `composed tool '${name}' reaches itself through its steps (${[...chain.slice(cycleStart, cycleStart + 8), name].join(' → ')}); remove the cycle`;
    this.#fail(
      call,
      'COMPOSITION_TOO_DEEP',
      `Composed tools nest deeper than ${this.#maxCompositionDepth} levels (${shown.join(' → ')}): ${why}.`,
      { limit: this.#maxCompositionDepth, chain: path.length > 64 ? path.slice(-64) : path },
    );
  }

  /** Steps 3–4: already stopped, refusal. */
  #screen(call: PendingCall, entry: RegisteredTool): void {
    const details = call.details!;
    const tool = entry.tool;

    // 3. Already stopped.
    const signal = details.signal;
    if (signal !== undefined) {
      if (signal.aborted)
        return this.#fail(call, 'ABORTED', `The call to tool '${tool.name}' was aborted before it started.`);
      call.signal = signal;
      signal.addEventListener('abort', call);
    }
    call.context = {
      gmiId: details.gmiId,
      personaId: details.personaId,
      userContext: details.userContext,
      correlationId: call.correlationId,
      sessionData: details.sessionData,
      personaCapabilities: details.personaCapabilities,
      signal: call.controller === undefined ? signal : call.controller.signal,
      callerTurn: details.callerTurn,
    };
    const chain = details[CALL_CHAIN];
    if (chain !== undefined)
      (call.context as ToolExecutionContext & { [CALL_CHAIN]?: readonly string[] })[CALL_CHAIN] = chain;

    // 4. Refusal.
    if (tool.refusal === undefined) return this.#checks(call, entry, undefined);
    let refusal: ToolExecutionResult | undefined | Promise<ToolExecutionResult | undefined>;
    let pending: boolean;
    try {
      refusal = tool.refusal(call.args!, call.context);
      pending = isThenable(refusal);
    } catch (error) {
      return this.#refusalThrew(call, error);
    }
    if (!pending) return this.#checks(call, entry, refusal as ToolExecutionResult | undefined);
    follow(
      refusal,
      (answer) => {
        try {
          this.#checks(call, entry, answer);
        } catch (error) {
          this.#internalError(call, error);
        }
      },
      (error: unknown) => this.#refusalThrew(call, error),
    );
  }

  #refusalThrew(call: PendingCall, error: unknown): void {
    if (call.done) return;
    this.#fail(
      call,
      'TOOL_ERROR',
      `Tool '${call.toolName}' threw in its refusal check: ${describeThrown(error)}`,
      undefined,
      error,
    );
  }

  /** Steps 4 (its answer) to 8: refused, permissions, budget, input, approval. */
  #checks(call: PendingCall, entry: RegisteredTool, refusal: ToolExecutionResult | undefined | null): void {
    if (call.done) return;
    const tool = entry.tool;
    const details = call.details!;
    if (refusal !== undefined && refusal !== null) {
      let reason: string;
      let refusalDetails: Record<string, any> | undefined;
      try {
        const error: unknown = refusal.error;
        reason = typeof error === 'string' && error !== '' ? truncateText(error, 1000) : 'no reason given';
        refusalDetails = withoutStack(refusal.details);
      } catch (error) {
        return this.#refusalThrew(call, error); // a refusal that cannot be read
      }
      return this.#fail(call, 'REFUSED', `Tool '${call.toolName}' refused the call: ${reason}`, refusalDetails);
    }

    // 5. Permissions.
    const missing = missingCapabilities(entry, details.personaCapabilities);
    if (missing !== undefined) {
      return this.#fail(
        call,
        'PERMISSION_DENIED',
        `Tool '${tool.name}' needs capabilities the caller lacks: ${missing.join(', ')}.`,
        { missing },
      );
    }
    if (this.#isDisabled(tool))
      return this.#fail(call, 'TOOL_DISABLED', `Tool '${tool.name}' is disabled by configuration.`);

    // 6. Budget.
    const budget = details.callerTurn?.budget;
    if (budget !== undefined) {
      if (!(budget.remaining > 0)) {
        return this.#fail(
          call,
          'BUDGET_EXCEEDED',
          `The tool-call budget of this turn is spent; tool '${tool.name}' was not called.`,
        );
      }
      budget.remaining -= 1;
    }

    // 7. Input.
    const args = call.args!;
    const invalid = checkArguments(entry, args);
    if (invalid !== undefined) return this.#failWith(call, invalid);

    // 8. Approval.
    if (call.done) return; // stopped by something the tool's own checks did synchronously
    const policy = this.#requireApproval;
    if (policy === 'always' || (policy === 'side-effects' && tool.hasSideEffects === true)) {
      const gate = details.callerTurn?.approvalGate ?? this.#approvalGate;
      if (gate !== undefined) {
        let answer: unknown;
        try {
          answer = gate({ tool, args, context: call.context! });
        } catch (error) {
          return this.#approvalFailed(call, error);
        }
        follow(
          answer,
          (settled) => this.#afterApproval(call, entry, settled),
          (error: unknown) => this.#approvalFailed(call, error),
        );
        return;
      }
      if (policy === 'always') {
        return this.#fail(
          call,
          'APPROVAL_UNAVAILABLE',
          `Tool '${tool.name}' needs approval but no approval gate is configured.`,
        );
      }
    }
    this.#schedule(call, entry);
  }

  #approvalFailed(call: PendingCall, error: unknown): void {
    if (call.done) return;
    this.#fail(
      call,
      'APPROVAL_FAILED',
      `The approval gate failed for tool '${call.toolName}': ${describeThrown(error)}`,
      undefined,
      error,
    );
  }

  #afterApproval(call: PendingCall, entry: RegisteredTool, answer: unknown): void {
    if (call.done) return; // stopped while approval was pending: the tool never starts
    let approved: boolean;
    let reason: unknown;
    try {
      approved = isApproved(answer);
      if (!approved) reason = (answer as { reason?: unknown } | null)?.reason;
    } catch (error) {
      return this.#approvalFailed(call, error); // an answer that cannot be read
    }
    try {
      if (!approved) {
        return this.#fail(
          call,
          'APPROVAL_REJECTED',
          `The call to tool '${entry.tool.name}' was not approved${typeof reason === 'string' ? `: ${truncateText(reason, 1000)}` : '.'}`,
          typeof reason === 'string' ? { reason } : undefined,
        );
      }
      this.#schedule(call, entry);
    } catch (error) {
      this.#internalError(call, error);
    }
  }

  /** Step 9, before the tool runs: a slot when concurrency is limited (the deadline covers the wait). */
  #schedule(call: PendingCall, entry: RegisteredTool): void {
    const tool = entry.tool;
    if (this.#maxConcurrency !== undefined) {
      if (this.#running < this.#maxConcurrency) {
        this.#running++;
        call.holdsSlot = true;
      } else if (this.#queued >= this.#maxQueue) {
        return this.#fail(
          call,
          'QUEUE_FULL',
          `Too many calls are waiting (${this.#queued}); tool '${tool.name}' was not called. Retry later.`,
        );
      } else {
        follow(
          this.#waitForSlot(call),
          () => this.#execute(call, entry),
          (error: unknown) => this.#internalError(call, error),
        );
        return;
      }
    }
    this.#execute(call, entry);
  }

  /** Step 9: the tool runs. */
  #execute(call: PendingCall, entry: RegisteredTool): void {
    if (call.done) return;
    const tool = entry.tool;
    let pending: ToolExecutionResult | Promise<ToolExecutionResult>;
    try {
      pending = tool.execute(call.args!, call.context!);
      if (!isThenable(pending)) return this.#finishExecute(call, entry, pending);
    } catch (error) {
      // `execute` threw, or answered something whose `then` cannot even be read.
      return this.#executeThrew(call, error);
    }
    follow(
      pending,
      (result) => this.#finishExecute(call, entry, result),
      (error: unknown) => this.#executeThrew(call, error),
    );
  }

  #executeThrew(call: PendingCall, error: unknown): void {
    if (call.done) return; // e.g. a tool rejecting with its signal's reason after the deadline answered
    this.#fail(call, 'TOOL_ERROR', `Tool '${call.toolName}' threw: ${describeThrown(error)}`, undefined, error);
  }

  /** Steps 9 (the tool's answer) and 10: failure codes, output check, the result. */
  #finishExecute(call: PendingCall, entry: RegisteredTool, result: ToolExecutionResult): void {
    try {
      if (call.done) return; // timed out or aborted: already answered
      const tool = entry.tool;
      if (result === null || typeof result !== 'object') {
        return this.#fail(
          call,
          'TOOL_ERROR',
          `Tool '${tool.name}' returned ${result === null ? 'null' : typeof result} instead of a result object.`,
        );
      }
      if (!result.success) {
        const error =
          typeof result.error === 'string' && result.error !== ''
            ? truncateText(result.error, 1000)
            : 'no error message';
        if (tool instanceof ComposedTool) {
          const details = result.details;
          if (details?.code === 'COMPOSITION_TOO_DEEP') {
            // The innermost call's answer, passed up unchanged (not wrapped in STEP_FAILED at every level).
            const { code: _code, ...rest } = details;
            return this.#fail(call, 'COMPOSITION_TOO_DEEP', error, rest);
          }
          if (typeof details?.step === 'number') return this.#fail(call, 'STEP_FAILED', error, details);
        }
        return this.#fail(call, 'TOOL_FAILED', `Tool '${tool.name}' failed: ${error}`, withoutStack(result.details));
      }

      // 10. Output.
      const checked = checkOutput(entry, result.output);
      if (checked instanceof ToolCallFailure) return this.#failWith(call, checked);
      this.#finish(
        call,
        { toolCallId: call.toolCallId, toolName: call.toolName, output: checked.output ?? null, isError: false },
        undefined,
        undefined,
      );
    } catch (error) {
      if (call.done) return;
      this.#fail(
        call,
        'TOOL_ERROR',
        `Tool '${call.toolName}' answered a result that cannot be read: ${describeThrown(error)}`,
        undefined,
        error,
      );
    }
  }

  #internalError(call: PendingCall, error: unknown): void {
    if (call.done) return;
    this.#fail(
      call,
      'TOOL_ERROR',
      `Internal error while calling tool '${call.toolName}': ${describeThrown(error)}`,
      undefined,
      error,
    );
  }

  #isDisabled(tool: ITool): boolean {
    return this.#disabled.size !== 0 && (this.#disabled.has(tool.name) || this.#disabled.has(tool.id));
  }

  #fail(call: PendingCall, code: ToolErrorCode, message: string, details?: Record<string, any>, error?: unknown): void {
    if (call.done) return;
    const errorDetails: ToolCallErrorDetails = details === undefined ? { code, message } : { code, message, details };
    this.#finish(
      call,
      { toolCallId: call.toolCallId, toolName: call.toolName, output: null, isError: true, errorDetails },
      code,
      error,
    );
  }

  #failWith(call: PendingCall, failure: ToolCallFailure): void {
    this.#fail(call, failure.code, failure.message, failure.details, failure.error);
  }

  /** Resolves `call` once and releases everything it holds (listener, timer, slot, registration). */
  #finish(call: PendingCall, result: ToolCallResult, code: ToolErrorCode | undefined, error: unknown): void {
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
    if (call.queued) {
      call.queued = false;
      this.#queued--;
    }
    if (call.holdsSlot) {
      call.holdsSlot = false;
      this.#releaseSlot();
    }
    if (call.entry !== undefined) releaseEntry(call.entry);
    this.#untrack(call);
    if (this.#onAllSettled !== undefined && this.#callCount === 0) this.#onAllSettled();
    if (this.#onCallEnd !== undefined) {
      const event: CallEndEvent = {
        toolName: call.toolName,
        toolCallId: call.toolCallId,
        correlationId: call.correlationId,
        durationMs: performance.now() - call.startedAt,
        isError: result.isError,
      };
      if (code !== undefined) event.code = code;
      if (error !== undefined) event.error = error;
      callHook(this.#onCallEnd, event);
    }
    call.resolve(result);
  }

  /** Ends a call from outside its pipeline: the caller's stop, its deadline, or shutdown. */
  #stopCall(call: PendingCall, reason: StopReason): void {
    if (call.done) return;
    const name = call.toolName;
    let abortReason: unknown;
    if (reason === 'timeout') {
      this.#fail(call, 'TIMEOUT', `Tool '${name}' did not finish within ${call.timeoutMs} ms; the call was stopped.`, {
        timeoutMs: call.timeoutMs,
      });
      abortReason = new DOMException(`Tool '${name}' timed out after ${call.timeoutMs} ms.`, 'TimeoutError');
    } else if (reason === 'caller') {
      this.#fail(call, 'ABORTED', `The call to tool '${name}' was aborted by the caller.`);
      try {
        abortReason = call.signal?.reason;
      } catch (error) {
        abortReason = error;
      }
    } else {
      this.#fail(call, 'ABORTED', `The call to tool '${name}' was aborted because the orchestrator shut down.`, {
        reason: 'shutdown',
      });
      abortReason = new DOMException('The orchestrator shut down.', 'AbortError');
    }
    call.controller?.abort(abortReason);
  }

  #track(call: PendingCall): void {
    const first = this.#firstCall;
    if (first !== undefined) {
      first.previous = call;
      call.next = first;
    }
    this.#firstCall = call;
    this.#callCount++;
  }

  #untrack(call: PendingCall): void {
    const { previous, next } = call;
    if (previous !== undefined) previous.next = next;
    else if (this.#firstCall === call) this.#firstCall = next;
    else return; // never tracked
    if (next !== undefined) next.previous = previous;
    call.previous = call.next = undefined;
    this.#callCount--;
  }

  #waitForSlot(call: PendingCall): Promise<void> {
    call.queued = true;
    this.#queued++;
    this.#queue.push(call);
    return new Promise((resolve) => {
      call.grant = resolve;
    });
  }

  /** Hands the slot of a finished call to the next live queued call, or frees it. */
  #releaseSlot(): void {
    const queue = this.#queue;
    while (this.#queueHead < queue.length) {
      const next = queue[this.#queueHead];
      queue[this.#queueHead++] = undefined;
      if (next === undefined || next.done || !next.queued) continue;
      next.queued = false;
      this.#queued--;
      next.holdsSlot = true;
      if (this.#queueHead > 1024 && this.#queueHead * 2 > queue.length) {
        this.#queue = queue.slice(this.#queueHead);
        this.#queueHead = 0;
      }
      next.grant?.();
      return;
    }
    this.#queue = [];
    this.#queueHead = 0;
    this.#running--;
  }

  /** Waits for a removed or replaced registration's calls, then shuts its tool down (errors collected). */
  #retire(entry: RegisteredTool): Promise<void> {
    const retired = waitForIdle(entry).then(() => this.#shutdownTool(entry));
    this.#retiring.add(retired);
    void retired.then(() => this.#retiring.delete(retired));
    return retired;
  }

  /** Calls the tool's `shutdown()` once; resolves when it settles (never rejects: a failure is collected). */
  #shutdownTool(entry: RegisteredTool): Promise<void> {
    const tool = entry.tool;
    if (this.#shutDownTools.has(tool)) return Promise.resolve();
    this.#shutDownTools.add(tool);
    const name = entry.name;
    return new Promise<void>((resolve) => {
      const settle = (failed: boolean, error?: unknown) => {
        this.#pendingShutdowns.delete(tool);
        if (failed) this.#shutdownErrors.push({ toolName: name, message: describeThrown(error), error });
        resolve();
      };
      try {
        const shutdown = tool.shutdown;
        if (typeof shutdown !== 'function') return resolve();
        this.#pendingShutdowns.set(tool, name);
        follow(
          shutdown.call(tool),
          () => settle(false),
          (error: unknown) => settle(true, error),
        );
      } catch (error) {
        settle(true, error);
      }
    });
  }

  async #shutdownOnce(timeoutMs: number): Promise<ShutdownReport> {
    this.#closing = true;
    const budget = Math.min(Math.max(Number.isNaN(timeoutMs) ? 0 : timeoutMs, 0), MAX_TIMER_MS);
    const started = performance.now();
    let abortedCalls = 0;
    if (this.#callCount > 0) {
      const settled = new Promise<void>((resolve) => {
        this.#onAllSettled = resolve;
      });
      const outcome = await raceDeadline(settled, budget);
      if (outcome === 'deadline') {
        const pending: PendingCall[] = [];
        for (let call = this.#firstCall; call !== undefined; call = call.next) pending.push(call);
        for (const call of pending) {
          if (call.done) continue;
          this.#stopCall(call, 'shutdown');
          abortedCalls++;
        }
      }
      this.#onAllSettled = undefined;
    }
    const entries = this.#executor.registry.values();
    this.#executor.registry.clear();
    const shutdowns = Promise.all([...this.#retiring, ...entries.map((entry) => this.#shutdownTool(entry))]);
    // The tools get what is left of the deadline (at least one turn of the event loop).
    const outcome = await raceDeadline(shutdowns, Math.max(budget - (performance.now() - started), 0));
    const errors = [...this.#shutdownErrors];
    if (outcome === 'deadline') {
      for (const name of this.#pendingShutdowns.values()) {
        const message = `Tool '${name}' did not finish shutting down within the ${budget} ms deadline; it was left running.`;
        errors.push({ toolName: name, message, error: new ToolsmithError('TIMEOUT', message) });
      }
    }
    return { abortedCalls, errors };
  }
}

/** `work`'s value, or `'deadline'` when `ms` pass first (the timer is cleared either way). */
function raceDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'deadline'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(resolve, ms, 'deadline');
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
