/*
 * Provider manifests at run time: the same builders `toolsmith generate` writes generated/manifests/*.json
 * with (src/manifest-targets/*, one file per target and the target table), applied to the tools a program
 * has, so each caller is sent only the tools it may call:
 *
 *   client.responses.create({ tools: toOpenAIResponsesTools(orchestrator.listTools({ personaCapabilities })) })
 *
 * The entry types are toolsmith's own and are assignable to the official SDK types (openai's
 * `ChatCompletionFunctionTool` and Responses `FunctionTool`, @anthropic-ai/sdk's `Tool`, @google/genai's
 * `FunctionDeclaration`, the MCP SDK's `Tool`; test/codegen/manifests-sdk.slow.test.ts type-checks that with
 * the real packages), so a program needs none of those packages to build a manifest, and one that has
 * them passes the result straight in. This module is `toolsmith-sdk/manifests`, not the main entry, so a
 * process that only runs tools does not load the builders.
 */
import type { AnthropicManifestEntry, AnthropicTool } from './anthropic.js';
import type { DeferLoading } from './defer-loading.js';
import type { ManifestProject, ManifestTool } from './build.js';
import type { GeminiFunctionDeclaration, GeminiToolManifest } from './gemini.js';
import type { GeminiLegacyFunctionDeclaration, GeminiLegacyToolManifest } from './gemini-legacy.js';
import type { McpToolsManifest } from './mcp.js';
import type { OpenAiResponsesManifestEntry, OpenAiResponsesTool, OpenAiTool } from './openai.js';
import { DEFAULT_INPUT_EXAMPLES } from './input-examples.js';
import { buildManifestTarget, type ManifestTarget } from './table.js';
import { type McpToolEntry, toMcpTool } from '../mcp/tool.js';
import type { ITool } from '../tool.js';

export type {
  AnthropicManifestEntry,
  AnthropicTool,
  DeferLoading,
  GeminiFunctionDeclaration,
  GeminiLegacyFunctionDeclaration,
  GeminiLegacyToolManifest,
  GeminiToolManifest,
  ManifestTarget,
  McpToolEntry,
  McpToolsManifest,
  OpenAiResponsesManifestEntry,
  OpenAiResponsesTool,
  OpenAiTool,
};

/**
 * What a runtime builder takes: `orchestrator.listTools(context)`'s definitions, registered `ITool`s, or
 * anything with a name, a description and a draft-07 input schema.
 */
export type ManifestToolSource = ManifestTool;

/** Options every runtime builder takes. */
export interface RuntimeManifestOptions {
  /** Carry what the target drops into the descriptions, as generate does by default (default true). */
  describeLosses?: boolean;
  /**
   * Called for each tool the target cannot take (it is left out), with the reason; generate's `omit`
   * policy. Without it the tool is left out silently.
   */
  onOmitted?: (tool: string, reason: string) => void;
  /**
   * The most of a tool's `examples` an Anthropic entry carries as `input_examples`, the most different
   * first (default 5, as generate; 0: none). Only tools given with `examples` have any.
   */
  inputExamples?: number;
}

/**
 * Options with deferred loading on (as `manifests.deferLoading`): the tools not kept loaded (by name, or
 * by an `ITool`'s category) are marked `defer_loading: true` and the search tool is listed last.
 */
export interface DeferredManifestOptions extends RuntimeManifestOptions {
  deferLoading: DeferLoading;
}

/**
 * Any target of the manifest target table by name, as its manifests/<target>.json holds it (the
 * functions below are typed shorthands): a target added to the table is available here at once. Built
 * as generate builds it (a 2020-12 schema in its draft-07 form where the builder reads draft-07).
 */
