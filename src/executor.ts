import type { ToolExecutionContext, UserContext } from './context.js';
import { ToolsmithError, describeThrown, isToolsmithError, truncateText, type ToolErrorCode } from './errors.js';
import { nextCorrelationId } from './ids.js';
import { ToolRegistry } from './registry.js';
import { isLazyTool, LOAD_TOOL } from './lazy.js';
import type { ITool, ToolExecutionResult, ValidateFunction, ValidationIssue } from './tool.js';
import { MAX_COPY_DEPTH, SchemaValidator, copyJsonValue } from './validation.js';

/** A tool call as an LLM makes it; `arguments` is an object or a JSON string of one. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: Record<string, any> | string;
}

/** One call to execute, with who is calling (field names as in AgentOS's `ToolExecutionRequestDetails`). */
export interface ToolExecutionRequestDetails {
  toolCallRequest: ToolCallRequest;
  gmiId: string;
  personaId: string;
  personaCapabilities?: string[];
  userContext: UserContext;
  correlationId?: string;
  sessionData?: Record<string, any>;
}

/** A tool as the executor keeps it: the tool, its validators and capability list, prepared once at registration. */
export interface RegisteredTool {
  readonly name: string;
  /** The tool; for a lazy tool, the stand-in until `loadEntry` replaces it with the loaded one. */
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
}

/** Why a call failed, before it becomes a result: a code, a message and optional details. */
export class ToolCallFailure {
  constructor(
    readonly code: ToolErrorCode,
    readonly message: string,
    readonly details?: Record<string, unknown>,
    /** What was thrown, if anything (for hooks: never copied into a result). */
    readonly error?: unknown,
  ) {}
}

/** What `checkOutput` answers when the output is valid: the coerced copy. */
export interface CheckedOutput {
  readonly output: unknown;
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
  // A lazy tool's other fields may be read on demand (from its catalog): they are checked when it loads.
  if (!isLazyTool(tool) && (typeof tool.id !== 'string' || tool.id === '')) {
    throw new ToolsmithError('INVALID_TOOL', `Tool '${truncateText(name)}' needs a non-empty 'id'.`);
  }
  if (typeof tool.execute !== 'function') {
    throw new ToolsmithError('INVALID_TOOL', `Tool '${truncateText(name)}' needs an 'execute' function.`);
  }
  // A lazy tool's schemas are read when first needed, not at registration.
  if (!isLazyTool(tool) && (tool.inputSchema === null || typeof tool.inputSchema !== 'object')) {
    throw new ToolsmithError('INVALID_TOOL', `Tool '${truncateText(name)}' needs an 'inputSchema' object.`);
  }
}

/** Prepares a tool for calls: its validators (generated ones used as they are) and capabilities. */
export function prepareTool(tool: ITool): RegisteredTool {
  assertTool(tool);
  if (isLazyTool(tool)) {
    // Nothing is compiled for a stand-in: the loaded tool brings its generated validators.
    const entry: RegisteredTool = {
      name: tool.name,
      tool,
      input: NOT_LOADED,
      output: undefined,
      // Until it loads (`load` set), `missingCapabilities` asks the stand-in, which reads its catalog entry then.
      requiredCapabilities: [],
      load: undefined,
      inFlight: 0,
      onIdle: undefined,
    };
    let loading: Promise<ToolCallFailure | undefined> | undefined;
    entry.load = () =>
      (loading ??= new Promise<ITool>((resolve) => resolve(tool[LOAD_TOOL]())).then(
        (loaded) => {
          try {
            const prepared = prepareTool(loaded);
            entry.tool = loaded;
            entry.input = prepared.input;
            entry.output = prepared.output;
            entry.requiredCapabilities = prepared.requiredCapabilities;
            entry.load = undefined;
            return undefined;
          } catch (error) {
            loading = undefined; // a later call tries again
            return new ToolCallFailure(
              'TOOL_ERROR',
              `Tool '${tool.name}' could not be loaded: ${describeThrown(error)}`,
              undefined,
              error,
            );
          }
        },
        (error: unknown) => {
          loading = undefined;
          return new ToolCallFailure(
            'TOOL_ERROR',
            `Tool '${tool.name}' could not be loaded: ${describeThrown(error)}`,
            undefined,
            error,
          );
        },
      ));
    return entry;
  }
  const validators = tool.validators;
  const hasOutput = tool.outputSchema !== undefined || validators?.output !== undefined;
  return {
    name: tool.name,
    tool,
    input: new SchemaValidator<Record<string, unknown>>({
      schema: tool.inputSchema,
      generated: validators?.input as ValidateFunction<Record<string, unknown>> | undefined,
      stripOptionalNulls: true,
    }),
    output: hasOutput ? new SchemaValidator({ schema: tool.outputSchema, generated: validators?.output }) : undefined,
    requiredCapabilities: Array.isArray(tool.requiredCapabilities) ? [...tool.requiredCapabilities] : [],
    load: undefined,
    inFlight: 0,
    onIdle: undefined,
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

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * How deep the containers of a JSON text nest (`{}` at the top is 1), given that it parsed. A loop
 * over the text, not a walk over the parsed value: it cannot overflow the stack however deep.
 */
function jsonNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === 34 /* " */) {
      // Skip the string (the text is valid JSON, so it ends), with its escapes.
      for (index++; index < length; index++) {
        const inner = text.charCodeAt(index);
        if (inner === 92 /* \ */) index++;
        else if (inner === 34) break;
      }
    } else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (++depth > deepest) deepest = depth;
    } else if (code === 125 /* } */ || code === 93 /* ] */) {
      depth--;
    }
  }
  return deepest;
}

