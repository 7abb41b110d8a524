import { tool as agentsTool, type FunctionTool, type RunContext } from '@openai/agents';
import { toOpenAIStrictParameters } from '../manifests.js';
import { copyJsonValue, type ITool } from '../index.js';
import {
  ToolCallError,
  frameworkApproves,
  resolveSource,
  runToolCall,
  type AdapterOptions,
  type ToolSource,
  type ToolTypeMap,
  type UntypedToolTypes,
} from './shared.js';

export {
  ToolCallError,
  formatToolError,
  type ApprovalMode,
  type CallContext,
  type ContextSource,
  type ToolTypeMap,
  type UntypedToolTypes,
} from './shared.js';

/*
 * `toolsmith/openai-agents`: the registry's tools as OpenAI Agents JS (`@openai/agents` 0.20) function tools.
 * - Parameters: the same strict schema as generated/manifests/openai-strict.json (`toolsmith/manifests`:
 *   every property required, optional ones nullable; the orchestrator turns those nulls back into "absent")
 *   with `strict: true` when the tool is strict-compatible; otherwise the tool's own schema, `strict: false`.
 *   Keywords strict mode cannot carry are still enforced by the orchestrator.
 * - `execute` calls `processToolCall` with the run context mapped to a toolsmith context and the SDK's
 *   signal; a failed call throws a `ToolCallError`, and `errorFunction` gives the model its text (the SDK's
 *   default would hide it behind a generic message), so it can correct its arguments.
 * - Approval `'framework'`: tools with side effects get `needsApproval`, so the run stops with an
 *   interruption; `state.approve` runs the call without the orchestrator asking again, `state.reject`
 *   never reaches it.
 */

/** The OpenAI Agents function tool for the tool typed `T`: its result is the tool's output type. */
export type OpenAiAgentsTool<T extends { input: unknown; output: unknown }, TContext = unknown> = FunctionTool<
  TContext,
  any,
  T['output']
>;

/** The tools for the names in `TNames`, in order, each typed by its generated output. */
export type OpenAiAgentsTools<
  TTypes extends ToolTypeMap<TTypes>,
  TNames extends readonly (keyof TTypes)[],
  TContext,
> = {
  -readonly [I in keyof TNames]: OpenAiAgentsTool<TTypes[TNames[I]], TContext>;
};

/** Options of `openAiAgentsTools`: the per-call context function receives the run context. */
export interface OpenAiAgentsToolsOptions<TNames extends readonly string[], TContext> extends AdapterOptions<
  TNames,
  RunContext<TContext>
> {
  /** `'auto'` (default): strict when the tool is strict-compatible; `false`: never strict. */
  strict?: 'auto' | false;
}

/**
 * The tools of `source` (an orchestrator, or the generated registry's typed `ToolClient`) as OpenAI
 * Agents function tools for `new Agent({ tools })`, in the order of `options.tools` (default: every
 * enabled tool). Throws `TOOL_NOT_FOUND` for a name that is not registered.
 */
export function openAiAgentsTools<
  TTypes extends ToolTypeMap<TTypes> = UntypedToolTypes,
  const TNames extends readonly (keyof TTypes & string)[] = Array<keyof TTypes & string>,
  TContext = unknown,
>(
  source: ToolSource<TTypes>,
  options: OpenAiAgentsToolsOptions<TNames, TContext> = {},
): OpenAiAgentsTools<TTypes, TNames, TContext> {
  const resolved = resolveSource<RunContext<TContext>>(source, options);
  return resolved.tools.map((tool) => {
    const execute = (
      input: unknown,
      runContext?: RunContext<TContext>,
      details?: { toolCall?: { callId?: string }; signal?: AbortSignal },
    ) =>
      runToolCall(resolved, {
        tool,
        args: input,
        id: details?.toolCall?.callId,
        frameworkContext: runContext as RunContext<TContext>,
        signal: details?.signal,
      });
    const common = {
      name: tool.name,
      description: tool.description,
      execute,
      errorFunction: (_context: unknown, error: unknown) =>
        error instanceof ToolCallError ? error.message : `Tool '${tool.name}' failed: ${String(error)}`,
      needsApproval: frameworkApproves(resolved, tool),
    };
    const strict = options.strict === false ? undefined : strictParameters(tool);
    if (strict !== undefined) {
      try {
        return agentsTool({ ...common, parameters: strict as never, strict: true });
      } catch {
        // The SDK's own strict check refused the schema: offer it non-strict.
      }
    }
    // A copy: the generated schemas are frozen, and a provider may annotate what it is given.
    return agentsTool({ ...common, parameters: copyJsonValue(tool.inputSchema) as never, strict: false });
  }) as unknown as OpenAiAgentsTools<TTypes, TNames, TContext>;
}

/** The tool's strict-mode parameters (as in openai-strict.json), or `undefined` when strict mode cannot take it. */
export function strictParameters(tool: ITool): Record<string, unknown> | undefined {
  return toOpenAIStrictParameters(tool);
}