export function buildManifest<T = unknown>(
  target: ManifestTarget,
  tools: readonly ManifestToolSource[],
  options: RuntimeManifestOptions & { deferLoading?: DeferLoading } = {},
): T {
  const project: ManifestProject = {
    tools,
    describeLosses: options.describeLosses,
    inputExamples: options.inputExamples ?? DEFAULT_INPUT_EXAMPLES,
    ...(options.deferLoading !== undefined ? { deferLoading: options.deferLoading } : {}),
  };
  const result = buildManifestTarget(target, project);
  if (options.onOmitted !== undefined)
    for (const name of Object.keys(result.unavailable).sort()) options.onOmitted(name, result.unavailable[name]!);
  return result.content as T;
}

/** OpenAI Chat Completions function tools (`strict: true` for Structured Outputs), as manifests/openai*.json. */
export function toOpenAITools(
  tools: readonly ManifestToolSource[],
  options: RuntimeManifestOptions & { strict?: boolean } = {},
): OpenAiTool[] {
  return buildManifest(options.strict === true ? 'openai-strict' : 'openai', tools, options);
}

/** OpenAI Responses API function tools (`{ type: "function", name, description, parameters, strict }`), as manifests/openai-responses*.json. */
export function toOpenAIResponsesTools(
  tools: readonly ManifestToolSource[],
  options: DeferredManifestOptions & { strict?: boolean },
): OpenAiResponsesManifestEntry[];
export function toOpenAIResponsesTools(
  tools: readonly ManifestToolSource[],
  options?: RuntimeManifestOptions & { strict?: boolean },
): OpenAiResponsesTool[];
export function toOpenAIResponsesTools(
  tools: readonly ManifestToolSource[],
  options: RuntimeManifestOptions & { strict?: boolean; deferLoading?: DeferLoading } = {},
): OpenAiResponsesManifestEntry[] {
  return buildManifest(options.strict === true ? 'openai-responses-strict' : 'openai-responses', tools, options);
}

/** Anthropic Messages API tools (`input_schema` in JSON Schema 2020-12), as manifests/anthropic.json. */
export function toAnthropicTools(
  tools: readonly ManifestToolSource[],
  options: DeferredManifestOptions,
): AnthropicManifestEntry[];
export function toAnthropicTools(
  tools: readonly ManifestToolSource[],
  options?: RuntimeManifestOptions,
): AnthropicTool[];
export function toAnthropicTools(
  tools: readonly ManifestToolSource[],
  options: RuntimeManifestOptions & { deferLoading?: DeferLoading } = {},
): AnthropicManifestEntry[] {
  return buildManifest('anthropic', tools, options);
}

/** A Gemini `Tool` with `parametersJsonSchema` / `responseJsonSchema`, as manifests/gemini.json. */
export function toGeminiTool(
  tools: readonly ManifestToolSource[],
  options: RuntimeManifestOptions = {},
): GeminiToolManifest {
  return buildManifest('gemini', tools, options);
}

/** A Gemini `Tool` with the legacy OpenAPI-subset `parameters`, as manifests/gemini-legacy.json. */
export function toGeminiLegacyTool(
  tools: readonly ManifestToolSource[],
  options: RuntimeManifestOptions = {},
): GeminiLegacyToolManifest {
  return buildManifest('gemini-legacy', tools, options);
}

/**
 * One tool's strict-mode parameters, as openai-strict.json has them (every property required, optional
 * ones nullable; what strict mode drops told in the descriptions), or undefined when strict mode cannot
 * take the tool (its name, its schema): the OpenAI Agents adapter offers such a tool non-strict.
 */
export function toOpenAIStrictParameters(tool: ManifestToolSource): Record<string, unknown> | undefined {
  const [entry] = toOpenAITools([tool], { strict: true });
  return entry?.function.parameters;
}

/**
 * MCP `tools/list` entries (2020-12 schemas, annotations), as manifests/mcp.json and `serve`'s answer. It
 * takes registered tools (`orchestrator.getTool(name)`), not `listTools()`' definitions: the annotations
 * follow from `hasSideEffects`, which a definition for an LLM does not carry.
 */
export function toMcpTools(tools: readonly ITool[]): McpToolEntry[] {
  return tools.map(toMcpTool);
}
