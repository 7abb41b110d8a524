import { armDeadline, failWith } from '../call.js';
import type { ToolCallFailure } from '../failure.js';
import type { CallStepImplementation } from '../step.js';

/**
 * `TIMEOUT`: arms the call's deadline (the request's `timeoutMs`, else the tool's, else the host's
 * default); from here on it covers whatever the call waits for. A lazy tool's own timeout is known
 * only once it has loaded: the load step re-arms it, counted from here.
 */
export const deadlineStep: CallStepImplementation = {
  run(call) {
    const details = call.details;
    const entry = call.entry!;
    const lazy = entry.load !== undefined;
    const timeoutMs = details.timeoutMs ?? (lazy ? undefined : entry.tool.timeoutMs) ?? call.host.defaultTimeoutMs;
    if (timeoutMs !== undefined) armDeadline(call, timeoutMs);
    if (lazy && details.timeoutMs === undefined) call.armedAt = performance.now();
  },
};

/** A lazy tool loads on its first call (its implementation and generated validators; shared by racing calls). */
export const loadStep: CallStepImplementation = {
  run(call) {
    const load = call.entry!.load;
    return load === undefined ? undefined : load();
  },
  resume(call, failure) {
    if (failure !== undefined) return failWith(call, failure as ToolCallFailure);
    const entry = call.entry!;
    if (call.armedAt !== -1) {
      // The loaded tool's own timeout applies (the request set none), counted from the lookup.
      const own = entry.tool.timeoutMs;
      const elapsed = performance.now() - call.armedAt;
      call.armedAt = -1;
      if (own !== undefined) armDeadline(call, own, elapsed);
      if (call.done) return; // loaded past its own deadline
    }
    call.host.attach(entry.tool);
  },
};
