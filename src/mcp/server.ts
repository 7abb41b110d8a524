import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  type McpServerFactory,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type Tool,
} from '@modelcontextprotocol/server';
import { formatCallError } from '../call-error-text.js';
import { describeThrown, truncateText } from '../errors.js';
import { isMcpObjectSchema, toMcpToolFromTool } from '../mcp-tool.js';
import type { McpServerOptions } from '../mcp-server.js';
import type { ToolCallErrorDetails, ToolCallResult, ToolOrchestrator } from '../orchestrator.js';

/*
 * The MCP server on the official v2 SDK (`@modelcontextprotocol/server`), serving both protocol eras
 * from one factory: the serving entries (`serveStdio` of the SDK's stdio module, `createMcpHandler`
 * for HTTP) build one low-level `Server` per connection (stdio) or per request (HTTP) and decide the
 * era from the opening message: a 2026-07-28 client (no `initialize`, `_meta` per request,
 * `server/discover`) gets the modern wire, a 2025-11-25 / 2025-06-18 client the handshake.
 * The handlers are era-blind: `tools/list` lists what the caller's capabilities allow, in registry
 * order; `tools/call` goes through `ToolOrchestrator.processToolCall`.
 */

const DEFAULT_NAME = 'toolsmith';
const DEFAULT_VERSION = '0.1.0';
/** Codes that mean the request could not be routed to a tool: protocol errors, not tool results. */
const PROTOCOL_ERROR_CODES: ReadonlySet<string> = new Set(['TOOL_NOT_FOUND', 'INVALID_REQUEST']);

/**
 * A v2 SDK server factory answering `tools/list` and `tools/call` from `orchestrator`, for
 * `serveStdio(factory)` and `createMcpHandler(factory)`. Each instance is cheap (two handlers); the
 * orchestrator is shared and owned by the caller.
 */
export function createMcpServerFactory(
  orchestrator: ToolOrchestrator,
  options: McpServerOptions = {},
): McpServerFactory {
  const capabilities = [...(options.capabilities ?? [])];
  const personaId = options.persona?.personaId ?? 'mcp';
  const gmiId = options.persona?.gmiId ?? 'mcp';
  const userContext = options.persona?.userContext ?? { userId: 'mcp' };
  const info = { name: options.name ?? DEFAULT_NAME, version: options.version ?? DEFAULT_VERSION };
  return () => {
    const server = new Server(
      info,
      options.instructions === undefined
        ? { capabilities: { tools: {} } }
        : { capabilities: { tools: {} }, instructions: options.instructions },
    );
    if (options.onError !== undefined) server.onerror = options.onError;
    server.setRequestHandler('tools/list', () => ({ tools: listMcpToolsV2(orchestrator, capabilities) }));
    server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
      const { name, arguments: args } = request.params;
      if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args)))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'tools/call: "arguments" must be an object.');
      // Decided before the call, so a tool replaced meanwhile cannot change the result's shape.
      const outputSchema = orchestrator.getTool(name)?.outputSchema;
      const structured = isMcpObjectSchema(outputSchema);
      const result = await orchestrator.processToolCall({
        toolCallRequest: { id: `mcp-${randomUUID()}`, name, arguments: args ?? {} },
        gmiId,
        personaId,
        personaCapabilities: [...capabilities],
        userContext,
        correlationId: `mcp-${String(ctx.mcpReq.id)}-${randomUUID()}`,
        signal: ctx.mcpReq.signal,
      });
      return toCallToolResultV2(result, structured);
    });
    return server;
  };
}

/** The `tools/list` entries of the enabled tools `capabilities` allow (all enabled tools without). */
export function listMcpToolsV2(orchestrator: ToolOrchestrator, capabilities?: readonly string[]): Tool[] {
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
 * `structuredContent` when `structured`; a failure as an `isError` result; a call that reached no
 * tool throws `ProtocolError(InvalidParams)` (-32602).
 */
export function toCallToolResultV2(result: ToolCallResult, structured: boolean): CallToolResult {
  if (result.isError) {
    const error: ToolCallErrorDetails = result.errorDetails ?? {
      code: 'TOOL_ERROR',
      message: `Tool '${result.toolName}' failed without details.`,
    };
    if (PROTOCOL_ERROR_CODES.has(error.code))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { code: error.code });
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
    answer.structuredContent = JSON.parse(text) as Record<string, unknown>;
  }
  return answer;
}
