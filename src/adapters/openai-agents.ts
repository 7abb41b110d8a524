import {
  tool as agentsTool,
  type FunctionTool,
  type RunContext,
  type StandardSchemaWithJSON,
  type ToolCallOutputContent,
} from '@openai/agents';
import { toOpenAIStrictParameters } from '../manifest-targets/index.js';
import { copyJsonValue, feedbackJson, type ContentBlock } from '../index.js';
import {
  ToolCallError,
  frameworkApproves,
  hasContent,
  resolveSource,
  resultParts,
  runToolCall,
  standardJsonSchema,
  type AdapterOptions,
  type ToolSource,
  type ToolTypeMap,
  type UntypedToolTypes,
} from './shared.js';

/** The tool's strict-mode parameters (as in openai-strict.json), or `undefined` when strict mode cannot take it. */
export { toOpenAIStrictParameters as strictParameters } from '../manifest-targets/index.js';
export {
  ToolCallError,
  type ApprovalMode,
  type CallContext,
  type ContextSource,
  type ToolTypeMap,
  type UntypedToolTypes,
} from './shared.js';

/*
 * `toolsmith-sdk/openai-agents`: the registry's tools as OpenAI Agents JS (`@openai/agents` 0.20) function tools.
 * - Parameters: the same strict schema as generated/manifests/openai-strict.json (`toolsmith-sdk/manifests`:
 *   every property required, optional ones nullable; the orchestrator turns those nulls back into "absent")
 *   with `strict: true` when the tool is strict-compatible, handed over as a Standard JSON Schema
 *   (`~standard`, typed with the tool's input) whose `validate` accepts every value: the orchestrator
 *   validates, so its `INVALID_ARGUMENTS` text reaches the model. Otherwise the tool's own schema,
 *   `strict: false` (the SDK takes a Standard Schema in strict mode only). Keywords strict mode cannot
 *   carry are still enforced by the orchestrator.
 * - `execute` calls `processToolCall` with the run context mapped to a toolsmith context and the SDK's
 *   signal; a failed call throws a `ToolCallError`, and `errorFunction` gives the model its text (the SDK's
 *   default would hide it behind a generic message), so it can correct its arguments.
 * - A tool with an object output schema hands it over as `outputSchema` (the Responses API's
 *   `output_schema`); its failures then reach the model as JSON (`feedbackJson`), since the API reads
 *   such a tool's every output as JSON.
 * - Content blocks: a result with blocks answers the SDK's structured tool output (an array of `text`,
 *   `image` and `file` items: text as text, an image as an image with its media type, an embedded blob as
 *   a file, an embedded text resource as text, a resource link as a line of text), then the output's JSON
 *   text when there is output. Audio has no tool-output form in the SDK: it reaches the model as a line of
 *   text saying what was left out.
 * - Approval `'framework'`: tools with side effects get `needsApproval`, so the run stops with an
 *   interruption; `state.approve` runs the call without the orchestrator asking again, `state.reject`
 *   never reaches it.
 */

/** What a tool answers the SDK: its output, or (when the tool answered content blocks) the SDK's structured output. */
export type OpenAiAgentsToolResult<TOutput> = TOutput | ToolCallOutputContent[];

/**
 * The OpenAI Agents function tool for the tool typed `T`: its parameters are typed with the tool's
 * input (`needsApproval` and `customDataExtractor` get it), its result is the tool's output type (or
 * the structured output of a result with content blocks).
 */
export type OpenAiAgentsTool<T extends { input: unknown; output: unknown }, TContext = unknown> = FunctionTool<
  TContext,
  StandardSchemaWithJSON<T['input'], T['input']>,
  OpenAiAgentsToolResult<T['output']>
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
    const execute = async (
      args: unknown,
      runContext?: RunContext<TContext>,
      details?: { toolCall?: { callId?: string }; signal?: AbortSignal },
    ) => {
      const { toolCall, signal } = details ?? {};
      const frameworkContext = runContext as RunContext<TContext>;
      const result = await runToolCall(resolved, { tool, args, id: toolCall?.callId, frameworkContext, signal });
      return hasContent(result) ? toStructuredOutput(result.output, result.content) : result.output;
    };
    // With an output schema, the Responses API reads every output as JSON: failures are answered as JSON too.
    const outputSchema = tool.outputSchema?.type === 'object' ? copyJsonValue(tool.outputSchema) : undefined;
    const common = {
      name: tool.name,
      description: tool.description,
      execute,
      errorFunction: (_context: unknown, error: unknown) => {
        if (!(error instanceof ToolCallError)) return `Tool '${tool.name}' failed: ${String(error)}`;
        if (outputSchema === undefined) return error.message;
        // The SDK encodes an output-schema tool's value as JSON itself: the feedback is handed over as a value.
        return JSON.parse(feedbackJson(error.result, { maxLength: resolved.orchestrator.maxFeedbackLength }));
      },
      needsApproval: frameworkApproves(resolved, tool),
      ...(outputSchema === undefined ? {} : { outputSchema: outputSchema as never }),
    };
    const strict = options.strict === false ? undefined : toOpenAIStrictParameters(tool);
    if (strict !== undefined) {
      try {
        return agentsTool({ ...common, parameters: standardJsonSchema(strict), strict: true });
      } catch {
        // The SDK's own strict check refused the schema: offer it non-strict.
      }
    }
    // A copy: the generated schemas are frozen, and a provider may annotate what it is given.
    return agentsTool({ ...common, parameters: copyJsonValue(tool.inputSchema) as never, strict: false });
  }) as unknown as OpenAiAgentsTools<TTypes, TNames, TContext>;
}

/** A result with content blocks as the SDK's structured tool output, the output's text last. */
export function toStructuredOutput(output: unknown, content: readonly ContentBlock[]): ToolCallOutputContent[] {
  return resultParts(output, content).map((part): ToolCallOutputContent => {
    switch (part.type) {
      case 'text':
        return part;
      case 'image':
        return { type: 'image', image: { data: part.data, mediaType: part.mimeType } };
      case 'audio':
        return {
          type: 'text',
          text: `[audio (${part.mimeType}) left out: OpenAI Agents tool outputs carry text, images and files]`,
        };
      case 'file':
        return { type: 'file', file: { data: part.data, mediaType: part.mimeType, filename: part.filename } };
    }
  });
}
