import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  isSpecType,
  ProtocolErrorCode as ErrorCode,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { asError, describeThrown, truncateText } from '../errors.js';
import { isObject } from '../schema/walk.js';
import { invalidCallParams, kindOf } from './call-params.js';
import { WrappingTransport } from './wrapping-transport.js';

/*
 * Transports for the MCP server that answer what the SDK's own leave unanswered or get wrong:
 * - `StdioJsonRpcTransport` reads newline-delimited JSON-RPC from a stream as the SDK's
 *   `StdioServerTransport` does, but answers a line that is not JSON with -32700 (Parse error), a
 *   JSON value that is not a JSON-RPC message with -32600 (Invalid Request), a request whose params
 *   are not an object with -32602 (Invalid params), and a line longer than its limit with -32600 —
 *   and keeps serving (the SDK's reader drops the first two silently, and
 *   closes the connection on the third: the server then exits while its client waits).
 * - `GuardedTransport` wraps any transport: a `tools/call` whose params are not an object, or have
 *   no tool name, or non-object `arguments`, is answered -32602 (Invalid params) with a message
 *   saying what is wrong (the SDK answers -32603 with a dump of its schema errors).
 */

/** Default longest JSON-RPC message `StdioJsonRpcTransport` reads: the SDK's stdio transport's (10 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** How many bytes of an oversize line are kept at each end to find its request id. */
const KEPT_BYTES = 512;

type RequestId = string | number;

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** A JSON-RPC error response (an undefined `data` is left out when it is serialized). */
function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message, data } } as unknown as JSONRPCMessage;
}

/**
 * The id of an oversize request, read from the bytes kept of its line: a request written as
 * `{"jsonrpc":"2.0","id":7,…` or ending `…,"id":7}` (the SDK's client writes the id last).
 * `null` when neither end names one.
 */
function idOfOversizeLine(head: string, tail: string): RequestId | null {
  const value = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
  const found =
    new RegExp(String.raw`^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${value}`).exec(head) ??
    new RegExp(String.raw`,\s*"id"\s*:\s*${value}\s*\}\s*$`).exec(tail);
  if (found === null) return null;
  try {
    const id: unknown = JSON.parse(found[1]!);
    return isRequestId(id) ? id : null;
  } catch {
    return null;
  }
}

/** A readable stream as the transport needs it (the process's stdin, a socket, a PassThrough). */
export type MessageInput = NodeJS.ReadableStream & { pause(): unknown; listenerCount(event: string): number };

/** Options of `StdioJsonRpcTransport`. */
export interface StdioJsonRpcTransportOptions {
  /**
   * Longest JSON-RPC message read, in bytes (default `DEFAULT_MAX_MESSAGE_BYTES`, 10 MiB, as the SDK's
   * stdio transport). A longer line is answered with a -32600 error (naming its request id when it
   * can be found) and skipped; the server keeps serving.
   */
  maxMessageBytes?: number;
}

/**
 * An MCP server transport over a pair of streams carrying newline-delimited JSON-RPC (the stdio
 * transport of the MCP spec), that answers every line: a message goes to the server; anything
 * else gets the JSON-RPC error the spec names, and the connection stays open.
 */
