import { internalError, identifyCall, type PipelineCall } from './call.js';
import { follow } from './settle.js';
import type { StepOutcome } from './step.js';
import { CALL_STEPS } from './steps.js';
import type { ToolCallDetails } from './types.js';

/**
 * Runs one call through every step, in order. The driver stays synchronous: a step that answers
 * nothing hands straight over to the next, and only a step that returns something pending (a lazy
 * load, an async refusal, the approval gate, a queue slot, `execute`) continues in a `then` — so a
 * plain call costs no async function and no promise of its own. Whatever a step throws ends the
 * call with `TOOL_ERROR`; the call is answered exactly once, through `host.settle`.
 *
 * `onStart` runs once the call knows its id and name, before the first step (the orchestrator
 * tracks the call and calls its hook there).
 */
export function startCall(call: PipelineCall, details: ToolCallDetails, onStart?: (call: PipelineCall) => void): void {
  try {
    identifyCall(call, details);
    onStart?.(call);
  } catch (error) {
    return internalError(call, error);
  }
  runSteps(call, 0);
}

/** Runs the steps from `from` on until one ends the call or leaves it pending. */
function runSteps(call: PipelineCall, from: number): void {
  const steps = CALL_STEPS;
  for (let index = from; index < steps.length; index++) {
    let pending: StepOutcome;
    try {
      pending = steps[index]!.run(call);
    } catch (error) {
      return internalError(call, error);
    }
    if (call.done) return;
    if (pending !== undefined) return wait(call, index, pending);
  }
  // Every call ends at the result step; this is a guard, so no call is left unanswered.
  internalError(call, new Error('the call pipeline ended without an answer'));
}

function wait(call: PipelineCall, index: number, pending: PromiseLike<unknown>): void {
  follow(
    pending,
    (value) => resume(call, index, value),
    (error: unknown) => reject(call, index, error),
  );
}

function resume(call: PipelineCall, index: number, value: unknown): void {
  if (call.done) return; // stopped while it was pending (deadline, caller, shutdown)
  const step = CALL_STEPS[index]!;
  let next: StepOutcome;
  try {
    next = step.resume === undefined ? undefined : step.resume(call, value);
  } catch (error) {
    return internalError(call, error);
  }
  if (call.done) return;
  if (next !== undefined) return wait(call, index, next);
  runSteps(call, index + 1);
}

function reject(call: PipelineCall, index: number, error: unknown): void {
  if (call.done) return; // e.g. a tool rejecting with its signal's reason after the deadline answered
  const step = CALL_STEPS[index]!;
  try {
    if (step.reject === undefined) internalError(call, error);
    else step.reject(call, error);
  } catch (thrown) {
    internalError(call, thrown);
  }
}
