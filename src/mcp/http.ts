import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type McpRequestContext,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import {
  createBearerAuth,
  resourceMetadataPath,
  type AuthenticatedCaller,
  type BearerAuth,
  type BearerAuthOptions,
} from './auth.js';
import { asError, truncateText } from '../errors.js';
import type { ShutdownReport, ToolOrchestrator } from '../orchestrator.js';
import { raceDeadline } from '../pipeline/settle.js';
import type { TaskStore } from '../tasks/index.js';
import { deliverClientAnswer } from './client-requests.js';
import { invalidCallParams } from './call-params.js';
import { requestStates } from './request-state.js';
import { createMcpServer, type McpServerOptions } from './server.js';
import { idOf, pathOf, readBody, sendJson, sendJsonRpcError, sendWebResponse, webRequestInit } from './http-wire.js';

/*
 * MCP over Streamable HTTP, stateless, for both protocol eras on one endpoint: a 2026-07-28 request
 * (its revision in the body's `_meta` and the `MCP-Protocol-Version` header, no `initialize`) goes
 * to the v2 SDK's `createMcpHandler`; a 2025-11-25 / 2025-06-18 request (the handshake, then plain
 * requests) to a fresh SDK server over a stateless JSON-answering transport. Either way every
 * request gets its own server instance, so any replica behind any load balancer can answer it.
 *
 * A request to /mcp goes through the named steps of `mcpSteps` in order; the first that refuses
 * answers it, and a request none refuses is served by `serveEra`. Around them, on plain `node:http`:
 * `GET /healthz` (liveness: 200, or 503 while draining), `GET /readyz` (readiness: 503 too while
 * the task store does not answer); with auth, the RFC 9728 metadata at
 * `/.well-known/oauth-protected-resource[/<path>]`; a per-request timeout (504, the call's signal
 * aborted); and a graceful drain on SIGTERM (or `close()`): new requests get 503 while the calls in
 * flight finish, up to a deadline.
 */

/** The options of each request's server that `startHttpServer` decides itself, from the request. */
type PerRequestOptionKey = 'persona' | 'signal' | 'cacheScope' | 'taskListing' | 'toolsListTtlMs';

/** How `startHttpServer` serves an orchestrator: each request's server's options, and the HTTP server's. */
export interface ServeHttpOptions extends Omit<McpServerOptions, PerRequestOptionKey> {
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
  /**
   * Browser `Origin`s allowed to call /mcp besides the default: without auth on a loopback bind, the
   * pages of this machine (`http(s)://localhost`, `127.0.0.1`, `[::1]`, any port) are allowed; with
   * auth, only the origins listed here.
   */
  allowedOrigins?: readonly string[];
  /**
   * `Host` names allowed, without ports (default: `localhost`, `127.0.0.1`, `[::1]` when bound to
   * loopback, else any). A `Host` that is not a host name (and port) is answered 400 either way.
   */
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
/** How long a streamed call stopped by the timeout or the drain has to send its aborted result. */
const STREAM_CLOSE_GRACE_MS = 1_000;
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for an address only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** One request to /mcp on its way through the steps: what the earlier steps found out. */
interface Exchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** Settles when the response has closed, however it ended: what a drain waits for. */
  readonly finished: Promise<void>;
  caller?: AuthenticatedCaller;
  body?: string;
  message?: unknown;
  /** Set while the SDK serves the request (`serveEra`), until it has answered. */
  serving?: Serving;
}

/**
 * How a request the SDK serves is stopped: `calls` stops its call, which then answers its aborted
 * result (in a streamed answer); `teardown`, the web request's signal, has the SDK close the
 * request's server, which aborts whatever still runs.
 */
interface Serving {
  readonly calls: AbortController;
  readonly teardown: AbortController;
}

/** Stops what the SDK still serves of `exchange`, if anything. */
function stopServing(exchange: Exchange): void {
  exchange.serving?.calls.abort();
  exchange.serving?.teardown.abort();
  exchange.serving = undefined;
}

/**
 * Ends `exchange` early (its timeout, the drain's deadline): answered `status` when nothing is sent
 * yet; when a streamed (SSE) answer has begun, its call is stopped and answers its aborted result in
 * the stream, which is closed if that takes longer than a moment.
 */
function abortExchange(exchange: Exchange, status: number, text: string): void {
  const { serving, response } = exchange;
  if (serving === undefined || !response.headersSent) {
    stopServing(exchange);
    if (!response.headersSent) sendJsonRpcError(response, status, -32001, text, idOf(exchange.message));
    return;
  }
  serving.calls.abort(new Error(text));
  setTimeout(() => serving.teardown.abort(), STREAM_CLOSE_GRACE_MS).unref();
}

