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
   * toolsmith: one of the codes the tool declares (its definition's `errors`); the call then answers
   * `TOOL_FAILED` with `errorDetails.failure` naming it. An undeclared code is `OUTPUT_INVALID`.
   */
  code?: string;
  /** toolsmith: the declared error's data, checked against the error's `data` schema. */
  data?: unknown;
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

/** A failure with the declared code `TCode`: `data` is required when the error declares a data schema. */
export type DeclaredFailure<TCode extends string, TData = undefined> = Omit<ToolExecutionFailure, 'code' | 'data'> & {
  error: string;
  code: TCode;
} & ([TData] extends [undefined] ? { data?: undefined } : { data: TData });

/**
 * The failures of a tool whose definition declares `TErrors` (code → data type, generated as
 * `<Tool>Errors`): a failure with one of those codes and its data, or a failure without a code.
 */
export type ToolFailure<TErrors> =
  | (Omit<ToolExecutionFailure, 'code' | 'data'> & { code?: undefined; data?: undefined })
  | { [C in keyof TErrors & string]: DeclaredFailure<C, TErrors[C]> }[keyof TErrors & string];

/**
 * What a tool's `execute` (or `refusal`) answers, discriminated by `success`; field names follow
 * the AgentOS tool layer (each member is assignable to AgentOS's `ToolExecutionResult`). A
 * generated base narrows `TFailure` to the tool's declared failures (`ToolFailure<…>`).
 */
export type ToolExecutionResult<TOutput = any, TFailure extends ToolExecutionFailure = ToolExecutionFailure> =
  ToolExecutionSuccess<TOutput> | ToolExecutionSuccessWithoutOutput<TOutput> | TFailure;

/**
 * A failure with a declared code, its code and data mirrored into `details.failure` as well (what
 * AgentOS's executor passes on, so a caller there sees them too). Checked by tsc against the
 * tool's declared failures where `execute` returns it.
 */
export function toolFailure<TCode extends string, TData = undefined>(
  code: TCode,
  error: string,
  ...[data]: [TData] extends [undefined] ? [data?: TData] : [data: TData]
): DeclaredFailure<TCode, NoInfer<TData>> {
  const failure: { code: TCode; data?: TData } = data === undefined ? { code } : { code, data };
  const answer = { success: false, error, ...failure, details: { failure } };
  return answer as unknown as DeclaredFailure<TCode, NoInfer<TData>>;
}

/** toolsmith: one error a tool declares (its definition's `errors`), as the runtime reads it. */
export interface DeclaredToolError {
  readonly description: string;
  /** A failure with this code may pass when tried again: the retry policy retries it. */
  readonly retryable?: boolean;
  /** The generated validator of the error's `data`; absent: the error carries no data. */
  readonly data?: ValidateFunction;
}

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
  /**
   * toolsmith: the errors the tool declares, by code (generated from the definition's `errors`).
   * When set, a failure's `code` must be one of them and its `data` must fit (else `OUTPUT_INVALID`).
   */
  readonly errors?: Readonly<Record<string, DeclaredToolError>>;
  execute(args: TInput, context: ToolExecutionContext): Promise<ToolExecutionResult<TOutput>>;
  validateArgs?(args: Record<string, any>): { isValid: boolean; errors?: any[] };
  /** The refusal a call meets before it acts: a result ends the call `REFUSED`; `undefined` lets it go on. */
  refusal?(
    args: TInput,
    context: ToolExecutionContext,
  ): ToolExecutionResult<TOutput> | undefined | Promise<ToolExecutionResult<TOutput> | undefined>;
  shutdown?(): Promise<void>;
}
