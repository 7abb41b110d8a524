/**
 * Every error code toolsmith answers with, in the order the orchestrator checks them (see
 * `ToolOrchestrator.processToolCall`), followed by the codes of the calls around it.
 */
export const TOOL_ERROR_CODES = Object.freeze([
  'SHUTTING_DOWN',
  'INVALID_REQUEST',
  'TOOL_NOT_FOUND',
  'ABORTED',
  'REFUSED',
  'PERMISSION_DENIED',
  'TOOL_DISABLED',
  'BUDGET_EXCEEDED',
  'SCHEMA_INVALID',
  'INVALID_ARGUMENTS',
  'APPROVAL_UNAVAILABLE',
  'APPROVAL_REJECTED',
  'APPROVAL_FAILED',
  'QUEUE_FULL',
  'TIMEOUT',
  'TOOL_FAILED',
  'TOOL_ERROR',
  'STEP_FAILED',
  'OUTPUT_INVALID',
  'ALREADY_REGISTERED',
  'INVALID_TOOL',
] as const);

/**
 * A stable error code. Call failures carry one in `errorDetails.code`; programmer mistakes
 * (`ALREADY_REGISTERED`, `INVALID_TOOL`, a schema that does not compile when compiled directly)
 * throw a `ToolsmithError` with one.
 */
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/**
 * The one error class of toolsmith: a message plus a stable `code` and optional `details`.
 * Runtime call failures are data on the call's result, not exceptions; this class is thrown only
 * for programmer mistakes such as registering a second tool under a taken name.
 */
export class ToolsmithError extends Error {
  readonly code: ToolErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ToolErrorCode, message: string, options?: { details?: Record<string, unknown>; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolsmithError';
    this.code = code;
    if (options?.details !== undefined) this.details = options.details;
  }
}

/** True for a `ToolsmithError` (also one from another copy of the package, recognized by shape). */
export function isToolsmithError(value: unknown): value is ToolsmithError {
  return (
    value instanceof ToolsmithError ||
    (value instanceof Error && value.name === 'ToolsmithError' && typeof (value as { code?: unknown }).code === 'string')
  );
}

/** Longest text toolsmith echoes back in a message (names, error texts, parse errors). */
export const MAX_ECHO_LENGTH = 200;

/**
 * Shortens text a message echoes back (a tool name, a thrown message, a parse error) so a call
 * with megabytes of input never gets megabytes back.
 */
export function truncateText(text: string, max: number = MAX_ECHO_LENGTH): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The message of a thrown value, whatever was thrown, truncated. */
export function describeThrown(error: unknown, max: number = 1000): string {
  let text: string;
  if (error instanceof Error) text = error.message || error.name;
  else if (typeof error === 'string') text = error;
  else {
    try {
      text = String(error);
    } catch {
      text = 'unprintable value';
    }
  }
  return truncateText(text, max);
}
