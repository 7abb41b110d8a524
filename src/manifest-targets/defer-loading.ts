/*
 * Deferred loading (`manifests.deferLoading`): the tools that stay loaded are sent as they are, every
 * other one is marked `defer_loading: true`, and the provider's tool search tool is listed last, so the
 * model sees the search tool and the loaded tools, and finds the deferred ones by searching. Sources:
 * - Anthropic: `Tool.defer_loading`, `ToolSearchToolBm25_20251119` (`{ type: "tool_search_tool_bm25_20251119",
 *   name: "tool_search_tool_bm25" }`) and `ToolSearchToolRegex20251119` in
 *   node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts (1.14.0);
 *   https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/tool-search-tool
 * - OpenAI Responses: `FunctionTool.defer_loading`, `ToolSearchTool` (`{ type: "tool_search" }`) and
 *   `NamespaceTool` (`{ type: "namespace", name, description, tools }`) in
 *   node_modules/openai/resources/responses/responses.d.ts (7.59.0); OpenAI advises keeping a namespace
 *   to about 10 functions (`NAMESPACE_ADVISED_SIZE`). `manifests/openai-responses.json` stays a flat list,
 *   one entry per tool; with `namespaces`, `manifests/openai-responses-namespaced.json` groups its
 *   deferred functions by category (`namespacedResponsesTools`).
 */

/** Which tools stay loaded when deferred loading is on; every other tool is deferred. */
export interface DeferLoading {
  /** Tool names that stay loaded. */
  loaded?: readonly string[];
  /** Categories whose tools stay loaded. */
  loadedCategories?: readonly string[];
  /** Anthropic's tool search tool: `bm25` (natural-language queries, the default) or `regex`. */
  anthropicSearch?: 'bm25' | 'regex';
  /** Also write `manifests/openai-responses-namespaced.json`: the deferred functions in one namespace per category. */
  namespaces?: boolean;
}

/** The most functions OpenAI advises per namespace; a bigger category is a warning. */
export const NAMESPACE_ADVISED_SIZE = 10;

/** The namespace of a tool without a category. */
const UNCATEGORIZED_NAMESPACE = 'other';

/** A namespace of the Responses API (assignable to the SDK's `NamespaceTool`). */
interface OpenAiNamespaceTool {
  type: 'namespace';
  name: string;
  description: string;
  tools: Record<string, unknown>[];
}

/** A category as a namespace name: letters, digits, `_` and `-` (others become `_`), at most 64. */
function namespaceName(category: string | undefined): string {
  const name = (category ?? UNCATEGORIZED_NAMESPACE).replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return name === '' ? UNCATEGORIZED_NAMESPACE : name;
}

/**
 * The Responses entries (as `manifests/openai-responses*.json` lists them) with the deferred functions
 * grouped into one namespace per category, in name order: the loaded functions first, as they are,
 * then the namespaces, then `tool_search`. Also the namespaces over `NAMESPACE_ADVISED_SIZE`.
 */
export function namespacedResponsesTools(
  entries: readonly Record<string, unknown>[],
  categoryOf: (tool: string) => string | undefined,
): { content: Record<string, unknown>[]; oversized: { name: string; size: number }[] } {
  const loaded: Record<string, unknown>[] = [];
  const groups = new Map<string, { categories: Set<string>; tools: Record<string, unknown>[] }>();
  let search: Record<string, unknown> | undefined;
  for (const entry of entries) {
    if (entry.type === 'tool_search') search = entry;
    else if (entry.defer_loading !== true) loaded.push(entry);
    else {
      const category = categoryOf(entry.name as string);
      const name = namespaceName(category);
      const group = groups.get(name) ?? { categories: new Set<string>(), tools: [] };
      group.categories.add(category ?? UNCATEGORIZED_NAMESPACE);
      group.tools.push(entry);
      groups.set(name, group);
    }
  }
  const namespaces: OpenAiNamespaceTool[] = [...groups.keys()].sort().map((name) => {
    const { categories, tools } = groups.get(name)!;
    const description = `Tools of the ${[...categories].sort().join(', ')} category.`;
    return { type: 'namespace', name, description, tools };
  });
  const oversized = namespaces
    .filter((namespace) => namespace.tools.length > NAMESPACE_ADVISED_SIZE)
    .map((namespace) => ({ name: namespace.name, size: namespace.tools.length }));
  return {
    content: [...loaded, ...(namespaces as unknown as Record<string, unknown>[]), ...(search ? [search] : [])],
    oversized,
  };
}

/** Anthropic's tool search tool entries, by variant. */
const ANTHROPIC_TOOL_SEARCH = Object.freeze({
  bm25: Object.freeze({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }),
  regex: Object.freeze({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }),
} as const);

/** An Anthropic tool search tool entry (assignable to the SDK's `ToolSearchToolBm25_20251119` / `…Regex…`). */
export type AnthropicToolSearchTool = (typeof ANTHROPIC_TOOL_SEARCH)[keyof typeof ANTHROPIC_TOOL_SEARCH];

/** The OpenAI Responses tool search entry (the SDK's `ToolSearchTool`). */
export interface OpenAiToolSearchTool {
  type: 'tool_search';
}

/** What deferred loading reads of a tool: its name, category and `loaded` flag. */
interface DeferrableTool {
  name: string;
  category?: string | undefined;
  loaded?: boolean | undefined;
}

/** True when `tool` is deferred under `defer` (never without it, nor for a definition with `loaded: true`). */
export function isDeferred(tool: DeferrableTool, defer: DeferLoading | undefined): boolean {
  if (defer === undefined || tool.loaded === true) return false;
  if (defer.loaded?.includes(tool.name)) return false;
  return !(tool.category !== undefined && defer.loadedCategories?.includes(tool.category));
}

/** The search tool entry `target` lists last when a tool of it is deferred; undefined for a target without one. */
export function toolSearchEntry(target: string, defer: DeferLoading): object | undefined {
  if (target === 'anthropic') return { ...ANTHROPIC_TOOL_SEARCH[defer.anthropicSearch ?? 'bm25'] };
  if (target === 'openai-responses' || target === 'openai-responses-strict') return { type: 'tool_search' };
  return undefined;
}

/**
 * Marks the entries of the deferred tools `defer_loading: true` and lists `target`'s search tool last,
 * when a tool is deferred (`manifests.deferLoading`); without deferred loading the build is as it was.
 */
export function deferEntries<TBuild extends { content: { name: string; defer_loading?: true }[] }>(
  build: TBuild,
  project: { tools: readonly DeferrableTool[]; deferLoading?: DeferLoading | undefined },
  target: string,
): TBuild {
  const defer = project.deferLoading;
  if (defer === undefined) return build;
  const tools = new Map(project.tools.map((tool) => [tool.name, tool]));
  for (const entry of build.content) if (isDeferred(tools.get(entry.name)!, defer)) entry.defer_loading = true;
  const search = toolSearchEntry(target, defer);
  if (search !== undefined && build.content.some((entry) => entry.defer_loading === true))
    (build.content as object[]).push(search);
  return build;
}