/** A text this short cannot nest deeper than the copy limit (each level takes two characters). */
const SHORT_JSON = 2 * (MAX_COPY_DEPTH + 1);

/**
 * Reads a call's `arguments` into an object the call owns: a JSON string is parsed, an object is
 * copied (so validation never touches the caller's object). Anything else is `INVALID_REQUEST`.
 */
export function readArguments(raw: unknown, toolName: string): Record<string, unknown> | ToolCallFailure {
  let value: unknown;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return new ToolCallFailure(
        'INVALID_REQUEST',
        `Arguments for tool '${truncateText(toolName)}' are not valid JSON (${describeThrown(error, 200)}). Send a JSON object.`,
      );
    }
  } else {
    value = raw;
  }
  let isArray: boolean;
  try {
    isArray = Array.isArray(value);
  } catch {
    isArray = false; // a revoked Proxy: the copy below says it is not JSON data
  }
  if (value === null || typeof value !== 'object' || isArray) {
    return new ToolCallFailure(
      'INVALID_REQUEST',
      `Arguments for tool '${truncateText(toolName)}' must be a JSON object or a JSON string of one; got ${describeKind(value)}.`,
    );
  }
  if (typeof raw === 'string') {
    // The same depth limit as object arguments (JSON.parse itself takes any depth, but what
    // walks the value afterwards, a validator, a tool, JSON.stringify, may not).
    if (raw.length > SHORT_JSON && jsonNesting(raw) > MAX_COPY_DEPTH + 1) {
      return new ToolCallFailure(
        'INVALID_REQUEST',
        `Arguments for tool '${truncateText(toolName)}' are not JSON data: Value nests deeper than ${MAX_COPY_DEPTH} levels or contains a cycle.`,
      );
    }
    return value as Record<string, unknown>;
  }
  try {
    return copyJsonValue(value as Record<string, unknown>);
  } catch (error) {
    const message = isToolsmithError(error) ? error.message : describeThrown(error);
    return new ToolCallFailure(
      'INVALID_REQUEST',
      `Arguments for tool '${truncateText(toolName)}' are not JSON data: ${message}`,
    );
  }
}

/** The capabilities of `entry` missing from `capabilities` (exact string match). */
export function missingCapabilities(
  entry: RegisteredTool,
  capabilities: readonly string[] | undefined,
): string[] | undefined {
  let required = entry.requiredCapabilities;
  if (entry.load !== undefined) {
    // A lazy tool not loaded yet: its stand-in knows its capabilities.
    const declared = entry.tool.requiredCapabilities;
    required = Array.isArray(declared) ? declared : [];
  }
  if (required.length === 0) return undefined;
  let missing: string[] | undefined;
  for (const capability of required) {
    if (capabilities === undefined || !capabilities.includes(capability)) (missing ??= []).push(capability);
  }
  return missing;
}

