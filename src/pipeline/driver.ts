import { internalError, identifyCall, type CallHost, type PipelineCall } from './call.js';
import type { RegisteredTool } from './registered-tool.js';
import { follow } from './settle.js';
import type { CallStep, StepOutcome } from './step.js';
import { CALL_STEPS } from './steps.js';
import type { ToolCallDetails } from './types.js';

/**
 * Runs one call through every step, in order. The driver stays synchronous: a step that answers
 * nothing hands straight over to the next, and only a step that returns something pending (a lazy
 * load, an async refusal, the approval gate, a queue slot, `execute`) continues in a `then` — so a
 * plain call costs no async function and no promise of its own. Whatever a step throws ends the
 * call with `TOOL_ERROR`; the call is answered exactly once, through `host.settle`.
 */
export function startCall(call: PipelineCall, details: ToolCallDetails): void {
  try {
    identifyCall(call, details);
    call.host.begin(call);
  } catch (error) {
    return internalError(call, error);
  }
  runSteps(call, 0);
}

/** A step that does nothing: it fills the unrolled positions past the end of the list. */
const PASS: CallStep = Object.freeze({
  name: 'output',
  codes: [],
  run: () => undefined,
  resume: undefined,
  reject: undefined,
  plain: undefined,
});

/** How many positions can be skipped for a plain call (one bit each in a small integer). */
const PLANNED_STEPS = 30;

/** How many positions the runner calls through a fixed index (later ones through a loop). */
export const UNROLLED_STEPS = 16;

/**
 * Makes the function that runs `steps` from a position on until one ends the call or leaves it
 * pending (then it continues, from the same step's `resume`, once that settles). Each position is
 * its own call site reading a fixed element of an array captured by a closure made once: V8 then
 * knows each step and calls it directly, where one loop over the list makes a single call site
 * with every step behind it. Positions past `UNROLLED_STEPS` run through a loop; positions past
 * the list do nothing. Exported for its tests; the pipeline makes one driver, for `CALL_STEPS`.
 */
export function createDriver(steps: readonly CallStep[]): (call: PipelineCall, from: number) => void {
  const at = Object.freeze(Array.from({ length: UNROLLED_STEPS }, (_, index) => steps[index] ?? PASS));
  const resume = (call: PipelineCall, index: number, value: unknown): void => {
    if (call.done) return; // stopped while it was pending (deadline, caller, shutdown)
    const step = steps[index]!;
    let next: StepOutcome;
    try {
      next = step.resume === undefined ? undefined : step.resume(call, value);
    } catch (error) {
      return internalError(call, error);
    }
    if (call.done) return;
    if (next !== undefined) return wait(call, index, next);
    run(call, index + 1);
  };
  const reject = (call: PipelineCall, index: number, error: unknown): void => {
    if (call.done) return; // e.g. a tool rejecting with its signal's reason after the deadline answered
    const step = steps[index]!;
    try {
      if (step.reject === undefined) internalError(call, error);
      else step.reject(call, error);
    } catch (thrown) {
      internalError(call, thrown);
    }
  };
  const wait = (call: PipelineCall, index: number, pending: PromiseLike<unknown>): void => {
    follow(
      pending,
      (value) => resume(call, index, value),
      (error: unknown) => reject(call, index, error),
    );
  };
  /** True when the call stopped at this step: answered, or waiting for what the step returned. */
  const stopped = (call: PipelineCall, index: number, pending: StepOutcome): boolean => {
    if (call.done) return true;
    if (pending === undefined) return false;
    wait(call, index, pending);
    return true;
  };
  const rest = (call: PipelineCall, from: number): void => {
    for (let index = Math.max(from, UNROLLED_STEPS); index < steps.length; index++) {
      if (index < PLANNED_STEPS && (call.skip & (1 << index)) !== 0) continue;
      if (stopped(call, index, steps[index]!.run(call))) return;
    }
    // A call must end at a step (the last one answers it); this guard leaves no call unanswered.
    internalError(call, new Error('the call pipeline ended without an answer'));
  };
  // Position k runs its step, then hands over to position k + 1 (each a call site of its own).
  const p15 = (call: PipelineCall): void => {
    if ((call.skip & 32768) === 0 && stopped(call, 15, at[15]!.run(call))) return;
    rest(call, UNROLLED_STEPS);
  };
  const p14 = (call: PipelineCall): void => {
    if ((call.skip & 16384) === 0 && stopped(call, 14, at[14]!.run(call))) return;
    p15(call);
  };
  const p13 = (call: PipelineCall): void => {
    if ((call.skip & 8192) === 0 && stopped(call, 13, at[13]!.run(call))) return;
    p14(call);
  };
  const p12 = (call: PipelineCall): void => {
    if ((call.skip & 4096) === 0 && stopped(call, 12, at[12]!.run(call))) return;
    p13(call);
  };
  const p11 = (call: PipelineCall): void => {
    if ((call.skip & 2048) === 0 && stopped(call, 11, at[11]!.run(call))) return;
    p12(call);
  };
  const p10 = (call: PipelineCall): void => {
    if ((call.skip & 1024) === 0 && stopped(call, 10, at[10]!.run(call))) return;
    p11(call);
  };
  const p9 = (call: PipelineCall): void => {
    if ((call.skip & 512) === 0 && stopped(call, 9, at[9]!.run(call))) return;
    p10(call);
  };
  const p8 = (call: PipelineCall): void => {
    if ((call.skip & 256) === 0 && stopped(call, 8, at[8]!.run(call))) return;
    p9(call);
  };
  const p7 = (call: PipelineCall): void => {
    if ((call.skip & 128) === 0 && stopped(call, 7, at[7]!.run(call))) return;
    p8(call);
  };
  const p6 = (call: PipelineCall): void => {
    if ((call.skip & 64) === 0 && stopped(call, 6, at[6]!.run(call))) return;
    p7(call);
  };
  const p5 = (call: PipelineCall): void => {
    if ((call.skip & 32) === 0 && stopped(call, 5, at[5]!.run(call))) return;
    p6(call);
  };
  const p4 = (call: PipelineCall): void => {
    if ((call.skip & 16) === 0 && stopped(call, 4, at[4]!.run(call))) return;
    p5(call);
  };
  const p3 = (call: PipelineCall): void => {
    if ((call.skip & 8) === 0 && stopped(call, 3, at[3]!.run(call))) return;
    p4(call);
  };
  const p2 = (call: PipelineCall): void => {
    if ((call.skip & 4) === 0 && stopped(call, 2, at[2]!.run(call))) return;
    p3(call);
  };
  const p1 = (call: PipelineCall): void => {
    if ((call.skip & 2) === 0 && stopped(call, 1, at[1]!.run(call))) return;
    p2(call);
  };
  const p0 = (call: PipelineCall): void => {
    if ((call.skip & 1) === 0 && stopped(call, 0, at[0]!.run(call))) return;
    p1(call);
  };
  const positions = [p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15];
  const run = (call: PipelineCall, from: number): void => {
    try {
      if (from < UNROLLED_STEPS) positions[from]!(call);
      else rest(call, from);
    } catch (error) {
      internalError(call, error);
    }
  };
  return run;
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
    const plain = CALL_STEPS[index]!.plain;
    if (plain?.(entry, host)) mask |= 1 << index;
  }
  return mask;
}
