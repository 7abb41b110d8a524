import { internalError, type PipelineCall } from './call.js';
import { follow } from './settle.js';
import type { CallStep, StepOutcome } from './step.js';

/** How many positions can be skipped for a plain call (one bit each in a small integer); as the driver's. */
const PLANNED_STEPS = 30;

/**
 * The call driver as a plain loop: what `createDriver` (driver.ts) does, written to be read. Each
 * step runs in order, synchronously, until one answers the call or returns something pending; the
 * call then continues from that step's `resume` (or ends in its `reject`) once it settles. A position
 * the call's `skip` marks is passed over; a throw is `TOOL_ERROR`; a pipeline that ends without an
 * answer is an internal error. `createDriver` is the same walk with each position's call site of its
 * own, which V8 can inline (see `npm run bench -- --only P1`); `test/src/call-driver.test.ts` holds
 * the two to the same behaviour.
 */
export function createReferenceDriver(steps: readonly CallStep[]): (call: PipelineCall, from: number) => void {
  const runFrom = (call: PipelineCall, from: number): void => {
    for (let index = from; index < steps.length; index++) {
      if (index < PLANNED_STEPS && (call.skip & (1 << index)) !== 0) continue;
      if (stopped(call, index, steps[index]!.run(call))) return;
    }
    internalError(call, new Error('the call pipeline ended without an answer'));
  };
  /** True when the call stopped at this step: answered, or waiting for what the step returned. */
  const stopped = (call: PipelineCall, index: number, pending: StepOutcome): boolean => {
    if (call.done) {
      if (pending !== undefined) pending.then(undefined, () => {});
      return true;
    }
    if (pending === undefined) return false;
    follow(
      pending,
      (value) => {
        if (call.done) return;
        try {
          if (!stopped(call, index, steps[index]!.resume?.(call, value))) runFrom(call, index + 1);
        } catch (error) {
          internalError(call, error);
        }
      },
      (error: unknown) => {
        if (call.done) return;
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
  return (call, from) => {
    try {
      runFrom(call, from);
    } catch (error) {
      internalError(call, error);
    }
  };
}
