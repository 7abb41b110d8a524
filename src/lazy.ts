import type { ContentKind } from './caller/content.js';
import { ToolsmithError } from './errors.js';
import type { ToolExecutionContext } from './context.js';
import type { JSONSchemaObject } from './schema/validation.js';
import { isObject } from './schema/walk.js';
import type { ITool, ToolExecutionResult } from './tool.js';
import type { ToolDescription } from './tool-description.js';

/**
 * Marks a tool whose implementation (and generated validators) load on first use: the call
 * pipeline's deadline step loads it on its first call, through `ToolOrchestrator` or
 * `ToolExecutor` alike. A registry-wide symbol, so copies of the package agree on it.
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
export interface LazyToolMetadata extends Omit<ToolDescription, 'inputSchema'> {
  /** The input schema, unless `schemas` gives it. */
  readonly inputSchema?: JSONSchemaObject;
  readonly schemas?: () => LazyToolSchemas;
}

/**
 * A lazy tool known only by its name until something asks for more: `metadata` is called (once)
 * the first time any other field is read — registering and calling a tool never ask, listing does.
 */
export interface LazyToolSource {
  name: string;
  metadata: () => Omit<LazyToolMetadata, 'name'>;
}

/**
 * How `defineLazyTools` reaches many tools through three shared functions, each given the tool's
 * entry (its name first): no function is made per tool, so registering 1,000 costs little.
 */
export interface LazyToolSet<TEntry extends readonly [string, ...unknown[]] = readonly [string, ...unknown[]]> {
  /** The tool's metadata but its name; called the first time any of it is read. */
  metadata(entry: TEntry): Omit<LazyToolMetadata, 'name'>;
  /** Imports and constructs the tool; called on its first call. */
  load(entry: TEntry): Promise<ITool>;
  /** The tool's schemas; called the first time one is read, with the metadata `metadata` answered. */
  schemas(entry: TEntry, metadata: Omit<LazyToolMetadata, 'name'>): LazyToolSchemas;
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
 * A tool registered by its metadata (or only its name, with `LazyToolSource`) and loaded on its
 * first call: with 1,000 generated tools, registering them loads no implementation, base class or
 * validator module and parses no schema; toolsmith's orchestrator and executor load a tool (and
 * its standalone validators) the first time it is called. Elsewhere (e.g. in an AgentOS executor)
 * `execute` loads and delegates.
 */
export function defineLazyTool<TInput extends Record<string, any> = any, TOutput = any>(
  metadata: LazyToolMetadata | LazyToolSource,
  load: () => Promise<ITool<TInput, TOutput>>,
  schemas?: () => LazyToolSchemas,
): LazyTool<TInput, TOutput> {
  const single: LazyToolSet<readonly [string]> = {
    metadata: () =>
      typeof (metadata as LazyToolSource).metadata === 'function'
        ? (metadata as LazyToolSource).metadata()
        : (metadata as LazyToolMetadata),
    load: load as () => Promise<ITool>,
    schemas: (_entry, known) => {
      const read = schemas ?? known.schemas;
      if (read === undefined)
        throw new ToolsmithError(
          'INVALID_TOOL',
          `Lazy tool '${metadata.name}' has neither 'inputSchema' nor 'schemas'.`,
        );
      return read();
    },
  };
  return new LazyToolStandIn<TInput, TOutput>([metadata.name], single as unknown as LazyToolSet);
}

/**
 * Many lazy tools at once (the generated `createLazyTools()`): one stand-in per entry, every one
 * reading its metadata, schemas and implementation through `set`, given its entry.
 */
export function defineLazyTools<TEntry extends readonly [string, ...unknown[]]>(
  entries: readonly TEntry[],
  set: LazyToolSet<TEntry>,
): LazyTool[] {
  return entries.map((entry) => new LazyToolStandIn(entry, set as unknown as LazyToolSet));
}

/** What a stand-in learns once asked: its metadata, schemas, capability list and pending load. */
interface StandInState {
  metadata?: Omit<LazyToolMetadata, 'name'>;
  schemas?: LazyToolSchemas;
  requiredCapabilities?: string[];
  loading?: Promise<ITool>;
}

