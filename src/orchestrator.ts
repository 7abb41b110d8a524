import type { CallReportEvent } from './caller/call-reporting.js';
import { DEFAULT_MAX_CONTENT_BYTES } from './caller/content.js';
import type { ApprovalGate } from './context.js';
import { ToolsmithError, describeThrown, type ToolErrorCode } from './errors.js';
import { DEFAULT_MAX_FEEDBACK_LENGTH } from './feedback/render.js';
import { DEFAULT_MAX_COMPOSITION_DEPTH, MAX_TIMER_MS, failCall, stopCall } from './pipeline/call.js';
import type { CallHost, PipelineCall } from './pipeline/call.js';
import { planSteps, runCall } from './pipeline/driver.js';
import { ATTACH_ORCHESTRATOR } from './pipeline/markers.js';
import { prepareTool, waitForIdle, type RegisterOptions, type RegisteredTool } from './pipeline/registered-tool.js';
import { callHook, follow, raceDeadline } from './pipeline/settle.js';
import { missingCapabilities } from './pipeline/steps/screen.js';
import { retryPolicyProblem } from './pipeline/retry.js';
import type {
  ApprovalPolicy,
  RetryPolicy,
  ToolCallDetails,
  ToolCallErrorDetails,
  ToolCallResult,
} from './pipeline/types.js';
import { ToolRegistry } from './registry.js';
import type { JSONSchemaObject } from './schema/validation.js';
import type { ITool } from './tool.js';

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
  /** Every progress and log report a tool makes (`context.progress`, `context.log`), whoever called it. */
  onCallReport?(event: CallReportEvent): void;
}

/** How an orchestrator is set up. */
export interface ToolOrchestratorOptions {
  /** Tools registered at construction. */
  tools?: ITool[];
  /** Asked before a call that needs approval (see `requireApproval`); a turn's own gate wins. */
  approvalGate?: ApprovalGate;
  /**
   * Default `'side-effects'`: a tool with `hasSideEffects` is asked about (the turn's gate, else
   * `approvalGate`); with neither, it is answered `APPROVAL_REJECTED` unless `allowSideEffects`.
   * `'always'` without a gate fails `APPROVAL_UNAVAILABLE`; `'never'` asks nobody.
   */
  requireApproval?: ApprovalPolicy;
  /**
   * Let tools with side effects run when no approval gate exists (neither the orchestrator's nor
   * the turn's). Default `false`: such a call is answered `APPROVAL_REJECTED`, so nothing that acts
   * runs silently. A gate, when there is one, is still asked.
   */
  allowSideEffects?: boolean;
  /**
   * Most bytes the content blocks of one result may carry in all (base64 data decoded, text as
   * UTF-8); default `DEFAULT_MAX_CONTENT_BYTES` (16 MiB). More fails the call `OUTPUT_INVALID`.
   */
  maxContentBytes?: number;
  /**
   * Longest feedback text a model gets for a failed call (`feedbackText`: the MCP server, the
   * framework adapters and `toolsmith call` send it); default `DEFAULT_MAX_FEEDBACK_LENGTH` (1,500).
   */
  maxFeedbackLength?: number;
  /** Timeout for calls whose tool and request set none. */
  defaultTimeoutMs?: number;
  /**
   * Retry a failure the tool marks `retryable`, for tools that are read-only or idempotent: at most
   * `attempts` in all, waiting `backoffMs` (doubled each time) between them, within the call's one
   * deadline, each attempt charged to the turn's budget. A call's own `retry` wins. Unset: no retries.
   */
  retry?: RetryPolicy;
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

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5_000;

function checkPositiveInteger(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0))
    throw new ToolsmithError('INVALID_TOOL', `${name} must be a positive integer; got ${String(value)}.`);
}

/**
 * The orchestrator as a host of the call pipeline (src/pipeline/): its settings, the calls in
 * flight (shutdown waits for them, then aborts them), the concurrency slots and queue, and the
 * hooks. What a call does is the pipeline's steps; what the orchestrator adds is here. The
 * executor is this host without an orchestrator to attach tools to, answering its own results.
 */
export class OrchestratorHost implements CallHost {
  readonly registry = new ToolRegistry<RegisteredTool>();
  closing = false;
  readonly approvalGate: ApprovalGate | undefined;
  readonly requireApproval: ApprovalPolicy;
  readonly maxContentBytes: number;
  readonly allowSideEffects: boolean;
  readonly defaultTimeoutMs: number | undefined;
  readonly retry: RetryPolicy | undefined;
  readonly maxCompositionDepth: number;
  readonly maxConcurrency: number | undefined;
  readonly #maxQueue: number;
  readonly #disabled: ReadonlySet<string>;
  readonly onCallStart: ((event: CallStartEvent) => void) | undefined;
  readonly onCallReport: ((event: CallReportEvent) => void) | undefined;
  readonly #onCallEnd: ((event: CallEndEvent) => void) | undefined;
  readonly #orchestrator: ToolOrchestrator | undefined;