/** A step's refusal: an HTTP status with a JSON-RPC error body, or the whole answer (an OAuth refusal). */
type Refusal = { status: number; code: number; message: string; headers?: Record<string, string> } | Response;

/** One check of the request chain: a refusal, or nothing to let the request go on. */
type Step = (exchange: Exchange) => Refusal | undefined | Promise<Refusal | undefined>;

/** The options with their defaults resolved once, as the steps and `serveEra` read them. */
interface Served extends ServeHttpOptions {
  orchestrator: ToolOrchestrator;
  auth: BearerAuth | undefined;
  allowLoopbackOrigins: boolean;
  allowedHosts: string[] | undefined;
  maxBodyBytes: number;
  onError: (error: Error) => void;
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
  const loopback = isLoopbackHost(host);
  if (options.auth === undefined && !loopback) {
    throw new TypeError(
      `toolsmith serves without auth only on loopback; '${host}' is reachable from other machines. ` +
        'Bind --host 127.0.0.1, or configure bearer-token auth (issuer, resource, jwks).',
    );
  }
  let auth = options.auth as BearerAuth | undefined;
  const metadataPaths = new Set(['/.well-known/oauth-protected-resource']);
  if (options.auth !== undefined && !('authenticate' in options.auth)) {
    auth = createBearerAuth(options.auth);
    metadataPaths.add(resourceMetadataPath(options.auth.resource));
  }
  // A request-state key under 32 bytes throws here, at start, rather than at the first request.
  if (options.requestStateKey !== undefined) requestStates(options.requestStateKey, options.taskStore);
  const onError = options.onError ?? (() => {});
  /** Reports a thrown value (of a request, of the task store's drain) to `onError`. */
  const report = (error: unknown) => onError(asError(error));
  const served: Served = {
    ...options,
    orchestrator,
    auth,
    allowLoopbackOrigins: auth === undefined && loopback,
    allowedHosts: options.allowedHosts?.slice() ?? (loopback ? localhostAllowedHostnames() : undefined),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    onError,
  };
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const steps = mcpSteps(served);
  const serveEra = eraServing(served);

  const inFlight = new Set<Exchange>();
  let draining = false;

  const handleMcp = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    // Tracked from the first byte, so a drain also waits for a request still being authenticated or read.
    const finished = new Promise<void>((resolve) => response.once('close', () => resolve()));
    const exchange: Exchange = { request, response, finished };
    inFlight.add(exchange);
    const timer = setTimeout(
      () => abortExchange(exchange, 504, `The request took longer than ${requestTimeoutMs} ms and was aborted.`),
      requestTimeoutMs,
    );
    response.once('close', () => {
      clearTimeout(timer);
      inFlight.delete(exchange);
      stopServing(exchange);
    });
    for (const step of steps) {
      const refusal = await step(exchange);
      if (refusal !== undefined) return sendStepRefusal(response, refusal, idOf(exchange.message));
      // Answered meanwhile (timeout, drain deadline) or the client went away: nothing to serve.
      if (response.writableEnded || response.destroyed) return;
    }
    if (draining) response.shouldKeepAlive = false;
    await serveEra(exchange);
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
    if (pathname === '/readyz') return sendReadiness(response, options.taskStore);
    if (auth !== undefined && metadataPaths.has(pathname)) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { error: 'Use GET.' });
      return sendJson(response, 200, auth.metadata());
    }
    if (pathname === '/mcp') return handleMcp(request, response);
    return sendJson(response, 404, { error: `Nothing at ${pathname}; MCP is served at /mcp.` });
  };

  const httpServer: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      report(error);
      if (!response.headersSent) sendJsonRpcError(response, 500, -32603, 'Internal error.');
      else response.destroy();
    });
  });

  // `once` rejects with the server's 'error' (a port taken) instead of waiting.
  await once(httpServer.listen(options.port ?? DEFAULT_PORT, host), 'listening');
  const port = (httpServer.address() as AddressInfo).port;

  // The first stop (`close()` or a signal) decides the reason; a later one joins the same drain.
  let stop!: (reason: ServeHttpResult['reason']) => void;
  const signals = options.handleSignals === false ? [] : (['SIGTERM', 'SIGINT'] as const);
  const done = new Promise<ServeHttpResult['reason']>((resolve) => (stop = resolve)).then(async (reason) => {
    draining = true;
    for (const signal of signals) process.off(signal, stop);
    const pending = [...inFlight];
    for (const entry of pending) if (!entry.response.headersSent) entry.response.shouldKeepAlive = false;
    httpServer.closeIdleConnections();
    await raceDeadline(Promise.all(pending.map((entry) => entry.finished)), drainTimeoutMs);
    const late = pending.filter((entry) => inFlight.has(entry));
    for (const entry of late) abortExchange(entry, 503, 'This server shut down before the request finished; retry it.');
    await Promise.all(late.map((entry) => entry.finished));
    httpServer.close();
    httpServer.closeAllConnections();
    await once(httpServer, 'close');
    // Tasks still running here get the drain's deadline too, then are marked failed with the reason.
    await options.taskStore
      ?.drain({ deadlineMs: drainTimeoutMs, reason: reason === 'closed' ? 'the server closed' : reason })
      .catch(report);
    const shutdown = await orchestrator.shutdown({ timeoutMs: options.shutdownTimeoutMs });
    return { reason, completed: pending.length - late.length, abandoned: late.length, shutdown };
  });
  for (const signal of signals) process.once(signal, stop);

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    host,
    port,
    close: () => {
      stop('closed');
      return done;
    },
    done,
  };
}

