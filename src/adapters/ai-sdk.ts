import {
  jsonSchema,
  tool as aiTool,
  type JSONSchema7,
  type Tool,
  type ToolExecuteFunction,
  type ToolExecutionOptions,
} from 'ai';
import { SchemaValidator, copyJsonValue, type ITool } from '../index.js';
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
 * `toolsmith/ai-sdk`: the registry's tools as a Vercel AI SDK (`ai` 7) `ToolSet`.
 * - Input schema: `jsonSchema(tool.inputSchema, { validate })`, `validate` being the tool's generated
 *   validator (on a copy; its errors, with JSON pointers, reach the model as an invalid tool call it can
 *   retry). Tools without a generated validator are validated by the orchestrator instead.
 * - `execute` calls `processToolCall` (capabilities, refusal, approval, budget, timeout, validation,
 *   output check, hooks) with the SDK's `abortSignal` as the call's signal; a failed call throws, which
 *   the SDK reports to the model as a tool error (`error-text` with the code and message).
 * - Approval `'framework'`: tools with side effects get `needsApproval: true` (the tool-level field, which
 *   ai 7 marks deprecated in favour of `generateText({ toolApproval })` but still honours; a
 *   `toolApproval` given to `generateText` wins over it), so `generateText` stops with a
 *   `tool-approval-request`; an approved call runs without the orchestrator asking again, a denied one
 *   never reaches the orchestrator.
 */

/** The AI SDK function tool for the tool typed `T` (`{ input, output }`), with its `execute`. */
export type AiSdkTool<T extends { input: unknown; output: unknown }> = Extract<
  Tool<T['input'], T['output']>,
  { type?: undefined | 'function' }
> & {
  execute: ToolExecuteFunction<T['input'], T['output'], any>;
};

/** The tool set for the names `N` of `TTypes`, each typed by its generated input and output. */
export type AiSdkToolSet<TTypes extends ToolTypeMap<TTypes>, N extends keyof TTypes> = {
  [K in N]: AiSdkTool<TTypes[K]>;
};

/** Options of `aiSdkTools`: the per-call context function receives the SDK's tool execution options. */
export type AiSdkToolsOptions<TNames extends readonly string[]> = AdapterOptions<TNames, ToolExecutionOptions<unknown>>;

/**
 * The tools of `source` (an orchestrator, or the generated registry's typed `ToolClient`) as an AI SDK
 * `ToolSet` for `generateText` / `streamText` / agents; `options.tools` picks a subset by name.
 * Throws `TOOL_NOT_FOUND` for a name that is not registered.
 */
export function aiSdkTools<
  TTypes extends ToolTypeMap<TTypes> = UntypedToolTypes,
  const TNames extends readonly (keyof TTypes & string)[] = readonly (keyof TTypes & string)[],
>(source: ToolSource<TTypes>, options: AiSdkToolsOptions<TNames> = {}): AiSdkToolSet<TTypes, TNames[number]> {
  const resolved = resolveSource<ToolExecutionOptions<unknown>>(source, options);
  const set: Record<string, Tool> = Object.create(null);
  for (const tool of resolved.tools) {
    const toolEntry = aiTool<unknown, unknown, any>({
      description: tool.description,
      // Copies: the generated schemas are frozen, and a provider may annotate what it is given.
      inputSchema: jsonSchema<unknown>(copyJsonValue(tool.inputSchema) as JSONSchema7, validateWith(tool)),
      ...(tool.outputSchema === undefined
        ? {}
        : { outputSchema: jsonSchema<unknown>(copyJsonValue(tool.outputSchema) as JSONSchema7) }),
      ...(frameworkApproves(resolved, tool) ? { needsApproval: true } : {}),
      execute: (input, execution) =>
        runToolCall(resolved, {
          tool,
          args: input,
          id: execution.toolCallId,
          frameworkContext: execution,
          signal: execution.abortSignal,
        }),
    });
    Object.defineProperty(set, tool.name, { value: toolEntry, enumerable: true, writable: true, configurable: true });
  }
  return set as AiSdkToolSet<TTypes, TNames[number]>;
}

/** `jsonSchema`'s `validate` from the tool's generated input validator, when it has one. */
function validateWith(tool: ITool): {
  validate?: (value: unknown) => { success: true; value: unknown } | { success: false; error: Error };
} {
  const generated = tool.validators?.input;
  if (generated === undefined) return {};
  const validator = new SchemaValidator({ schema: tool.inputSchema, generated, stripOptionalNulls: true });
  return {
    validate(value) {
      const outcome = validator.validate(value);
      // The model's own value, not the coerced copy: the SDK puts it back into the conversation, and the
      // orchestrator coerces and fills defaults on its own copy anyway.
      if (outcome.valid) return { success: true, value };
      const shown = outcome.errors
        .slice(0, 3)
        .map((issue) => issue.message)
        .join('; ');
      const more = outcome.errors.length > 3 ? ` (and ${outcome.errors.length - 3} more)` : '';
      const errorDetails = {
        code: 'INVALID_ARGUMENTS' as const,
        message: `Invalid arguments for tool '${tool.name}': ${shown}${more}. Fix them and call again.`,
        details: { errors: outcome.errors },
      };
      return {
        success: false,
        error: new ToolCallError({ toolCallId: '', toolName: tool.name, output: null, isError: true, errorDetails }),
      };
    },
  };
}