  /**
   * Calls not yet resolved, as a doubly linked list: P1 needs it (with a `Set` instead, P1 was
   * 0.456-0.467 against 0.349-0.370, a miss of its 0.45 target: `npm run bench -- --only P1`, alternating).
   */
  firstCall: PipelineCall | undefined = undefined;
  onAllSettled: (() => void) | undefined = undefined;
  #running = 0;
  /** Calls waiting for a slot, oldest first, linked by `nextQueued`: taking the first costs the same however long the queue. */
  #firstQueued: PipelineCall | undefined = undefined;
  #lastQueued: PipelineCall | undefined = undefined;
  #queued = 0;

  constructor(orchestrator: ToolOrchestrator | undefined, options: ToolOrchestratorOptions) {
    this.#orchestrator = orchestrator;
    this.approvalGate = options.approvalGate;
    this.requireApproval = options.requireApproval ?? 'side-effects';
    this.maxContentBytes = options.maxContentBytes ?? DEFAULT_MAX_CONTENT_BYTES;
    this.allowSideEffects = options.allowSideEffects === true;
    this.defaultTimeoutMs = options.defaultTimeoutMs;
    this.retry = options.retry;
    const retryProblem = options.retry === undefined ? undefined : retryPolicyProblem(options.retry);
    if (retryProblem !== undefined) throw new ToolsmithError('INVALID_TOOL', retryProblem);
    this.maxCompositionDepth = options.maxCompositionDepth ?? DEFAULT_MAX_COMPOSITION_DEPTH;
    this.maxConcurrency = options.maxConcurrency;
    this.#maxQueue = options.maxQueue ?? Number.POSITIVE_INFINITY;
    this.#disabled = new Set(options.disabledTools ?? []);
    this.onCallStart = options.hooks?.onCallStart?.bind(options.hooks);
    this.onCallReport = options.hooks?.onCallReport?.bind(options.hooks);
    this.#onCallEnd = options.hooks?.onCallEnd?.bind(options.hooks);
    checkPositiveInteger('maxCompositionDepth', options.maxCompositionDepth);
    checkPositiveInteger('maxConcurrency', this.maxConcurrency);
    checkPositiveInteger('maxContentBytes', options.maxContentBytes);
  }

  planSteps(entry: RegisteredTool): number {
    return planSteps(entry, this);
  }

  isDisabled(tool: ITool): boolean {
    return this.#disabled.size !== 0 && (this.#disabled.has(tool.name) || this.#disabled.has(tool.id));
  }

