import type { ToolErrorCode } from '../errors.js';
import type { CallHost, PipelineCall } from './call.js';
import type { CallStepName } from '../call-order.js';
import type { RegisteredTool } from './registered-tool.js';
import type { ToolCallDetails } from './types.js';

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
  /**
   * True when the step has nothing to do for any plain call (see `isPlainRequest`) of this
   * registration on this host; asked once per registration, so the driver skips the step there.
   * It may read only what is fixed at registration (the tool, its prepared validators, the host's
   * settings), never the call. A step without it always runs.
   */
  plain?(entry: RegisteredTool, host: CallHost): boolean;
}

/**
 * True for a request that sets none of the per-call options a step may read (`timeoutMs`,
 * `callerTurn`): for it, the steps that answer `plain` for its registration are skipped.
 */
export function isPlainRequest(details: ToolCallDetails): boolean {
  return details.timeoutMs === undefined && details.callerTurn === undefined;
}

/** A step with its name and the codes it may answer (from `CALL_STEP_ORDER`). */
export interface CallStep extends CallStepImplementation {
  readonly name: CallStepName;
  readonly codes: readonly ToolErrorCode[];
}
