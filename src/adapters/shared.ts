import {
  feedbackText,
  ToolClient,
  type ToolOrchestrator,
  ToolsmithError,
  type CallerTurn,
  type ContentBlock,
  type FeedbackOptions,
  type ITool,
  type ResourceLink,
  type ToolCallDefaults,
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
  const offered = new Map(orchestrator.listTools().map((definition) => [definition.name, definition]));
  const names = options.tools ?? [...offered.keys()];
  const tools: ITool[] = [];
  for (const name of names) {
    const tool = offered.has(name) ? orchestrator.getTool(name) : undefined;
    if (tool === undefined) {
      throw new ToolsmithError(
        'TOOL_NOT_FOUND',
        `Tool '${name}' is not registered (or is disabled). Registered: ${[...offered.keys()].join(', ') || 'none'}.`,
      );
    }
    tools.push(tool);
  }
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
  const signals = [context.signal, call.signal].filter((signal): signal is AbortSignal => signal !== undefined);
  let callerTurn: CallerTurn | undefined = context.callerTurn;
  if (frameworkApproves(resolved, call.tool)) callerTurn = { ...callerTurn, approvalGate: APPROVED_BY_FRAMEWORK };
  const details: Parameters<ToolOrchestrator['processToolCall']>[0] = {
    ...context,
    toolCallRequest: {
      id: call.id ?? `adapter-call-${++sequence}`,
      name: call.tool.name,
      arguments: call.args as Record<string, unknown>,
    },
  };
  if (signals.length > 0) details.signal = signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  if (callerTurn !== undefined) details.callerTurn = callerTurn;
  const result = await resolved.orchestrator.processToolCall(details);
  if (result.isError) throw new ToolCallError(result, { maxLength: resolved.orchestrator.maxFeedbackLength });
  return result;
}

/** Whether a successful result carries content blocks to pass on beside (or instead of) its output. */
export function hasContent(result: ToolCallResult): result is ToolCallResult & { content: ContentBlock[] } {
  return result.content !== undefined && result.content.length > 0;
}

/**
 * The output as the text that follows a result's content blocks (as the MCP server's text mirror),
 * or `undefined` when the tool answered no output (`null`/`undefined`): then the blocks are the answer.
 */
export function outputText(output: unknown): string | undefined {
  if (output === null || output === undefined) return undefined;
  return typeof output === 'string' ? output : (JSON.stringify(output) ?? String(output));
}

/** A resource link as text: frameworks have no link block, and a link is not content to fetch for the model. */
export function resourceLinkText(block: ResourceLink): string {
  const about = [block.title, block.mimeType, block.description].filter((part) => part !== undefined && part !== '');
  return `Resource link: ${block.name} <${block.uri}>${about.length > 0 ? ` (${about.join('; ')})` : ''}`;
}

/** The last path segment of a resource URI, as a file name for frameworks that want one. */
export function resourceFileName(uri: string): string {
  const segment = uri
    .replace(/[?#].*$/, '')
    .split('/')
    .filter((part) => part !== '')
    .at(-1);
  return segment !== undefined && segment !== '' ? segment : 'resource';
}
