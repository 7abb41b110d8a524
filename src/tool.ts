import type { ContentBlock, ContentKind } from './caller/content.js';
import type { ToolExecutionContext } from './context.js';

/** A JSON Schema object as tools carry it (draft-07). */
export type JSONSchemaObject = Record<string, any>;

/** MCP tool annotation hints a definition may state (`annotations` in the definition format). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

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

/** One validation problem, with `path` a JSON pointer into the validated value. */
export interface ValidationIssue {
  path: string;
  message: string;
  keyword: string;
  params: Record<string, unknown>;
}

/**
 * A compiled validator as Ajv (standalone or runtime) produces it: a type guard that coerces and
 * fills defaults in place and leaves its problems on `.errors`. The runtime calls it as
 * `validate(data, { instancePath: '' })`, with Ajv's data context for a root value.
 */
export interface ValidateFunction<T = unknown> {
  (data: unknown): data is T;
  errors?: null | Array<{
    instancePath: string;
    keyword: string;
    params: Record<string, any>;
    message?: string;
    schemaPath?: string;
  }>;
}

/** toolsmith extension: the generated validators a tool carries, so no schema is compiled at run time. */
export interface ToolValidators<TInput = unknown, TOutput = unknown> {
  readonly input?: ValidateFunction<TInput>;
  readonly output?: ValidateFunction<TOutput>;
}

/**
 * The tool contract, exactly as the AgentOS tool layer has it (so generated tools register in an
 * AgentOS `ToolExecutor` unchanged), plus optional toolsmith extensions (`refusal`, `validators`,
 * `timeoutMs`).
 */
export interface ITool<TInput extends Record<string, any> = any, TOutput = any> {
  readonly id: string;
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly inputSchema: JSONSchemaObject;
  readonly outputSchema?: JSONSchemaObject;
  /** Frozen in generated tools, so `readonly` (AgentOS declares a mutable `string[]`: see README). */
  readonly requiredCapabilities?: readonly string[];
  readonly category?: string;
  readonly version?: string;
  readonly hasSideEffects?: boolean;
  /** toolsmith: the MCP annotation hints the definition states (the rest follow from `hasSideEffects`). */
  readonly annotations?: ToolAnnotations;
  /** toolsmith: generated validators; when absent the executor compiles `inputSchema` once at registration. */
  readonly validators?: ToolValidators<TInput, TOutput>;
  /** toolsmith: the content kinds the tool's results may carry; a block of another kind is `OUTPUT_INVALID`. Unset: any kind. */
  readonly contentTypes?: readonly ContentKind[];
  /**
   * toolsmith: the tool may run as an MCP task (a long call the client polls): `optional` when the
   * client may ask for one, `required` when it must. Unset: never a task.
   */
  readonly taskSupport?: 'optional' | 'required';
  /** toolsmith: per-tool timeout in milliseconds (a call's own `timeoutMs` wins). */
  readonly timeoutMs?: number;
  execute(args: TInput, context: ToolExecutionContext): Promise<ToolExecutionResult<TOutput>>;
  validateArgs?(args: Record<string, any>): { isValid: boolean; errors?: any[] };
  /** The refusal a call meets before it acts: a result ends the call `REFUSED`; `undefined` lets it go on. */
  refusal?(
    args: TInput,
    context: ToolExecutionContext,
  ): ToolExecutionResult<TOutput> | undefined | Promise<ToolExecutionResult<TOutput> | undefined>;
  shutdown?(): Promise<void>;
}
