import type { ToolErrorCode } from '../errors.js';

/** Why a call failed, before it becomes a result: a code, a message and optional details. */
export class ToolCallFailure {
  constructor(
    readonly code: ToolErrorCode,
    readonly message: string,
    readonly details?: Record<string, unknown>,
    /** What was thrown, if anything (for hooks: never copied into a result). */
    readonly error?: unknown,
  ) {}
}

/** Copies a tool's failure details without a `stack` entry: stack traces never reach a result. */
export function withoutStack(details: Record<string, any> | undefined): Record<string, any> | undefined {
  if (details === null || typeof details !== 'object' || !('stack' in details)) return details ?? undefined;
  const { stack: _stack, ...rest } = details;
  return rest;
}
