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

/** A call that failed: no output, and `errorDetails` says why (a stable `code`, a message). */
export type TypedToolCallFailure = Omit<ToolCallResult, 'output' | 'isError' | 'errorDetails'> & {
  isError: true;
  output: null;
  errorDetails: ToolCallErrorDetails;
};

/** A call result discriminated by `isError`: after `if (!result.isError)`, `output` has the tool's generated output type. */
export type TypedToolCallResult<TOutput> = TypedToolCallSuccess<TOutput> | TypedToolCallFailure;

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
  ): Promise<TypedToolCallResult<TTypes[N]['output']>> {
    const { id, ...rest } = overrides;
    return this.orchestrator.processToolCall({
      ...this.defaults,
      ...rest,
      toolCallRequest: { id: id ?? `call-${++this.#sequence}`, name, arguments: args as Record<string, unknown> },
    }) as Promise<TypedToolCallResult<TTypes[N]['output']>>;
  }
}
