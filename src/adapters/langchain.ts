import { ToolMessage, type ContentBlock as LangChainContentBlock } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { JSONSchema } from '@langchain/core/utils/json_schema';
import { SchemaValidator, type ContentBlock, type ITool } from '../index.js';
import { parsePointer } from '../schema/json-pointer.js';
import {
  hasContent,
  resolveSource,
  resultParts,
  runToolCall,
  standardJsonSchema,
  type AdapterOptions,
  type ToolsmithStandardSchema,
  type ToolSource,
  type ToolTypeMap,
  type UntypedToolTypes,
} from './shared.js';

export {
  ToolCallError,
  type CallContext,
  type ContextSource,
  type ToolsmithStandardSchema,
  type ToolTypeMap,
  type UntypedToolTypes,
} from './shared.js';

/*
 * `toolsmith-sdk/langchain`: the registry's tools as LangChain.js (`@langchain/core` 1) structured tools, from
 * their JSON Schema: bindable with `model.bindTools(tools)` and runnable in `createAgent` (langchain) or a
 * LangGraph `ToolNode`.
 * - `func` calls `processToolCall` with the runnable config mapped to a toolsmith context and the
 *   config's `signal`; a failed call throws a `ToolCallError`, which the agent's tool node turns into an
 *   error `ToolMessage` the model sees (its text is the code, the message and each invalid path).
 * - The schema is handed over as a Standard JSON Schema (`~standard`): `jsonSchema.input()` is the
 *   definition's schema (what `bindTools` sends, through `toJsonSchema`), `validate` the generated
 *   validator. So LangChain's own JSON-Schema check (@cfworker/json-schema, which also writes into the
 *   schema it is given and so fails on the frozen generated schemas) has nothing to check, and the
 *   arguments are validated once, by the orchestrator, whose errors (JSON pointers) reach the model.
 * - Content blocks: when the model called the tool (a tool call with an id) and the result has blocks,
 *   `func` answers the `ToolMessage` itself, its content LangChain's standard blocks (text; image and
 *   audio with their MIME type; an embedded blob as a file, an embedded text resource as text, a
 *   resource link as a line of text) followed by the output's JSON text, and the output as its
 *   `artifact`. Invoked directly with arguments, the tool answers the output.
 * - Approval stays with the orchestrator's gate (LangChain asks for approval with a middleware on the
 *   agent, not on the tool); a rejection reaches the model as an `APPROVAL_REJECTED` tool error.
 */

/** The LangChain tool for the tool named `N`, typed `T`: `invoke(args)` takes its input and answers its output. */
export type LangChainTool<
  T extends { input: unknown; output: unknown },
  N extends string = string,
> = DynamicStructuredTool<LangChainToolSchema<T['input']>, T['input'], T['input'], T['output'], unknown, N>;

/** The tools for the names in `TNames`, in order, each typed by its generated input and output. */
export type LangChainTools<TTypes extends ToolTypeMap<TTypes>, TNames extends readonly (keyof TTypes & string)[]> = {
  -readonly [I in keyof TNames]: LangChainTool<TTypes[TNames[I]], TNames[I]>;
};

/** Options of `langChainTools`: the per-call context function receives the tool's runnable config. */
export type LangChainToolsOptions<TNames extends readonly string[]> = Omit<
  AdapterOptions<TNames, ToolRunnableConfig>,
  'approval'
>;

/**
 * The tools of `source` (an orchestrator, or the generated registry's typed `ToolClient`) as LangChain
 * structured tools, in the order of `options.tools` (default: every enabled tool). Throws
 * `TOOL_NOT_FOUND` for a name that is not registered.
 */
export function langChainTools<
  TTypes extends ToolTypeMap<TTypes> = UntypedToolTypes,
  const TNames extends readonly (keyof TTypes & string)[] = Array<keyof TTypes & string>,
>(source: ToolSource<TTypes>, options: LangChainToolsOptions<TNames> = {}): LangChainTools<TTypes, TNames> {
  const resolved = resolveSource<ToolRunnableConfig>(source, options);
  return resolved.tools.map(
    (tool) =>
      new DynamicStructuredTool({
        name: tool.name,
        description: tool.description,
        schema: toStandardSchema(tool) as LangChainToolSchema<unknown>,
        metadata: {
          toolsmith: {
            id: tool.id,
            hasSideEffects: tool.hasSideEffects === true,
            requiredCapabilities: tool.requiredCapabilities ?? [],
          },
        },
        func: async (args: unknown, _runManager?: unknown, config?: RunnableConfig) => {
          const toolConfig = (config ?? {}) as ToolRunnableConfig;
          const { toolCall, signal } = toolConfig;
          const id = toolCall?.id;
          const result = await runToolCall(resolved, { tool, args, id, frameworkContext: toolConfig, signal });
          if (id === undefined || !hasContent(result)) return result.output;
          // A model's call with content blocks: the tool message carries them, the output as its artifact.
          return new ToolMessage({
            status: 'success',
            tool_call_id: id,
            name: tool.name,
            content: toMessageContent(result.output, result.content),
            artifact: result.output,
          });
        },
      }),
  ) as unknown as LangChainTools<TTypes, TNames>;
}

/**
 * A tool's schema as handed to LangChain: a Standard JSON Schema, which is also (to LangChain's JSON-Schema
 * check) a schema without constraints — hence typed as both.
 */
export type LangChainToolSchema<TInput> = ToolsmithStandardSchema<TInput> & JSONSchema;

/** The tool's input schema as a Standard JSON Schema: the definition's schema, validated by the generated validator when there is one. */
export function toStandardSchema<TInput>(tool: ITool): ToolsmithStandardSchema<TInput> {
  const generated = tool.validators?.input;
  if (generated === undefined) return standardJsonSchema(tool.inputSchema); // the orchestrator validates it
  const validator = new SchemaValidator({ schema: tool.inputSchema, generated, stripOptionalNulls: true });
  return standardJsonSchema<TInput>(tool.inputSchema, (value) => {
    const outcome = validator.validate(value);
    if (outcome.valid) return { value: outcome.value as TInput };
    return { issues: outcome.errors.map((issue) => ({ message: issue.message, path: parsePointer(issue.path) })) };
  });
}

/** A result with content blocks as LangChain's standard content blocks, the output's text last. */
export function toMessageContent(output: unknown, content: readonly ContentBlock[]): LangChainContentBlock.Standard[] {
  return resultParts(output, content).map((part) => {
    if (part.type !== 'file') return part;
    const { filename, uri, ...file } = part;
    return { ...file, metadata: { filename, uri } };
  });
}
