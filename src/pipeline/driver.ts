import { CALL_STEP_ORDER, type CallStepName } from '../call-order.js';
import { approvalStep } from './steps/approval.js';
import { argumentsStep } from './steps/arguments.js';
import { deadlineStep } from './steps/deadline.js';
import { executeStep, slotStep } from './steps/execute.js';
import { outputStep } from './steps/output.js';
import { lookupStep, requestStep, shutdownStep } from './steps/request.js';
import { budgetStep, permissionsStep, refusalStep, signalStep } from './steps/screen.js';
import {
  internalError,
  identifyCall,
  type CallHost,
  type CallStep,
  type CallStepImplementation,
  PipelineCall,
  type StepOutcome,
} from './call.js';
import type { RegisteredTool } from './registered-tool.js';
import { follow, noop } from './settle.js';
import type { ToolCallDetails } from './types.js';

/** Every step's implementation by name; the type asks for one per name of `CALL_STEP_ORDER`. */
const IMPLEMENTATIONS: { readonly [N in CallStepName]: CallStepImplementation } = {
  shutdown: shutdownStep,
  request: requestStep,
  lookup: lookupStep,
  deadline: deadlineStep,
  signal: signalStep,
  refusal: refusalStep,
  permissions: permissionsStep,
  budget: budgetStep,
  arguments: argumentsStep,
  approval: approvalStep,
  slot: slotStep,
  execute: executeStep,
  output: outputStep,
};

/**
 * The call's steps, in the order of `CALL_STEP_ORDER`: what the driver runs for every call of
 * every host. Each step has the same shape (name, codes, run, resume, reject, plain), so the driver's
 * property reads stay monomorphic.
 */
export const CALL_STEPS: readonly CallStep[] = Object.freeze(
  CALL_STEP_ORDER.map(([name, codes]): CallStep => {
    const { run, resume, reject, plain } = IMPLEMENTATIONS[name];
    return Object.freeze({ name, codes, run, resume, reject, plain });
  }),
);

/**
 * Runs one call of `host` through every step, in order; the promise resolves once, with the host's
 * answer, and never rejects. The driver stays synchronous: a step that answers nothing hands straight
 * over to the next, and only a step that returns something pending (a lazy load, an async refusal,
 * the approval gate, a queue slot, `execute`) continues in a `then` — so a plain call costs no async
 * function and no promise of its own. Whatever a step throws ends the call with `TOOL_ERROR`; the
 * call is answered exactly once, through `host.settle`.
 */
export function runCall<TResult>(host: CallHost, details: ToolCallDetails): Promise<TResult> {
  const call = new PipelineCall(host);
  const result = new Promise<TResult>((resolve) => {
    call.resolve = resolve as (result: unknown) => void;
  });
  try {
    identifyCall(call, details);
    host.begin(call);
    runSteps(call, 0);
  } catch (error) {
    internalError(call, error);
  }
  return result;
}

/** How many positions can be skipped for a plain call (one bit each in a small integer). */
const PLANNED_STEPS = 30;

/**
 * Makes the function that runs `steps` from a position on: each step in order, synchronously, until
 * one answers the call or returns something pending; the call then continues from that step's
 * `resume` (or ends in its `reject`, default an internal `TOOL_ERROR`) once it settles. A position
 * the call's `skip` marks (a step plain for its registration) is passed over; a throw is
 * `TOOL_ERROR`; a pipeline that ends without an answer is an internal error. The pipeline makes one
 * driver, for `CALL_STEPS`; its tests make others.
 */
export function createDriver(steps: readonly CallStep[]): (call: PipelineCall, from: number) => void {
  const runFrom = (call: PipelineCall, from: number): void => {
    try {
      for (let index = from; index < steps.length; index++) {
        if (index < PLANNED_STEPS && (call.skip & (1 << index)) !== 0) continue;
        if (stopped(call, index, steps[index]!.run(call))) return;
      }
      // A call must end at a step (the last one answers it); this guard leaves no call unanswered.
      internalError(call, new Error('the call pipeline ended without an answer'));
    } catch (error) {
      internalError(call, error);
    }
  };
  /** True when the call stopped at this step: answered, or waiting for what the step returned. */
  const stopped = (call: PipelineCall, index: number, pending: StepOutcome): boolean => {
    if (call.done) {
      // Answered while the step ran (stopped by its caller): what the step still awaits is dropped, quietly.
      if (pending !== undefined) follow(pending, noop, noop);
      return true;
    }
    if (pending === undefined) return false;
    follow(
      pending,
      (value) => {
        if (call.done) return; // stopped while it was pending (deadline, caller, shutdown)
        try {
          if (!stopped(call, index, steps[index]!.resume?.(call, value))) runFrom(call, index + 1);
        } catch (error) {
          internalError(call, error);
        }
      },
      (error: unknown) => {
        if (call.done) return; // e.g. a tool rejecting with its signal's reason after the deadline answered
        const reject = steps[index]!.reject;
        try {
          if (reject === undefined) internalError(call, error);
          else reject(call, error);
        } catch (thrown) {
          internalError(call, thrown);
        }
      },
    );
    return true;
  };
  return runFrom;
}

const runSteps = createDriver(CALL_STEPS);

/**
 * The positions of `CALL_STEPS` (bit `1 << index`) whose step is plain for `entry` on `host`: the
 * steps a plain call of it skips. -1 while a lazy tool is not loaded (its stand-in decides nothing).
 */
export function planSteps(entry: RegisteredTool, host: CallHost): number {
  if (entry.load !== undefined) return -1;
  let mask = 0;
  for (let index = 0; index < CALL_STEPS.length && index < PLANNED_STEPS; index++) {
    if (CALL_STEPS[index]!.plain?.(entry, host)) mask |= 1 << index;
  }
  return mask;
}
