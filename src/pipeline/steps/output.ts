import { describeThrown } from '../../errors.js';
import { copyJsonValue } from '../../validation.js';
import { endCall, failWith } from '../call.js';
import { ToolCallFailure } from '../failure.js';
import type { RegisteredTool } from '../registered-tool.js';
import type { CallStepImplementation } from '../step.js';
import { unreadableResult } from './execute.js';

/** `OUTPUT_INVALID`: the output checked against the output schema, on a copy (coerced only where needed). */
export const outputStep: CallStepImplementation = {
  run(call) {
    let checked: CheckedOutput | ToolCallFailure;
    try {
      checked = checkOutput(call.entry!, call.toolResult!.output);
    } catch (error) {
      return unreadableResult(call, error);
    }
    if (checked instanceof ToolCallFailure) return failWith(call, checked);
    call.output = checked.output;
  },
};

/** The call succeeded: the host answers it with the checked output. */
export const resultStep: CallStepImplementation = {
  run(call) {
    endCall(call);
  },
};

/** What `checkOutput` answers when the output is valid: the coerced copy. */
export interface CheckedOutput {
  readonly output: unknown;
}

/**
 * Checks a successful execute's output against the output schema, on a copy, and answers the
 * coerced copy; `OUTPUT_INVALID` when it fails or the schema does not compile.
 */
export function checkOutput(entry: RegisteredTool, output: unknown): CheckedOutput | ToolCallFailure {
  const validator = entry.output;
  if (validator === undefined) return { output };
  if (validator.validateFunction === undefined) {
    return new ToolCallFailure(
      'OUTPUT_INVALID',
      `Tool '${entry.name}' has an output schema that does not compile (${validator.schemaError}).`,
      {
        schemaError: validator.schemaError,
      },
    );
  }
  let copy: unknown;
  try {
    copy = copyJsonValue(output);
  } catch (error) {
    return new ToolCallFailure(
      'OUTPUT_INVALID',
      `Tool '${entry.name}' produced output that is not JSON data: ${describeThrown(error)}`,
    );
  }
  const errors = validator.check(copy);
  if (errors === undefined) return { output: copy };
  const shown = errors
    .slice(0, 3)
    .map((error) => error.message)
    .join('; ');
  return new ToolCallFailure(
    'OUTPUT_INVALID',
    `Tool '${entry.name}' produced output that fails its output schema: ${shown}.`,
    { errors },
  );
}
