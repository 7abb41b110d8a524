import { ToolsmithError, truncateText } from '../errors.js';
import { isLazyTool, LOAD_TOOL, type LazyTool } from '../lazy.js';
import type { ITool } from '../tool.js';
import { SchemaValidator } from '../schema/validation.js';
import { thrownFailure, type ToolCallFailure } from './failure.js';

/** A tool as a registry keeps it: the tool, its validators and capability list, prepared once at registration. */
export interface RegisteredTool {
  readonly name: string;
  /** The tool; for a lazy tool, the stand-in until `load` replaces it with the loaded one. */
  tool: ITool;
  /** Input validator (generated, or `inputSchema` compiled at registration); removes optional `null`s. */
  input: SchemaValidator<Record<string, unknown>>;
  /** Output validator, when the tool has an output schema or a generated output validator. */
  output: SchemaValidator | undefined;
  /** `tool.requiredCapabilities`, copied at registration. */
  requiredCapabilities: readonly string[];
  /**
   * Set while a lazy tool is not loaded: loads it once (callers share the load), prepares its
   * validators and clears itself; answers a `TOOL_ERROR` failure when loading fails.
   */
  load: (() => Promise<ToolCallFailure | undefined>) | undefined;
  /** Calls currently using this registration (unregistering waits for them). */
  inFlight: number;
  /** Called when `inFlight` drops to 0 while someone waits for it. */
  onIdle: (() => void) | undefined;
  /** The steps a plain call of this registration skips (bit `1 << index`, see `planSteps`); -1 until the first call. */
  plainSteps: number;
}

/** Options of `registerTool`. */
export interface RegisterOptions {
  /** Replace a tool registered under the same name instead of failing with `ALREADY_REGISTERED`. */
  replace?: boolean;
}

/** Checks the shape of a tool before it is registered; a malformed one is a programmer mistake. */
function assertTool(tool: ITool): void {
  const name = (tool as Partial<ITool> | undefined)?.name;
  if (typeof name !== 'string' || name === '' || name.trim() !== name) {
    throw new ToolsmithError('INVALID_TOOL', "A tool needs a non-empty 'name' without surrounding spaces.", {
      details: { name },
    });
  }
  const needs = (what: string) => new ToolsmithError('INVALID_TOOL', `Tool '${truncateText(name)}' needs ${what}.`);
  // A lazy tool's id and schemas are read on demand (from its catalog): they are checked when it loads.
  const lazy = isLazyTool(tool);
  if (!lazy && (typeof tool.id !== 'string' || tool.id === '')) throw needs("a non-empty 'id'");
  if (typeof tool.execute !== 'function') throw needs("an 'execute' function");
  if (!lazy && (tool.inputSchema === null || typeof tool.inputSchema !== 'object'))
    throw needs("an 'inputSchema' object");
}

/** A stand-in's registration: nothing is compiled; the loaded tool brings its generated validators. */
function prepareLazyTool(tool: LazyTool): RegisteredTool {
  // Until it loads (`load` set), `missingCapabilities` asks the stand-in, which reads its catalog entry then.
  const entry = registration(tool, NOT_LOADED, undefined, []);
  let loading: Promise<ToolCallFailure | undefined> | undefined;
  entry.load = () =>
    // Through a resolved promise: a loader that throws or answers a non-promise is a failed load too.
    (loading ??= Promise.resolve()
      .then(() => tool[LOAD_TOOL]())
      .then((loaded) => {
        const { input, output, requiredCapabilities } = prepareTool(loaded);
        Object.assign(entry, { tool: loaded, input, output, requiredCapabilities, load: undefined });
        return undefined;
      })
      .catch((error: unknown) => {
        loading = undefined; // a later call tries again
        return thrownFailure('TOOL_ERROR', `Tool '${tool.name}' could not be loaded`, error);
      }));
  return entry;
}

/** Prepares a tool for calls: its validators (generated ones used as they are) and capabilities. */
export function prepareTool(tool: ITool): RegisteredTool {
  assertTool(tool);
  if (isLazyTool(tool)) return prepareLazyTool(tool);
  const validators = tool.validators;
  const hasOutput = tool.outputSchema !== undefined || validators?.output !== undefined;
  return registration(
    tool,
    new SchemaValidator({ schema: tool.inputSchema, generated: validators?.input, stripOptionalNulls: true }),
    hasOutput ? new SchemaValidator({ schema: tool.outputSchema, generated: validators?.output }) : undefined,
    Array.isArray(tool.requiredCapabilities) ? [...tool.requiredCapabilities] : [],
  );
}

/** A registration not yet used by any call (every field set, so all registrations share one shape). */
function registration(
  tool: ITool,
  input: RegisteredTool['input'],
  output: RegisteredTool['output'],
  requiredCapabilities: readonly string[],
): RegisteredTool {
  return {
    name: tool.name,
    tool,
    input,
    output,
    requiredCapabilities,
    load: undefined,
    inFlight: 0,
    onIdle: undefined,
    plainSteps: -1,
  };
}

/** Never used to validate: a lazy entry is loaded before anything validates with it. */
const NOT_LOADED = new SchemaValidator<Record<string, unknown>>({
  generated: Object.assign((_data: unknown): _data is Record<string, unknown> => false, { errors: null }),
});

/** Resolves once no call uses `entry` any more. */
export function waitForIdle(entry: RegisteredTool): Promise<void> {
  if (entry.inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const previous = entry.onIdle;
    entry.onIdle = () => {
      entry.onIdle = undefined;
      previous?.();
      resolve();
    };
  });
}

/** Marks the end of one call using `entry`. */
export function releaseEntry(entry: RegisteredTool): void {
  if (--entry.inFlight === 0 && entry.onIdle !== undefined) entry.onIdle();
}
