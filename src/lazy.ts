import { ToolsmithError } from './errors.js';
import type { ToolExecutionContext } from './context.js';
import type { ITool, JSONSchemaObject, ToolExecutionResult } from './tool.js';

/**
 * Marks a tool whose implementation (and generated validators) load on first use; the executor
 * prepares it when the orchestrator first calls it. A registry-wide symbol, so copies of the
 * package agree on it.
 */
export const LOAD_TOOL: unique symbol = Symbol.for('toolsmith.loadTool') as never;

/** A tool's schemas, for `LazyToolMetadata.schemas`. */
export interface LazyToolSchemas {
  inputSchema: JSONSchemaObject;
  outputSchema?: JSONSchemaObject;
}

/**
 * What a lazily loaded tool is known by before it loads: the metadata an LLM and a listing need.
 * The schemas are given as they are, or by `schemas`, called (once) when first read — so that
 * registering many tools parses none of them.
 */
export interface LazyToolMetadata {
  id: string;
  name: string;
  displayName: string;
  description: string;
  inputSchema?: JSONSchemaObject;
  outputSchema?: JSONSchemaObject;
  schemas?: () => LazyToolSchemas;
  requiredCapabilities?: string[];
  category?: string;
  version?: string;
  hasSideEffects?: boolean;
  timeoutMs?: number;
}

/** An `ITool` that stands for a tool not loaded yet. */
export interface LazyTool<TInput extends Record<string, any> = any, TOutput = any> extends ITool<TInput, TOutput> {
  /** Loads the real tool once (later calls get the same promise; after a failure, the next call tries again). */
  [LOAD_TOOL](): Promise<ITool<TInput, TOutput>>;
}

/** True for a tool made by `defineLazyTool`. */
export function isLazyTool(tool: unknown): tool is LazyTool {
  return typeof (tool as { [LOAD_TOOL]?: unknown } | null)?.[LOAD_TOOL] === 'function';
}

/**
 * A tool registered by its metadata and loaded on its first call: with 1,000 generated tools,
 * registering them loads no implementation, no base class and no validator module; the
 * orchestrator loads a tool (and its standalone validators) the first time it is called. Outside
 * toolsmith's orchestrator (e.g. in an AgentOS executor) `execute` loads and delegates.
 */
export function defineLazyTool<TInput extends Record<string, any> = any, TOutput = any>(
  metadata: LazyToolMetadata,
  load: () => Promise<ITool<TInput, TOutput>>,
): LazyTool<TInput, TOutput> {
  let loading: Promise<ITool<TInput, TOutput>> | undefined;
  const loadOnce = (): Promise<ITool<TInput, TOutput>> =>
    (loading ??= load().then((tool) => {
      if (tool === null || typeof tool !== 'object' || tool.name !== metadata.name) {
        throw new ToolsmithError('INVALID_TOOL', `The loader of tool '${metadata.name}' answered ${tool === null || typeof tool !== 'object' ? 'no tool' : `tool '${String(tool.name)}'`}.`);
      }
      return tool;
    }).catch((error: unknown) => {
      loading = undefined; // a failed load is tried again by the next call
      throw error;
    }));
  let schemas: LazyToolSchemas | undefined =
    metadata.inputSchema !== undefined ? { inputSchema: metadata.inputSchema, ...(metadata.outputSchema !== undefined ? { outputSchema: metadata.outputSchema } : {}) } : undefined;
  const readSchemas = (): LazyToolSchemas => {
    if (schemas === undefined) {
      if (metadata.schemas === undefined) throw new ToolsmithError('INVALID_TOOL', `Lazy tool '${metadata.name}' has neither 'inputSchema' nor 'schemas'.`);
      schemas = metadata.schemas();
    }
    return schemas;
  };
  const lazy: LazyTool<TInput, TOutput> = {
    id: metadata.id,
    name: metadata.name,
    displayName: metadata.displayName,
    description: metadata.description,
    get inputSchema() {
      return readSchemas().inputSchema;
    },
    get outputSchema() {
      return readSchemas().outputSchema;
    },
    requiredCapabilities: [...(metadata.requiredCapabilities ?? [])],
    hasSideEffects: metadata.hasSideEffects ?? false,
    async execute(args: TInput, context: ToolExecutionContext): Promise<ToolExecutionResult<TOutput>> {
      return (await loadOnce()).execute(args, context);
    },
    [LOAD_TOOL]: loadOnce,
  };
  if (metadata.category !== undefined) (lazy as { category?: string }).category = metadata.category;
  if (metadata.version !== undefined) (lazy as { version?: string }).version = metadata.version;
  if (metadata.timeoutMs !== undefined) (lazy as { timeoutMs?: number }).timeoutMs = metadata.timeoutMs;
  return lazy;
}
