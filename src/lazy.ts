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
 * registering them loads no implementation, base class or validator module and parses no schema;
 * the orchestrator loads a tool (and its standalone validators) the first time it is called.
 * Outside toolsmith's orchestrator (e.g. in an AgentOS executor) `execute` loads and delegates.
 */
export function defineLazyTool<TInput extends Record<string, any> = any, TOutput = any>(
  metadata: LazyToolMetadata,
  load: () => Promise<ITool<TInput, TOutput>>,
  schemas?: () => LazyToolSchemas,
): LazyTool<TInput, TOutput> {
  return new LazyToolStandIn<TInput, TOutput>(metadata, load, schemas ?? metadata.schemas);
}

/** The stand-in `defineLazyTool` returns: a class, so that making 1,000 of them is cheap. */
class LazyToolStandIn<TInput extends Record<string, any>, TOutput> implements LazyTool<TInput, TOutput> {
  readonly id: string;
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly requiredCapabilities: string[];
  readonly hasSideEffects: boolean;
  readonly category?: string;
  readonly version?: string;
  readonly timeoutMs?: number;
  #metadata: LazyToolMetadata;
  #load: () => Promise<ITool<TInput, TOutput>>;
  #readSchemaFile: (() => LazyToolSchemas) | undefined;
  #schemas: LazyToolSchemas | undefined;
  #loading: Promise<ITool<TInput, TOutput>> | undefined;

  constructor(metadata: LazyToolMetadata, load: () => Promise<ITool<TInput, TOutput>>, schemas: (() => LazyToolSchemas) | undefined) {
    this.id = metadata.id;
    this.name = metadata.name;
    this.displayName = metadata.displayName;
    this.description = metadata.description;
    this.requiredCapabilities = metadata.requiredCapabilities ? [...metadata.requiredCapabilities] : [];
    this.hasSideEffects = metadata.hasSideEffects ?? false;
    if (metadata.category !== undefined) this.category = metadata.category;
    if (metadata.version !== undefined) this.version = metadata.version;
    if (metadata.timeoutMs !== undefined) this.timeoutMs = metadata.timeoutMs;
    this.#metadata = metadata;
    this.#load = load;
    this.#readSchemaFile = schemas;
  }

  get inputSchema(): JSONSchemaObject {
    return this.#readSchemas().inputSchema;
  }

  get outputSchema(): JSONSchemaObject | undefined {
    return this.#readSchemas().outputSchema;
  }

  async execute(args: TInput, context: ToolExecutionContext): Promise<ToolExecutionResult<TOutput>> {
    return (await this[LOAD_TOOL]()).execute(args, context);
  }

  [LOAD_TOOL](): Promise<ITool<TInput, TOutput>> {
    return (this.#loading ??= this.#load()
      .then((tool) => {
        if (tool === null || typeof tool !== 'object' || tool.name !== this.name) {
          throw new ToolsmithError('INVALID_TOOL', `The loader of tool '${this.name}' answered ${tool === null || typeof tool !== 'object' ? 'no tool' : `tool '${String(tool.name)}'`}.`);
        }
        return tool;
      })
      .catch((error: unknown) => {
        this.#loading = undefined; // a failed load is tried again by the next call
        throw error;
      }));
  }

  #readSchemas(): LazyToolSchemas {
    if (this.#schemas === undefined) {
      const metadata = this.#metadata;
      if (metadata.inputSchema !== undefined) {
        this.#schemas = metadata.outputSchema !== undefined ? { inputSchema: metadata.inputSchema, outputSchema: metadata.outputSchema } : { inputSchema: metadata.inputSchema };
      } else if (this.#readSchemaFile !== undefined) {
        this.#schemas = this.#readSchemaFile();
      } else {
        throw new ToolsmithError('INVALID_TOOL', `Lazy tool '${this.name}' has neither 'inputSchema' nor 'schemas'.`);
      }
    }
    return this.#schemas;
  }
}
