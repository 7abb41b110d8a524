import type { ToolExecutionContext } from './context.js';
import { ToolsmithError, truncateText } from './errors.js';
import { valueAt } from './schema/json-pointer.js';
import { setOwn } from './schema/walk.js';
import { ATTACH_ORCHESTRATOR, CALL_CHAIN, COMPOSED_TOOL } from './pipeline/markers.js';
import type { ToolCallDetails, ToolCallResult } from './pipeline/types.js';
import type { JSONSchemaObject } from './schema/validation.js';
import type { ITool, ToolExecutionResult, ToolValidators } from './tool.js';
import type { ToolAnnotations } from './tool-description.js';

/** What an `ATTACH_ORCHESTRATOR` method receives: something that runs tool calls. */
export interface ToolCaller {
  processToolCall(details: ToolCallDetails): Promise<ToolCallResult>;
}

/**
 * One step of a composed tool. Argument values that are exactly a reference — `$input`,
 * `$input.<path>`, `$steps.<n>.output` or `$steps.<n>.output.<path>` — are replaced by the value
 * they point at (a missing field leaves the property out, so defaults apply); every other value is
 * a literal, recursively through objects and arrays.
 */
export interface ComposedStep {
  /** The name of the tool this step calls. */
  tool: string;
  arguments?: Record<string, unknown>;
  /** This step's timeout in milliseconds (joined with the composed call's own signal). */
  timeoutMs?: number;
}

/** Everything a composed tool is made of: the `ITool` metadata plus its steps. */
export interface ComposedToolDefinition<TInput extends Record<string, any> = Record<string, any>, TOutput = unknown> {
  name: string;
  description: string;
  inputSchema: JSONSchemaObject;
  outputSchema?: JSONSchemaObject;
  /** Default: `composed:<name>` (`@<version>` appended when there is a version). */
  id?: string;
  /** Default: the name. */
  displayName?: string;
  category?: string;
  version?: string;
  /** Default `false`: each step asks for its own approval. */
  hasSideEffects?: boolean;
  /** Capabilities for the composed tool itself; each step also checks its own, as the caller. */
  requiredCapabilities?: string[];
  timeoutMs?: number;
  /** MCP annotation hints (as in the definition format): what `listTools` of the MCP server reports. */
  annotations?: ToolAnnotations;
  validators?: ToolValidators<TInput, TOutput>;
  steps: readonly ComposedStep[];
  /** What the call answers, resolved like step arguments (e.g. `"$steps.1.output"`). Default: the last step's output. */
  output?: unknown;
}

/** What references resolve against: the composed call's input and the outputs of the steps run so far. */
export interface ReferenceScope {
  input: unknown;
  steps: ReadonlyArray<{ readonly output: unknown }>;
}

/** A parsed reference: where it starts and the property path below it. */
export interface ParsedReference {
  /** `-1` for `$input`, else the step index. */
  step: number;
  path: readonly string[];
}

const REFERENCE = /^\$(?:input|steps\.(0|[1-9]\d*)\.output)((?:\.[^.]+)*)$/;

/** Parses a whole-string reference (`$input.topic`, `$steps.0.output.body`); `undefined` for a literal. */
export function parseReference(value: string): ParsedReference | undefined {
  if (value.charCodeAt(0) !== 36 /* $ */) return undefined;
  const match = REFERENCE.exec(value);
  if (match === null) return undefined;
  return {
    step: match[1] === undefined ? -1 : Number(match[1]),
    path: match[2] === '' ? [] : match[2].slice(1).split('.'),
  };
}

/** Replaces every whole-string reference in `template` (recursively) with the value it points at. */
export function resolveTemplate(template: unknown, scope: ReferenceScope): unknown {
  if (typeof template === 'string') {
    const reference = parseReference(template);
    if (reference === undefined) return template;
    const root = reference.step === -1 ? scope.input : scope.steps[reference.step]?.output;
    return valueAt(root, reference.path); // own properties only: `$input.__proto__` is nothing
  }
  if (template === null || typeof template !== 'object') return template;
  if (Array.isArray(template)) return template.map((item) => resolveTemplate(item, scope));
  const resolved: Record<string, unknown> = {};
  for (const key of Object.keys(template)) {
    const value = resolveTemplate((template as Record<string, unknown>)[key], scope);
    if (value !== undefined) setOwn(resolved, key, value);
  }
  return resolved;
}

