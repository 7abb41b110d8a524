import {
  copyJsonValue,
  feedbackText,
  ToolClient,
  type ToolOrchestrator,
  ToolsmithError,
  type ContentBlock,
  type FeedbackOptions,
  type ITool,
  type JSONSchemaObject,
  type ToolCallDefaults,
  type ToolCallDetails,
  type ToolCallErrorDetails,
  type ToolCallResult,
} from '../index.js';

/*
 * What the three framework adapters share: which tools to offer, who calls (a fixed context or one
 * derived from the framework's per-call context), one call through `processToolCall`, and a failed
 * call as an `Error` whose message the model can act on. Each adapter only maps its framework's
 * tool shape onto these.
 */

/** Input and output types by tool name, as the generated `ToolTypes` has them (`TTypes extends ToolTypeMap<TTypes>`). */
export type ToolTypeMap<TTypes> = { [N in keyof TTypes]: { input: unknown; output: unknown } };

/** What an adapter knows without generated types: any name, object input, unknown output. */
export interface UntypedToolTypes {
  [name: string]: { input: Record<string, unknown>; output: unknown };
}

/** The caller's identity, capabilities and turn: everything of a call but the request itself. */
export type CallContext = ToolCallDefaults;

/** A fixed context, or one made per call from the framework's own per-call context (permissions per caller). */
export type ContextSource<TFrameworkContext> =
  CallContext | ((frameworkContext: TFrameworkContext) => CallContext | Promise<CallContext>);

/**
 * Where calls go: an orchestrator, or the typed client of the generated registry
 * (`createToolClient(orchestrator, defaults)`), whose tool types and defaults the adapter then uses.
 */
export type ToolSource<TTypes extends ToolTypeMap<TTypes>> = ToolOrchestrator | ToolClient<TTypes>;

/**
 * Who approves a call to a tool that needs approval:
 * - `'orchestrator'` (default): the orchestrator's approval gate, inside `processToolCall`; a
 *   rejection reaches the model as an `APPROVAL_REJECTED` tool error.
 * - `'framework'`: the framework's own approval flow (AI SDK `needsApproval`, OpenAI Agents
 *   interruptions) is asked for every tool with side effects; a call it approved runs with an
 *   approving turn gate, so the orchestrator does not ask again. Everything else still applies.
 */
export type ApprovalMode = 'orchestrator' | 'framework';

/** Options every adapter takes. */
export interface AdapterOptions<TNames extends readonly string[], TFrameworkContext> {
  /** The tools to offer, by name (default: every enabled tool, as `listTools()` gives them). */
  tools?: TNames;
  /** Who calls; required unless the source is a `ToolClient` (its defaults are used). */
  context?: ContextSource<TFrameworkContext>;
  /** Who approves calls that need approval (default `'orchestrator'`). */
  approval?: ApprovalMode;
}

/**
 * A call that ended with `isError`: thrown from the framework tool's execute so the framework
 * reports a tool error to the model; the message is the call's feedback text (`feedbackText`: the
 * code, what failed and, for arguments, each problem at its path).
 */
export class ToolCallError extends Error {
  readonly code: ToolCallErrorDetails['code'];
  readonly details: Record<string, unknown> | undefined;
  /** The declared error the tool failed with (`errorDetails.failure`: code, data, retryable), if any. */
  readonly failure: ToolCallErrorDetails['failure'];

  constructor(
    readonly result: ToolCallResult,
    feedback: FeedbackOptions = {},
  ) {
    super(feedbackText(result, feedback));
    this.name = 'ToolCallError';
    this.code = result.errorDetails?.code ?? 'TOOL_ERROR';
    this.details = result.errorDetails?.details;
    this.failure = result.errorDetails?.failure;
  }

  /** The message alone: frameworks show a tool error to the model as `String(error)`, and the name adds nothing for it. */
  override toString(): string {
    return this.message;
  }
}

/** The orchestrator, default context and tools an adapter works with, checked once when it is made. */
export interface ResolvedSource<TFrameworkContext> {
  orchestrator: ToolOrchestrator;
  tools: ITool[];
  context: ContextSource<TFrameworkContext>;
  approval: ApprovalMode;
}

/**
 * Resolves an adapter's source and options. Throws `TOOL_NOT_FOUND` for a name that is not
 * registered (or is disabled) and `INVALID_REQUEST` when no context is given: both are mistakes
 * in the program, not in a model's call.
 */
export function resolveSource<TFrameworkContext>(
  source: ToolSource<any>,
  options: AdapterOptions<readonly string[], TFrameworkContext>,
): ResolvedSource<TFrameworkContext> {
  const client = source instanceof ToolClient ? source : undefined;
  const orchestrator = client?.orchestrator ?? (source as ToolOrchestrator);
  const context = options.context ?? client?.defaults;
  if (context === undefined) {
    throw new ToolsmithError(
      'INVALID_REQUEST',
      'A toolsmith adapter needs a `context` (who calls: gmiId, personaId, personaCapabilities, userContext) or a ToolClient with defaults.',
    );
  }
  const offered = new Set(orchestrator.listTools().map((definition) => definition.name));
  const tools = (options.tools ?? [...offered]).map((name) => {
    const tool = offered.has(name) ? orchestrator.getTool(name) : undefined;
    if (tool === undefined) {
      throw new ToolsmithError(
        'TOOL_NOT_FOUND',
        `Tool '${name}' is not registered (or is disabled). Registered: ${[...offered].join(', ') || 'none'}.`,
      );
    }
    return tool;
  });
  return { orchestrator, tools, context, approval: options.approval ?? 'orchestrator' };
}

