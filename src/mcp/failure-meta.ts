/**
 * A failed call's structured failure, for the `_meta` of its MCP `isError` result: toolsmith's own
 * entry, and optionally the draft SEP-3313 one. In `_meta`, never `structuredContent`: a client
 * checks `structuredContent` against the tool's output schema, and widening that schema to admit
 * failures would change every successful result's contract.
 */
import type { ToolErrorCode } from '../errors.js';
import type { ToolCallResult } from '../pipeline/types.js';

/** toolsmith's `_meta` key of a failed call's structured failure. */
export const FAILURE_META_KEY = 'dev.toolsmith/failure';

/** The `_meta` key of the draft SEP-3313 failure (modelcontextprotocol/modelcontextprotocol#3313). */
export const SEP_3313_META_KEY = 'io.modelcontextprotocol/toolFailure';

/** How a server answers a failure's `_meta`. */
export interface FailureMetaOptions {
  /** The call's correlation id (what the server's logs and hooks know it by). */
  correlationId: string;
  /** Also answer the draft SEP-3313 entry. */
  draft: boolean;
}

/** toolsmith's structured failure: a declared failure's code and data, else the runtime's code. */
export interface FailureMeta {
  /** The declared code (`RATE_LIMITED`) of a declared failure, else the runtime's (`TIMEOUT`, …). */
  code: string;
  /** Trying the same call again later may succeed (a declared failure's `retryable`). */
  retryable: boolean;
  /** A declared failure's data, checked against its schema. */
  data?: unknown;
  correlationId: string;
}

/** The draft's classes: the caller may not, the tool could not this time, or the tool cannot. */
type FailureClass = 'governance' | 'reliability' | 'capability';

/** Runtime codes by the draft's class (any other is `capability`: the call as made cannot succeed). */
const CLASSES: Partial<Record<ToolErrorCode, FailureClass>> = {
  PERMISSION_DENIED: 'governance',
  TOOL_DISABLED: 'governance',
  REFUSED: 'governance',
  BUDGET_EXCEEDED: 'governance',
  APPROVAL_REJECTED: 'governance',
  APPROVAL_UNAVAILABLE: 'governance',
  APPROVAL_FAILED: 'governance',
  TIMEOUT: 'reliability',
  QUEUE_FULL: 'reliability',
  SHUTTING_DOWN: 'reliability',
  TOOL_ERROR: 'reliability',
};

/** The `_meta` of a failed call's result. */
export function failureMetaOf(result: ToolCallResult, options: FailureMetaOptions): Record<string, unknown> {
  const error = result.errorDetails;
  const declared = error?.failure;
  const entry: FailureMeta = {
    code: declared?.code ?? error?.code ?? 'TOOL_ERROR',
    retryable: declared?.retryable ?? false,
    correlationId: options.correlationId,
  };
  if (declared?.data !== undefined) entry.data = declared.data;
  const meta: Record<string, unknown> = { [FAILURE_META_KEY]: entry };
  if (options.draft)
    meta[SEP_3313_META_KEY] = {
      class:
        declared === undefined
          ? (CLASSES[error?.code ?? 'TOOL_ERROR'] ?? 'capability')
          : declared.retryable
            ? 'reliability'
            : 'capability',
      code: entry.code,
      retryable: entry.retryable,
      correlationId: options.correlationId,
      ...(declared === undefined ? {} : { agentGuidance: declared.description }),
    };
  return meta;
}
