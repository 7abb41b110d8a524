import { randomUUID } from 'node:crypto';
import {
  type CallToolRequest,
  type CallToolResult,
  type ListToolsResult,
  type McpServerFactory,
  PerRequestHTTPServerTransport,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  specTypeSchemas,
  type StandardSchemaV1,
  type Tool,
  type Transport,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { CallReporter } from '../caller/call-reporting.js';
import type { ContentBlock } from '../caller/content.js';
import type { UserContext } from '../context.js';
import { asError, describeThrown, truncateText } from '../errors.js';
import { feedbackText, type FeedbackOptions } from '../feedback/render.js';
import type { ToolOrchestrator } from '../orchestrator.js';
import type { ToolCallDetails, ToolCallResult } from '../pipeline/types.js';
import { TASKS_EXTENSION_ID, type TaskStore } from '../tasks/index.js';
import type { ITool } from '../tool.js';
import { approvalTurn, askingFor, clientCapabilities, INPUT_NEEDED } from './asking.js';
import { ClientRequestRouter } from './client-requests.js';
import { type FailureMetaOptions, failureMetaOf } from './failure-meta.js';
import { answersFor, type RequestStates, requestStates } from './request-state.js';
import { GuardedTransport } from './stdio-transport.js';
import { asksForTask, handleTaskMethods, hasTaskCapableTool, startTask, taskReporter } from './tasks.js';
import { isMcpObjectSchema, type McpToolEntry, toMcpToolFromTool } from './tool.js';
import { HOST_INJECTED_ARGUMENTS, type InjectedArgument, withoutInjectedArguments } from './injected-arguments.js';

/*
 * The MCP server on the official v2 SDK (`@modelcontextprotocol/server`), the same for both protocol
 * eras: the serving entries (`serveStdio` in ./stdio.ts, `startHttpServer` in ./http.ts) build one
 * low-level `Server` per connection (stdio) or per request (HTTP) and the SDK decides the era from
 * the opening message: a 2026-07-28 client (no `initialize`, `_meta` per request, `server/discover`)
 * gets the modern wire, a 2025-11-25 / 2025-06-18 client the handshake. The handlers are era-blind:
 * - `tools/list` lists the enabled tools the caller's capabilities allow, in registry order, each as
 *   in generated/manifests/mcp.json (`toMcpToolFromTool`), one page unless `pageSize` is set; on
 *   2026-07-28 the result carries `ttlMs` and `cacheScope` (the SDK adds `resultType`, `serverInfo`).
 *   A caller is not shown what it may not call; a call to such a tool is still answered `isError:
 *   true` with PERMISSION_DENIED and the missing capabilities.
 * - `tools/call` goes through `ToolOrchestrator.processToolCall`, so approval, permissions,
 *   validation, timeouts and output checks are those of any other caller; the request's signal is
 *   the call's. Failures of the call are `isError: true` results, as the spec asks, so the model can
 *   correct itself; only a call the server cannot route (an unknown tool, no name, `arguments` that
 *   are not an object) is a protocol error (`InvalidParams`, -32602).
 */

/** Who calls through an MCP connection; MCP carries no identity, so the server supplies it. */
export interface McpPersona {
  /** Default `'mcp'`. */
  personaId?: string;
  /** Default `'mcp'`. */
  gmiId?: string;
  /**
   * Default `{ userId: 'mcp' }`. When given, its `userId` is also the subject that owns the caller's
   * tasks; without it the caller is unauthenticated, and its tasks live in a space of their own,
   * apart from every subject's (a token whose `sub` is `mcp` does not see them).
   */
  userContext?: UserContext;
}

/** How `createMcpServer` sets up the server. */
export interface McpServerOptions {
  /** Server name reported to clients (default `toolsmith`). */
  name?: string;
  /** Server version reported to clients (default toolsmith's). */
  version?: string;
  /** Instructions for the client. */
  instructions?: string;
  /** The persona capabilities every call of the connection has (default none). */
  capabilities?: readonly string[];
  /** Who the calls are made as. */
  persona?: McpPersona;
  /**
   * Tools per `tools/list` page (default: all in one page). With a size, the result carries a
   * `nextCursor` while tools remain; the cursor names a position of this registry.
   */
  pageSize?: number;
  /** How long a 2026-07-28 client may reuse a `tools/list` answer, in ms (default 60 000). */
  toolsListTtlMs?: number;
  /**
   * Whether a `tools/list` answer may be shared between callers (`public`) or is this caller's
   * (`private`, the default: the list depends on the caller's capabilities).
   */
  cacheScope?: 'public' | 'private';
  /** Called with transport and protocol errors (default: ignored; `serveStdio` prints them to stderr). */
  onError?: (error: Error) => void;
  /** Stops every call of this server when it fires (the HTTP server's timeout and drain), besides each request's own. */
  signal?: AbortSignal;
  /**
   * Where tasks live: a tool with `taskSupport`, called by a client that asks for a task, answers a
   * task handle at once and runs on; `tasks/get`, `tasks/result` and `tasks/cancel` answer from the
   * store (`MemoryTaskStore` for one process, `RedisTaskStore` for replicas). Tasks are announced
   * only when the store is given and some enabled tool has `taskSupport`; otherwise no tasks.
   */
  taskStore?: TaskStore;
  /**
   * The key that signs what a 2026-07-28 question carries to the client and back (`requestState`, so
   * an answer is taken only for the question this server asked for this call, once): at least 32
   * bytes, the same on every replica. Default: a random key of this process, so an answer completes
   * only on the replica that asked. The nonces taken are kept in `taskStore` (default: this process's).
   */
  requestStateKey?: string | Uint8Array;
  /**
   * Whether `tasks/list` (2025-11-25) lists the caller's tasks (and `tasks.list` is announced).
   * Only for a caller this server can tell apart from every other: a list is not protected by
   * unguessable task ids, as `tasks/get` is. `startHttpServer` sets it for an authenticated subject,
   * `serveStdio` for its one client when the store is its own memory store. Default false:
   * `tasks/list` is answered -32601.
   */
  taskListing?: boolean;
  /**
   * Also answer a failed call's structured failure in the draft shape of SEP-3313, under
   * `_meta["io.modelcontextprotocol/toolFailure"]` (`class`, `code`, `retryable`, `correlationId`,
   * `agentGuidance`), beside toolsmith's own `_meta["dev.toolsmith/failure"]`. Default false: the
   * proposal is a draft and may change.
   */
  toolFailureMeta?: boolean;
  /**
   * The `tools/list` entries served in place of each tool's own, matched by name: the portable
   * profile is `generated/manifests/mcp-portable.json`'s `tools` (`serve --profile portable`), input
   * schemas every host takes as they are. Only what the model is shown changes: each call is still
   * validated against the tool's full definition. A tool without an entry here is listed as its own.
   */
  listedTools?: readonly McpToolEntry[];
  /**
   * The arguments hosts add to every call for their own bookkeeping, taken out of a call's arguments
   * before it is validated when the tool declares no property of that name (default
   * `HOST_INJECTED_ARGUMENTS`: Gemini CLI's `wait_for_previous`; `[]` takes nothing out).
   */
  injectedArguments?: readonly Pick<InjectedArgument, 'name' | 'host'>[];
}

/** A server `createMcpServer` builds (the v2 SDK's low-level `Server`). */
export type McpServerInstance = Server;

const DEFAULT_NAME = 'toolsmith';
const DEFAULT_VERSION = '0.1.0';
const DEFAULT_TOOLS_LIST_TTL_MS = 60_000;
/** Codes that mean the request could not be routed to a tool: protocol errors, not tool results. */
const PROTOCOL_ERROR_CODES: ReadonlySet<string> = new Set(['TOOL_NOT_FOUND', 'INVALID_REQUEST']);

/**
 * An MCP server answering `tools/list` and `tools/call` from `orchestrator`, for one connection or
 * one request: connect it to a transport (`server.connect(transport)`), or hand
 * `createMcpServerFactory` to the SDK's serving entries. Closing it does not shut the orchestrator
 * down: the caller owns it.
 */
export function createMcpServer(orchestrator: ToolOrchestrator, options: McpServerOptions = {}): McpServerInstance {
  const capabilities = [...(options.capabilities ?? [])];
  const pageSize = options.pageSize;
  if (pageSize !== undefined && (!Number.isSafeInteger(pageSize) || pageSize < 1))
    throw new RangeError(`pageSize must be a positive integer; got ${String(pageSize)}.`);
  const ttlMs = options.toolsListTtlMs ?? DEFAULT_TOOLS_LIST_TTL_MS;
  const cacheScope = options.cacheScope ?? 'private';
  // A store without a task-capable tool announces nothing: a client would ask for tasks no tool runs.
  const store = options.taskStore !== undefined && hasTaskCapableTool(orchestrator) ? options.taskStore : undefined;
  const states = requestStates(options.requestStateKey, options.taskStore);
  const server = new ToolsmithMcpServer(
    { name: options.name ?? DEFAULT_NAME, version: options.version ?? DEFAULT_VERSION },
    {
      capabilities: { tools: {}, logging: {} },
      // The SDK verifies an echoed requestState before the handler runs (-32602 when it does not).
      requestState: { verify: states.codec.verify },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  if (options.onError !== undefined) server.onerror = options.onError;
  const calls: Calls = {
    orchestrator,
    server,
    caller: {
      gmiId: options.persona?.gmiId ?? 'mcp',
      personaId: options.persona?.personaId ?? 'mcp',
      personaCapabilities: capabilities,
      userContext: options.persona?.userContext ?? { userId: 'mcp' },
    },
    taskSubject: options.persona?.userContext?.userId,
    states,
    store,
    options,
  };
  if (store !== undefined)
    handleTaskMethods(server, { store, subject: calls.taskSubject, list: options.taskListing === true });
  const listed =
    options.listedTools === undefined ? undefined : new Map(options.listedTools.map((entry) => [entry.name, entry]));
  server.setRequestHandler('tools/list', (request) => {
    const tools = listMcpTools(orchestrator, capabilities, listed);
    return { ...pageOf(tools, pageSize, request.params?.cursor), ttlMs, cacheScope };
  });
  server.setRequestHandler('tools/call', (request, ctx) => callTool(calls, request.params, ctx));
  return server;
}

/** What every `tools/call` of one server shares: the orchestrator, who calls, where answers and tasks are kept. */
interface Calls {
  readonly orchestrator: ToolOrchestrator;
  readonly server: ToolsmithMcpServer;
  /** Who calls (MCP carries no identity: the server supplies it). */
  readonly caller: Required<Pick<ToolCallDetails, 'gmiId' | 'personaId' | 'personaCapabilities' | 'userContext'>>;
  /** The subject owning the caller's tasks; none for an unauthenticated caller. */
  readonly taskSubject: string | undefined;
  readonly states: RequestStates;
  /** Where tasks live, when the server runs any. */
  readonly store: TaskStore | undefined;
  /** The rest: the signal stopping every call, SEP-3313's draft failure `_meta`, the injected arguments. */
  readonly options: Pick<McpServerOptions, 'signal' | 'toolFailureMeta' | 'injectedArguments'>;
}

/** A `tools/call` request's params. */
type CallParams = CallToolRequest['params'];

/**
 * Answers one `tools/call`: as a task when the tool has `taskSupport`, the server a task store and
 * the client asks for one (a tool that runs only as a task is refused otherwise), else directly.
 * Non-object `arguments` never get here: the SDK's request check refuses them (-32602), after
 * toolsmith's transports (./call-params.ts) have said what is wrong.
 */
async function callTool(calls: Calls, params: CallParams, ctx: ServerContext): Promise<CallToolResult> {
  // Looked up before the call, so a tool replaced meanwhile cannot change the result's shape.
  const tool = calls.orchestrator.getTool(params.name);
  if (calls.store !== undefined && tool?.taskSupport !== undefined) {
    const task = asksForTask(ctx, clientCapabilities(ctx, calls.server), params);
    if (task !== undefined) return callAsTask(calls, calls.store, tool, params, ctx, task);
    if (tool.taskSupport === 'required')
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool '${params.name}' runs only as a task: call it with a task (2025-11-25: params.task; 2026-07-28: declare the ${TASKS_EXTENSION_ID} extension).`,
      );
  }
  return callDirectly(calls, tool, params, ctx);
}

/**
 * A call answered in the request: progress and logs go to the request's client as notifications,
 * questions by era (./asking.ts); a 2026-07-28 call that asks what it has no answer to yet is
 * answered `input_required`, to be run again with the answers. The call stops with the request, a
 * question's round, or the server.
 */
async function callDirectly(
  calls: Calls,
  tool: ITool | undefined,
  params: CallParams,
  ctx: ServerContext,
): Promise<CallToolResult> {
  const { orchestrator, server } = calls;
  // A retry's answers, held to the questions asked for this call (request-state.ts).
  const answering = await answersFor(ctx, calls.states, {
    tool: params.name,
    args: params.arguments,
    caller: calls.caller.userContext.userId,
  });
  const asking = askingFor(ctx, server, answering);
  const reporter = callReporter(ctx, params, server.onerror);
  reporter.elicit = asking.elicit;
  reporter.sample = asking.sample;
  const signals = [ctx.mcpReq.signal, asking.signal, calls.options.signal].filter((signal) => signal !== undefined);
  const details = callDetails(calls, tool, params, `mcp-${String(ctx.mcpReq.id)}`);
  const call = orchestrator.processToolCall({
    ...details,
    signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals),
    reporter,
    ...approvalTurn(orchestrator, tool, asking.approve ?? asking.elicit),
  });
  const outcome = asking.inputNeeded === undefined ? await call : await Promise.race([call, asking.inputNeeded]);
  // The call may have ended (aborted) before the race began: a question asked decides.
  if (outcome === INPUT_NEEDED || asking.asked())
    return (await asking.inputRequiredResult()) as unknown as CallToolResult;
  return answerOf(calls, tool, outcome, details);
}

/**
 * The MCP answer to a finished call of `tool` made with `details`, as `calls` answers a failure.
 * `tool` is the one looked up before the call, so a tool replaced meanwhile cannot change the shape.
 */
function answerOf(calls: Calls, tool: ITool | undefined, result: ToolCallResult, details: ToolCallDetails) {
  const feedback = { maxLength: calls.orchestrator.maxFeedbackLength };
  const failureMeta = { correlationId: details.correlationId!, draft: calls.options.toolFailureMeta === true };
  return toCallToolResult(result, isMcpObjectSchema(tool?.outputSchema), feedback, failureMeta);
}

/**
 * A call run as a task of `store`: the request is answered at once with the task's handle and the
 * call runs on under the task's signal only, its result written to the store. Questions go through
 * the task: on 2026-07-28 as its `inputRequests` (answered by `tasks/update` on any replica), on
 * 2025-11-25 only on a connection that outlives the request (stdio), which also hears the task's
 * status change.
 */
async function callAsTask(
  calls: Calls,
  store: TaskStore,
  tool: ITool,
  params: CallParams,
  ctx: ServerContext,
  task: { ttlMs?: number },
): Promise<CallToolResult> {
  const { orchestrator, server } = calls;
  const lasting = server.streams && ctx.mcpReq.envelope === undefined;
  const taskDetails = callDetails(calls, tool, params, 'mcp-task');
  const handle = await startTask(
    store,
    ctx,
    { toolName: params.name, subject: calls.taskSubject, ...task },
    (signal, controls) => {
      const reporter = taskReporter(server, controls, ctx, lasting);
      const call = orchestrator.processToolCall({
        ...taskDetails,
        signal,
        reporter,
        // Asked through the task too (input_required).
        ...approvalTurn(orchestrator, tool, reporter.elicit),
      });
      return call.then((result) => answerOf(calls, tool, result, taskDetails) as Record<string, unknown>);
    },
    server,
    lasting,
  );
  return handle as unknown as CallToolResult;
}

/**
 * The orchestrator's call for `params` as this server's caller makes it, without the arguments hosts
 * inject that `tool` does not declare (./injected-arguments.ts); how it runs is added by the caller.
 */
function callDetails(calls: Calls, tool: ITool | undefined, params: CallParams, correlation: string): ToolCallDetails {
  const injected = calls.options.injectedArguments ?? HOST_INJECTED_ARGUMENTS;
  const args = withoutInjectedArguments(params.arguments ?? {}, tool?.inputSchema, injected);
  return {
    ...calls.caller,
    toolCallRequest: { id: `mcp-${randomUUID()}`, name: params.name, arguments: args },
    personaCapabilities: [...calls.caller.personaCapabilities],
    correlationId: `${correlation}-${randomUUID()}`,
  };
}

/**
 * The SDK's `Server`, connecting through a `GuardedTransport` (invalid `tools/call` params answered
 * -32602 saying what is wrong, before the SDK's schema check dumps its own) around any transport but
 * the SDK's HTTP ones, whose requests `startHttpServer` has checked the same way before.
 */
class ToolsmithMcpServer extends Server {
  /**
   * True once connected to a transport that outlives a request (stdio, in memory), on which a
   * message the client did not ask for (a task's status) can be sent; false over HTTP, where every
   * request has its own server and stream.
   */
  streams = false;

  override connect(transport: Transport): Promise<void> {
    if (transport instanceof WebStandardStreamableHTTPServerTransport)
      return super.connect(new ClientRequestRouter(transport));
    if (transport instanceof PerRequestHTTPServerTransport) return super.connect(transport);
    this.streams = true;
    return super.connect(transport instanceof GuardedTransport ? transport : new GuardedTransport(transport));
  }
}

/**
 * Where the reports of the call `params` asks for go over MCP: progress as `notifications/progress`
 * for the request's progress token (none without one), log messages as `notifications/message` under
 * the tool's name, at the level the client set (`logging/setLevel`; all levels before it sets one).
 */
function callReporter(ctx: ServerContext, params: CallParams, onError: Server['onerror']): CallReporter {
  const failed = (error: unknown) => onError?.(asError(error));
  const reporter: CallReporter = {
    log: (level, data) => void ctx.mcpReq.log(level, data, params.name).catch(failed),
  };
  const progressToken = params._meta?.progressToken;
  if (progressToken !== undefined) {
    reporter.progress = (update) =>
      void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...update } }).catch(failed);
  }
  return reporter;
}

/** A factory for the v2 SDK's serving entries (`serveStdio(factory)`, `createMcpHandler(factory)`). */
export function createMcpServerFactory(
  orchestrator: ToolOrchestrator,
  options: McpServerOptions = {},
): McpServerFactory {
  return () => createMcpServer(orchestrator, options);
}

/**
 * One page of `tools` from `cursor` (an opaque position handed out as `nextCursor`). A cursor this
 * server did not hand out is refused -32602, as the spec asks.
 */
function pageOf(tools: Tool[], pageSize: number | undefined, cursor: string | undefined): ListToolsResult {
  const start = cursor === undefined ? 0 : /^p\d+$/.test(cursor) ? Number(cursor.slice(1)) : Number.NaN;
  // Refused: a cursor of another form (NaN), past the end, or given to a server without pages.
  if (cursor !== undefined && (!(start <= tools.length) || pageSize === undefined))
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `tools/list: cursor '${truncateText(cursor)}' is not one this server handed out; list again without a cursor.`,
    );
  if (pageSize === undefined) return { tools };
  const end = start + pageSize;
  return end < tools.length ? { tools: tools.slice(start, end), nextCursor: `p${end}` } : { tools: tools.slice(start) };
}

/**
 * The `tools/list` entries of the enabled tools `capabilities` allow (all enabled tools without):
 * each tool's own, or its entry in `listed` (a served profile's list).
 */
export function listMcpTools(
  orchestrator: ToolOrchestrator,
  capabilities?: readonly string[],
  listed?: ReadonlyMap<string, McpToolEntry>,
): Tool[] {
  const context = capabilities === undefined ? undefined : { personaCapabilities: capabilities };
  return orchestrator
    .listTools(context)
    .map(({ name }) => (listed?.get(name) ?? toMcpToolFromTool(orchestrator.getTool(name)!)) as Tool);
}

/**
 * The MCP answer to a finished call (as `toCallToolResult` of the v1 server): output as text plus
 * `structuredContent` when `structured`; a failure as an `isError` result with the call's feedback
 * text (`feedbackText`) and, with `failureMeta`, its structured failure in `_meta` (./failure-meta.ts)
 * — never `structuredContent`, which a client checks against the output schema; a call that reached
 * no tool throws `ProtocolError(InvalidParams)` (-32602).
 */
export function toCallToolResult(
  result: ToolCallResult,
  structured: boolean,
  feedback: FeedbackOptions = {},
  failureMeta?: FailureMetaOptions,
): CallToolResult {
  if (result.isError) {
    const error = result.errorDetails;
    if (error !== undefined && PROTOCOL_ERROR_CODES.has(error.code))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { code: error.code });
    const answer: CallToolResult = { content: [{ type: 'text', text: feedbackText(result, feedback) }], isError: true };
    if (failureMeta !== undefined) answer._meta = failureMetaOf(result, failureMeta);
    return answer;
  }
  const blocks = result.content;
  const refused = blocks === undefined ? undefined : blockRefusedByMcp(blocks);
  if (refused !== undefined) return outputInvalid(result, `content MCP cannot carry: ${refused}`);
  if (blocks !== undefined && blocks.length > 0 && (result.output === null || result.output === undefined))
    return { content: blocks as CallToolResult['content'] };
  let text: string;
  try {
    text = JSON.stringify(result.output ?? null) ?? 'null';
  } catch (error) {
    return outputInvalid(result, `output that cannot be serialized to JSON: ${describeThrown(error, 200)}`);
  }
  // The tool's blocks first, then the output's text mirror (what a client without structuredContent reads).
  const answer: CallToolResult = {
    content: [...((blocks ?? []) as CallToolResult['content']), { type: 'text', text }],
  };
  if (structured && text.charCodeAt(0) === 123 /* { */) {
    answer.structuredContent = JSON.parse(text) as Record<string, unknown>;
  }
  return answer;
}

/** The `isError` answer to a call whose tool answered `what`, which MCP cannot send. */
function outputInvalid(result: ToolCallResult, what: string): CallToolResult {
  const text = `OUTPUT_INVALID: Tool '${truncateText(result.toolName)}' answered ${what}`;
  return { content: [{ type: 'text', text }], isError: true };
}

/** The SDK's schema of each content block kind, as it checks a `tools/call` result before sending it. */
const BLOCK_SCHEMAS: Record<string, StandardSchemaV1> = {
  text: specTypeSchemas.TextContent,
  image: specTypeSchemas.ImageContent,
  audio: specTypeSchemas.AudioContent,
  resource: specTypeSchemas.EmbeddedResource,
  resource_link: specTypeSchemas.ResourceLink,
};

/**
 * The first thing of `blocks` the SDK would refuse though toolsmith's content check passed it (an
 * `annotations.audience` other than user/assistant, a `_meta` that is not an object…), as
 * `content[i].path: message`; the SDK would answer the whole call -32602 with its validator's dump.
 * The payloads (text, base64), checked already, are blanked first, so none is decoded twice.
 */
function blockRefusedByMcp(blocks: readonly ContentBlock[]): string | undefined {
  for (const [index, block] of blocks.entries()) {
    const { resource } = block as { resource?: Record<string, unknown> };
    const light = {
      ...block,
      ...('text' in block ? { text: '' } : {}),
      ...('data' in block ? { data: '' } : {}),
      ...(resource === undefined
        ? {}
        : { resource: { ...resource, ...('blob' in resource ? { blob: '' } : { text: '' }) } }),
    };
    const outcome = BLOCK_SCHEMAS[block.type]?.['~standard'].validate(light) as StandardSchemaV1.Result<unknown>;
    const issue = outcome?.issues?.[0];
    if (issue !== undefined)
      return `content[${index}].${(issue.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key)).join('.')}: ${issue.message}`;
  }
  return undefined;
}
