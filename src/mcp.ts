import type { ShutdownReport, ToolOrchestrator } from './orchestrator.js';
import { DEFAULT_MAX_MESSAGE_BYTES, StdioJsonRpcTransport, type MessageInput } from './mcp-transport.js';
import { createMcpServer, type McpServerOptions } from './mcp-server.js';

/*
 * `toolsmith/mcp`: the MCP server (src/mcp-server.ts: `tools/list`, `tools/call` through the
 * orchestrator), served over stdio here and over Streamable HTTP by src/mcp-http.ts.
 */

export {
  DEFAULT_MAX_MESSAGE_BYTES,
  GuardedTransport,
  StdioJsonRpcTransport,
  type StdioJsonRpcTransportOptions,
} from './mcp-transport.js';
export {
  createMcpServer,
  listMcpTools,
  toCallToolResult,
  type McpPersona,
  type McpServerOptions,
} from './mcp-server.js';

/** How `serveStdio` runs: the server options plus the streams (default the process's own). */
export interface ServeStdioOptions extends McpServerOptions {
  stdin?: MessageInput;
  /**
   * Longest JSON-RPC message read, in bytes (default 10 MiB, as the SDK's stdio transport). A longer
   * line is answered with a -32600 error (naming its request id when it can be found) and skipped;
   * the server keeps serving.
   */
  maxMessageBytes?: number;
  stdout?: NodeJS.WritableStream;
  /** Listen to SIGINT and SIGTERM and close on them (default true). */
  handleSignals?: boolean;
  /** How long the orchestrator's shutdown waits for calls in flight (default: its own option). */
  shutdownTimeoutMs?: number;
}

/** Why `serveStdio` stopped, and what the orchestrator's shutdown reported. */
export interface ServeStdioResult {
  reason: 'closed' | 'SIGINT' | 'SIGTERM';
  shutdown: ShutdownReport;
}

/**
 * Serves `orchestrator` over stdio until the client closes the connection (stdin ends) or the
 * process gets SIGINT/SIGTERM; then closes the server, shuts the orchestrator down and resolves.
 * Writes nothing but protocol messages to stdout; errors go to `onError` (default: one line on stderr).
 */
export async function serveStdio(
  orchestrator: ToolOrchestrator,
  options: ServeStdioOptions = {},
): Promise<ServeStdioResult> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const onError =
    options.onError ?? ((error: Error) => void process.stderr.write(`toolsmith serve: ${error.message}\n`));
  const server = createMcpServer(orchestrator, { ...options, onError });
  const transport = new StdioJsonRpcTransport(stdin, stdout, {
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
  });

  let reason: ServeStdioResult['reason'] = 'closed';
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  server.onclose = () => markClosed();
  let closing = false;
  const close = (why: ServeStdioResult['reason']) => {
    if (closing) return;
    closing = true;
    reason = why;
    server.close().catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
  };
  const onEnd = () => close('closed');
  const onSigint = () => close('SIGINT');
  const onSigterm = () => close('SIGTERM');
  // A client that goes away leaves stdout broken (EPIPE): close instead of crashing.
  const onStdoutError = () => close('closed');
  const handleSignals = options.handleSignals ?? true;
  stdin.on('end', onEnd);
  stdin.on('close', onEnd);
  stdout.on('error', onStdoutError);
  if (handleSignals) {
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
  }
  try {
    await server.connect(transport);
    await closed;
  } catch (error) {
    await orchestrator.shutdown(
      options.shutdownTimeoutMs === undefined ? {} : { timeoutMs: options.shutdownTimeoutMs },
    );
    throw error;
  } finally {
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
    stdout.off('error', onStdoutError);
    if (handleSignals) {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
    }
  }
  const shutdown = await orchestrator.shutdown(
    options.shutdownTimeoutMs === undefined ? {} : { timeoutMs: options.shutdownTimeoutMs },
  );
  return { reason, shutdown };
}

// The Streamable HTTP server (stateless, OAuth resource server) is part of `toolsmith/mcp` too.
export {
  isLoopbackHost,
  startHttpServer,
  type McpHttpServer,
  type ServeHttpOptions,
  type ServeHttpResult,
} from './mcp-http.js';
export {
  createBearerAuth,
  resourceMetadataPath,
  resourceMetadataUrl,
  type AuthenticatedCaller,
  type AuthOutcome,
  type AuthRefusal,
  type BearerAuth,
  type BearerAuthOptions,
} from './auth.js';

export { formatCallError } from './call-error-text.js';
