import { describeThrown, truncateText } from '../../errors.js';
import { describeArgumentProblems } from '../../feedback/problems.js';
import { copyJsonValue, type ValidationIssue } from '../../schema/validation.js';
import { failWith, type PipelineCall, type CallStepImplementation } from '../call.js';
import { ToolCallFailure, thrownFailure } from '../failure.js';
import type { RegisteredTool } from '../registered-tool.js';

/**
 * `SCHEMA_INVALID`, `INVALID_ARGUMENTS`: the call's copy of the input defaulted, validated and
 * coerced where needed (the values converted kept on the call), then `validateArgs`.
 */
export const argumentsStep: CallStepImplementation = {
  run(call) {
    const entry = call.entry!;
    const invalid = checkArguments(entry, call.args!);
    if (invalid === undefined) {
      const coercions = entry.input.lastCoercions;
      if (coercions !== undefined) call.coercions = coercions;
    } else if (invalid instanceof ToolCallFailure) {
      failWith(call, invalid);
    } else {
      failWith(call, invalidArguments(call, invalid));
    }
  },
};

/** Longest JSON of arguments echoed back in an `INVALID_ARGUMENTS` failure's details (`arguments`). */
const MAX_ECHOED_ARGUMENTS = 1000;

function issuesFromValidateArgs(errors: unknown[] | undefined): ValidationIssue[] {
  if (!Array.isArray(errors) || errors.length === 0) {
    return [{ path: '', message: '(root) was rejected by the tool', keyword: 'validateArgs', params: {} }];
  }
  return errors.slice(0, 100).map((error): ValidationIssue => {
    if (error !== null && typeof error === 'object') {
      const record = error as Record<string, unknown>;
      const path =
        typeof record.path === 'string'
          ? record.path
          : typeof record.instancePath === 'string'
            ? record.instancePath
            : '';
      const text = typeof record.message === 'string' ? truncateText(record.message, 1000) : 'is invalid';
      return {
        path,
        message: text.startsWith(path) && path !== '' ? text : `${path === '' ? '(root)' : truncateText(path)} ${text}`,
        keyword: typeof record.keyword === 'string' ? record.keyword : 'validateArgs',
        params:
          record.params !== null && typeof record.params === 'object' ? (record.params as Record<string, unknown>) : {},
      };
    }
    return { path: '', message: `(root) ${describeThrown(error, 1000)}`, keyword: 'validateArgs', params: {} };
  });
}

/**
 * Coerces, fills defaults and validates `args` **in place** (pass a copy you own), then asks
 * `tool.validateArgs` if there is one. `undefined` when the arguments may go on, the issues when
 * they do not fit, a failure when they cannot be checked.
 */
function checkArguments(
  entry: RegisteredTool,
  args: Record<string, unknown>,
): ToolCallFailure | ValidationIssue[] | undefined {
  const input = entry.input;
  if (input.validateFunction === undefined) {
    return new ToolCallFailure(
      'SCHEMA_INVALID',
      `Tool '${entry.name}' cannot be called: its input schema does not compile (${input.schemaError}).`,
      { schemaError: input.schemaError },
    );
  }
  const errors = input.check(args);
  if (errors !== undefined) return errors;
  const validateArgs = entry.tool.validateArgs;
  if (validateArgs !== undefined) {
    try {
      const verdict: { isValid: boolean; errors?: unknown[] } = validateArgs.call(entry.tool, args);
      if (!verdict?.isValid) return issuesFromValidateArgs(verdict?.errors);
    } catch (error) {
      // It threw, or answered a verdict (or errors) that cannot be read.
      return thrownFailure('TOOL_ERROR', `Tool '${entry.name}' threw while validating its arguments`, error);
    }
  }
  return undefined;
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
 * optional nulls), read again, when their JSON is at most `MAX_ECHOED_ARGUMENTS` characters.
 */
function argumentsAsSent(raw: unknown): unknown {
  try {
    const sent =
      typeof raw === 'string' ? (raw.length <= MAX_ECHOED_ARGUMENTS ? JSON.parse(raw) : undefined) : copyJsonValue(raw);
    const json = JSON.stringify(sent);
    return json !== undefined && json.length <= MAX_ECHOED_ARGUMENTS ? sent : undefined;
  } catch {
    return undefined; // arguments that cannot be read twice are not echoed
  }
}