/**
 * The checks a request to /mcp passes, in order: DNS-rebinding protection (`origin`, `host`), POST
 * only (`method`), the bearer token (`authenticate`), the body limit (`body`), JSON (`json`), step-up scopes
 * (`scopes`) and routable `tools/call` params (`callParams`).
 */
function mcpSteps(served: Served): readonly Step[] {
  const { auth } = served;
  const origin: Step = ({ request }) => {
    const origin = request.headers.origin;
    // Matched whole (scheme, host and port) first: the SDK's check compares host names only, which
    // would let any port and scheme of an origin listed with --allowed-origin in.
    if (origin === undefined || served.allowedOrigins?.includes(origin)) return undefined;
    if (served.allowLoopbackOrigins && validateOriginHeader(origin, localhostAllowedOrigins()).ok) return undefined;
    return {
      status: 403,
      code: -32000,
      message: served.allowLoopbackOrigins
        ? `Origin '${origin}' is not allowed: only pages of this machine (localhost, 127.0.0.1, [::1]) ` +
          'may call a loopback server; allow another with --allowed-origin.'
        : `Origin '${origin}' is not allowed; allow it with --allowed-origin to call from that page.`,
    };
  };
  const host: Step = ({ request }) => {
    const host = validateHostHeader(request.headers.host, served.allowedHosts ?? []);
    if (host.ok || (host.errorCode === 'invalid_host' && served.allowedHosts === undefined)) return undefined;
    const shown = truncateText(request.headers.host ?? '', 200);
    return host.errorCode === 'invalid_host'
      ? { status: 403, code: -32000, message: `Host '${shown}' is not allowed (DNS-rebinding protection).` }
      : { status: 400, code: -32000, message: `Host '${shown}' is not a host name with an optional port (1-65535).` };
  };
  const method: Step = ({ request }) =>
    request.method === 'POST'
      ? undefined
      : {
          status: 405,
          code: -32000,
          message:
            'This server is stateless: send each JSON-RPC message as a POST to /mcp (no GET stream; a session id is never required).',
          headers: { Allow: 'POST' },
        };
  const authenticate: Step = async (exchange) => {
    const outcome = await auth!.authenticate(exchange.request.headers.authorization);
    if (!outcome.ok) return outcome.refusal;
    exchange.caller = outcome.caller;
    return undefined;
  };
  const body: Step = async (exchange) => {
    exchange.body = await readBody(exchange.request, served.maxBodyBytes);
    if (exchange.body !== undefined) return undefined;
    exchange.response.shouldKeepAlive = false;
    return { status: 413, code: -32000, message: `The request body is larger than ${served.maxBodyBytes} bytes.` };
  };
  const json: Step = (exchange) => {
    try {
      exchange.message = JSON.parse(exchange.body ?? '');
      return undefined;
    } catch {
      return { status: 400, code: -32700, message: 'Parse error: the body is not JSON.' };
    }
  };
  const scopes: Step = (exchange) => scopeRefusal(exchange, served);
  const callParams: Step = ({ message }) => {
    const { method, params } = (message ?? {}) as { method?: unknown; params?: unknown };
    if (method !== 'tools/call' || idOf(message) === null) return undefined;
    const problem = invalidCallParams(params);
    // A JSON-RPC error is an HTTP 200 answer to a delivered request.
    return problem === undefined ? undefined : { status: 200, code: -32602, message: problem };
  };
  return auth === undefined
    ? [origin, host, method, body, json, callParams]
    : [origin, host, method, authenticate, body, json, scopes, callParams];
}

/**
 * Serves a checked request in its era through the v2 SDK's `createMcpHandler`: 2026-07-28 on its
 * modern path (which answers `server/discover`, checks the `Mcp-Method`/`Mcp-Name` headers against
 * the body and answers an unsupported revision -32022), the 2025 handshake era on its stateless
 * fallback. Either way the SDK's factory builds the request's server from the request it is handed
 * (a `ServedRequest`: the caller's capabilities and persona), and a streamed answer whose result
 * comes first is sent as one JSON body (`sendWebResponse`).
 */
