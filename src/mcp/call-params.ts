import { truncateText } from '../errors.js';
import { isObject } from '../schema/walk.js';

/*
 * The check of a `tools/call` request's params that every transport of the MCP server runs before
 * the SDK sees the request (the stdio reader and `GuardedTransport` in ./stdio-transport.ts, the
 * HTTP server's `call-params` step in ./http.ts): the SDK's own schema check answers -32603 with a
 * dump of its validator's errors, where a caller needs -32602 and a sentence saying what is wrong.
 */

/** What a JSON value is, for a message: `null`, `an array`, `an object`, `a string`… */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** What is wrong with a `tools/call` request's params, or `undefined` when they can be routed. */
export function invalidCallParams(params: unknown): string | undefined {
  if (!isObject(params)) return `tools/call needs params { name, arguments }; got ${kindOf(params)}.`;
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || name === '')
    return `tools/call needs params.name, the tool's name as a non-empty string; got ${name === '' ? 'an empty string' : kindOf(name)}.`;
  if (args !== undefined && !isObject(args))
    return `tools/call params.arguments must be an object (the tool's input); got ${kindOf(args)} for tool '${truncateText(name)}'.`;
  return undefined;
}
