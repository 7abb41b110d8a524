/**
 * Retries from the contract: the execute step asks `nextAttempt` about each answer of the tool, and
 * a failure is tried again only when all of these hold — a retry policy applies (the call's `retry`,
 * else the host's), the failure says it may pass (`retryable: true`), the tool may run twice (read-only
 * or idempotent by its hints as MCP publishes them; a tool with side effects only when it says
 * `idempotentHint: true`), attempts are left, the turn's budget pays for one more call, and the wait
 * ends before the call's deadline. The deadline, the approval and the concurrency slot are the
 * call's, so they cover every attempt.
 */
import { isObject } from '../schema/walk.js';
import type { ITool } from '../tool.js';
import type { PipelineCall } from './call.js';
import { declaredError } from './steps/declared-failure.js';
import type { RetryPolicy } from './types.js';

/** Most attempts a policy may ask for (the first included): the waits double, so a few are plenty. */
const MAX_RETRY_ATTEMPTS = 10;

/** Why `policy` is not a retry policy, or undefined when it is one. */
export function retryPolicyProblem(policy: RetryPolicy): string | undefined {
  const { attempts, backoffMs } = policy ?? ({} as RetryPolicy);
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > MAX_RETRY_ATTEMPTS)
    return `retry.attempts must be a whole number from 1 to ${MAX_RETRY_ATTEMPTS}; got ${String(attempts)}.`;
  if (backoffMs !== undefined && !(Number.isFinite(backoffMs) && backoffMs >= 0))
    return `retry.backoffMs must be a number of milliseconds >= 0; got ${String(backoffMs)}.`;
  return undefined;
}

/**
 * True for a failed answer that says trying again may succeed: its own `retryable`, else the
 * `retryable` of the error `tool` declares under its code. The one place that reads either.
 */
function isRetryableFailure(result: unknown, tool: ITool): boolean {
  try {
    if (!isObject(result) || result.success !== false) return false;
    if (typeof result.retryable === 'boolean') return result.retryable;
    return declaredError(tool, result.code)?.retryable === true;
  } catch {
    return false; // a result whose fields cannot be read is never retried
  }
}

/** True when running `tool` again cannot do twice what once would: read-only, or idempotent. */
function mayRetry(tool: ITool): boolean {
  const hints = tool.annotations ?? {};
  if (tool.hasSideEffects === true) return hints.idempotentHint === true;
  // A tool without side effects is published read-only unless its definition says otherwise.
  return hints.readOnlyHint !== false || hints.idempotentHint === true;
}

/**
 * The next attempt after the tool's `answer`, as a promise of its answer, or undefined when the
 * answer stands. Counts the attempts that ran on the call (from the first retryable failure on) and
 * charges each further one to the turn's budget as it starts; a budget spent meanwhile answers the
 * same failure again, which then stands.
 */
export function nextAttempt(call: PipelineCall, answer: unknown): PromiseLike<unknown> | undefined {
  const tool = call.entry!.tool;
  if (!isRetryableFailure(answer, tool)) return undefined;
  const policy = call.details.retry ?? call.host.retry;
  if (policy === undefined) return undefined;
  if (call.attempts === 0) call.attempts = 1;
  if (call.attempts >= policy.attempts || !mayRetry(tool)) return undefined;
  const waitMs = (policy.backoffMs ?? 0) * 2 ** (call.attempts - 1);
  if (call.deadlineAt !== undefined && performance.now() + waitMs >= call.deadlineAt) return undefined;
  const budget = call.details.callerTurn?.budget;
  if (budget !== undefined && !(budget.remaining > 0)) return undefined;
  return wait(waitMs, call.context?.signal).then(() => {
    if (call.done) return undefined; // stopped while waiting: its answer is given
    if (budget !== undefined) {
      if (!(budget.remaining > 0)) return answer;
      budget.remaining -= 1;
    }
    call.attempts++;
    return tool.execute(call.args!, call.context!);
  });
}

/** Resolves after `ms`, or at once when `signal` fires (the call was stopped: its answer is already given). */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