function eraServing(served: Served): (exchange: Exchange) => Promise<void> {
  const handler = createMcpHandler(
    ({ requestInfo }: McpRequestContext) => {
      if (!(requestInfo instanceof ServedRequest))
        throw new Error('toolsmith: a request reached the SDK without its server options.');
      return createMcpServer(served.orchestrator, requestInfo.serverOptions);
    },
    { onerror: served.onError, maxRequestBodySize: served.maxBodyBytes },
  );
  return async (exchange) => {
    const { request, response, message, caller } = exchange;
    // A client's answer to a question a call of this process asked it (2025 elicitation): to that call.
    const delivered = deliverClientAnswer(message);
    if (delivered !== undefined) {
      if (delivered.status === 202) return void response.writeHead(202).end();
      // Only an answer this process can tie to its question echoes its id.
      const id = delivered.status === 400 ? idOf(message) : null;
      return sendJsonRpcError(response, delivered.status, -32600, delivered.error, id);
    }
    if (response.writableEnded || response.destroyed) return;
    const serving: Serving = { calls: new AbortController(), teardown: new AbortController() };
    exchange.serving = serving;
    const { url, init } = webRequestInit(request, serving.teardown.signal);
    const options = serverOptions(served, caller, serving.calls.signal);
    const answer = await handler.fetch(new ServedRequest(url, init, options), { parsedBody: message });
    // A 2025 handshake answered: the client gets a session id to send back (Streamable HTTP). The
    // server keeps nothing for it, so any replica takes any request, with or without one.
    if (answer.ok && (message as { method?: unknown } | undefined)?.method === 'initialize')
      response.setHeader('Mcp-Session-Id', randomUUID());
    await sendWebResponse(response, answer, idOf(message));
    // Answered: the SDK tore the request's server down with its response; nothing is left to stop.
    exchange.serving = undefined;
  };
}

/**
 * A request to /mcp as the SDK's handler gets it. The SDK hands it to the factory, which builds the
 * request's server with the options it carries: those of its caller, with the signal that stops the
 * server's calls (the request's own signal tears the whole exchange down).
 */
class ServedRequest extends Request {
  constructor(
    url: string,
    init: RequestInit,
    readonly serverOptions: McpServerOptions,
  ) {
    super(url, init);
  }
}

/** The options of the server for one request of `caller`, whose calls `signal` stops. */
function serverOptions(served: Served, caller: AuthenticatedCaller | undefined, signal: AbortSignal): McpServerOptions {
  const personaId = served.personaId ?? 'mcp';
  // A caller without a token calls as the persona, and the list it is shown is everyone's.
  if (caller === undefined)
    return { ...served, signal, cacheScope: 'public', taskListing: false, persona: { personaId } };
  const { subject: userId, scopes, clientId, capabilities } = caller;
  // A caller told apart by its token: its list is its own, and so are its tasks, which it may list.
  return {
    ...served,
    signal,
    capabilities,
    cacheScope: 'private',
    taskListing: true,
    persona: { personaId, userContext: { userId, scopes, ...(clientId === undefined ? {} : { clientId }) } },
  };
}

/**
 * `/readyz`: 200 when this replica can serve calls, 503 (with the reason) while its task store does
 * not answer — a load balancer then sends calls elsewhere, while `/healthz` keeps the process alive.
 */
async function sendReadiness(response: ServerResponse, store: TaskStore | undefined): Promise<void> {
  try {
    await store?.check();
  } catch (error) {
    response.setHeader('Retry-After', '1');
    return sendJson(response, 503, { status: 'unavailable', error: (error as Error).message });
  }
  sendJson(response, 200, { status: 'ready' });
}

/**
 * A 403 asking for the scopes that would grant what a `tools/call` in the exchange's message needs,
 * when its authenticated caller lacks a capability the scope table can grant (MCP's step-up
 * authorization). A capability no scope grants is left to the orchestrator, which answers
 * PERMISSION_DENIED.
 */
function scopeRefusal({ message, caller }: Exchange, { auth, orchestrator }: Served): Response | undefined {
  if (caller === undefined || auth === undefined) return undefined;
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

async function sendStepRefusal(response: ServerResponse, refusal: Refusal, id: string | number | null): Promise<void> {
  if (refusal instanceof Response) return sendWebResponse(response, refusal, id);
  for (const [name, value] of Object.entries(refusal.headers ?? {})) response.setHeader(name, value);
  // Before the json step there is no message: the id is whatever could be read (else null).
  sendJsonRpcError(response, refusal.status, refusal.code, refusal.message, id);
}
