import { describeThrown, type ToolErrorCode } from '../errors.js';

/** A failure with one of the codes its tool declares, as the call's `errorDetails.failure` carries it. */
export interface DeclaredFailureDetails {
  /** The declared code (`RATE_LIMITED`). */
  code: string;
  /** The error's declared description: when it happens and what a caller (or the model) can do. */
  description: string;
  /** The error's data, checked against its declared `data` schema; absent when the error has none. */
  data?: unknown;
  /** Trying again may succeed: the result's own `retryable`, else the error's declared one. */
  retryable: boolean;
}

/** Why a call failed, before it becomes a result: a code, a message and optional details. */
export class ToolCallFailure {
  constructor(
    readonly code: ToolErrorCode,
    readonly message: string,
    readonly details?: Record<string, unknown>,
    /** What was thrown, if anything (for hooks: never copied into a result). */
    readonly error?: unknown,
    /** For `TOOL_FAILED`: the declared error the tool failed with, checked. */
    readonly declared?: DeclaredFailureDetails,
  ) {}
}

/** A failure for something thrown: `message`, then what was thrown (the error itself kept for hooks). */
export function thrownFailure(code: ToolErrorCode, message: string, error: unknown): ToolCallFailure {
  return new ToolCallFailure(code, `${message}: ${describeThrown(error)}`, undefined, error);
}

/** Copies a tool's failure details without a `stack` entry: stack traces never reach a result. */
export function withoutStack(details: Record<string, any> | undefined): Record<string, any> | undefined {
  if (details === null || typeof details !== 'object' || !('stack' in details)) return details ?? undefined;
  const { stack: _stack, ...rest } = details;
  return rest;
}