/** Every reference inside `template`. */
function collectReferences(template: unknown, found: ParsedReference[] = []): ParsedReference[] {
  if (typeof template === 'string') {
    const reference = parseReference(template);
    if (reference !== undefined) found.push(reference);
  } else if (template !== null && typeof template === 'object') {
    for (const value of Object.values(template)) collectReferences(value, found);
  }
  return found;
}

function checkDefinition(definition: ComposedToolDefinition<any, any>): void {
  const name = typeof definition?.name === 'string' ? definition.name : '';
  if (name === '') throw new ToolsmithError('INVALID_TOOL', "A composed tool needs a non-empty 'name'.");
  const invalid = (message: string) => new ToolsmithError('INVALID_TOOL', message);
  const tool = `composed tool '${truncateText(name)}'`;
  const steps = definition.steps;
  if (!Array.isArray(steps) || steps.length === 0)
    throw invalid(`Composed tool '${truncateText(name)}' needs at least one step.`);
  steps.forEach((step, index) => {
    if (typeof step?.tool !== 'string' || step.tool === '')
      throw invalid(`Step ${index} of ${tool} needs a 'tool' name.`);
    for (const reference of collectReferences(step.arguments)) {
      if (reference.step >= index)
        throw invalid(`Step ${index} of ${tool} refers to $steps.${reference.step}, which has not run yet.`);
    }
  });
  for (const reference of collectReferences(definition.output)) {
    if (reference.step >= steps.length)
      throw invalid(`The output of ${tool} refers to a step that does not exist ($steps.${reference.step}).`);
  }
}

/**
 * A tool that runs other tools as steps, each through `orchestrator.processToolCall`: its own
 * refusal, permissions (checked as the caller: the caller's `personaCapabilities` are passed on),
 * budget (the same `callerTurn`), validation and approval; it gets the composed call's signal and
 * its own timeout. The first failing step ends the call with `STEP_FAILED` and
 * `details: { step, code, message }`.
 *
 * How it gets the orchestrator: `ToolOrchestrator.registerTool` calls the tool's
 * `[ATTACH_ORCHESTRATOR]` method with itself (so registering is enough); `attach()` or the
 * constructor's `orchestrator` option set it by hand. A composed tool belongs to one orchestrator;
 * run elsewhere (e.g. in AgentOS's executor) without one, its calls fail.
 */
export class ComposedTool<TInput extends Record<string, any> = Record<string, any>, TOutput = unknown> implements ITool<
  TInput,
  TOutput