/**
 * The fields of a tool's description, in a generated tool's order (`toJSON` writes them so); the
 * generated catalog holds them all but the name and the schemas.
 */
export const DESCRIPTION_FIELDS = [
  'id',
  'name',
  'displayName',
  'description',
  'inputSchema',
  'outputSchema',
  'requiredCapabilities',
  'category',
  'version',
  'hasSideEffects',
  'annotations',
  'timeoutMs',
  'contentTypes',
  'taskSupport',
] as const;

/** The stand-in: a class with three fields, so that making 1,000 of them is cheap; every field but `name` is read on demand. */
class LazyToolStandIn<TInput extends Record<string, any>, TOutput> implements LazyTool<TInput, TOutput> {
  readonly name: string;
  declare readonly id: string;
  declare readonly displayName: string;
  declare readonly description: string;
  declare readonly annotations: ToolDescription['annotations'];
  declare readonly category: string | undefined;
  declare readonly version: string | undefined;
  declare readonly timeoutMs: number | undefined;
  declare readonly contentTypes: readonly ContentKind[] | undefined;
  declare readonly taskSupport: 'optional' | 'required' | undefined;
  #entry: readonly [string, ...unknown[]];
  #set: LazyToolSet;
  #state: StandInState | undefined = undefined;

  static {
    // A getter for each field the catalog entry gives as it is (the class writes the others).
    for (const field of DESCRIPTION_FIELDS) {
      if (field === 'name' || field in this.prototype) continue;
      Object.defineProperty(this.prototype, field, {
        get(this: LazyToolStandIn<any, any>) {
          return this.#meta()[field];
        },
      });
    }
  }

  constructor(entry: readonly [string, ...unknown[]], set: LazyToolSet) {
    this.name = entry[0];
    this.#entry = entry;
    this.#set = set;
  }

  #meta(): Omit<LazyToolMetadata, 'name'> {
    const state = (this.#state ??= {});
    if (state.metadata === undefined) {
      const metadata = this.#set.metadata(this.#entry);
      if (metadata === null || typeof metadata !== 'object')
        throw new ToolsmithError('INVALID_TOOL', `Lazy tool '${this.name}' has no metadata.`);
      state.metadata = metadata;
    }
    return state.metadata;
  }

  get requiredCapabilities(): string[] {
    const metadata = this.#meta();
    return (this.#state!.requiredCapabilities ??= [...(metadata.requiredCapabilities ?? [])]);
  }

  get hasSideEffects(): boolean {
    return this.#meta().hasSideEffects ?? false;
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

  /**
   * The metadata, as `JSON.stringify` of a loaded tool gives them (unset fields left out): the fields
   * are getters, so without this a stand-in would serialize as `{ "name": … }` alone.
   */
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(DESCRIPTION_FIELDS.map((field) => [field, this[field]]));
  }

  [LOAD_TOOL](): Promise<ITool<TInput, TOutput>> {
    const state = (this.#state ??= {});
    // A loader that throws or answers a non-promise becomes a rejected load, not an exception.
    return (state.loading ??= new Promise<ITool>((resolve) => resolve(this.#set.load(this.#entry)))
      .then((tool) => {
        if (!isObject(tool) || tool.name !== this.name) {
          const answered = isObject(tool) ? `tool '${String(tool.name)}'` : 'no tool';
          throw new ToolsmithError('INVALID_TOOL', `The loader of tool '${this.name}' answered ${answered}.`);
        }
        return tool;
      })
      .catch((error: unknown) => {
        state.loading = undefined; // a failed load is tried again by the next call
        throw error;
      })) as Promise<ITool<TInput, TOutput>>;
  }

  #readSchemas(): LazyToolSchemas {
    const metadata = this.#meta();
    const { inputSchema, outputSchema } = metadata;
    return (this.#state!.schemas ??=
      inputSchema === undefined ? this.#set.schemas(this.#entry, metadata) : { inputSchema, outputSchema });
  }
}
