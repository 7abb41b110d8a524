import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { formatCallError } from './call-error-text.js';
import type { UserContext } from './context.js';
import { describeThrown, truncateText } from './errors.js';
import { GuardedTransport } from './mcp-transport.js';
import { isMcpObjectSchema, toMcpToolFromTool } from './mcp-tool.js';
import type { ToolCallErrorDetails, ToolCallResult, ToolOrchestrator } from './orchestrator.js';

/*
 * The MCP server (re-exported by `toolsmith/mcp`, src/mcp.ts, which adds stdio; src/mcp-http.ts adds
 * Streamable HTTP): an orchestrator served to MCP clients with the SDK's low-level `Server`
 * (`McpServer.registerTool` only takes Zod shapes, not the raw JSON Schema a definition carries).
 * - `tools/list` lists the enabled tools the connection's capabilities allow, each as in
 *   generated/manifests/mcp.json (`toMcpToolFromTool`): a caller is not shown what it may not call. A
 *   call to a tool it lacks capabilities for is still answered `isError: true` with PERMISSION_DENIED
 *   and the missing capabilities, which tells the person configuring the server what to grant.
 * - `tools/call` goes through `ToolOrchestrator.processToolCall`, so approval, permissions, validation,
 *   timeouts and output checks are the same as for any other caller. The MCP request's cancellation
 *   signal is the call's signal.
 * - Failures of the call (argument errors, refusals, tool failures, timeouts…) are results with
 *   `isError: true`, as the MCP spec asks, so the model sees them and can correct itself; only a call
 *   the server cannot route (an unknown tool, no name, `arguments` that are not an object) is a
 *   protocol error (`InvalidParams`, -32602). Output that cannot be serialized (a BigInt, a cycle)
 *   is an `isError: true` result too, not an internal error.
 * - Every transport is wrapped in `GuardedTransport` (invalid `tools/call` params answered -32602,
 *   error messages sent once); `serveStdio` reads with `StdioJsonRpcTransport`, which answers
 *   malformed JSON (-32700), non-messages (-32600) and oversize lines (-32600) and keeps serving.
 */

/** Who calls through an MCP connection; MCP carries no identity, so the server supplies it. */
export interface McpPersona {
  /** Default `'mcp'`. */
  personaId?: string;
  /** Default `'mcp'`. */
  gmiId?: string;
  /** Default `{ userId: 'mcp' }`. */
  userContext?: UserContext;
}

/** How `createMcpServer` sets up the server. */
export interface McpServerOptions {
  /** Server name reported at initialization (default `toolsmith`). */
  name?: string;
  /** Server version reported at initialization (default toolsmith's). */
  version?: string;
  /** Instructions for the client, reported at initialization. */
  instructions?: string;
  /** The persona capabilities every call of the connection has (default none). */
  capabilities?: readonly string[];
  /** Who the calls are made as. */
  persona?: McpPersona;
  /** Called with transport and protocol errors (default: ignored; `serveStdio` prints them to stderr). */
  onError?: (error: Error) => void;
}

const DEFAULT_NAME = 'toolsmith';
const DEFAULT_VERSION = '0.1.0';
/** Codes that mean the request could not be routed to a tool: protocol errors, not tool results. */
const PROTOCOL_ERROR_CODES: ReadonlySet<string> = new Set(['TOOL_NOT_FOUND', 'INVALID_REQUEST']);

/**
 * An MCP `Server` answering `tools/list` and `tools/call` from `orchestrator`. Connect it to any
 * transport (`server.connect(transport)`); `serveStdio` does it for stdio. Closing the server does not
 * shut the orchestrator down: the caller owns it.
 */
export function createMcpServer(orchestrator: ToolOrchestrator, options: McpServerOptions = {}): Server {
  const server = new ToolsmithMcpServer(
    { name: options.name ?? DEFAULT_NAME, version: options.version ?? DEFAULT_VERSION },
    options.instructions === undefined
      ? { capabilities: { tools: {} } }
      : { capabilities: { tools: {} }, instructions: options.instructions },
  );
  const capabilities = [...(options.capabilities ?? [])];
  const personaId = options.persona?.personaId ?? 'mcp';
  const gmiId = options.persona?.gmiId ?? 'mcp';
  const userContext = options.persona?.userContext ?? { userId: 'mcp' };
  if (options.onError !== undefined) server.onerror = options.onError;

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listMcpTools(orchestrator, capabilities) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    // Decided before the call, so a tool replaced meanwhile cannot change the result's shape.
    const structured = isMcpObjectSchema(orchestrator.getTool(name)?.outputSchema);
    const result = await orchestrator.processToolCall({
      toolCallRequest: { id: `mcp-${randomUUID()}`, name, arguments: args ?? {} },
      gmiId,
      personaId,
      personaCapabilities: [...capabilities],
      userContext,
      correlationId: `mcp-${String(extra.requestId)}-${randomUUID()}`,
      signal: extra.signal,
    });
    return toCallToolResult(result, structured);
  });
  return server;
}

/** The SDK's `Server`, connecting through a `GuardedTransport` around whatever transport it is given. */
class ToolsmithMcpServer extends Server {
  override connect(transport: Transport): Promise<void> {
    return super.connect(transport instanceof GuardedTransport ? transport : new GuardedTransport(transport));
  }
}

/**
 * The `tools/list` entries of the enabled tools of `orchestrator`, as in mcp.json: given
 * `capabilities`, only the tools they allow; without, every enabled tool.
 */
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
 * The MCP answer to a finished call: the output as `structuredContent` (when `structured`, i.e. the
 * listed tool has an object output schema) plus its JSON text; a failure as an `isError` result whose
 * text gives the code, the message and the details. Output that cannot be serialized to JSON (a
 * BigInt, a cycle, a throwing getter) is an `isError` result with `OUTPUT_INVALID`. Throws
 * `McpError(InvalidParams)` for a call that reached no tool.
 */
export function toCallToolResult(result: ToolCallResult, structured: boolean): CallToolResult {
  if (result.isError) {
    const error: ToolCallErrorDetails = result.errorDetails ?? {
      code: 'TOOL_ERROR',
      message: `Tool '${result.toolName}' failed without details.`,
    };
    if (PROTOCOL_ERROR_CODES.has(error.code))
      throw new McpError(ErrorCode.InvalidParams, error.message, { code: error.code });
    return { content: [{ type: 'text', text: formatCallError(error) }], isError: true };
  }
  let text: string;
  try {
    text = JSON.stringify(result.output ?? null) ?? 'null';
  } catch (error) {
    const message = `Tool '${truncateText(result.toolName)}' answered output that cannot be serialized to JSON: ${describeThrown(error, 200)}`;
    return { content: [{ type: 'text', text: `OUTPUT_INVALID: ${message}` }], isError: true };
  }
  const answer: CallToolResult = { content: [{ type: 'text', text }] };
  if (structured && text.charCodeAt(0) === 123 /* { */) {
    // The value as sent (toJSON applied), read back: exactly what the text says, plain data.
    answer.structuredContent = JSON.parse(text) as Record<string, unknown>;
  }
  return answer;
}
