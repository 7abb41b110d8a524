import type { ContentBlock } from './caller/content.js';
import type { ToolExecutionContext } from './context.js';
import type { ValidateFunction } from './schema/validation.js';
import type { ToolDescription } from './tool-description.js';

/** A successful answer with its output. */
export interface ToolExecutionSuccess<TOutput = any> {
  success: true;
  output: TOutput;
  error?: undefined;
  contentType?: string;
  /** toolsmith: content blocks beside the output (MCP's shapes), checked by the output step (`OUTPUT_INVALID`). */
  content?: ContentBlock[];
  details?: Record<string, any>;
}

/**
 * A successful answer without `output`, allowed only when the output type admits `undefined` (a
 * tool without an output schema): for a tool with one, `{ success: true }` alone does not compile.
 */
export type ToolExecutionSuccessWithoutOutput<TOutput = any> = undefined extends TOutput
  ? Omit<ToolExecutionSuccess<TOutput>, 'output'> & { output?: TOutput }
  : never;

/** A failed answer: `error` says what went wrong; `output`, if any, is whatever the tool had (not checked). */
export interface ToolExecutionFailure {
  success: false;
  error?: string;
  /**
   * toolsmith: trying the same call again may succeed (a rate limit, a busy resource). Only such
   * failures are retried, under a retry policy (`retry` of the orchestrator or the call).
   */
  retryable?: boolean;
  output?: unknown;
  contentType?: string;
  /** Not read: a failed call carries no content. */
  content?: undefined;
  details?: Record<string, any>;
}

/**
 * What a tool's `execute` (or `refusal`) answers, discriminated by `success`; field names follow
 * the AgentOS tool layer (each member is assignable to AgentOS's `ToolExecutionResult`).
 */
export type ToolExecutionResult<TOutput = any> =
  ToolExecutionSuccess<TOutput> | ToolExecutionSuccessWithoutOutput<TOutput> | ToolExecutionFailure;

/** toolsmith extension: the generated validators a tool carries, so no schema is compiled at run time. */
export interface ToolValidators<TInput = unknown, TOutput = unknown> {
  readonly input?: ValidateFunction<TInput>;
  readonly output?: ValidateFunction<TOutput>;
}

/**
 * The tool contract, exactly as the AgentOS tool layer has it (so generated tools register in an
 * AgentOS `ToolExecutor` unchanged): its description (./tool-description.ts) and its behaviour,
 * plus optional toolsmith extensions (`refusal`, `validators`, `timeoutMs`).
 */
export interface ITool<TInput extends Record<string, any> = any, TOutput = any> extends ToolDescription {
  /** toolsmith: generated validators; when absent the executor compiles `inputSchema` once at registration. */
  readonly validators?: ToolValidators<TInput, TOutput>;
  execute(args: TInput, context: ToolExecutionContext): Promise<ToolExecutionResult<TOutput>>;
  validateArgs?(args: Record<string, any>): { isValid: boolean; errors?: any[] };
  /** The refusal a call meets before it acts: a result ends the call `REFUSED`; `undefined` lets it go on. */
  refusal?(
    args: TInput,
    context: ToolExecutionContext,
  ): ToolExecutionResult<TOutput> | undefined | Promise<ToolExecutionResult<TOutput> | undefined>;
  shutdown?(): Promise<void>;
}
