import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJSONRPCErrorResponse, isJSONRPCResultResponse } from '@modelcontextprotocol/server';

/*
 * The wire side of the MCP HTTP server (./http.ts): reading a request (its body up to a limit, its
 * path, its JSON-RPC id), handing it to the SDK as a web `Request`, and writing
 * answers — plain JSON, JSON-RPC errors, and the SDK's web `Response` (a stream whose first message
 * is the answer is sent as that one JSON body).
 */

/**
 * The URL and init of `request` as a web `Request` for the SDK, without its body: the SDK is handed
 * the parsed message (`parsedBody`) and never reads one. Why: a body makes undici build a stream per
 * request, ~5 % of a 2026-07-28 call over HTTP (P8b: bench/README.md).
 */
export function webRequestInit(request: IncomingMessage, signal: AbortSignal): { url: string; init: RequestInit } {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return {
    url: `http://${request.headers.host ?? 'localhost'}${request.url ?? '/mcp'}`,
    init: { method: request.method ?? 'POST', headers, signal },
  };
}

/**
 * Writes the SDK's answer. A stream (SSE) whose first message is the answer to request `id` is sent
 * as that one JSON body (as a 2026-07-28 'auto' exchange is); a stream that begins with anything else
 * (a progress or log notification, a request to the client) is sent as the stream it is.
 */
export async function sendWebResponse(
  response: ServerResponse,
  answer: Response,
  id: string | number | null,
): Promise<void> {
  if (response.writableEnded || response.destroyed) return;
  const headers: Record<string, string> = Object.fromEntries(answer.headers);
  if (answer.body === null) return void response.writeHead(answer.status, headers).end();
  if (!(headers['content-type'] ?? '').startsWith('text/event-stream')) {
    // One JSON body: sent in one write, with its length.
    const body = Buffer.from(await answer.arrayBuffer());
    headers['content-length'] = String(body.length);
    if (!response.writableEnded && !response.destroyed) response.writeHead(answer.status, headers).end(body);
    return;
  }
  const reader = answer.body.getReader();
  const decoder = new TextDecoder();
  let head = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (response.writableEnded || response.destroyed) {
      await reader.cancel().catch(() => {});
      return;
    }
    if (done) return void response.writeHead(answer.status, headers).end(head);
    head += decoder.decode(value, { stream: true });
    const first = firstSseData(head);
    if (first === undefined) continue;
    const message = parseJson(first);
    if (isAnswerTo(message, id)) {
      await reader.cancel().catch(() => {});
      return sendJson(response, answer.status, message);
    }
    response.writeHead(answer.status, headers).write(head);
    break;
  }
  for (let next = await reader.read(); !next.done && !response.destroyed; next = await reader.read())
    response.write(next.value);
  response.end();
}

/** The data of the first complete SSE event in `text` that carries any, or `undefined` while none has arrived. */
function firstSseData(text: string): string | undefined {
  for (const event of text.split(/\r?\n\r?\n/).slice(0, -1)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''));
    if (data.length > 0) return data.join('\n');
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** True for a JSON-RPC response (result or error) to the request `id`. */
function isAnswerTo(message: unknown, id: string | number | null): boolean {
  return id !== null && (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id === id;
}

/** Reads the body as text, or `undefined` when it is over `limit` bytes (declared or sent). */
export function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
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

/** The path of a request's URL, without its query. */
export function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?', 1)[0]!;
}

/** The JSON-RPC id of `message` (a string or number), else `null`, as an error answer echoes it. */
export function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Answers `status` with `body` as one JSON document, its length given. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

/** Answers `status` with a JSON-RPC error object of `code` and `message` for request `id`. */
export function sendJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): void {
  sendJson(response, status, { jsonrpc: '2.0', error: { code, message }, id });
}