/** Whether the framework is asked to approve calls to `tool` (approval `'framework'`, tools with side effects). */
export function frameworkApproves(resolved: { approval: ApprovalMode }, tool: ITool): boolean {
  return resolved.approval === 'framework' && tool.hasSideEffects === true;
}

const APPROVED_BY_FRAMEWORK = async () => ({ approved: true, reason: 'approved through the framework' });

/** One framework tool call. */
export interface FrameworkCall<TFrameworkContext> {
  tool: ITool;
  args: unknown;
  /** The framework's id of the call (the model's tool-call id). */
  id: string | undefined;
  frameworkContext: TFrameworkContext;
  /** The framework's abort signal for this call. */
  signal?: AbortSignal | undefined;
}

let sequence = 0;

/**
 * Runs one framework tool call through `processToolCall` and answers its successful result (the
 * output and any content blocks); a failed call throws a `ToolCallError`. The framework's signal and
 * the context's own signal both stop it.
 */
export async function runToolCall<TFrameworkContext>(
  resolved: ResolvedSource<TFrameworkContext>,
  call: FrameworkCall<TFrameworkContext>,
): Promise<ToolCallResult> {
  const source = resolved.context;
  const context = typeof source === 'function' ? await source(call.frameworkContext) : source;
  const details: ToolCallDetails = {
    ...context,
    toolCallRequest: {
      id: call.id ?? `adapter-call-${++sequence}`,
      name: call.tool.name,
      arguments: call.args as Record<string, unknown>,
    },
  };
  const { signal } = call;
  if (signal !== undefined)
    details.signal = context.signal === undefined ? signal : AbortSignal.any([context.signal, signal]);
  if (frameworkApproves(resolved, call.tool))
    details.callerTurn = { ...context.callerTurn, approvalGate: APPROVED_BY_FRAMEWORK };
  const result = await resolved.orchestrator.processToolCall(details);
  if (result.isError) throw new ToolCallError(result, { maxLength: resolved.orchestrator.maxFeedbackLength });
  return result;
}

/** Whether a successful result carries content blocks to pass on beside (or instead of) its output. */
export function hasContent(result: ToolCallResult): result is ToolCallResult & { content: ContentBlock[] } {
  return result.content !== undefined && result.content.length > 0;
}

/**
 * A content block as one of the three things every framework's tool output takes: text, media
 * (image or audio, base64) or a file (an embedded blob). An embedded text resource is text; a
 * resource link is a line of text, since frameworks have no link block and a link is not content
 * to fetch for the model.
 */
export type ResultPart =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; mimeType: string; data: string }
  | { type: 'file'; mimeType: string; data: string; filename: string; uri: string };

/**
 * A result's content blocks as parts, followed by the output as text (as the MCP server's text
 * mirror) unless the tool answered no output (`null`/`undefined`): then the blocks are the answer.
 */
export function resultParts(output: unknown, content: readonly ContentBlock[]): ResultPart[] {
  const parts = content.map(toResultPart);
  if (output !== null && output !== undefined) {
    parts.push({
      type: 'text',
      text: typeof output === 'string' ? output : (JSON.stringify(output) ?? String(output)),
    });
  }
  return parts;
}

function toResultPart(block: ContentBlock): ResultPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return { type: block.type, mimeType: block.mimeType, data: block.data };
    case 'resource': {
      const { uri, mimeType, text, blob } = block.resource;
      if (text !== undefined) return { type: 'text', text };
      return {
        type: 'file',
        mimeType: mimeType ?? 'application/octet-stream',
        data: blob,
        filename: fileName(uri),
        uri,
      };
    }
    case 'resource_link': {
      const about = [block.title, block.mimeType, block.description].filter(
        (part) => part !== undefined && part !== '',
      );
      const text = `Resource link: ${block.name} <${block.uri}>${about.length > 0 ? ` (${about.join('; ')})` : ''}`;
      return { type: 'text', text };
    }
  }
}

/** The last path segment of a resource URI, as a file name for frameworks that want one. */
function fileName(uri: string): string {
  const path = uri.replace(/[?#].*$/, '').replace(/\/+$/, '');
  return path.slice(path.lastIndexOf('/') + 1) || 'resource';
}

/**
 * `schema` as a Standard JSON Schema (`~standard`, standardschema.dev): `jsonSchema` answers a copy
 * (the generated schemas are frozen, and a framework may annotate what it is given); `validate`
 * accepts every value as it is unless given, since the orchestrator validates.
 */
export function standardJsonSchema<TInput>(
  schema: JSONSchemaObject,
  validate: StandardValidate<TInput> = (value) => ({ value: value as TInput }),
): ToolsmithStandardSchema<TInput> {
  const copy = () => copyJsonValue(schema);
  return { '~standard': { version: 1, vendor: 'toolsmith', validate, jsonSchema: { input: copy, output: copy } } };
}

/** Standard Schema V1's `validate`: the value, or the issues at their paths. */
export type StandardValidate<TInput> = (
  value: unknown,
) => { value: TInput; issues?: undefined } | { issues: ReadonlyArray<{ message: string; path: readonly string[] }> };

/** Standard Schema V1 (`~standard`, standardschema.dev) with its JSON Schema (Standard JSON Schema). */
export interface ToolsmithStandardSchema<TInput> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'toolsmith';
    validate: StandardValidate<TInput>;
    readonly jsonSchema: { input(options?: unknown): JSONSchemaObject; output(options?: unknown): JSONSchemaObject };
    readonly types?: { readonly input: TInput; readonly output: TInput };
  };
}
