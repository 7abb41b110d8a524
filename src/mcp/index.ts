/*
 * `toolsmith-sdk/mcp`: the MCP server for both protocol eras (2026-07-28 and the 2025 handshake) on the
 * official v2 SDK — the tool mapping (./tool.ts), the era-blind handlers (./server.ts: `tools/list`,
 * `tools/call` as a direct call or a task, ./tasks.ts), how a call asks its client (./asking.ts,
 * ./request-state.ts), stdio (./stdio.ts over ./stdio-transport.ts), Streamable HTTP (./http.ts) and
 * its bearer auth (./auth.ts); every transport checks `tools/call` params with ./call-params.ts; the
 * arguments hosts inject for themselves are taken out of calls (./injected-arguments.ts).
 */

export {
  DEFAULT_MAX_MESSAGE_BYTES,
  GuardedTransport,
  StdioJsonRpcTransport,
  type StdioJsonRpcTransportOptions,
} from './stdio-transport.js';
export {
  createMcpServer,
  createMcpServerFactory,
  listMcpTools,
  toCallToolResult,
  type McpPersona,
  type McpServerInstance,
  type McpServerOptions,
} from './server.js';
export { FAILURE_META_KEY, SEP_3313_META_KEY, type FailureMeta } from './failure-meta.js';
export { HOST_INJECTED_ARGUMENTS, type InjectedArgument } from './injected-arguments.js';
export { serveStdio, type ServeStdioOptions, type ServeStdioResult } from './stdio.js';
export {
  isLoopbackHost,
  startHttpServer,
  type McpHttpServer,
  type ServeHttpOptions,
  type ServeHttpResult,
} from './http.js';
export {
  createBearerAuth,
  resourceMetadataPath,
  type AuthenticatedCaller,
  type AuthOutcome,
  type BearerAuth,
  type BearerAuthOptions,
} from './auth.js';
