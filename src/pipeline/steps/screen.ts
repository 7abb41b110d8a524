import { reportingFunctions, withReportHook } from '../../caller/call-reporting.js';
import type { ToolExecutionContext } from '../../context.js';
import { truncateText } from '../../errors.js';
import type { ToolExecutionResult } from '../../tool.js';
import { failCall, failWith, type PipelineCall, type CallStepImplementation } from '../call.js';
import { thrownFailure, withoutStack } from '../failure.js';
import { CALL_CHAIN } from '../markers.js';
import type { RegisteredTool } from '../registered-tool.js';
import { isThenable } from '../settle.js';

/** `ABORTED` when the caller's signal already fired (nothing starts); else the call listens to it. Builds the tool's context. */
export const signalStep: CallStepImplementation = {
  run(call) {
    const details = call.details;
    const signal = details.signal;
    if (signal !== undefined) {
      if (signal.aborted)
        return failCall(call, 'ABORTED', `The call to tool '${call.entry!.tool.name}' was aborted before it started.`);
      call.signal = signal;
      signal.addEventListener('abort', call);
    }
    call.context = {
      gmiId: details.gmiId,
      personaId: details.personaId,
      userContext: details.userContext,
      correlationId: call.correlationId,
      sessionData: details.sessionData,
      personaCapabilities: details.personaCapabilities,
      signal: call.controller === undefined ? signal : call.controller.signal,
      callerTurn: details.callerTurn,
    };
    // Only a call someone listens to gets reporting functions (a plain call allocates nothing for them).
    const reporter = withReportHook(details.reporter, call.host.onCallReport, call);
    if (reporter !== undefined) Object.assign(call.context, reportingFunctions(reporter));
    const chain = details[CALL_CHAIN];
    if (chain !== undefined)
      (call.context as ToolExecutionContext & { [CALL_CHAIN]?: readonly string[] })[CALL_CHAIN] = chain;
  },
};

/** `REFUSED` when `tool.refusal` answers a result (before anyone is asked to approve). */
export const refusalStep: CallStepImplementation = {
  run(call) {
    const tool = call.entry!.tool;
    if (tool.refusal === undefined) return;
    let refusal: ToolExecutionResult | undefined | PromiseLike<ToolExecutionResult | undefined>;
    try {
      refusal = tool.refusal(call.args!, call.context!);
      if (isThenable(refusal)) return refusal;
    } catch (error) {
      return refusalThrew(call, error);
    }
    refused(call, refusal);
  },
  resume(call, answer) {
    refused(call, answer as ToolExecutionResult | undefined | null);
  },
  reject: refusalThrew,
  plain(entry) {
    return entry.tool.refusal === undefined;
  },
};

function refusalThrew(call: PipelineCall, error: unknown): void {
  failWith(call, thrownFailure('TOOL_ERROR', `Tool '${call.toolName}' threw in its refusal check`, error));
}

function refused(call: PipelineCall, refusal: ToolExecutionResult | undefined | null): void {
  if (refusal === undefined || refusal === null) return;
  let reason: string;
  let details: Record<string, any> | undefined;
  try {
    const error: unknown = refusal.error;
    reason = typeof error === 'string' && error !== '' ? truncateText(error, 1000) : 'no reason given';
    details = withoutStack(refusal.details);
  } catch (error) {
    return refusalThrew(call, error); // a refusal that cannot be read
  }
  failCall(call, 'REFUSED', `Tool '${call.toolName}' refused the call: ${reason}`, details);
}

/** `PERMISSION_DENIED` (the missing capabilities in `details.missing`); `TOOL_DISABLED` by the host's configuration. */
export const permissionsStep: CallStepImplementation = {
  run(call) {
    const entry = call.entry!;
    const tool = entry.tool;
    const missing = missingCapabilities(entry, call.details.personaCapabilities);
    if (missing !== undefined) {
      return failCall(
        call,
        'PERMISSION_DENIED',
        `Tool '${tool.name}' needs capabilities the caller lacks: ${missing.join(', ')}.`,
        { missing },
      );
    }
    if (call.host.isDisabled(tool))
      failCall(call, 'TOOL_DISABLED', `Tool '${tool.name}' is disabled by configuration.`);
  },
  plain(entry, host) {
    return missingCapabilities(entry, undefined) === undefined && !host.isDisabled(entry.tool);
  },
};

/** `BUDGET_EXCEEDED` once the turn's `callerTurn.budget.remaining` is spent; else it is decremented. */
export const budgetStep: CallStepImplementation = {
  run(call) {
    const budget = call.details.callerTurn?.budget;
    if (budget === undefined) return;
    if (!(budget.remaining > 0)) {
      return failCall(
        call,
        'BUDGET_EXCEEDED',
        `The tool-call budget of this turn is spent; tool '${call.entry!.tool.name}' was not called.`,
      );
    }
    budget.remaining -= 1;
  },
  plain() {
    return true; // a budget comes only with the call's `callerTurn`
  },
};

/** The capabilities of `entry` missing from `capabilities` (exact string match). */
export function missingCapabilities(
  entry: RegisteredTool,
  capabilities: readonly string[] | undefined,
): string[] | undefined {
  // A lazy tool not loaded yet: its stand-in knows its capabilities.
  const declared = entry.load === undefined ? entry.requiredCapabilities : entry.tool.requiredCapabilities;
  const required = Array.isArray(declared) ? declared : [];
  if (required.length === 0) return undefined;
  const missing = required.filter((capability) => capabilities?.includes(capability) !== true);
  return missing.length === 0 ? undefined : missing;
}
