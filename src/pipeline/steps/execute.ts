import { truncateText } from '../../errors.js';
import type { ToolExecutionResult } from '../../tool.js';
import { failCall, failWith, type PipelineCall, type CallStepImplementation, type StepOutcome } from '../call.js';
import { checkDeclaredFailure } from './declared-failure.js';
import { thrownFailure, withoutStack } from '../failure.js';
import { isComposedTool } from '../markers.js';
import { isThenable } from '../settle.js';
import { nextAttempt } from '../retry.js';

/** `QUEUE_FULL`: a slot when the host limits concurrency (the deadline covers the wait). */
export const slotStep: CallStepImplementation = {
  run(call) {
    return call.host.acquireSlot(call);
  },
  plain(_entry, host) {
    return host.maxConcurrency === undefined;
  },
};

/**
 * The tool runs, with a signal that fires on the caller's stop or the deadline; a throw is
 * `TOOL_ERROR`. Its answer: `TOOL_ERROR` for no result object, `TOOL_FAILED` for `success: false`
 * (`OUTPUT_INVALID` for a failure that breaks the tool's declared errors, declared-failure.ts);
 * a composed tool's failed step is `STEP_FAILED`, and a step's `COMPOSITION_TOO_DEEP` is passed up
 * as it is (not wrapped at every level). A failure the retry policy retries (`retry.ts`) runs the
 * tool again instead, and its answer comes back here.
 */
export const executeStep: CallStepImplementation = {
  run(call) {
    let pending: ToolExecutionResult | PromiseLike<ToolExecutionResult>;
    try {
      pending = call.entry!.tool.execute(call.args!, call.context!);
      if (isThenable(pending)) return pending;
    } catch (error) {
      // `execute` threw, or answered something whose `then` cannot even be read.
      return executeThrew(call, error);
    }
    return toolAnswered(call, pending);
  },
  resume(call, result) {
    return toolAnswered(call, result as ToolExecutionResult);
  },
  reject: executeThrew,
};

function executeThrew(call: PipelineCall, error: unknown): void {
  failWith(call, thrownFailure('TOOL_ERROR', `Tool '${call.toolName}' threw`, error));
}

/** A result whose fields cannot be read (a throwing getter, a Proxy) fails the call, whichever step reads it. */
export function unreadableResult(call: PipelineCall, error: unknown): void {
  failWith(call, thrownFailure('TOOL_ERROR', `Tool '${call.toolName}' answered a result that cannot be read`, error));
}

function toolAnswered(call: PipelineCall, result: ToolExecutionResult): StepOutcome {
  const retry = nextAttempt(call, result);
  if (retry !== undefined) return retry;
  call.toolResult = result;
  try {
    checkToolResult(call, result);
  } catch (error) {
    unreadableResult(call, error);
  }
}

function checkToolResult(call: PipelineCall, result: ToolExecutionResult): void {
  const tool = call.entry!.tool;
  if (result === null || typeof result !== 'object') {
    return failCall(
      call,
      'TOOL_ERROR',
      `Tool '${tool.name}' returned ${result === null ? 'null' : typeof result} instead of a result object.`,
    );
  }
  if (result.success) return;
  const error =
    typeof result.error === 'string' && result.error !== '' ? truncateText(result.error, 1000) : 'no error message';
  if (isComposedTool(tool)) {
    const details = result.details;
    if (details?.code === 'COMPOSITION_TOO_DEEP') {
      // The innermost call's answer, passed up unchanged (not wrapped in STEP_FAILED at every level).
      const { code: _code, ...rest } = details;
      return failCall(call, 'COMPOSITION_TOO_DEEP', error, rest);
    }
    if (typeof details?.step === 'number') return failCall(call, 'STEP_FAILED', error, details);
  }
  const message = `Tool '${tool.name}' failed: ${error}`;
  if (tool.errors !== undefined) return failWith(call, checkDeclaredFailure(tool, result, message));
  failCall(call, 'TOOL_FAILED', message, withoutStack(result.details));
}
