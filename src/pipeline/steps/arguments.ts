import { describeThrown, truncateText } from '../../errors.js';
import { describeArgumentProblems } from '../../feedback/problems.js';
import type { ValidationIssue } from '../../schema/validation.js';
import { isObject } from '../../schema/walk.js';
import { failCall, failWith, type PipelineCall, type CallStepImplementation } from '../call.js';
import { ToolCallFailure, thrownFailure } from '../failure.js';
import type { ITool } from '../../tool.js';

/**
 * `SCHEMA_INVALID`, `INVALID_ARGUMENTS`: the call's copy of the input defaulted, validated and
 * coerced where needed (the values converted kept on the call), then `validateArgs`.
 */
export const argumentsStep: CallStepImplementation = {
  run(call) {
    const entry = call.entry!;
    const input = entry.input;
    if (input.validateFunction === undefined) {
      const schemaError = input.schemaError;
      const message = `Tool '${entry.name}' cannot be called: its input schema does not compile (${schemaError}).`;
      return failCall(call, 'SCHEMA_INVALID', message, { schemaError });
    }
    let errors = input.check(call.args!);
    if (errors === undefined && entry.tool.validateArgs !== undefined) {
      try {
        errors = validateArgsIssues(entry.tool, call.args!);
      } catch (error) {
        // It threw, or answered a verdict (or errors) that cannot be read.
        const message = `Tool '${entry.name}' threw while validating its arguments`;
        return failWith(call, thrownFailure('TOOL_ERROR', message, error));
      }
    }
    if (errors !== undefined) return failWith(call, invalidArguments(call, errors));
    const coercions = input.lastCoercions;
    if (coercions !== undefined) call.coercions = coercions;
  },
};

/** Longest JSON of arguments echoed back in an `INVALID_ARGUMENTS` failure's details (`arguments`). */
const MAX_ECHOED_ARGUMENTS = 1000;

/** The issues `tool.validateArgs` finds in `args` (coerced and defaulted already), or undefined when it finds none. */
function validateArgsIssues(tool: ITool, args: Record<string, unknown>): ValidationIssue[] | undefined {
  const verdict: { isValid: boolean; errors?: unknown[] } = tool.validateArgs!(args);
  if (verdict?.isValid) return undefined;
  const errors = verdict?.errors;
  if (!Array.isArray(errors) || errors.length === 0) {
    return [{ path: '', message: '(root) was rejected by the tool', keyword: 'validateArgs', params: {} }];
  }
  return errors.slice(0, 100).map((error): ValidationIssue => {
    if (!isObject(error))
      return { path: '', message: `(root) ${describeThrown(error, 1000)}`, keyword: 'validateArgs', params: {} };
    const path =
      typeof error.path === 'string' ? error.path : typeof error.instancePath === 'string' ? error.instancePath : '';
    const text = typeof error.message === 'string' ? truncateText(error.message, 1000) : 'is invalid';
    return {
      path,
      message: text.startsWith(path) && path !== '' ? text : `${path === '' ? '(root)' : truncateText(path)} ${text}`,
      keyword: typeof error.keyword === 'string' ? error.keyword : 'validateArgs',
      params: isObject(error.params) ? error.params : {},
    };
  });
}

/**
 * `INVALID_ARGUMENTS` with the validator's issues (`errors`, for programs), the same in words a model
 * can act on (`problems`, see src/feedback/), and the arguments as sent when they are small
 * (`arguments`, which the feedback echoes with each problem marked).
 */
function invalidArguments(call: PipelineCall, errors: ValidationIssue[]): ToolCallFailure {
  const entry = call.entry!;
  const problems = describeArgumentProblems(errors, entry.tool.inputSchema, call.args);
  const shown = problems
    .slice(0, 3)
    .map((problem) => `${problem.path === '' ? '(root)' : truncateText(problem.path)}: ${problem.message}`)
    .join('; ');
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  const summary = `${shown}${more}${/[.?!]$/.test(`${shown}${more}`) ? '' : '.'}`;
  const details: Record<string, unknown> = { errors, problems };
  const sent = argumentsAsSent(call.request!.arguments);
  if (sent !== undefined) details.arguments = sent;
  return new ToolCallFailure(
    'INVALID_ARGUMENTS',
    `Invalid arguments for tool '${entry.name}': ${summary} Fix them and call again.`,
    details,
  );
}

/**
 * The call's arguments as the caller sent them (before defaults, coercion and the removal of
 * optional nulls), read again from their JSON when it is at most `MAX_ECHOED_ARGUMENTS` characters.
 */
function argumentsAsSent(raw: unknown): unknown {
  try {
    const json = typeof raw === 'string' ? raw : JSON.stringify(raw);
    return json !== undefined && json.length <= MAX_ECHOED_ARGUMENTS ? JSON.parse(json) : undefined;
  } catch {
    return undefined; // arguments that cannot be read twice are not echoed
  }
}