function issuesFromValidateArgs(errors: unknown[] | undefined): ValidationIssue[] {
  if (!Array.isArray(errors) || errors.length === 0) {
    return [{ path: '', message: '(root) was rejected by the tool', keyword: 'validateArgs', params: {} }];
  }
  return errors.slice(0, 100).map((error): ValidationIssue => {
    if (error !== null && typeof error === 'object') {
      const record = error as Record<string, unknown>;
      const path =
        typeof record.path === 'string'
          ? record.path
          : typeof record.instancePath === 'string'
            ? record.instancePath
            : '';
      const text = typeof record.message === 'string' ? truncateText(record.message, 1000) : 'is invalid';
      return {
        path,
        message: text.startsWith(path) && path !== '' ? text : `${path === '' ? '(root)' : truncateText(path)} ${text}`,
        keyword: typeof record.keyword === 'string' ? record.keyword : 'validateArgs',
        params:
          record.params !== null && typeof record.params === 'object' ? (record.params as Record<string, unknown>) : {},
      };
    }
    return { path: '', message: `(root) ${describeThrown(error, 1000)}`, keyword: 'validateArgs', params: {} };
  });
}

/**
 * Input step: coerces, fills defaults and validates `args` **in place** (pass a copy you own), then
 * asks `tool.validateArgs` if there is one. `undefined` when the arguments may go on.
 */
export function checkArguments(entry: RegisteredTool, args: Record<string, unknown>): ToolCallFailure | undefined {
  const input = entry.input;
  if (input.validateFunction === undefined) {
    return new ToolCallFailure(
      'SCHEMA_INVALID',
      `Tool '${entry.name}' cannot be called: its input schema does not compile (${input.schemaError}).`,
      {
        schemaError: input.schemaError,
      },
    );
  }
  const errors = input.check(args);
  if (errors !== undefined) return invalidArguments(entry.name, errors);
  const validateArgs = entry.tool.validateArgs;
  if (validateArgs !== undefined) {
    try {
      const verdict: { isValid: boolean; errors?: unknown[] } = validateArgs.call(entry.tool, args);
      if (!verdict?.isValid) return invalidArguments(entry.name, issuesFromValidateArgs(verdict?.errors));
    } catch (error) {
      // It threw, or answered a verdict (or errors) that cannot be read.
      return new ToolCallFailure(
        'TOOL_ERROR',
        `Tool '${entry.name}' threw while validating its arguments: ${describeThrown(error)}`,
        undefined,
        error,
      );
    }
  }
  return undefined;
}

function invalidArguments(toolName: string, errors: ValidationIssue[]): ToolCallFailure {
  const shown = errors
    .slice(0, 3)
    .map((error) => error.message)
    .join('; ');
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return new ToolCallFailure(
    'INVALID_ARGUMENTS',
    `Invalid arguments for tool '${toolName}': ${shown}${more}. Fix them and call again.`,
    { errors },
  );
}

/**
 * Output step: checks a successful execute's output against the output schema, on a copy, and
 * answers the coerced copy; `OUTPUT_INVALID` when it fails or the schema does not compile.
 */
export function checkOutput(entry: RegisteredTool, output: unknown): CheckedOutput | ToolCallFailure {
  const validator = entry.output;
  if (validator === undefined) return { output };
  if (validator.validateFunction === undefined) {
    return new ToolCallFailure(
      'OUTPUT_INVALID',
      `Tool '${entry.name}' has an output schema that does not compile (${validator.schemaError}).`,
      {
        schemaError: validator.schemaError,
      },
    );
  }
  let copy: unknown;
  try {
    copy = copyJsonValue(output);
  } catch (error) {
    return new ToolCallFailure(
      'OUTPUT_INVALID',
      `Tool '${entry.name}' produced output that is not JSON data: ${describeThrown(error)}`,
    );
  }
  const errors = validator.check(copy);
  if (errors === undefined) return { output: copy };
  const shown = errors
    .slice(0, 3)
    .map((error) => error.message)
    .join('; ');
  return new ToolCallFailure(
    'OUTPUT_INVALID',
    `Tool '${entry.name}' produced output that fails its output schema: ${shown}.`,
    { errors },
  );
}

