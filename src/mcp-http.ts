import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  createBearerAuth,
  resourceMetadataPath,
  type AuthenticatedCaller,
  type AuthRefusal,
  type BearerAuth,
  type BearerAuthOptions,
} from './auth.js';
import { createMcpServer, type McpServerOptions } from './mcp-server.js';
import type { ShutdownReport, ToolOrchestrator } from './orchestrator.js';

/*
 * MCP over Streamable HTTP, stateless: every POST to /mcp gets its own SDK server and transport
 * (`sessionIdGenerator: undefined`, JSON responses), so no request depends on an earlier one and any
 * replica behind any load balancer can answer it. Around the SDK's transport, on plain `node:http`:
 * - `GET /healthz` (200, or 503 while draining) for liveness and readiness probes;
 * - with auth, the OAuth 2.1 resource server of `auth.ts`: the RFC 9728 metadata at
 *   `/.well-known/oauth-protected-resource[/<path>]`, 401/403 with `WWW-Authenticate`, the token's
 *   subject as the call's user and its scopes' capabilities as the persona's;
 * - DNS-rebinding protection: an `Origin` not in the allow-list is refused (403), and a server bound
 *   to loopback answers only `Host: localhost | 127.0.0.1 | [::1]`;
 * - a body limit (413), a per-request timeout (504, the call's signal aborted), and a graceful drain:
 *   on SIGTERM (or `close()`) new requests get 503 while the calls in flight finish, up to a deadline.
 */

/** How `startHttpServer` serves an orchestrator. */
export interface ServeHttpOptions extends Pick<McpServerOptions, 'name' | 'version' | 'instructions'> {
  /** Interface to bind (default `127.0.0.1`). Without `auth`, only a loopback address is accepted. */
  host?: string;
  /** Port (default 3000; 0 picks a free one, see `McpHttpServer.port`). */
  port?: number;
  /** Bearer-token authorization; omitted means none, which `startHttpServer` allows on loopback only. */
  auth?: BearerAuthOptions | BearerAuth;
  /** Capabilities of every call when there is no auth (with auth they come from the token's scopes). */
  capabilities?: readonly string[];
  /** The persona id calls are made as (default `mcp`). */
  personaId?: string;
  /** `Origin` values allowed to call /mcp (default none: browsers are refused, other clients send no Origin). */
  allowedOrigins?: readonly string[];
  /** `Host` names allowed (default: the loopback names when bound to loopback, else any). */
  allowedHosts?: readonly string[];
  /** Largest request body in bytes (default 1 MiB); a larger one is answered 413. */
  maxBodyBytes?: number;
  /** Longest a request may take, in ms (default 60 000); then it is answered 504 and its call aborted. */
  requestTimeoutMs?: number;
  /** How long a drain waits for calls in flight, in ms (default 10 000); later ones are aborted. */
  drainTimeoutMs?: number;
  /** How long the orchestrator's shutdown waits after the drain (default: its own option). */
  shutdownTimeoutMs?: number;
  /** Drain and stop on SIGTERM and SIGINT (default true). */
  handleSignals?: boolean;
  /** Called with request and protocol errors (default: ignored). */
  onError?: (error: Error) => void;
}

/** Why the server stopped and how the drain went. */
export interface ServeHttpResult {
  reason: 'closed' | 'SIGINT' | 'SIGTERM';
  /** Requests that were in flight when the drain began and finished before its deadline. */
  completed: number;
  /** Requests still running at the deadline, aborted and answered 503. */
  abandoned: number;
  shutdown: ShutdownReport;
}

/** A running HTTP server. */
export interface McpHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  host: string;
  port: number;
  /** Drains (new requests 503, calls in flight finish up to the deadline), stops and shuts the orchestrator down. */
  close(): Promise<ServeHttpResult>;
  /** Settles when the server has stopped, whatever stopped it. */
  done: Promise<ServeHttpResult>;
}

const DEFAULT_PORT = 3000;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for an address only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

interface InFlight {
  response: ServerResponse;
  finished: Promise<void>;
  abort: (status: number, message: string) => void;
}

/**
 * Serves `orchestrator` over MCP Streamable HTTP at `/mcp` until `close()` or SIGTERM/SIGINT.
 * Rejects (a setup mistake) when `auth` is missing and `host` is not loopback, or the port is taken.
 */
