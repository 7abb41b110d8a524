import { findContentProblem } from '../../caller/content.js';
import { describeThrown } from '../../errors.js';
import { copyJsonValue } from '../../schema/validation.js';
import { endCall, failWith, type PipelineCall, type CallStepImplementation } from '../call.js';
import { ToolCallFailure } from '../failure.js';
import type { RegisteredTool } from '../registered-tool.js';
import { unreadableResult } from './execute.js';

/**
 * `OUTPUT_INVALID`: the output checked against the output schema, on a copy (coerced only where
 * needed), then the result's content blocks, if any (shape, base64, size, declared kinds); a valid
 * one is the call's answer.
 */
export const outputStep: CallStepImplementation = {
  run(call) {
    let failure: ToolCallFailure | undefined;
    try {
      failure = checkOutput(call, call.entry!, call.toolResult!.output);
    } catch (error) {
      return unreadableResult(call, error);
    }
    if (failure !== undefined) return failWith(call, failure);
    const content = call.toolResult!.content;
    if (content !== undefined) {
      const problem = findContentProblem(content, call.host.maxContentBytes, call.entry!.tool.contentTypes);
      if (problem !== undefined) {
        return failWith(
          call,
          new ToolCallFailure('OUTPUT_INVALID', `Tool '${call.toolName}' answered invalid content: ${problem}.`),
        );
      }
      call.content = content;
    }
    endCall(call);
  },
};

/**
 * Checks a successful execute's output against the output schema, on a copy, and sets the coerced
 * copy as the call's output; answers `OUTPUT_INVALID` when it fails or the schema does not compile.
 */
function checkOutput(call: PipelineCall, entry: RegisteredTool, output: unknown): ToolCallFailure | undefined {
  const validator = entry.output;
  if (validator === undefined) {
    call.output = output;
    return undefined;
  }
  if (validator.validateFunction === undefined) {
    return new ToolCallFailure(
      'OUTPUT_INVALID',
      `Tool '${entry.name}' has an output schema that does not compile (${validator.schemaError}).`,
      { schemaError: validator.schemaError },
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
  if (errors === undefined) {
    call.output = copy;
    return undefined;
  }
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
