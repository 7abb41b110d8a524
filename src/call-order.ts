/**
 * The steps of one tool call, in the order they run, each with the error codes it can end a call
 * with (a code is listed at the first step that answers it). The one place the order is written:
 * `pipeline/driver.ts` runs the step implementations in this order (the compiler asks for one per
 * name), and `TOOL_ERROR_CODES` in `src/errors.ts` lists the codes in this order. It imports
 * nothing, so `errors.ts` can read it without an import cycle.
 */
export const CALL_STEP_ORDER = [
  ['shutdown', ['SHUTTING_DOWN']],
  ['request', ['INVALID_REQUEST']],
  ['lookup', ['TOOL_NOT_FOUND', 'COMPOSITION_TOO_DEEP']],
  ['deadline', ['TIMEOUT', 'TOOL_ERROR']],
  ['signal', ['ABORTED']],
  ['refusal', ['REFUSED', 'TOOL_ERROR']],
  ['permissions', ['PERMISSION_DENIED', 'TOOL_DISABLED']],
  ['budget', ['BUDGET_EXCEEDED']],
  ['arguments', ['SCHEMA_INVALID', 'INVALID_ARGUMENTS', 'TOOL_ERROR']],
  ['approval', ['APPROVAL_UNAVAILABLE', 'APPROVAL_REJECTED', 'APPROVAL_FAILED']],
  ['slot', ['QUEUE_FULL']],
  ['execute', ['TOOL_ERROR', 'TOOL_FAILED', 'STEP_FAILED', 'COMPOSITION_TOO_DEEP', 'OUTPUT_INVALID']],
  ['output', ['OUTPUT_INVALID']],
] as const;

/** The name of a call step. */
export type CallStepName = (typeof CALL_STEP_ORDER)[number][0];

/** An error code some call step answers. */
export type CallStepCode = (typeof CALL_STEP_ORDER)[number][1][number];
