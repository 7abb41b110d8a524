/**
 * One MCP request as it goes over HTTP, for tests and benchmarks that talk to a server without an
 * SDK client: a 2026-07-28 request carries its revision, client info and capabilities in `_meta` and
 * the `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers; a 2025 one only the version header.
 */

const MODERN_REVISION = '2026-07-28';

export interface McpRequestOptions {
  /** The revision claimed (default 2026-07-28); a `2025-…` one makes a 2025-era request. */
  version?: string;
  id?: number;
  /** The client's capabilities in the 2026-07-28 envelope (default none). */
  clientCapabilities?: Record<string, unknown>;
  /** Headers added or, with `undefined`, left out. */
  headers?: Record<string, string | undefined>;
  clientName?: string;
}

/** The headers and body of one JSON-RPC request to `method` with `params`. */
export function mcpRequest(
  method: string,
  params: Record<string, unknown> = {},
  options: McpRequestOptions = {},
): { headers: Record<string, string>; body: string } {
  const version = options.version ?? MODERN_REVISION;
  const modern = !version.startsWith('2025-');
  const name =
    typeof params.name === 'string' ? params.name : typeof params.taskId === 'string' ? params.taskId : undefined;
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    ...(modern ? { 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) } : {}),
    ...options.headers,
  };
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': { name: options.clientName ?? 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': options.clientCapabilities ?? {},
  };
  return {
    headers: Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: options.id ?? 1,
      method,
      params: modern ? { ...params, _meta: envelope } : params,
    }),
  };
}

/** The JSON-RPC message of an answer: the body itself, or the first `data:` line of an SSE stream. */
export function jsonRpcAnswer<T = unknown>(text: string): T {
  return JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text)) as T;
}
