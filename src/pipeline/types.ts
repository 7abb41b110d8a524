import type { CallReporter } from '../caller/call-reporting.js';
import type { ContentBlock } from '../caller/content.js';
import type { CallerTurn, UserContext } from '../context.js';
import type { ToolErrorCode } from '../errors.js';
import type { ValueCoercion } from '../schema/validator-runtime.js';
import type { CALL_CHAIN } from './markers.js';
import type { DeclaredFailureDetails } from './failure.js';

/** A tool call as an LLM makes it; `arguments` is an object or a JSON string of one. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: Record<string, any> | string;
}

/** One call to execute, with who is calling (field names as in AgentOS's `ToolExecutionRequestDetails`). */
export interface ToolExecutionRequestDetails {
  toolCallRequest: ToolCallRequest;
  gmiId: string;
  personaId: string;
  personaCapabilities?: string[];
  userContext: UserContext;
  correlationId?: string;
  sessionData?: Record<string, any>;
}

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
  /** Where the tool's `context.progress` and `context.log` reports go; without it the tool gets neither. */
  reporter?: CallReporter;
  /** This call's retry policy; wins over the orchestrator's `retry` (`{ attempts: 1 }`: no retry). */
  retry?: RetryPolicy;
  /** Set by a composed tool on its steps' calls: the composed tools running above this call, outermost first. */
  [CALL_CHAIN]?: readonly string[];
}

/** What a failed call reports: a stable code, a message naming the tool, and details. */
export interface ToolCallErrorDetails {
  code: ToolErrorCode;
  message: string;
  details?: Record<string, any>;
  /** For `TOOL_FAILED`: the error the tool declares that it failed with (code, checked data, retryable). */
  failure?: DeclaredFailureDetails;
}

/** The answer to one tool call, ready to hand back to an LLM; `output` is `null` whenever `isError`. */
export interface ToolCallResult<TOutput = any> {
  toolCallId: string;
  toolName: string;
  output: TOutput | null;
  isError: boolean;
  /** The content blocks of a successful call whose tool answered some (checked by the output step). */
  content?: ContentBlock[];
  errorDetails?: ToolCallErrorDetails;
  /**
   * How many times the tool ran, when it answered a failure marked `retryable` and a retry policy
   * applied (1 when the policy did not allow another attempt). Absent otherwise: it ran once, or not at all.
   */
  attempts?: number;
  /**
   * The argument values converted to fit the input schema (`"212"` → `212` for a number), when any
   * were: the tool ran with the converted values. Absent when the arguments fit as sent.
   */
  coercions?: readonly ValueCoercion[];
}

/**
 * When a failed call is tried again: only a failure the tool marks `retryable: true`, only for a
 * tool that is read-only or idempotent (a tool with side effects only with `idempotentHint: true`),
 * within the call's one deadline, each attempt charged to the turn's budget; approval is asked once.
 */
export interface RetryPolicy {
  /** Most attempts in all, the first included: 1 to 10 (1: no retry). */
  attempts: number;
  /** The wait before the second attempt, doubled before each later one; default 0. */
  backoffMs?: number;
}

/** When a call needs approval: tools with side effects (default), every call, or none. */
export type ApprovalPolicy = 'side-effects' | 'always' | 'never';
