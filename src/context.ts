import type { LogLevel, ProgressUpdate } from './caller/call-reporting.js';
import type { Elicit, Sample } from './caller/elicitation.js';
import type { ToolDescription } from './tool-description.js';

/** Who is calling, as the AgentOS tool layer has it. */
export interface UserContext {
  userId: string;
  skillLevel?: string;
  preferences?: Record<string, any>;
  [key: string]: any;
}

/** What an approval gate is asked: the tool (as its definition describes it), the validated arguments and the call's context. */
export interface ApprovalRequest {
  tool: ToolDescription;
  args: Record<string, unknown>;
  context: ToolExecutionContext;
}

/** Decides whether a call may act; `true`/`{ approved: true }` lets it run. */
export type ApprovalGate = (request: ApprovalRequest) => Promise<boolean | { approved: boolean; reason?: string }>;

/** A per-turn tool-call budget shared by every call of that turn (composed steps included). */
export interface TurnBudget {
  /** Calls this turn may still make; decremented by each call that passes the budget step. */
  remaining: number;
}

/** The LLM turn a call belongs to: its budget and an approval gate that wins over the orchestrator's. */
export interface CallerTurn {
  budget?: TurnBudget;
  approvalGate?: ApprovalGate;
}

/** The context a tool runs with. */
export interface ToolExecutionContext {
  gmiId: string;
  personaId: string;
  userContext: UserContext;
  correlationId?: string;
  sessionData?: Record<string, any>;
  personaCapabilities?: string[];
  signal?: AbortSignal;
  callerTurn?: CallerTurn;
  /**
   * toolsmith: reports how far the call has come, when the caller listens (an MCP request with a
   * progress token); absent otherwise. Rate-limited; progress must grow.
   */
  progress?: (update: ProgressUpdate) => void;
  /** toolsmith: a log message for the caller (MCP logging), when it listens; absent otherwise. Rate-limited. */
  log?: (level: LogLevel, data: unknown) => void;
  /**
   * toolsmith: asks the user (MCP elicitation) when the caller can; absent otherwise. The form is
   * checked before it is sent and the answer against the form before it is returned. Ask before the
   * call's side effects: on MCP 2026-07-28 the call is answered `input_required` and run again from
   * the start with the answer.
   */
  elicit?: Elicit;
  /**
   * toolsmith: asks the caller's client to run a model call (MCP sampling) when it can; absent
   * otherwise. On MCP 2026-07-28, like `elicit`, it ends the round and the call runs again with the answer.
   */
  sample?: Sample;
}
