import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import { asError } from '../errors.js';
import type { ShutdownReport, ToolOrchestrator } from '../orchestrator.js';
import { createMcpServerFactory, type McpServerOptions } from './server.js';
import { type MessageInput, StdioJsonRpcTransport, type StdioJsonRpcTransportOptions } from './stdio-transport.js';

/** How `serveStdio` runs: the server and line reader options plus the streams (default the process's own). */
export interface ServeStdioOptions extends McpServerOptions, StdioJsonRpcTransportOptions {
  stdin?: MessageInput;
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
 * Serves `orchestrator` over stdio to clients of both MCP eras (2026-07-28 without `initialize`;
 * 2025-11-25 / 2025-06-18 with the handshake) through the v2 SDK's `serveStdio`, until stdin ends or
 * the process gets SIGINT/SIGTERM; then closes the connection, shuts the orchestrator down and
 * resolves. Errors go to `onError` (default: one line on stderr); stdout carries only protocol messages.
 */
export async function serveStdio(
  orchestrator: ToolOrchestrator,
  options: ServeStdioOptions = {},
): Promise<ServeStdioResult> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const onError =
    options.onError ?? ((error: Error) => void process.stderr.write(`toolsmith serve: ${error.message}\n`));
  // The one client of this process is the only caller its own memory store has: it may list them.
  const taskListing = options.taskListing ?? options.taskStore?.location === 'memory';
  const factory = createMcpServerFactory(orchestrator, { ...options, onError, taskListing });
  // toolsmith's line reader answers malformed JSON (-32700), non-messages and oversize lines (-32600)
  // and keeps serving; the SDK entry then decides the era from the first message, and each server it
  // builds guards its channel (invalid tools/call params -32602, see `ToolsmithMcpServer`).
  const transport = new StdioJsonRpcTransport(stdin, stdout, options);
  const handle = serveSdkStdio(factory, { transport, onerror: onError });
  // The first end, stream failure or signal stops the server; a later one finds the promise settled.
  let stop!: (why: ServeStdioResult['reason']) => void;
  const stopped = new Promise<ServeStdioResult['reason']>((resolve) => (stop = resolve));
  const onEnd = () => stop('closed');
  const listeners: Array<[NodeJS.EventEmitter, string, () => void]> = [
    [stdin, 'end', onEnd],
    [stdin, 'close', onEnd],
    [stdout, 'error', onEnd],
  ];
  if (options.handleSignals ?? true)
    listeners.push([process, 'SIGINT', () => stop('SIGINT')], [process, 'SIGTERM', () => stop('SIGTERM')]);
  for (const [emitter, event, listener] of listeners) emitter.on(event, listener);
  const reason = await stopped;
  // Still listening while the connection closes: a second signal must not kill the process mid-close.
  await handle.close().catch((error: unknown) => onError(asError(error)));
  for (const [emitter, event, listener] of listeners) emitter.off(event, listener);
  const shutdown = await orchestrator.shutdown({ timeoutMs: options.shutdownTimeoutMs });
  return { reason, shutdown };
}
