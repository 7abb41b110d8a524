import {
  jsonSchema,
  tool as aiTool,
  type JSONSchema7,
  type Tool,
  type ToolExecuteFunction,
  type ToolExecutionOptions,
} from 'ai';
import { copyJsonValue, type ContentBlock } from '../index.js';
import {
  frameworkApproves,
  hasContent,
  resolveSource,
  resultParts,
  runToolCall,
  type AdapterOptions,
  type ToolSource,
  type ToolTypeMap,
  type UntypedToolTypes,
} from './shared.js';

export {
  ToolCallError,
  type ApprovalMode,
  type CallContext,
  type ContextSource,
  type ToolTypeMap,
  type UntypedToolTypes,
} from './shared.js';

/*
 * `toolsmith-sdk/ai-sdk`: the registry's tools as a Vercel AI SDK (`ai` 7) `ToolSet`.
 * - Input schema: `jsonSchema(tool.inputSchema)` with no `validate`: the SDK hands the model's arguments
 *   to `execute` as they are, and the orchestrator validates them (so `INVALID_ARGUMENTS` reaches the
 *   hooks and the model gets toolsmith's message, with its JSON pointers, as the tool's error).
 * - `execute` calls `processToolCall` (capabilities, refusal, approval, budget, timeout, validation,
 *   output check, hooks) with the SDK's `abortSignal` as the call's signal; a failed call throws, which
 *   the SDK reports to the model as a tool error (`error-text`: toolsmith's code and message).
 * - Per-caller context: the `context` function receives the SDK's `ToolExecutionOptions<TContext>`;
 *   `TContext` (from its parameter's type) becomes every tool's context type, so `generateText`'s
 *   `toolsContext` is typed by tool name (`{ read_file: { capabilities } }`).
 * - Content blocks: `toModelOutput` gives a result with blocks to the model as `content` parts (text;
 *   images, audio and embedded blobs as `file` parts with their media type; an embedded text resource as
 *   text; a resource link as a line of text), followed by the output's JSON text when there is output.
 *   The blocks are kept per tool-call id between `execute` and `toModelOutput`: a conversation rebuilt
 *   later from UI messages (`convertToModelMessages`) has the output only.
 * - Approval `'framework'`: tools with side effects get `needsApproval: true` (the tool-level field, which
 *   ai 7 marks deprecated in favour of `generateText({ toolApproval })` but still honours; a
 *   `toolApproval` given to `generateText` wins over it), so `generateText` stops with a
 *   `tool-approval-request`; an approved call runs without the orchestrator asking again, a denied one
 *   never reaches the orchestrator.
 */

/**
 * The AI SDK function tool for the tool typed `T` (`{ input, output }`), with its `execute`; `TContext`
 * is the per-call context (`generateText({ toolsContext: { [name]: TContext } })`), untyped by default.
 */
export type AiSdkTool<T extends { input: unknown; output: unknown }, TContext = unknown> = Extract<
  Tool<T['input'], T['output'], TContext>,
  { type?: undefined | 'function' }
> & {
  execute: ToolExecuteFunction<T['input'], T['output'], TContext>;
};

/** The tool set for the names `N` of `TTypes`, each typed by its generated input and output and the per-call context. */
export type AiSdkToolSet<TTypes extends ToolTypeMap<TTypes>, N extends keyof TTypes, TContext = unknown> = {
  [K in N]: AiSdkTool<TTypes[K], TContext>;
};

/** Options of `aiSdkTools`: the per-call context function receives the SDK's tool execution options. */
export type AiSdkToolsOptions<TNames extends readonly string[], TContext = unknown> = AdapterOptions<
  TNames,
  ToolExecutionOptions<TContext>
>;

/** Blocks kept between `execute` and `toModelOutput`, by tool-call id; the oldest go past this many. */
const KEPT_CONTENT = 1024;

/**
 * The tools of `source` (an orchestrator, or the generated registry's typed `ToolClient`) as an AI SDK
 * `ToolSet` for `generateText` / `streamText` / agents; `options.tools` picks a subset by name.
 * Throws `TOOL_NOT_FOUND` for a name that is not registered.
 */
export function aiSdkTools<
  TTypes extends ToolTypeMap<TTypes> = UntypedToolTypes,
  const TNames extends readonly (keyof TTypes & string)[] = readonly (keyof TTypes & string)[],
  TContext = unknown,
>(
  source: ToolSource<TTypes>,
  options: AiSdkToolsOptions<TNames, TContext> = {},
): AiSdkToolSet<TTypes, TNames[number], TContext> {
  const resolved = resolveSource<ToolExecutionOptions<TContext>>(source, options);
  const set: Record<string, Tool> = Object.create(null);
  const kept = new Map<string, ContentBlock[]>();
  for (const tool of resolved.tools) {
    // A null-prototype set: a tool named `__proto__` is a tool like any other.
    set[tool.name] = aiTool<unknown, unknown, any>({
      description: tool.description,
      // Copies: the generated schemas are frozen, and a provider may annotate what it is given.
      inputSchema: jsonSchema<unknown>(copyJsonValue(tool.inputSchema) as JSONSchema7),
      ...(tool.outputSchema === undefined
        ? {}
        : { outputSchema: jsonSchema<unknown>(copyJsonValue(tool.outputSchema) as JSONSchema7) }),
      ...(frameworkApproves(resolved, tool) ? { needsApproval: true } : {}),
      execute: async (args, execution: ToolExecutionOptions<TContext>) => {
        const { toolCallId: id, abortSignal: signal } = execution;
        const result = await runToolCall(resolved, { tool, args, id, frameworkContext: execution, signal });
        if (hasContent(result)) {
          kept.set(id, result.content);
          if (kept.size > KEPT_CONTENT) kept.delete(kept.keys().next().value!);
        }
        return result.output;
      },
      toModelOutput: ({ toolCallId, output }) => {
        const content = kept.get(toolCallId);
        kept.delete(toolCallId);
        return toModelOutput(output, content);
      },
    });
  }
  return set as AiSdkToolSet<TTypes, TNames[number], TContext>;
}

/** What `toModelOutput` answers (the SDK's `ToolResultOutput`, which `ai` does not export by name). */
export type AiSdkToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

type ContentPart = Extract<AiSdkToolResultOutput, { type: 'content' }>['value'][number];

/** A result for the model: the SDK's own default (text or JSON) without blocks, else `content` parts. */
export function toModelOutput(output: unknown, content: readonly ContentBlock[] | undefined): AiSdkToolResultOutput {
  if (content === undefined || content.length === 0) {
    if (typeof output === 'string') return { type: 'text', value: output };
    const text = output === undefined ? undefined : JSON.stringify(output);
    return { type: 'json', value: text === undefined ? null : JSON.parse(text) };
  }
  const parts = resultParts(output, content).map((part): ContentPart => {
    if (part.type === 'text') return part;
    const file: ContentPart = { type: 'file', mediaType: part.mimeType, data: { type: 'data', data: part.data } };
    return part.type === 'file' ? { ...file, filename: part.filename } : file;
  });
  return { type: 'content', value: parts };
}
