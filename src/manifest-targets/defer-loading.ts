/*
 * Deferred loading (`manifests.deferLoading`): the tools that stay loaded are sent as they are, every
 * other one is marked `defer_loading: true`, and the provider's tool search tool is listed last, so the
 * model sees the search tool and the loaded tools, and finds the deferred ones by searching. Sources:
 * - Anthropic: `Tool.defer_loading`, `ToolSearchToolBm25_20251119` (`{ type: "tool_search_tool_bm25_20251119",
 *   name: "tool_search_tool_bm25" }`) and `ToolSearchToolRegex20251119` in
 *   node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts (1.14.0);
 *   https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/tool-search-tool
 * - OpenAI Responses: `FunctionTool.defer_loading` and `ToolSearchTool` (`{ type: "tool_search" }`) in
 *   node_modules/openai/resources/responses/responses.d.ts (7.59.0). Namespaces (`NamespaceTool`) are not
 *   written: the functions stay a flat list, one entry per tool.
 */

/** Which tools stay loaded when deferred loading is on; every other tool is deferred. */
export interface DeferLoading {
  /** Tool names that stay loaded. */
  loaded?: readonly string[];
  /** Categories whose tools stay loaded. */
  loadedCategories?: readonly string[];
  /** Anthropic's tool search tool: `bm25` (natural-language queries, the default) or `regex`. */
  anthropicSearch?: 'bm25' | 'regex';
}

/** Anthropic's tool search tool entries, by variant. */
export const ANTHROPIC_TOOL_SEARCH = Object.freeze({
  bm25: Object.freeze({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }),
  regex: Object.freeze({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }),
} as const);

/** An Anthropic tool search tool entry (assignable to the SDK's `ToolSearchToolBm25_20251119` / `…Regex…`). */
export type AnthropicToolSearchTool = (typeof ANTHROPIC_TOOL_SEARCH)[keyof typeof ANTHROPIC_TOOL_SEARCH];

/** The OpenAI Responses tool search entry (the SDK's `ToolSearchTool`). */
export interface OpenAiToolSearchTool {
  type: 'tool_search';
}

/** True when `tool` is deferred under `defer` (never without it). */
export function isDeferred(
  tool: { name: string; category?: string | undefined },
  defer: DeferLoading | undefined,
): boolean {
  if (defer === undefined) return false;
  if (defer.loaded?.includes(tool.name)) return false;
  return !(tool.category !== undefined && defer.loadedCategories?.includes(tool.category));
}

/** The search tool entry `target` lists last when a tool of it is deferred; undefined for a target without one. */
export function toolSearchEntry(target: string, defer: DeferLoading): object | undefined {
  if (target === 'anthropic') return { ...ANTHROPIC_TOOL_SEARCH[defer.anthropicSearch ?? 'bm25'] };
  if (target === 'openai-responses' || target === 'openai-responses-strict') return { type: 'tool_search' };
  return undefined;
}