  /** A lazily loaded tool that wants the orchestrator (a composed one) gets it. */
  attach(tool: ITool): void {
    const attach = (tool as { [ATTACH_ORCHESTRATOR]?: unknown })[ATTACH_ORCHESTRATOR];
    if (this.#orchestrator !== undefined && typeof attach === 'function') attach.call(tool, this.#orchestrator);
  }

  /** Tracks the call and tells the start hook, before the first step. */
  begin(call: PipelineCall): void {
    const first = this.firstCall;
    if (first !== undefined) {
      first.previous = call;
      call.next = first;
    }
    this.firstCall = call;
    if (this.#onCallEnd !== undefined) call.startedAt = performance.now();
    if (this.onCallStart !== undefined) callHook(this.onCallStart, startEvent(call));
  }

  acquireSlot(call: PipelineCall): Promise<void> | undefined {
    if (this.maxConcurrency === undefined) return undefined;
    if (this.#running < this.maxConcurrency) {
      this.#running++;
      call.holdsSlot = true;
      return undefined;
    }
    if (this.#queued >= this.#maxQueue) {
      const message = `Too many calls are waiting (${this.#queued}); tool '${call.entry!.tool.name}' was not called. Retry later.`;
      failCall(call, 'QUEUE_FULL', message);
      return undefined;
    }
    call.queued = true;
    this.#queued++;
    if (this.#lastQueued === undefined) this.#firstQueued = call;
    else this.#lastQueued.nextQueued = call;
    this.#lastQueued = call;
    return new Promise((resolve) => {
      call.grant = resolve;
    });
  }

  /** Releases the call's slot or queue place, untracks it, tells the end hook and resolves it. */
  settle(call: PipelineCall): void {
    if (call.queued) {
      call.queued = false;
      this.#queued--;
    }
    if (call.holdsSlot) {
      call.holdsSlot = false;
      this.#releaseSlot();
    }
    this.#untrack(call);
    if (this.onAllSettled !== undefined && this.firstCall === undefined) this.onAllSettled();
    if (this.#onCallEnd !== undefined) this.#callEndHook(call);
    call.resolve(this.answer(call));
  }

  /** The result a settled call resolves with. */
  answer(call: PipelineCall): unknown {
    const failure = call.failure;
    let result: ToolCallResult;
    if (failure === undefined) {
      result = { toolCallId: call.toolCallId, toolName: call.toolName, output: call.output ?? null, isError: false };
      if (call.content !== undefined) result.content = call.content;
    } else {
      const { code, message, details, declared } = failure;
      const errorDetails: ToolCallErrorDetails = details === undefined ? { code, message } : { code, message, details };
      if (declared !== undefined) errorDetails.failure = declared;
      result = { toolCallId: call.toolCallId, toolName: call.toolName, output: null, isError: true, errorDetails };
    }
    if (call.attempts > 0) result.attempts = call.attempts;
    if (call.coercions !== undefined) result.coercions = call.coercions;
    return result;
  }

  #callEndHook(call: PipelineCall): void {
    const event: CallEndEvent = {
      ...startEvent(call),
      durationMs: performance.now() - call.startedAt,
      isError: call.failure !== undefined,
    };
    const failure = call.failure;
    if (failure !== undefined) {
      event.code = failure.code;
      if (failure.error !== undefined) event.error = failure.error;
    }
    callHook(this.#onCallEnd!, event);
  }

  #untrack(call: PipelineCall): void {
    const { previous, next } = call;
    if (previous !== undefined) previous.next = next;
    else if (this.firstCall === call) this.firstCall = next;
    else return; // never tracked
    if (next !== undefined) next.previous = previous;
    call.previous = call.next = undefined;
  }

  /** Hands the slot of a finished call to the next live queued call (a call stopped while queued is passed over), or frees it. */
  #releaseSlot(): void {
    for (let next = this.#firstQueued; next !== undefined; next = this.#firstQueued) {
      this.#firstQueued = next.nextQueued;
      if (this.#firstQueued === undefined) this.#lastQueued = undefined;
      next.nextQueued = undefined; // a call out of the queue holds none of the calls behind it
      if (next.done || !next.queued) continue;
      next.queued = false;
      this.#queued--;
      next.holdsSlot = true;
      next.grant?.();
      return;
    }
    this.#running--;
  }
}

/** What a call is known by, as the hooks get it. */
function startEvent(call: PipelineCall): CallStartEvent {
  return { toolName: call.toolName, toolCallId: call.toolCallId, correlationId: call.correlationId };
}

/**
 * Runs tool calls from an LLM, in one order for every call (see `processToolCall`), with
 * approval, permissions, budgets, timeouts, aborts, a concurrency limit, hooks and shutdown.
 */
export class ToolOrchestrator {
  readonly #host: OrchestratorHost;
  readonly #shutdownTimeoutMs: number;
  /** The longest feedback text for a failed call (the `maxFeedbackLength` option), for whoever renders it. */
  readonly maxFeedbackLength: number;

  #shutdown: Promise<ShutdownReport> | undefined;
  readonly #shutDownTools = new WeakSet<ITool>();
  /** Tool shutdowns started and not settled yet, with the tool's name (reported at shutdown's deadline). */
  readonly #pendingShutdowns = new Map<ITool, string>();
  readonly #retiring = new Set<Promise<void>>();
  readonly #shutdownErrors: ToolShutdownError[] = [];

  constructor(options: ToolOrchestratorOptions = {}) {
    this.#host = new OrchestratorHost(this, options);
    this.#shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    checkPositiveInteger('maxFeedbackLength', options.maxFeedbackLength);
    this.maxFeedbackLength = options.maxFeedbackLength ?? DEFAULT_MAX_FEEDBACK_LENGTH;
    for (const tool of options.tools ?? []) this.registerTool(tool);
  }

  /**
   * True when a call to a tool with side effects is decided without asking its caller: an
   * `approvalGate` is configured, side effects are allowed, or approval is never required. A caller
   * that can ask its user (an MCP client that elicits) asks when this is false.
   */
  get decidesSideEffects(): boolean {
    const host = this.#host;
    return host.approvalGate !== undefined || host.allowSideEffects || host.requireApproval === 'never';
  }

  /**
   * Registers `tool`. Throws `ALREADY_REGISTERED` for a taken name unless `replace` is set,
   * `INVALID_TOOL` for a malformed tool, `SHUTTING_DOWN` after `shutdown()`. The tool is callable
   * as soon as this returns; the promise (which never rejects) resolves once a replaced tool has
   * finished its in-flight calls and been shut down.
   */
  registerTool(tool: ITool, options: RegisterOptions = {}): Promise<void> {
    if (this.#host.closing)
      throw new ToolsmithError('SHUTTING_DOWN', 'The orchestrator is shutting down; no tool can be registered.');
    const entry = prepareTool(tool);
    if (!options.replace) this.#host.registry.assertAvailable(entry.name);
    this.#host.attach(tool);
    const previous = this.#host.registry.add(entry, options);
    if (previous === undefined || previous.tool === tool) return Promise.resolve();
    return this.#retire(previous);
  }

  /** Removes the tool under exactly `name`, waits for its in-flight calls, then shuts it down. False when not registered. */
  async unregisterTool(name: string): Promise<boolean> {
    const entry = this.#host.registry.delete(name);
    if (entry === undefined) return false;
    await this.#retire(entry);
    return true;
  }

  /**
   * A number that changes whenever a tool is registered, replaced or unregistered: what is derived
   * from the tools (whether any can run as a task) may be kept while it stays the same.
   */
  get toolsRevision(): number {
    return this.#host.registry.revision;
  }

  /** The tool registered under exactly `name`. */
  getTool(name: string): ITool | undefined {
    return this.#host.registry.get(name)?.tool;
  }

  /**
   * What an LLM may be offered: name, description, input and output schema of every enabled tool,
   * and, given a context, only those whose required capabilities its `personaCapabilities` has.
   */
  listTools(context?: { personaCapabilities?: readonly string[] }): ToolDefinitionForLLM[] {
    const definitions: ToolDefinitionForLLM[] = [];
    for (const entry of this.#host.registry.values()) {
      if (this.#host.isDisabled(entry.tool)) continue;
      if (context !== undefined && missingCapabilities(entry, context.personaCapabilities) !== undefined) continue;
      const { name, description, inputSchema, outputSchema } = entry.tool;
      const definition: ToolDefinitionForLLM = { name, description, inputSchema };
      if (outputSchema !== undefined) definition.outputSchema = outputSchema;
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
    return runCall(this.#host, details);
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

  /** Waits for a removed or replaced registration's calls, then shuts its tool down (errors collected). */
  #retire(entry: RegisteredTool): Promise<void> {
    const retired = waitForIdle(entry).then(() => this.#shutdownTool(entry));
    this.#retiring.add(retired);
    void retired.then(() => this.#retiring.delete(retired));
    return retired;
  }

  /** Calls the tool's `shutdown()` once; resolves when it settles (never rejects: a failure is collected). */
  async #shutdownTool(entry: RegisteredTool): Promise<void> {
    const tool = entry.tool;
    if (this.#shutDownTools.has(tool)) return;
    this.#shutDownTools.add(tool);
    this.#pendingShutdowns.set(tool, entry.name);
    try {
      const shutdown = tool.shutdown;
      // Through `follow`: a promise whose `then` or `constructor` misbehaves is still waited for.
      if (typeof shutdown === 'function')
        await new Promise((resolve, reject) => follow(shutdown.call(tool), resolve, reject));
    } catch (error) {
      this.#shutdownErrors.push({ toolName: entry.name, message: describeThrown(error), error });
    } finally {
      this.#pendingShutdowns.delete(tool);
    }
  }

  /** Waits for the calls in flight until `budget` ms, then aborts those still running; answers how many. */
  async #settleCalls(budget: number): Promise<number> {
    const host = this.#host;
    if (host.firstCall === undefined) return 0;
    const settled = new Promise<void>((resolve) => {
      host.onAllSettled = resolve;
    });
    const outcome = await raceDeadline(settled, budget);
    host.onAllSettled = undefined;
    if (outcome !== 'deadline') return 0;
    // Stopping a call untracks it, and any call it ends (a composed tool's step): the list empties.
    let abortedCalls = 0;
    for (let call = host.firstCall; call !== undefined && !call.done; call = host.firstCall) {
      stopCall(call, 'shutdown');
      abortedCalls++;
    }
    return abortedCalls;
  }

  async #shutdownOnce(timeoutMs: number): Promise<ShutdownReport> {
    this.#host.closing = true;
    const budget = Math.min(Math.max(Number.isNaN(timeoutMs) ? 0 : timeoutMs, 0), MAX_TIMER_MS);
    const started = performance.now();
    const abortedCalls = await this.#settleCalls(budget);
    const entries = this.#host.registry.values();
    this.#host.registry.clear();
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
