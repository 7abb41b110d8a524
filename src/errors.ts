import { CALL_STEP_ORDER, type CallStepCode } from './call-order.js';

/** Codes thrown by registration (programmer mistakes), never answered by a call. */
const REGISTRATION_CODES = ['ALREADY_REGISTERED', 'INVALID_TOOL'] as const;

/**
 * A stable error code. Call failures carry one in `errorDetails.code`; programmer mistakes
 * (`ALREADY_REGISTERED`, `INVALID_TOOL`, a schema that does not compile when compiled directly)
 * throw a `ToolsmithError` with one.
 */
export type ToolErrorCode = CallStepCode | (typeof REGISTRATION_CODES)[number];

/**
 * Every error code toolsmith answers with, in the order of the call's steps (each code at the first
 * step that answers it; the steps are `CALL_STEP_ORDER` in src/call-order.ts), followed by
 * the codes of registration. Derived, so a new step's codes take their place here by themselves.
 */
export const TOOL_ERROR_CODES: readonly ToolErrorCode[] = Object.freeze([
  ...new Set<ToolErrorCode>([...CALL_STEP_ORDER.flatMap(([, codes]) => codes), ...REGISTRATION_CODES]),
]);

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

/** True for a `ToolsmithError` (also one from another copy of the package, recognized by shape); false for anything that cannot be inspected. */
export function isToolsmithError(value: unknown): value is ToolsmithError {
  try {
    return (
      value instanceof ToolsmithError ||
      (value instanceof Error &&
        value.name === 'ToolsmithError' &&
        typeof (value as { code?: unknown }).code === 'string')
    );
  } catch {
    return false; // a Proxy whose traps throw, a revoked Proxy, a throwing getter
  }
}

/** Longest text toolsmith echoes back in a message (names, error texts, parse errors). */
const MAX_ECHO_LENGTH = 200;

/**
 * Shortens text a message echoes back (a tool name, a thrown message, a parse error) so a call
 * with megabytes of input never gets megabytes back.
 */
export function truncateText(text: string, max: number = MAX_ECHO_LENGTH): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * The message of a thrown value, whatever was thrown, truncated. Total: it never throws, whatever
 * the value does (a Proxy whose every trap throws, a revoked Proxy, an `Error` whose `message`
 * getter throws, a `toString` or `Symbol.toPrimitive` that throws or answers a non-string), so it
 * is safe to call on any foreign value, also after a call has been answered.
 */
export function describeThrown(error: unknown, max: number = 1000): string {
  try {
    return truncateText(readDescription(error), max);
  } catch {
    // Only an object's `String()` runs code that may throw (a `toString`, a Proxy trap).
    return 'unprintable value';
  }
}

/** A thrown value as an `Error`: itself when it is one, else an `Error` saying what it is (`describeThrown`). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(describeThrown(error));
}

/** An `Error`'s message (else its name), anything else as `String()` makes it; throws what `String()` throws. */
function readDescription(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      if (typeof message === 'string' && message !== '') return message;
      const name: unknown = error.name;
      if (typeof name === 'string' && name !== '') return name;
    }
  } catch {
    // a throwing getter or Proxy trap: fall back to String()
  }
  return String(error);
}