/** Copies a tool's failure details without a `stack` entry: stack traces never reach a result. */
export function withoutStack(details: Record<string, any> | undefined): Record<string, any> | undefined {
  if (details === null || typeof details !== 'object' || !('stack' in details)) return details ?? undefined;
  const { stack: _stack, ...rest } = details;
  return rest;
}

function failed(failure: ToolCallFailure, output?: unknown): ToolExecutionResult {
  const result: ToolExecutionResult = {
    success: false,
    error: failure.message,
    details: { code: failure.code, ...failure.details },
  };
  if (output !== undefined) result.output = output;
  return result;
}

/**
 * Registers tools and executes one call (issue 2 §3): lookup, capability check, input validated on
 * a copy (coerced, defaulted) with the tool's generated validators or its schema compiled once at
 * registration, execute, output check. A failing output fails the call but the result keeps the
 * output; a thrown error becomes a failed result. Failures carry their code in `details.code`.
 * `ToolOrchestrator` adds the full call pipeline on top of it.
 */
export class ToolExecutor {
  /** Registered tools by exact name. */
  readonly registry = new ToolRegistry<RegisteredTool>();

  /** Registers `tool` (validators prepared now); returns the registration it replaced, if any. */
  registerTool(tool: ITool, options: RegisterOptions = {}): RegisteredTool | undefined {
    return this.registry.add(prepareTool(tool), options);
  }

  /** Removes the tool registered under exactly `name`, without shutting it down; returns its registration. */
  removeTool(name: string): RegisteredTool | undefined {
    return this.registry.delete(name);
  }

  /** The tool registered under exactly `name`. */
  getTool(name: string): ITool | undefined {
    return this.registry.get(name)?.tool;
  }

  /** The prepared registration under exactly `name`. */
  getRegisteredTool(name: string): RegisteredTool | undefined {
    return this.registry.get(name);
  }

  /** Every registered tool, in registration order. */
  listTools(): ITool[] {
    return this.registry.values().map((entry) => entry.tool);
  }

  /** Executes one call and answers the tool's result (a failure carries `details.code`); never rejects. */
  async executeTool(request: ToolExecutionRequestDetails): Promise<ToolExecutionResult> {
    const call = request?.toolCallRequest;
    const name = call?.name;
    if (typeof name !== 'string' || name === '') {
      return failed(new ToolCallFailure('INVALID_REQUEST', "The tool call has no 'name'."));
    }
    const entry = this.registry.get(name);
    if (entry === undefined) return failed(new ToolCallFailure('TOOL_NOT_FOUND', this.registry.notFoundMessage(name)));
    const missing = missingCapabilities(entry, request.personaCapabilities);
    if (missing !== undefined) {
      return failed(
        new ToolCallFailure(
          'PERMISSION_DENIED',
          `Tool '${entry.name}' needs capabilities the caller lacks: ${missing.join(', ')}.`,
          { missing },
        ),
      );
    }
    const args = readArguments(call.arguments, entry.name);
    if (args instanceof ToolCallFailure) return failed(args);
    const invalid = checkArguments(entry, args);
    if (invalid !== undefined) return failed(invalid);
    const context: ToolExecutionContext = {
      gmiId: request.gmiId,
      personaId: request.personaId,
      userContext: request.userContext,
      correlationId: request.correlationId || nextCorrelationId(),
      personaCapabilities: request.personaCapabilities,
    };
    if (request.sessionData !== undefined) context.sessionData = request.sessionData;
    entry.inFlight++;
    try {
      const result = await entry.tool.execute(args, context);
      if (result === null || typeof result !== 'object') {
        return failed(
          new ToolCallFailure(
            'TOOL_ERROR',
            `Tool '${entry.name}' returned ${describeKind(result)} instead of a result object.`,
          ),
        );
      }
      if (!result.success) return { ...result, details: { code: 'TOOL_FAILED', ...withoutStack(result.details) } };
      const checked = checkOutput(entry, result.output);
      if (checked instanceof ToolCallFailure) return failed(checked, result.output);
      return checked.output === undefined ? result : { ...result, output: checked.output };
    } catch (error) {
      return failed(new ToolCallFailure('TOOL_ERROR', `Tool '${entry.name}' threw: ${describeThrown(error)}`));
    } finally {
      releaseEntry(entry);
    }
  }
}
