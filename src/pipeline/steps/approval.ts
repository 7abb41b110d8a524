import { truncateText } from '../../errors.js';
import { isObject } from '../../schema/walk.js';
import { failCall, failWith, type PipelineCall, type CallStepImplementation } from '../call.js';
import { thrownFailure } from '../failure.js';
import { isThenable } from '../settle.js';

/**
 * Approval, for tools with side effects (or every call, by the host's policy): the turn's gate wins
 * over the host's. `APPROVAL_REJECTED` (also a side-effect tool with no gate at all, unless the host
 * allows side effects), `APPROVAL_UNAVAILABLE` (policy `always`, no gate),
 * `APPROVAL_FAILED` (the gate threw or answered something unreadable); `ABORTED` while pending.
 */
export const approvalStep: CallStepImplementation = {
  run(call) {
    const host = call.host;
    const policy = host.requireApproval;
    const tool = call.entry!.tool;
    if (!(policy === 'always' || (policy === 'side-effects' && tool.hasSideEffects === true))) return;
    const gate = call.details.callerTurn?.approvalGate ?? host.approvalGate;
    if (gate === undefined) {
      if (policy === 'always') {
        failCall(
          call,
          'APPROVAL_UNAVAILABLE',
          `Tool '${tool.name}' needs approval but no approval gate is configured.`,
        );
      } else if (!host.allowSideEffects) {
        failCall(
          call,
          'APPROVAL_REJECTED',
          `Tool '${tool.name}' has side effects and nothing approved the call: give the orchestrator ` +
            `an approvalGate (or the turn one), or set allowSideEffects: true to let such tools run unasked.`,
          { reason: 'no-approval-gate' },
        );
      }
      return;
    }
    let answer: unknown;
    try {
      answer = gate({ tool, args: call.args!, context: call.context! });
      if (isThenable(answer)) return answer;
    } catch (error) {
      return approvalFailed(call, error);
    }
    approved(call, answer);
  },
  resume: approved,
  reject: approvalFailed,
  plain(entry, host) {
    // Without a turn, only the host's gate can be asked; `always` without one must still fail.
    const policy = host.requireApproval;
    if (policy === 'never') return true;
    return (
      policy === 'side-effects' &&
      (entry.tool.hasSideEffects !== true || (host.approvalGate === undefined && host.allowSideEffects))
    );
  },
};

function approvalFailed(call: PipelineCall, error: unknown): void {
  failWith(call, thrownFailure('APPROVAL_FAILED', `The approval gate failed for tool '${call.toolName}'`, error));
}

function approved(call: PipelineCall, answer: unknown): void {
  let reason: unknown;
  try {
    if (answer === true || (isObject(answer) && answer.approved === true)) return;
    reason = isObject(answer) ? answer.reason : undefined;
  } catch (error) {
    return approvalFailed(call, error); // an answer that cannot be read
  }
  const given = typeof reason === 'string';
  failCall(
    call,
    'APPROVAL_REJECTED',
    `The call to tool '${call.entry!.tool.name}' was not approved${given ? `: ${truncateText(reason as string, 1000)}` : '.'}`,
    given ? { reason } : undefined,
  );
}
