import { randomUUID } from 'node:crypto';
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  ProtocolErrorCode,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { WrappingTransport } from './wrapping-transport.js';

/*
 * A request the server sends the client in the middle of a call (elicitation/create on the 2025
 * era) is answered by the client in a POST of its own. On stateless HTTP that POST gets a server
 * instance of its own too, which knows nothing of the request: so the instance that asked sends its
 * request under an id unique to this process, and the POST carrying the answer is routed back to it
 * (`deliverClientAnswer`). A replica answers only what it asked: behind a load balancer, a 2025
 * client that elicits needs the answer to reach the same replica (2026-07-28 clients answer inside
 * the retried call instead, which any replica can take).
 */

/** Where the answer to each request sent by a `ClientRequestRouter` in this process goes. */
const PENDING = new Map<string, (message: JSONRPCMessage) => void>();
const ID_PREFIX = 'toolsmith-';

/** What an answer that is no JSON-RPC result or error is told, and the call that waited for it. */
const INVALID_ANSWER =
  "The client's answer is not a JSON-RPC response: its result must be an object (an ElicitResult, a CreateMessageResult), or it must be an error.";

/** What an answer no call of this process waits for is told. */
const NOT_WAITING =
  'No call on this server is waiting for this answer: it finished, or the question came from another replica ' +
  '(a 2025 client that elicits needs its answers to reach the replica that asked).';

/**
 * Routes `message`, when it is a JSON-RPC response to a request toolsmith sent (its id has
 * toolsmith's prefix), to the server instance whose request it answers, and says how the POST that
 * carried it is answered: 202 when delivered, 404 when no instance of this process is waiting for
 * it. An answer that is no JSON-RPC result or error (a `result` that is a string or `null`) is 400:
 * the waiting request is failed at once with an error saying so, rather than left to wait for its
 * timeout. Any other message is not an answer: `undefined`.
 */
export function deliverClientAnswer(
  message: unknown,
): { status: 202 } | { status: 400 | 404; error: string } | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message) || 'method' in message) return;
  const { id } = message as { id?: unknown };
  if (typeof id !== 'string' || !id.startsWith(ID_PREFIX)) return;
  const deliver = PENDING.get(id);
  if (deliver === undefined) return { status: 404, error: NOT_WAITING };
  PENDING.delete(id);
  if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
    deliver(message);
    return { status: 202 };
  }
  deliver({ jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InvalidParams, message: INVALID_ANSWER } });
  return { status: 400, error: INVALID_ANSWER };
}

/** Wraps a per-request HTTP transport so its server's requests to the client can be answered by a later POST. */
export class ClientRequestRouter extends WrappingTransport {
  private readonly mine = new Set<string>();

  protected override closed(): void {
    for (const id of this.mine) PENDING.delete(id);
    this.mine.clear();
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const record = message as { method?: unknown; id?: unknown };
    if (typeof record.method !== 'string' || record.id === undefined) return this.inner.send(message, options);
    const original = record.id;
    const routed = `${ID_PREFIX}${randomUUID()}`;
    this.mine.add(routed);
    PENDING.set(routed, (answer) => {
      this.mine.delete(routed);
      this.onmessage?.({ ...answer, id: original } as JSONRPCMessage);
    });
    return this.inner.send({ ...message, id: routed } as JSONRPCMessage, options);
  }
}
