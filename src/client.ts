import type { ToolOrchestrator } from './orchestrator.js';
import type { ToolCallDetails, ToolCallErrorDetails, ToolCallResult } from './pipeline/types.js';

/** Everything of a call but the request itself: who calls, with which capabilities, in which turn. */
export type ToolCallDefaults = Omit<ToolCallDetails, 'toolCallRequest'>;

/** A call that succeeded: `output` is the tool's output, checked against its output schema. */
export type TypedToolCallSuccess<TOutput> = Omit<ToolCallResult, 'output' | 'isError' | 'errorDetails'> & {
  isError: false;
  output: TOutput;
  errorDetails?: undefined;
};

/** One of the errors `TErrors` (code → data type, the generated `<Tool>Errors`) as `errorDetails.failure` carries it. */
export type TypedDeclaredFailure<TErrors> = {
  [C in keyof TErrors & string]: { code: C; data: TErrors[C]; retryable: boolean };
}[keyof TErrors & string];

/**
 * A call that failed: no output, and `errorDetails` says why (a stable `code`, a message); for a
 * tool that declares errors, `errorDetails.failure` is typed by them.
 */
export type TypedToolCallFailure<TErrors = undefined> = Omit<ToolCallResult, 'output' | 'isError' | 'errorDetails'> & {
  isError: true;
  output: null;
  errorDetails: [TErrors] extends [undefined]
    ? ToolCallErrorDetails
    : Omit<ToolCallErrorDetails, 'failure'> & { failure?: TypedDeclaredFailure<TErrors> };
};

/** A call result discriminated by `isError`: after `if (!result.isError)`, `output` has the tool's generated output type. */
export type TypedToolCallResult<TOutput, TErrors = undefined> =
  TypedToolCallSuccess<TOutput> | TypedToolCallFailure<TErrors>;

/** The declared errors of a `ToolTypes` entry (`undefined` when it declares none). */
type ErrorsOf<T> = T extends { errors: infer E } ? E : undefined;

/**
 * Calls tools by name with compile-time checked arguments: `TTypes` maps each tool name to its
 * `{ input, output }` (the generated `ToolTypes`), so `call('web_search', { query: 42 })` does not
 * compile when `query` is a string. Every call still goes through `processToolCall`.
 */
export class ToolClient<TTypes extends { [N in keyof TTypes]: { input: unknown; output: unknown } }> {
  #sequence = 0;

  constructor(
    readonly orchestrator: ToolOrchestrator,
    readonly defaults: ToolCallDefaults,
  ) {}

  /** Calls `name` with typed arguments; `overrides` replace defaults for this call (signal, timeout…). */
  call<N extends keyof TTypes & string>(
    name: N,
    args: TTypes[N]['input'],
    overrides: Partial<ToolCallDefaults> & { id?: string } = {},
  ): Promise<TypedToolCallResult<TTypes[N]['output'], ErrorsOf<TTypes[N]>>> {
    const { id, ...rest } = overrides;
    return this.orchestrator.processToolCall({
      ...this.defaults,
      ...rest,
      toolCallRequest: { id: id ?? `call-${++this.#sequence}`, name, arguments: args as Record<string, unknown> },
    }) as Promise<TypedToolCallResult<TTypes[N]['output'], ErrorsOf<TTypes[N]>>>;
  }
}
