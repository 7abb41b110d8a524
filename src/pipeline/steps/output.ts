import { findContentProblem } from '../../caller/content.js';
import { describeThrown } from '../../errors.js';
import { copyJsonValue } from '../../schema/walk.js';
import { endCall, failCall, type CallStepImplementation, type PipelineCall } from '../call.js';
import type { RegisteredTool } from '../registered-tool.js';
import { unreadableResult } from './execute.js';

/**
 * `OUTPUT_INVALID`: the output checked against the output schema, on a copy (coerced only where
 * needed), then the result's content blocks, if any (shape, base64, size, declared kinds); a valid
 * one is the call's answer.
 */
export const outputStep: CallStepImplementation = {
  run(call) {
    try {
      checkOutput(call, call.entry!, call.toolResult!.output);
    } catch (error) {
      return unreadableResult(call, error);
    }
    if (call.done) return;
    const content = call.toolResult!.content;
    if (content !== undefined) {
      const problem = findContentProblem(content, call.host.maxContentBytes, call.entry!.tool.contentTypes);
      if (problem !== undefined) return outputInvalid(call, `answered invalid content: ${problem}.`);
      call.content = content;
    }
    endCall(call);
  },
};

/** Ends the call `OUTPUT_INVALID`: `why`, after the tool's name. */
function outputInvalid(call: PipelineCall, why: string, details?: Record<string, unknown>): void {
  failCall(call, 'OUTPUT_INVALID', `Tool '${call.entry!.name}' ${why}`, details);
}

/**
 * Checks a successful execute's output against the output schema, on a copy, and sets the coerced
 * copy as the call's output; ends the call `OUTPUT_INVALID` when it fails or the schema does not compile.
 */
function checkOutput(call: PipelineCall, entry: RegisteredTool, output: unknown): void {
  const validator = entry.output;
  if (validator === undefined) {
    call.output = output;
    return;
  }
  if (validator.validateFunction === undefined) {
    const schemaError = validator.schemaError;
    return outputInvalid(call, `has an output schema that does not compile (${schemaError}).`, { schemaError });
  }
  let copy: unknown;
  try {
    copy = copyJsonValue(output);
  } catch (error) {
    return outputInvalid(call, `produced output that is not JSON data: ${describeThrown(error)}`);
  }
  const errors = validator.check(copy);
  if (errors === undefined) {
    call.output = copy;
    return;
  }
  const shown = errors
    .slice(0, 3)
    .map((error) => error.message)
    .join('; ');
  outputInvalid(call, `produced output that fails its output schema: ${shown}.`, { errors });
}