> {
  readonly id: string;
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly inputSchema: JSONSchemaObject;
  readonly outputSchema?: JSONSchemaObject;
  readonly requiredCapabilities: string[];
  readonly category?: string;
  readonly version?: string;
  readonly hasSideEffects: boolean;
  readonly timeoutMs?: number;
  readonly annotations?: ToolAnnotations;
  readonly validators?: ToolValidators<TInput, TOutput>;
  readonly steps: readonly ComposedStep[];
  readonly output: unknown;
  /** Tells the call pipeline that this tool's failed results speak for its steps (`STEP_FAILED`). */
  readonly [COMPOSED_TOOL] = true;
  #orchestrator: ToolCaller | undefined;

  constructor(definition: ComposedToolDefinition<TInput, TOutput>, options: { orchestrator?: ToolCaller } = {}) {
    checkDefinition(definition);
    const { name, version } = definition;
    this.name = name;
    this.id = definition.id ?? `composed:${name}${version === undefined ? '' : `@${version}`}`;
    this.displayName = definition.displayName ?? name;
    this.description = definition.description;
    this.inputSchema = definition.inputSchema;
    // The optional fields are own properties already (class fields), `undefined` until given.
    const { outputSchema, category, timeoutMs, annotations, validators } = definition;
    Object.assign(this, { outputSchema, category, version, timeoutMs, annotations, validators });
    this.requiredCapabilities = [...(definition.requiredCapabilities ?? [])];
    this.hasSideEffects = definition.hasSideEffects ?? false;
    this.steps = Object.freeze(definition.steps.map((step) => Object.freeze({ ...step })));
    this.output = definition.output;
    this.#orchestrator = options.orchestrator;
  }

  /** Sets the orchestrator the steps run through; a composed tool belongs to one orchestrator. */
  attach(orchestrator: ToolCaller): void {
    if (this.#orchestrator !== undefined && this.#orchestrator !== orchestrator) {
      throw new ToolsmithError(
        'INVALID_TOOL',
        `Composed tool '${truncateText(this.name)}' is already attached to another orchestrator.`,
      );
    }
    this.#orchestrator = orchestrator;
  }

  /** Called by `ToolOrchestrator.registerTool`. */
  [ATTACH_ORCHESTRATOR](orchestrator: ToolCaller): void {
    this.attach(orchestrator);
  }

  /** Runs the steps in order and answers `output` (default: the last step's output). */
  async execute(args: TInput, context: ToolExecutionContext): Promise<ToolExecutionResult<TOutput>> {
    const orchestrator = this.#orchestrator;
    if (orchestrator === undefined) {
      return {
        success: false,
        error: `Composed tool '${this.name}' is not attached to an orchestrator; register it with a ToolOrchestrator.`,
      };
    }
    const outputs: Array<{ output: unknown }> = [];
    const scope: ReferenceScope = { input: args, steps: outputs };
    const chain = [...((context as { [CALL_CHAIN]?: readonly string[] })[CALL_CHAIN] ?? []), this.name];
    for (let index = 0; index < this.steps.length; index++) {
      const step = this.steps[index];
      // The step runs as the composed call's caller: its identity, capabilities, turn and signal.
      const result = await orchestrator.processToolCall({
        ...context,
        toolCallRequest: {
          id: `${context.correlationId ?? this.name}:step-${index}`,
          name: step.tool,
          arguments: resolveTemplate(step.arguments ?? {}, scope) as Record<string, unknown>,
        },
        timeoutMs: step.timeoutMs,
        [CALL_CHAIN]: chain,
      });
      if (result.isError) {
        const code = result.errorDetails?.code ?? 'TOOL_FAILED';
        const message = result.errorDetails?.message ?? 'no message';
        if (code === 'COMPOSITION_TOO_DEEP') {
          // Passed up as it is, so the outermost call answers the same code and message.
          return { success: false, error: message, details: { ...result.errorDetails?.details, code } };
        }
        return {
          success: false,
          error: `Step ${index} ('${step.tool}') of composed tool '${this.name}' failed with ${code}: ${message}`,
          details: { step: index, code, message },
        };
      }
      outputs.push({ output: result.output });
    }
    const output = this.output === undefined ? outputs[outputs.length - 1].output : resolveTemplate(this.output, scope);
    return { success: true, output: output as TOutput };
  }
}

/**
 * Defines a hand-written composed tool, typed by its input and output:
 *
 * ```ts
 * const summarize = defineComposedTool<{ topic: string }, { summary: string }>({
 *   name: 'research_topic',
 *   description: 'Searches a topic and summarizes the first hit.',
 *   inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
 *   steps: [
 *     { tool: 'web_search', arguments: { query: '$input.topic' } },
 *     { tool: 'summarize', arguments: { text: '$steps.0.output.body' }, timeoutMs: 5_000 },
 *   ],
 * });
 * orchestrator.registerTool(summarize); // attaches it to the orchestrator
 * ```
 */
export function defineComposedTool<TInput extends Record<string, any> = Record<string, any>, TOutput = unknown>(
  definition: ComposedToolDefinition<TInput, TOutput>,
): ComposedTool<TInput, TOutput> {
  return new ComposedTool<TInput, TOutput>(definition);
}
