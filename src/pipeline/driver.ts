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
 * pending (then it continues, from the same step's `resume`, once that settles). Every call site of
 * a step's `run` (and `resume`) is its own and calls it through a constant of its own: straight
 * code from the first position, and one small function per position for what resumes. V8 then
 * knows each step and calls or inlines it directly, where a loop, or a read from an array, makes
 * one call site with every step behind it. A position the
 * call's `skip` marks (a step plain for its registration) is passed over. Positions past
 * `UNROLLED_STEPS` run through a loop; positions past the list do nothing. Exported for its
 * tests; the pipeline makes one driver, for `CALL_STEPS`.
 */
export function createDriver(steps: readonly CallStep[]): (call: PipelineCall, from: number) => void {
  const at = Object.freeze(Array.from({ length: UNROLLED_STEPS }, (_, index) => steps[index] ?? PASS));
  const resume = (call: PipelineCall, index: number, value: unknown): void => {
    if (call.done) return; // stopped while it was pending (deadline, caller, shutdown)
    try {
      if (!stopped(call, index, resumeAt(call, index, value))) runFrom(call, index + 1);
    } catch (error) {
      internalError(call, error);
    }
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
    if (call.done) {
      // Answered while the step ran (stopped by its caller): what the step still awaits is dropped, quietly.
      if (pending !== undefined) pending.then(undefined, ignore);
      return true;
    }
    if (pending === undefined) return false;
    wait(call, index, pending);
    return true;
  };
  const ignore = (): void => {};
  const rest = (call: PipelineCall, from: number): void => {
    for (let index = Math.max(from, UNROLLED_STEPS); index < steps.length; index++) {
      if (index < PLANNED_STEPS && (call.skip & (1 << index)) !== 0) continue;
      if (stopped(call, index, steps[index]!.run(call))) return;
    }
    // A call must end at a step (the last one answers it); this guard leaves no call unanswered.
    internalError(call, new Error('the call pipeline ended without an answer'));
  };
  // Each position's `run`, held in a constant of its own: V8 then calls and inlines it directly.
  const [run0, run1, run2, run3, run4, run5, run6, run7, run8, run9, run10, run11, run12, run13, run14, run15] = at.map(
    (step) => step.run,
  );
  const [
    resume0,
    resume1,
    resume2,
    resume3,
    resume4,
    resume5,
    resume6,
    resume7,
    resume8,
    resume9,
    resume10,
    resume11,
    resume12,
    resume13,
    resume14,
    resume15,
  ] = at.map((step) => step.resume);
  // Position k runs its step, then hands over to position k + 1 (each a call site of its own).
  const p15 = (call: PipelineCall): void => {
    if ((call.skip & 32768) === 0 && stopped(call, 15, run15(call))) return;
    rest(call, UNROLLED_STEPS);
  };
  const p14 = (call: PipelineCall): void => {
    if ((call.skip & 16384) === 0 && stopped(call, 14, run14(call))) return;
    p15(call);
  };
  const p13 = (call: PipelineCall): void => {
    if ((call.skip & 8192) === 0 && stopped(call, 13, run13(call))) return;
    p14(call);
  };
  const p12 = (call: PipelineCall): void => {
    if ((call.skip & 4096) === 0 && stopped(call, 12, run12(call))) return;
    p13(call);
  };
  const p11 = (call: PipelineCall): void => {
    if ((call.skip & 2048) === 0 && stopped(call, 11, run11(call))) return;
    p12(call);
  };
  const p10 = (call: PipelineCall): void => {
    if ((call.skip & 1024) === 0 && stopped(call, 10, run10(call))) return;
    p11(call);
  };
  const p9 = (call: PipelineCall): void => {
    if ((call.skip & 512) === 0 && stopped(call, 9, run9(call))) return;
    p10(call);
  };
  const p8 = (call: PipelineCall): void => {
    if ((call.skip & 256) === 0 && stopped(call, 8, run8(call))) return;
    p9(call);
  };
  const p7 = (call: PipelineCall): void => {
    if ((call.skip & 128) === 0 && stopped(call, 7, run7(call))) return;
    p8(call);
  };
  const p6 = (call: PipelineCall): void => {
    if ((call.skip & 64) === 0 && stopped(call, 6, run6(call))) return;
    p7(call);
  };
  const p5 = (call: PipelineCall): void => {
    if ((call.skip & 32) === 0 && stopped(call, 5, run5(call))) return;
    p6(call);
  };
  const p4 = (call: PipelineCall): void => {
    if ((call.skip & 16) === 0 && stopped(call, 4, run4(call))) return;
    p5(call);
  };
  const p3 = (call: PipelineCall): void => {
    if ((call.skip & 8) === 0 && stopped(call, 3, run3(call))) return;
    p4(call);
  };
  const p2 = (call: PipelineCall): void => {
    if ((call.skip & 4) === 0 && stopped(call, 2, run2(call))) return;
    p3(call);
  };
  const p1 = (call: PipelineCall): void => {
    if ((call.skip & 2) === 0 && stopped(call, 1, run1(call))) return;
    p2(call);
  };
  const p0 = (call: PipelineCall): void => {
    if ((call.skip & 1) === 0 && stopped(call, 0, run0(call))) return;
    p1(call);
  };
  /**
   * Runs every step from the first, in two straight functions (halves, for the complexity limit):
   * where every call starts; `runFrom` continues what resumes. True when the call stopped.
   */
  const firstHalf = (call: PipelineCall): boolean => {
    if ((call.skip & 1) === 0 && stopped(call, 0, run0(call))) return true;
    if ((call.skip & 2) === 0 && stopped(call, 1, run1(call))) return true;
    if ((call.skip & 4) === 0 && stopped(call, 2, run2(call))) return true;
    if ((call.skip & 8) === 0 && stopped(call, 3, run3(call))) return true;
    if ((call.skip & 16) === 0 && stopped(call, 4, run4(call))) return true;
    if ((call.skip & 32) === 0 && stopped(call, 5, run5(call))) return true;
    if ((call.skip & 64) === 0 && stopped(call, 6, run6(call))) return true;
    if ((call.skip & 128) === 0 && stopped(call, 7, run7(call))) return true;
    return false;
  };
  const secondHalf = (call: PipelineCall): boolean => {
    if ((call.skip & 256) === 0 && stopped(call, 8, run8(call))) return true;
    if ((call.skip & 512) === 0 && stopped(call, 9, run9(call))) return true;
    if ((call.skip & 1024) === 0 && stopped(call, 10, run10(call))) return true;
    if ((call.skip & 2048) === 0 && stopped(call, 11, run11(call))) return true;
    if ((call.skip & 4096) === 0 && stopped(call, 12, run12(call))) return true;
    if ((call.skip & 8192) === 0 && stopped(call, 13, run13(call))) return true;
    if ((call.skip & 16384) === 0 && stopped(call, 14, run14(call))) return true;
    if ((call.skip & 32768) === 0 && stopped(call, 15, run15(call))) return true;
    return false;
  };
  const fromStart = (call: PipelineCall): void => {
    if (!(firstHalf(call) || secondHalf(call))) rest(call, UNROLLED_STEPS);
  };
  /** Runs the steps from position `index` on (a throw is caught by the caller); a case per position, so each call is direct. */
  const runFrom = (call: PipelineCall, index: number): void => {
    switch (index) {
      case 0:
        return p0(call);
      case 1:
        return p1(call);
      case 2:
        return p2(call);
      case 3:
        return p3(call);
      case 4:
        return p4(call);
      case 5:
        return p5(call);
      case 6:
        return p6(call);
      case 7:
        return p7(call);
      case 8:
        return p8(call);
      case 9:
        return p9(call);
      case 10:
        return p10(call);
      case 11:
        return p11(call);
      case 12:
        return p12(call);
      case 13:
        return p13(call);
      case 14:
        return p14(call);
      case 15:
        return p15(call);
      default:
        return rest(call, index);
    }
  };
  /** The `resume` of the step at `index` with what it waited for; a case per position, as `runFrom`. */
  const resumeAt = (call: PipelineCall, index: number, value: unknown): StepOutcome => {
    switch (index) {
      case 0:
        return resume0?.(call, value);
      case 1:
        return resume1?.(call, value);
      case 2:
        return resume2?.(call, value);
      case 3:
        return resume3?.(call, value);
      case 4:
        return resume4?.(call, value);
      case 5:
        return resume5?.(call, value);
      case 6:
        return resume6?.(call, value);
      case 7:
        return resume7?.(call, value);
      case 8:
        return resume8?.(call, value);
      case 9:
        return resume9?.(call, value);
      case 10:
        return resume10?.(call, value);
      case 11:
        return resume11?.(call, value);
      case 12:
        return resume12?.(call, value);
      case 13:
        return resume13?.(call, value);
      case 14:
        return resume14?.(call, value);
      case 15:
        return resume15?.(call, value);
      default:
        return steps[index]!.resume?.(call, value);
    }
  };
  const run = (call: PipelineCall, index: number): void => {
    try {
      if (index === 0) fromStart(call);
      else runFrom(call, index);
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
