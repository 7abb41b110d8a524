import type { ToolErrorCode } from '../errors.js';
import type { PipelineCall } from './call.js';
import type { CallStepName } from './call-order.js';

/** What a step answers: nothing (go on, unless it ended the call) or something pending to wait for. */
export type StepOutcome = PromiseLike<unknown> | undefined | void;

/**
 * One step of the call, as the driver runs it. `run` goes synchronously; when it returns a pending
 * value the driver waits for it and hands the settled value to `resume` (which may again return
 * something pending) or what it rejected with to `reject` (default: an internal `TOOL_ERROR`).
 * A step ends the call with `failCall`; the driver stops at the first step that did.
 */
export interface CallStepImplementation {
  run(call: PipelineCall): StepOutcome;
  resume?(call: PipelineCall, value: unknown): StepOutcome;
  reject?(call: PipelineCall, error: unknown): void;
}

/** A step with its name and the codes it may answer (from `CALL_STEP_ORDER`). */
export interface CallStep {
  readonly name: CallStepName;
  readonly codes: readonly ToolErrorCode[];
  readonly run: CallStepImplementation['run'];
  readonly resume: CallStepImplementation['resume'];
  readonly reject: CallStepImplementation['reject'];
}
