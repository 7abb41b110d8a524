import { describeThrown, isToolsmithError, truncateText } from '../../errors.js';
import { checkJsonDepth, copyJsonValue } from '../../schema/walk.js';
import { failCall, failWith, type PipelineCall, isPlainRequest, type CallStepImplementation } from '../call.js';
import { ToolCallFailure } from '../failure.js';
import { CALL_CHAIN } from '../markers.js';
import { retryPolicyProblem } from '../retry.js';

/** `SHUTTING_DOWN`: the host accepts no more calls (checked before anything else). */
export const shutdownStep: CallStepImplementation = {
  run(call) {
    if (call.host.closing)
      failCall(call, 'SHUTTING_DOWN', 'The orchestrator is shutting down and accepts no more calls.');
  },
};

/**
 * `INVALID_REQUEST`: a name, and `arguments` an object or a JSON string of one, read into the call's
 * own copy; a `retry` policy, when the call brings one, that is one.
 */
export const requestStep: CallStepImplementation = {
  run(call) {
    const name = call.name;
    if (typeof name !== 'string' || name === '')
      return failCall(call, 'INVALID_REQUEST', "The tool call has no 'name'. Send { id, name, arguments }.");
    const retry = call.details.retry;
    if (retry !== undefined) {
      const problem = retryPolicyProblem(retry);
      if (problem !== undefined) return failCall(call, 'INVALID_REQUEST', `The call's ${problem}`);
    }
    const args = readArguments(call.request!.arguments, call.toolName);
    if (args instanceof ToolCallFailure) return failWith(call, args);
    call.args = args;
  },
};

/**
 * `TOOL_NOT_FOUND`: the tool registered under exactly the name (the message lists the nearest),
 * whose plan (the steps plain for it, asked of the host once) a plain call then follows;
 * `COMPOSITION_TOO_DEEP` for a composed tool's step nested deeper than the host's `maxCompositionDepth`.
 */
export const lookupStep: CallStepImplementation = {
  run(call) {
    const name = call.name as string;
    const registry = call.host.registry;
    const entry = registry.get(name);
    if (entry === undefined) return failCall(call, 'TOOL_NOT_FOUND', registry.notFoundMessage(name));
    entry.inFlight++;
    call.entry = entry;
    const details = call.details;
    if (isPlainRequest(details)) {
      let plain = entry.plainSteps;
      if (plain < 0) plain = entry.plainSteps = call.host.planSteps(entry);
      if (plain > 0) call.skip = plain;
    }
    const chain = details[CALL_CHAIN];
    if (chain !== undefined && chain.length >= call.host.maxCompositionDepth) tooDeep(call, chain);
  },
};

function tooDeep(call: PipelineCall, chain: readonly string[]): void {
  const name = call.toolName;
  const limit = call.host.maxCompositionDepth;
  const cycleStart = chain.lastIndexOf(name); // the shortest cycle back to this tool
  const path = [...chain, name];
  const shown = path.length > 8 ? [...path.slice(0, 4), '…', ...path.slice(-3)] : path;
  const why =
    cycleStart === -1
      ? 'shorten the chain or raise the maxCompositionDepth option'
      : `composed tool '${name}' reaches itself through its steps (${[...chain.slice(cycleStart, cycleStart + 8), name].join(' → ')}); remove the cycle`;
  failCall(
    call,
    'COMPOSITION_TOO_DEEP',
    `Composed tools nest deeper than ${limit} levels (${shown.join(' → ')}): ${why}.`,
    { limit, chain: path.length > 64 ? path.slice(-64) : path },
  );
}

/** `INVALID_REQUEST` for arguments that are not a JSON object: `why`, after the tool's name. */
function invalid(toolName: string, why: string): ToolCallFailure {
  return new ToolCallFailure('INVALID_REQUEST', `Arguments for tool '${truncateText(toolName)}' ${why}`);
}

/**
 * Reads a call's `arguments` into an object the call owns: a JSON string is parsed (a fresh value
 * already), an object copied (so validation never touches the caller's object). Anything else is
 * `INVALID_REQUEST`, as is nesting deeper than `MAX_COPY_DEPTH`: JSON.parse takes any depth, but what
 * walks the value afterwards (a validator, a tool, JSON.stringify) may not, so text and object meet
 * the same limit.
 */
function readArguments(raw: unknown, toolName: string): Record<string, unknown> | ToolCallFailure {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return invalid(toolName, `are not valid JSON (${describeThrown(error, 200)}). Send a JSON object.`);
    }
  }
  let isArray: boolean;
  try {
    isArray = Array.isArray(value);
  } catch {
    isArray = false; // a revoked Proxy: the copy below says it is not JSON data
  }
  if (value === null || typeof value !== 'object' || isArray) {
    const kind = value === null ? 'null' : isArray ? 'an array' : `a ${typeof value}`;
    return invalid(toolName, `must be a JSON object or a JSON string of one; got ${kind}.`);
  }
  try {
    if (typeof raw !== 'string') return copyJsonValue(value as Record<string, unknown>);
    checkJsonDepth(value); // parsed text is the call's own already: only its depth is checked, nothing copied
    return value as Record<string, unknown>;
  } catch (error) {
    return invalid(toolName, `are not JSON data: ${isToolsmithError(error) ? error.message : describeThrown(error)}`);
  }
}