export class StdioJsonRpcTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  readonly maxMessageBytes: number;
  #pieces: Buffer[] = [];
  #size = 0;
  /** Set while skipping an oversize line: its first bytes, its last bytes and its length so far. */
  #oversize: { head: Buffer; tail: Buffer; size: number } | undefined = undefined;
  #started = false;
  #closed = false;

  constructor(
    private readonly input: MessageInput,
    private readonly output: NodeJS.WritableStream,
    options: StdioJsonRpcTransportOptions = {},
  ) {
    const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!(Number.isSafeInteger(limit) && limit > 0))
      throw new RangeError(`maxMessageBytes must be a positive integer; got ${String(limit)}.`);
    this.maxMessageBytes = limit;
  }

  readonly #onData = (chunk: Buffer | string): void => {
    try {
      this.#read(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    } catch (error) {
      this.onerror?.(new Error(`Could not read a message: ${describeThrown(error)}`));
    }
  };

  readonly #onError = (error: Error): void => this.onerror?.(error);

  async start(): Promise<void> {
    if (this.#started) throw new Error('StdioJsonRpcTransport already started.');
    this.#started = true;
    this.input.on('data', this.#onData);
    this.input.on('error', this.#onError);
  }

  /** Splits `chunk` at newlines (a UTF-8 multi-byte sequence never contains 0x0A) into messages. */
  #read(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (end > start) this.#append(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  #append(part: Buffer): void {
    const oversize = this.#oversize;
    if (oversize !== undefined) {
      oversize.size += part.length;
      oversize.tail = Buffer.from(Buffer.concat([oversize.tail, part.subarray(-KEPT_BYTES)]).subarray(-KEPT_BYTES));
      return;
    }
    this.#pieces.push(part);
    this.#size += part.length;
    if (this.#size > this.maxMessageBytes) {
      const line = Buffer.concat(this.#pieces);
      // Copies, so the skipped bytes are not kept alive.
      this.#oversize = {
        head: Buffer.from(line.subarray(0, KEPT_BYTES)),
        tail: Buffer.from(line.subarray(-KEPT_BYTES)),
        size: line.length,
      };
      this.#pieces = [];
      this.#size = 0;
    }
  }

  #endLine(): void {
    const oversize = this.#oversize;
    if (oversize !== undefined) {
      this.#oversize = undefined;
      const id = idOfOversizeLine(oversize.head.toString('utf8'), oversize.tail.toString('utf8'));
      this.#reply(
        id,
        ErrorCode.InvalidRequest,
        `Invalid Request: the message is ${oversize.size} bytes, more than this server's limit of ${this.maxMessageBytes} ` +
          'bytes (the maxMessageBytes option, `toolsmith serve --max-message-bytes`); it was not read.',
        { size: oversize.size, limit: this.maxMessageBytes },
      );
      return;
    }
    const pieces = this.#pieces;
    const line = (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)).toString('utf8');
    this.#pieces = [];
    this.#size = 0;
    this.#handleLine(line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line);
  }

  #handleLine(line: string): void {
    if (line.trim() === '') return; // an empty line
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#reply(
        null,
        ErrorCode.ParseError,
        `Parse error: ${describeThrown(error, 200)}. Send one JSON-RPC message per line.`,
      );
      return;
    }
    if (isSpecType.JSONRPCMessage(value)) {
      this.onmessage?.(value as JSONRPCMessage);
      return;
    }
    const record = isObject(value) ? value : undefined;
    // A broken response (to a request of the server's) is reported, not answered: answering it could start a loop.
    if (record !== undefined && ('result' in record || 'error' in record) && !('method' in record)) {
      this.onerror?.(new Error(`Ignored an invalid JSON-RPC response: ${truncateText(line)}`));
      return;
    }
    const id = record !== undefined && 'method' in record && isRequestId(record.id) ? record.id : null;
    // A request whose params are not an object (an array: by position) is a request MCP cannot read:
    // Invalid params, as the HTTP server and the SDK answer it, not Invalid Request.
    const { jsonrpc, method, params } = record ?? {};
    if (id !== null && jsonrpc === '2.0' && typeof method === 'string' && params !== undefined && !isObject(params)) {
      const problem =
        method === 'tools/call'
          ? invalidCallParams(params)!
          : `${truncateText(method)} needs params as an object (MCP has no by-position params); got ${kindOf(params)}.`;
      this.#reply(id, ErrorCode.InvalidParams, problem);
      return;
    }
    const what =
      record === undefined
        ? Array.isArray(value)
          ? 'an array (MCP has no batches)'
          : kindOf(value)
        : record.jsonrpc !== '2.0'
          ? 'an object without "jsonrpc": "2.0"'
          : typeof record.method !== 'string'
            ? 'an object with neither a "method" (a request or notification) nor a "result" or "error" (a response)'
            : 'a request whose id is neither a string nor an integer';
    this.#reply(
      id,
      ErrorCode.InvalidRequest,
      `Invalid Request: a JSON-RPC 2.0 message is an object with "jsonrpc": "2.0" and a "method", "result" or "error"; got ${what}.`,
    );
  }

  /** Answers a line the server never sees with a JSON-RPC error (a write that fails goes to `onerror`). */
  #reply(id: RequestId | null, code: number, message: string, data?: unknown): void {
    this.send(errorResponse(id, code, message, data)).catch((error: unknown) =>
      this.onerror?.(new Error(`Could not answer: ${describeThrown(error)}`)),
    );
  }

  /**
   * Writes one message as a line; a result that cannot be serialized (a BigInt, a cycle) is answered
   * -32603 for its id instead, where the SDK's transport rejects the send and its client waits on.
   */
  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    let json: string;
    try {
      json = `${JSON.stringify(message)}\n`;
    } catch (error) {
      const id = (message as { id?: unknown }).id;
      if (!isRequestId(id) || 'method' in message) return Promise.reject(asError(error));
      const reason = `Internal error: the answer could not be serialized (${describeThrown(error, 200)}).`;
      json = `${JSON.stringify(errorResponse(id, ErrorCode.InternalError, reason))}\n`;
    }
    // A write that throws rejects the promise (its executor's throw).
    return new Promise((resolve) => {
      if (this.#closed) return resolve();
      if (this.output.write(json)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.input.off('data', this.#onData);
    this.input.off('error', this.#onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.#pieces = [];
    this.#oversize = undefined;
    this.onclose?.();
  }
}

/**
 * Wraps a transport for toolsmith's MCP server: invalid `tools/call` params are answered -32602
 * here, before the SDK's schema check, which answers -32603.
 */
export class GuardedTransport extends WrappingTransport {
  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const request = message as { method?: unknown; id?: unknown; params?: unknown };
    if (request.method === 'tools/call' && isRequestId(request.id)) {
      const problem = invalidCallParams(request.params);
      if (problem !== undefined) {
        this.inner
          .send(errorResponse(request.id, ErrorCode.InvalidParams, problem))
          .catch((error: unknown) => this.onerror?.(asError(error)));
        return;
      }
    }
    this.onmessage?.(message, extra);
  }
}