export async function startHttpServer(
  orchestrator: ToolOrchestrator,
  options: ServeHttpOptions = {},
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.auth === undefined && !isLoopbackHost(host)) {
    throw new TypeError(
      `toolsmith serves without auth only on loopback; '${host}' is reachable from other machines. Bind --host 127.0.0.1, or configure bearer-token auth (issuer, resource, jwks).`,
    );
  }
  const auth: BearerAuth | undefined =
    options.auth === undefined
      ? undefined
      : 'authenticate' in options.auth
        ? options.auth
        : createBearerAuth(options.auth);
  const metadataPaths = new Set<string>();
  if (options.auth !== undefined && !('authenticate' in options.auth))
    metadataPaths.add(resourceMetadataPath(options.auth.resource));
  if (auth !== undefined) metadataPaths.add('/.well-known/oauth-protected-resource');
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const allowedHosts =
    options.allowedHosts !== undefined
      ? new Set(options.allowedHosts)
      : isLoopbackHost(host)
        ? LOOPBACK_HOSTS
        : undefined;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const onError = options.onError ?? (() => {});
  const serverOptions: Pick<McpServerOptions, 'name' | 'version' | 'instructions'> = {};
  if (options.name !== undefined) serverOptions.name = options.name;
  if (options.version !== undefined) serverOptions.version = options.version;
  if (options.instructions !== undefined) serverOptions.instructions = options.instructions;
  const personaId = options.personaId ?? 'mcp';
  const openCapabilities = [...(options.capabilities ?? [])];

  const inFlight = new Set<InFlight>();
  let draining = false;

  const handleMcp = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    // Tracked from the first byte, so a drain also waits for a request still being authenticated or read.
    let done!: () => void;
    let stop: (() => void) | undefined;
    let message: unknown;
    const entry: InFlight = {
      response,
      finished: new Promise<void>((resolve) => (done = resolve)),
      abort: (status, text) => {
        stop?.();
        if (!response.headersSent) sendJsonRpcError(response, status, -32001, text, idOf(message));
      },
    };
    inFlight.add(entry);
    const timer = setTimeout(
      () => entry.abort(504, `The request took longer than ${requestTimeoutMs} ms and was aborted.`),
      requestTimeoutMs,
    );
    let closed = false;
    response.once('close', () => {
      closed = true;
      clearTimeout(timer);
      inFlight.delete(entry);
      stop?.();
      done();
    });
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin))
      return sendJsonRpcError(
        response,
        403,
        -32000,
        `Origin '${origin}' is not allowed; add it to the allowed origins to call from a browser.`,
      );
    if (allowedHosts !== undefined && !allowedHosts.has(hostnameOf(request.headers.host))) {
      return sendJsonRpcError(
        response,
        403,
        -32000,
        `Host '${request.headers.host ?? ''}' is not allowed (DNS-rebinding protection).`,
      );
    }
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      return sendJsonRpcError(
        response,
        405,
        -32000,
        'This server is stateless: send each JSON-RPC message as a POST to /mcp (no GET stream, no sessions).',
      );
    }
    let caller: AuthenticatedCaller | undefined;
    if (auth !== undefined) {
      const outcome = await auth.authenticate(request.headers.authorization);
      if (!outcome.ok) return sendRefusal(response, outcome.refusal);
      caller = outcome.caller;
    }
    const body = await readBody(request, maxBodyBytes);
    if (body === undefined) {
      response.shouldKeepAlive = false;
      return sendJsonRpcError(response, 413, -32000, `The request body is larger than ${maxBodyBytes} bytes.`);
    }
    try {
      message = JSON.parse(body);
    } catch {
      return sendJsonRpcError(response, 400, -32700, 'Parse error: the body is not JSON.');
    }
    if (auth !== undefined && caller !== undefined) {
      const refusal = scopeRefusal(message, caller, auth, orchestrator);
      if (refusal !== undefined) return sendRefusal(response, refusal);
    }

    const server = createMcpServer(orchestrator, {
      ...serverOptions,
      capabilities: caller?.capabilities ?? openCapabilities,
      persona: {
        personaId,
        userContext:
          caller === undefined
            ? { userId: 'mcp' }
            : {
                userId: caller.subject,
                scopes: caller.scopes,
                ...(caller.clientId === undefined ? {} : { clientId: caller.clientId }),
              },
      },
      onError,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxBodyBytes,
    });
    // Closing the server aborts its handlers' signals: the orchestrator's call stops.
    stop = () => void server.close().catch(() => {});
    // Answered meanwhile (timeout, drain deadline) or the client went away: nothing to serve.
    if (closed || response.writableEnded) return stop();
    if (draining) response.shouldKeepAlive = false;
    await server.connect(transport);
    await transport.handleRequest(request, response, message);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const pathname = pathOf(request.url);
    if (draining) {
      response.shouldKeepAlive = false;
      response.setHeader('Retry-After', '1');
      return sendJson(response, 503, {
        status: 'draining',
        error: 'This server is shutting down; retry on another replica.',
      });
    }
    if (pathname === '/healthz') return sendJson(response, 200, { status: 'ok' });
    if (auth !== undefined && metadataPaths.has(pathname)) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { error: 'Use GET.' });
      return sendJson(response, 200, auth.metadata());
    }
    if (pathname === '/mcp') return handleMcp(request, response);
    return sendJson(response, 404, { error: `Nothing at ${pathname}; MCP is served at /mcp.` });
  };

  const httpServer: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      onError(error instanceof Error ? error : new Error(String(error)));
      if (!response.headersSent) sendJsonRpcError(response, 500, -32603, 'Internal error.');
      else response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? DEFAULT_PORT, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;

  let markDone!: (result: ServeHttpResult) => void;
  const donePromise = new Promise<ServeHttpResult>((resolve) => (markDone = resolve));
  const handleSignals = options.handleSignals ?? true;
  const onSigterm = () => void drain('SIGTERM');
  const onSigint = () => void drain('SIGINT');
  if (handleSignals) {
    process.once('SIGTERM', onSigterm);
    process.once('SIGINT', onSigint);
  }

  let draining$: Promise<ServeHttpResult> | undefined;
  const drain = (reason: ServeHttpResult['reason']): Promise<ServeHttpResult> => {
    draining$ ??= (async () => {
      draining = true;
      if (handleSignals) {
        process.off('SIGTERM', onSigterm);
        process.off('SIGINT', onSigint);
      }
      const pending = [...inFlight];
      for (const entry of pending) if (!entry.response.headersSent) entry.response.shouldKeepAlive = false;
      httpServer.closeIdleConnections();
      let deadline: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(pending.map((entry) => entry.finished)),
        new Promise<void>((resolve) => (deadline = setTimeout(resolve, drainTimeoutMs))),
      ]);
      clearTimeout(deadline);
      const late = pending.filter((entry) => inFlight.has(entry));
      for (const entry of late) entry.abort(503, 'This server shut down before the request finished; retry it.');
      await Promise.all(late.map((entry) => entry.finished));
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
      const shutdown = await orchestrator.shutdown(
        options.shutdownTimeoutMs === undefined ? {} : { timeoutMs: options.shutdownTimeoutMs },
      );
      const result: ServeHttpResult = {
        reason,
        completed: pending.length - late.length,
        abandoned: late.length,
        shutdown,
      };
      markDone(result);
      return result;
    })();
    return draining$;
  };

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    host,
    port,
    close: () => drain('closed'),
    done: donePromise,
  };
}

