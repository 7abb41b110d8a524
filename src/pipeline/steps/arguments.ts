import { describeThrown, truncateText } from '../../errors.js';
import type { ValidationIssue } from '../../schema/validation.js';
import { failWith } from '../call.js';
import { ToolCallFailure } from '../failure.js';
import type { RegisteredTool } from '../registered-tool.js';
import type { CallStepImplementation } from '../step.js';

/** `SCHEMA_INVALID`, `INVALID_ARGUMENTS`: the call's copy of the input defaulted, validated and coerced where needed, then `validateArgs`. */
export const argumentsStep: CallStepImplementation = {
  run(call) {
    const invalid = checkArguments(call.entry!, call.args!);
    if (invalid !== undefined) failWith(call, invalid);
  },
};

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
 * `tool.validateArgs` if there is one. `undefined` when the arguments may go on.
 */
export function checkArguments(entry: RegisteredTool, args: Record<string, unknown>): ToolCallFailure | undefined {
  const input = entry.input;
  if (input.validateFunction === undefined) {
    return new ToolCallFailure(
      'SCHEMA_INVALID',
      `Tool '${entry.name}' cannot be called: its input schema does not compile (${input.schemaError}).`,
      {
        schemaError: input.schemaError,
      },
    );
  }
  const errors = input.check(args);
  if (errors !== undefined) return invalidArguments(entry.name, errors);
  const validateArgs = entry.tool.validateArgs;
  if (validateArgs !== undefined) {
    try {
      const verdict: { isValid: boolean; errors?: unknown[] } = validateArgs.call(entry.tool, args);
      if (!verdict?.isValid) return invalidArguments(entry.name, issuesFromValidateArgs(verdict?.errors));
    } catch (error) {
      // It threw, or answered a verdict (or errors) that cannot be read.
      return new ToolCallFailure(
        'TOOL_ERROR',
        `Tool '${entry.name}' threw while validating its arguments: ${describeThrown(error)}`,
        undefined,
        error,
      );
    }
  }
  return undefined;
}

function invalidArguments(toolName: string, errors: ValidationIssue[]): ToolCallFailure {
  const shown = errors
    .slice(0, 3)
    .map((error) => error.message)
    .join('; ');
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return new ToolCallFailure(
    'INVALID_ARGUMENTS',
    `Invalid arguments for tool '${toolName}': ${shown}${more}. Fix them and call again.`,
    { errors },
  );
}
