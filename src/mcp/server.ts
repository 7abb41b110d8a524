import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  type McpServerFactory,
  PerRequestHTTPServerTransport,
  type ServerContext,
  type ServerCapabilities,
  specTypeSchemas,
  type StandardSchemaV1,
  CLIENT_CAPABILITIES_META_KEY,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  isSpecType,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  Server,
  type Tool,
  type Transport,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { CallReporter } from '../call-reporting.js';
import type { ContentBlock } from '../content.js';
import type { ApprovalGate } from '../context.js';
import {
  checkedElicit,
  ElicitationError,
  type Elicit,
  type ElicitAnswer,
  type Sample,
  type SampleResult,
} from '../elicitation.js';
import type { UserContext } from '../context.js';
import { describeThrown, truncateText } from '../errors.js';
import { feedbackText, type FeedbackOptions } from '../feedback/render.js';
import type { ToolCallResult, ToolOrchestrator } from '../orchestrator.js';
import { TASKS_EXTENSION_ID, type TaskStore } from '../tasks/index.js';
import { ClientRequestRouter } from './client-requests.js';
import {
  asksForTask,
  handleTaskMethods,
  hasTaskCapableTool,
  startTask,
  taskCapabilities,
  taskReporter,
  taskStatusNotification,
} from './tasks.js';
import { type Answering, answersFor, mintAnswerState, requestStates } from './request-state.js';
import { GuardedTransport } from './stdio-transport.js';
import { isMcpObjectSchema, toMcpToolFromTool } from './tool.js';

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
  const personaId = options.persona?.personaId ?? 'mcp';
  const gmiId = options.persona?.gmiId ?? 'mcp';
  const userContext = options.persona?.userContext ?? { userId: 'mcp' };
  const taskSubject = options.persona?.userContext?.userId;
  const pageSize = options.pageSize;
  if (pageSize !== undefined && (!Number.isSafeInteger(pageSize) || pageSize < 1))
    throw new RangeError(`pageSize must be a positive integer; got ${String(pageSize)}.`);
  const ttlMs = options.toolsListTtlMs ?? DEFAULT_TOOLS_LIST_TTL_MS;
  const cacheScope = options.cacheScope ?? 'private';
  const feedback: FeedbackOptions = { maxLength: orchestrator.maxFeedbackLength };
  // A store without a task-capable tool announces nothing: a client would ask for tasks no tool runs.
  const store = options.taskStore !== undefined && hasTaskCapableTool(orchestrator) ? options.taskStore : undefined;
  const serverCapabilities = {
    tools: {},
    logging: {},
    ...(store === undefined ? {} : taskCapabilities(options.taskListing === true)),
  } as ServerCapabilities;
  const states = requestStates(options.requestStateKey, options.taskStore);
  const server = new ToolsmithMcpServer(
    { name: options.name ?? DEFAULT_NAME, version: options.version ?? DEFAULT_VERSION },
    {
      capabilities: serverCapabilities,
      // The SDK verifies an echoed requestState before the handler runs (-32602 when it does not).
      requestState: { verify: states.codec.verify },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  if (options.onError !== undefined) server.onerror = options.onError;
  if (store !== undefined)
    handleTaskMethods(server, { store, subject: taskSubject, list: options.taskListing === true });
  server.setRequestHandler('tools/list', (request) => {
    const tools = listMcpTools(orchestrator, capabilities);
    const page = pageOf(tools, pageSize, request.params?.cursor);
    return { ...page, ttlMs, cacheScope };
  });
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    // Non-object `arguments` never get here: the SDK's request check refuses them (-32602), after
    // toolsmith's transports (GuardedTransport, the HTTP call-params step) have said what is wrong.
    const { name, arguments: args } = request.params;
    // Decided before the call, so a tool replaced meanwhile cannot change the result's shape.
    const tool = orchestrator.getTool(name);
    const structured = isMcpObjectSchema(tool?.outputSchema);
    /** The call as this caller makes it; the rest (signal, reporter, turn) differs by how it runs. */
    const details = (correlationId: string) => ({
      toolCallRequest: { id: `mcp-${randomUUID()}`, name, arguments: args ?? {} },
      gmiId,
      personaId,
      personaCapabilities: [...capabilities],
      userContext,
      correlationId: `${correlationId}-${randomUUID()}`,
    });
    if (store !== undefined && tool?.taskSupport !== undefined) {
      const task = asksForTask(ctx, clientCapabilities(ctx, server), request.params);
      if (task !== undefined) {
        // 2025-11-25 on a connection that outlives the request (stdio): the client hears the task's
        // status change, and a question the tool asks reaches it while the task waits input_required.
        const lasting = server.streams && ctx.mcpReq.envelope === undefined;
        const modern = ctx.mcpReq.envelope !== undefined;
        // 2026-07-28 asks through the task (inputRequests, tasks/update), from any replica; 2025 only
        // on a lasting connection, where elicitation/create can reach the client after the handle.
        const { elicitation, sampling } = clientCapabilities(ctx, server) ?? {};
        const canAsk = (modern || lasting) && elicitation !== undefined && elicitation !== null;
        const canSample = (modern || lasting) && sampling !== undefined && sampling !== null;
        // A side-effect tool no one decides for is asked about through the task too (input_required).
        const askApproval = canAsk && tool.hasSideEffects === true && !orchestrator.decidesSideEffects;
        // The request is answered at once: the call runs under the task's signal only.
        return (await startTask(
          store,
          ctx,
          { toolName: name, subject: taskSubject, ...task },
          (signal, controls) => {
            const reporter = taskReporter(server, controls, { modern, elicit: canAsk, sample: canSample });
            if (reporter.sample !== undefined) reporter.sample = checkedSample(reporter.sample);
            const gate = askApproval && reporter.elicit !== undefined;
            return orchestrator.processToolCall({
              ...details('mcp-task'),
              signal,
              ...(reporter.elicit === undefined && reporter.sample === undefined ? {} : { reporter }),
              ...(gate ? { callerTurn: { approvalGate: approvalByElicitation(reporter.elicit!) } } : {}),
            });
          },
          (result) => toCallToolResult(result, structured, feedback) as unknown as Record<string, unknown>,
          server.onerror,
          lasting
            ? (changed) =>
                void server
                  .notification(taskStatusNotification(changed))
                  .catch((error: unknown) =>
                    server.onerror?.(error instanceof Error ? error : new Error(String(error))),
                  )
            : undefined,
        )) as unknown as CallToolResult;
      }
      if (tool.taskSupport === 'required')
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Tool '${name}' runs only as a task: call it with a task (2025-11-25: params.task; 2026-07-28: declare the ${TASKS_EXTENSION_ID} extension).`,
        );
    }
    const reporter = callReporter(ctx, request.params._meta?.progressToken, name, server.onerror);
    // A retry's answers, held to the questions asked for this call (request-state.ts).
    const answering = await answersFor(ctx, states, { tool: name, args, caller: userContext.userId });
    const asking = elicitation(ctx, server, answering);
    if (asking.elicit !== undefined) reporter.elicit = asking.elicit;
    if (asking.sample !== undefined) reporter.sample = checkedSample(asking.sample);
    const signals = [ctx.mcpReq.signal];
    if (asking.signal !== undefined) signals.push(asking.signal);
    if (options.signal !== undefined) signals.push(options.signal);
    // A side-effect tool no one decides for is asked about, when the client can ask its user.
    const askApproval =
      asking.elicit !== undefined && tool?.hasSideEffects === true && !orchestrator.decidesSideEffects;
    const call = orchestrator.processToolCall({
      ...details(`mcp-${String(ctx.mcpReq.id)}`),
      signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals),
      reporter,
      ...(askApproval ? { callerTurn: { approvalGate: approvalByElicitation(asking.approve ?? asking.elicit!) } } : {}),
    });
    const outcome = asking.inputNeeded === undefined ? await call : await Promise.race([call, asking.inputNeeded]);
    // The call may have ended (aborted) before the race began: a question asked decides.
    if (outcome === INPUT_NEEDED || asking.asked())
      return (await asking.inputRequiredResult()) as unknown as CallToolResult;
    return toCallToolResult(outcome, structured, feedback);
  });
  return server;
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

const INPUT_NEEDED = Symbol('input needed');

/** How a call asks the client's user, by era; nothing when the client cannot elicit (forms). */
interface Elicitation {
  elicit?: Elicit;
  /** The approval gate's question (keyed apart from the tool's own on 2026-07-28). */
  approve?: Elicit;
  /** Asks the client for a model call (MCP sampling), when it can. */
  sample?: Sample;
  /** Aborts the call when a 2026-07-28 answer must first come from the client. */
  signal?: AbortSignal;
  /** Resolves when the call needs an answer it does not have yet (2026-07-28). */
  inputNeeded?: Promise<typeof INPUT_NEEDED>;
  /** The `input_required` result naming the question(s) asked, with the state a retry echoes. */
  inputRequiredResult(): Promise<InputRequiredResult>;
  /** True once the call asked a question it has no answer to yet. */
  asked(): boolean;
}

/**
 * What the request's client can do: on 2026-07-28 the capabilities in its `_meta`, on 2025 those of
 * its `initialize` (undefined on a stateless HTTP instance that never saw it).
 */
export function clientCapabilities(
  ctx: ServerContext,
  server: Server,
): { elicitation?: unknown; sampling?: unknown; extensions?: Record<string, unknown> } | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope !== undefined) return envelope[CLIENT_CAPABILITIES_META_KEY] as ReturnType<typeof clientCapabilities>;
  return server.getClientCapabilities() as ReturnType<typeof clientCapabilities>;
}

/** A call whose client cannot ask its user: no question, nothing to wait for. */
const NO_ELICITATION: Elicitation = {
  inputRequiredResult: () => Promise.reject(new Error('No question was asked.')),
  asked: () => false,
};

/**
 * Elicitation for one `tools/call`. On the 2025 era, `elicitation/create` is sent to the client and
 * its answer awaited (over stateless HTTP the answer's POST is routed back, see client-requests.ts).
 * On 2026-07-28 the call is answered `input_required` with the question and a signed state, and the
 * client retries the call with the answer in `inputResponses` and the state echoed: the call runs
 * again from the start and this time the question is answered at once (from `answers`, held to the
 * state: see request-state.ts), so a tool that asks before its side effects does them once.
 */
function elicitation(ctx: ServerContext, server: Server, answering: Answering): Elicitation {
  const modern = ctx.mcpReq.envelope !== undefined;
  const capabilities = clientCapabilities(ctx, server);
  // A stateless 2025 HTTP request reaches an instance that never saw the client's initialize: what it
  // can do is unknown, so the question is sent and a client that cannot answer it says so.
  const unknown = !modern && server.getClientCapabilities() === undefined;
  const canElicit = unknown || (capabilities?.elicitation !== undefined && capabilities.elicitation !== null);
  const canSample = unknown || (capabilities?.sampling !== undefined && capabilities.sampling !== null);
  if (!canElicit && !canSample) return NO_ELICITATION;
  const controller = new AbortController();
  let markNeeded!: (value: typeof INPUT_NEEDED) => void;
  const inputNeeded = new Promise<typeof INPUT_NEEDED>((resolve) => (markNeeded = resolve));
  const needed: Record<string, ReturnType<typeof inputRequired.elicit>> = {};
  /** The answers this run read, carried in the next state (a retry sends only the new ones). */
  const read: Record<string, unknown> = Object.create(null);
  const base = {
    signal: controller.signal,
    inputNeeded,
    inputRequiredResult: async () =>
      inputRequired({
        inputRequests: needed,
        requestState: await mintAnswerState(answering, Object.keys(needed), read),
      }),
    asked: () => Object.keys(needed).length > 0,
  };
  /** The answer to `key`, noted as read when there is one. */
  const answered = (key: string) => {
    const answer = inputResponse(answering.answers, key);
    if (answer.kind !== 'missing') read[key] = answering.answers[key];
    return answer;
  };
  if (!modern) {
    /**
     * Sends `method` to the client; a client that does not take it is `unavailable`, an answer the SDK
     * finds is not the method's result is `invalid` (rather than its validator's dump).
     */
    const send = async (
      method: 'elicitation/create' | 'sampling/createMessage',
      params: object,
      unavailable: Error,
      invalid: Error,
    ) => {
      try {
        return await ctx.mcpReq.send({ method, params: params as Record<string, unknown> });
      } catch (error) {
        if (error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound) throw unavailable;
        if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult) throw invalid;
        throw error;
      }
    };
    const elicit: Elicit = async (request) =>
      (await send(
        'elicitation/create',
        { message: request.message, requestedSchema: request.requestedSchema },
        new ElicitationError(
          'ELICITATION_UNAVAILABLE',
          'This client cannot ask its user (it does not take elicitation/create).',
        ),
        new ElicitationError('ELICITATION_ANSWER_INVALID', "elicit: the client's answer is not an ElicitResult."),
      )) as ElicitAnswer;
    const sample: Sample = async (request) =>
      (await send(
        'sampling/createMessage',
        request,
        new ElicitationError(
          'SAMPLING_UNAVAILABLE',
          'This client cannot run a model call for the server (it does not take sampling/createMessage).',
        ),
        new ElicitationError('SAMPLING_ANSWER_INVALID', NOT_A_MODEL_ANSWER),
      )) as SampleResult;
    return { ...base, ...(canElicit ? { elicit } : {}), ...(canSample ? { sample } : {}) };
  }
  /** Ends the round: the call is answered input_required with what it asked. */
  const ask = (key: string, request: ReturnType<typeof inputRequired.elicit>): Promise<never> => {
    needed[key] = request;
    markNeeded(INPUT_NEEDED);
    controller.abort(new DOMException('The call waits for the client to answer a question.', 'AbortError'));
    // Rejected for whoever still awaits it; nobody may, once the call is answered input_required.
    const stopped = Promise.reject(controller.signal.reason as Error);
    stopped.catch(() => {});
    return stopped;
  };
  const asker = (prefix: string): Elicit => {
    let asked = 0;
    return (request) => {
      const key = `${prefix}-${asked++}`;
      const answer = answered(key);
      if (answer.kind === 'elicit')
        return Promise.resolve({
          action: answer.action,
          ...(answer.content === undefined ? {} : { content: answer.content as ElicitAnswer['content'] }),
        });
      return ask(
        key,
        inputRequired.elicit({ message: request.message, requestedSchema: request.requestedSchema as never }),
      );
    };
  };
  let sampled = 0;
  const sample: Sample = (request) => {
    const key = `sample-${sampled++}`;
    const answer = answered(key);
    if (answer.kind === 'sampling') return Promise.resolve(answer.result as SampleResult);
    return ask(key, inputRequired.createMessage(request as never));
  };
  return {
    ...base,
    ...(canElicit ? { elicit: asker('elicit'), approve: asker('approval') } : {}),
    ...(canSample ? { sample } : {}),
  };
}

/** `ask(request)`, or `undefined` when the client turned out not to be able to ask. */
async function askOrUnavailable(ask: Elicit, request: Parameters<Elicit>[0]): Promise<ElicitAnswer | undefined> {
  try {
    return await ask(request);
  } catch (error) {
    if (error instanceof ElicitationError && error.code === 'ELICITATION_UNAVAILABLE') return undefined;
    throw error;
  }
}

/**
 * The approval gate of a side-effect tool, asking the user (approve / deny) with the tool and its
 * arguments; the answer is checked against the question as any form's. On 2026-07-28 the approval is
 * an answer the call carries in its state from round to round, so a call is approved once.
 */
function approvalByElicitation(ask: Elicit): ApprovalGate {
  const checked = checkedElicit(ask);
  return async ({ tool, args }) => {
    let shown = JSON.stringify(args);
    if (shown.length > 2000) shown = `${shown.slice(0, 2000)}…`;
    const answer = await askOrUnavailable(checked, {
      message: `Allow the tool '${tool.name}' to run? It has side effects (${truncateText(tool.description, 300)}). Arguments: ${shown}`,
      requestedSchema: {
        type: 'object',
        properties: {
          approve: { type: 'boolean', title: `Run ${tool.name}`, description: 'Approve this call', default: false },
        },
        required: ['approve'],
      },
    });
    if (answer === undefined) return { approved: false, reason: 'The client cannot ask its user.' };
    if (answer.action === 'accept' && answer.content?.approve === true) return true;
    return {
      approved: false,
      reason: answer.action === 'accept' ? 'The user did not approve the call.' : `The user answered ${answer.action}.`,
    };
  };
}

/**
 * `sample` whose answer reaches the tool only when it is a `CreateMessageResult` (the SDK's schema),
 * on every era and path; anything else is `SAMPLING_ANSWER_INVALID`.
 */
function checkedSample(sample: Sample): Sample {
  return async (request) => {
    const answer = await sample(request);
    if (!isSpecType.CreateMessageResult(answer))
      throw new ElicitationError('SAMPLING_ANSWER_INVALID', NOT_A_MODEL_ANSWER);
    return answer;
  };
}

const NOT_A_MODEL_ANSWER =
  'The client\'s answer to a model call is not a CreateMessageResult ({ role: "user" | "assistant", content, model }).';

/**
 * Where a call's reports go over MCP: progress as `notifications/progress` for the request's progress
 * token (none without one), log messages as `notifications/message` under the tool's name, at the
 * level the client set (`logging/setLevel`; all levels before it sets one).
 */
function callReporter(
  ctx: ServerContext,
  progressToken: string | number | undefined,
  toolName: string,
  onError: ((error: Error) => void) | undefined,
): CallReporter {
  const failed = (error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error)));
  const reporter: CallReporter = {
    log: (level, data) => void ctx.mcpReq.log(level, data, toolName).catch(failed),
  };
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
function pageOf(
  tools: Tool[],
  pageSize: number | undefined,
  cursor: string | undefined,
): { tools: Tool[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const match = /^p(\d+)$/.exec(cursor);
    start = match === null ? Number.NaN : Number(match[1]);
    if (!Number.isSafeInteger(start) || start > tools.length || pageSize === undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `tools/list: cursor '${truncateText(cursor)}' is not one this server handed out; list again without a cursor.`,
      );
  }
  if (pageSize === undefined) return { tools };
  const end = start + pageSize;
  return end < tools.length ? { tools: tools.slice(start, end), nextCursor: `p${end}` } : { tools: tools.slice(start) };
}

/** The `tools/list` entries of the enabled tools `capabilities` allow (all enabled tools without). */
export function listMcpTools(orchestrator: ToolOrchestrator, capabilities?: readonly string[]): Tool[] {
  const tools: Tool[] = [];
  for (const definition of orchestrator.listTools(
    capabilities === undefined ? undefined : { personaCapabilities: capabilities },
  )) {
    const tool = orchestrator.getTool(definition.name);
    if (tool !== undefined) tools.push(toMcpToolFromTool(tool) as Tool);
  }
  return tools;
}

/**
 * The MCP answer to a finished call (as `toCallToolResult` of the v1 server): output as text plus
 * `structuredContent` when `structured`; a failure as an `isError` result with the call's feedback
 * text (`feedbackText`); a call that reached no tool throws `ProtocolError(InvalidParams)` (-32602).
 */
export function toCallToolResult(
  result: ToolCallResult,
  structured: boolean,
  feedback: FeedbackOptions = {},
): CallToolResult {
  if (result.isError) {
    const error = result.errorDetails;
    if (error !== undefined && PROTOCOL_ERROR_CODES.has(error.code))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { code: error.code });
    return { content: [{ type: 'text', text: feedbackText(result, feedback) }], isError: true };
  }
  const blocks = result.content;
  const refused = blocks === undefined ? undefined : blockRefusedByMcp(blocks);
  if (refused !== undefined) {
    const message = `Tool '${truncateText(result.toolName)}' answered content MCP cannot carry: ${refused}`;
    return { content: [{ type: 'text', text: `OUTPUT_INVALID: ${message}` }], isError: true };
  }
  if (blocks !== undefined && blocks.length > 0 && (result.output === null || result.output === undefined))
    return { content: blocks as CallToolResult['content'] };
  let text: string;
  try {
    text = JSON.stringify(result.output ?? null) ?? 'null';
  } catch (error) {
    const message = `Tool '${truncateText(result.toolName)}' answered output that cannot be serialized to JSON: ${describeThrown(error, 200)}`;
    return { content: [{ type: 'text', text: `OUTPUT_INVALID: ${message}` }], isError: true };
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
