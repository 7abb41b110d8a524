import { armDeadline, failWith, type CallStepImplementation } from '../call.js';
import type { ToolCallFailure } from '../failure.js';

/**
 * `TIMEOUT`: arms the call's deadline (the request's `timeoutMs`, else the tool's, else the host's
 * default); from here on it covers whatever the call waits for. Then a lazy tool loads (its
 * implementation and generated validators, once, shared by racing calls; `TOOL_ERROR` when it
 * cannot), and its own timeout, known only now, re-arms the deadline counted from the lookup.
 */
export const deadlineStep: CallStepImplementation = {
  run(call) {
    const details = call.details;
    const entry = call.entry!;
    const load = entry.load;
    const timeoutMs =
      details.timeoutMs ?? (load !== undefined ? undefined : entry.tool.timeoutMs) ?? call.host.defaultTimeoutMs;
    if (timeoutMs !== undefined) armDeadline(call, timeoutMs);
    if (load === undefined) return;
    if (details.timeoutMs === undefined) call.armedAt = performance.now();
    return load();
  },
  plain(entry, host) {
    return entry.load === undefined && entry.tool.timeoutMs === undefined && host.defaultTimeoutMs === undefined;
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
