import type { ToolCallDetails, ToolCallResult, ToolOrchestrator } from './orchestrator.js';

/** Everything of a call but the request itself: who calls, with which capabilities, in which turn. */
export type ToolCallDefaults = Omit<ToolCallDetails, 'toolCallRequest'>;

/** A call result whose `output` has the tool's generated output type. */
export type TypedToolCallResult<TOutput> = Omit<ToolCallResult, 'output'> & { output: TOutput | null };

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
  call<N extends keyof TTypes & string>(name: N, args: TTypes[N]['input'], overrides: Partial<ToolCallDefaults> & { id?: string } = {}): Promise<TypedToolCallResult<TTypes[N]['output']>> {
    const { id, ...rest } = overrides;
    return this.orchestrator.processToolCall({
      ...this.defaults,
      ...rest,
      toolCallRequest: { id: id ?? `call-${++this.#sequence}`, name, arguments: args as Record<string, unknown> },
    }) as Promise<TypedToolCallResult<TTypes[N]['output']>>;
  }
}