/**
 * A 403 asking for the scopes that would grant what a `tools/call` in `message` needs, when the
 * caller lacks a capability the scope table can grant (MCP's step-up authorization). A capability no
 * scope grants is left to the orchestrator, which answers PERMISSION_DENIED.
 */
function scopeRefusal(
  message: unknown,
  caller: AuthenticatedCaller,
  auth: BearerAuth,
  orchestrator: ToolOrchestrator,
): AuthRefusal | undefined {
  const missing = new Set<string>();
  const tools: string[] = [];
  for (const item of Array.isArray(message) ? message : [message]) {
    const { method, params } = (item ?? {}) as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') continue;
    const required = orchestrator.getTool(params.name)?.requiredCapabilities ?? [];
    const lacking = required.filter((capability) => !caller.capabilities.includes(capability));
    if (lacking.length === 0) continue;
    tools.push(params.name);
    for (const capability of lacking) missing.add(capability);
  }
  if (missing.size === 0) return undefined;
  const scopes = auth.scopesGranting([...missing]);
  if (scopes.length === 0) return undefined;
  const needed = [...new Set([...caller.scopes, ...scopes])];
  return auth.insufficientScope(
    needed,
    `Tool ${tools.map((name) => `'${name}'`).join(', ')} needs ${[...missing].sort().join(', ')}; a token with scope ${scopes.join(' or ')} grants it.`,
  );
}

/** Reads the body as text, or `undefined` when it is over `limit` bytes (declared or sent). */
function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.once('error', reject);
  });
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

function hostnameOf(hostHeader: string | undefined): string {
  if (hostHeader === undefined) return '';
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  const colon = hostHeader.lastIndexOf(':');
  return colon === -1 ? hostHeader : hostHeader.slice(0, colon);
}

function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

function sendJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): void {
  sendJson(response, status, { jsonrpc: '2.0', error: { code, message }, id });
}

function sendRefusal(response: ServerResponse, refusal: AuthRefusal): void {
  if (refusal.wwwAuthenticate !== undefined) response.setHeader('WWW-Authenticate', refusal.wwwAuthenticate);
  sendJson(response, refusal.status, { error: refusal.error, error_description: refusal.description });
}
