/**
 * A failure the tool answered, checked against the errors it declares (its definition's `errors`),
 * as the output step checks an output: a declared code with fitting data is `TOOL_FAILED` with
 * `errorDetails.failure`; an undeclared code, or data that does not fit its schema, is
 * `OUTPUT_INVALID`, with everything the tool returned kept in the details.
 */
import { describeThrown, truncateText } from '../../errors.js';
import { SchemaValidator } from '../../schema/validation.js';
import type { DeclaredToolError, ITool, ToolExecutionFailure } from '../../tool.js';
import { type DeclaredFailureDetails, ToolCallFailure, withoutStack } from '../failure.js';

/** The declared error `code` of `tool`, or undefined (an own key only: a code is text the tool chose). */
export function declaredError(tool: ITool, code: unknown): DeclaredToolError | undefined {
  const errors = tool.errors;
  if (errors === undefined || errors === null || typeof code !== 'string' || !Object.hasOwn(errors, code))
    return undefined;
  return errors[code];
}

/**
 * The answer to a failed `result` of `tool`, which declares its errors: `message` is the call's
 * `TOOL_FAILED` message. A failure without a code stays a plain `TOOL_FAILED`.
 */
export function checkDeclaredFailure(tool: ITool, result: ToolExecutionFailure, message: string): ToolCallFailure {
  const { code, data } = result;
  const details = withoutStack(result.details);
  if (code === undefined) return new ToolCallFailure('TOOL_FAILED', message, details);
  const declared = declaredError(tool, code);
  if (declared === undefined) {
    const codes = Object.keys(tool.errors!).sort();
    return invalidFailure(
      tool,
      result,
      `it failed with the code ${JSON.stringify(truncateText(String(code), 100))}, which it does not declare (declared: ${codes.join(', ')})`,
    );
  }
  let checked: unknown = data;
  if (declared.data === undefined) {
    if (data !== undefined)
      return invalidFailure(tool, result, `its error ${code} declares no data, but data was given`);
  } else {
    let outcome: ReturnType<SchemaValidator['validate']>;
    try {
      outcome = new SchemaValidator({ generated: declared.data }).validate(data);
    } catch (error) {
      return invalidFailure(tool, result, `the data of its error ${code} is not JSON data: ${describeThrown(error)}`);
    }
    if (!outcome.valid) {
      const shown = outcome.errors
        .slice(0, 3)
        .map((issue) => issue.message)
        .join('; ');
      return invalidFailure(tool, result, `the data of its error ${code} fails its schema: ${shown}`, outcome.errors);
    }
    checked = outcome.value;
  }
  const failure: DeclaredFailureDetails = {
    code,
    description: declared.description,
    retryable: typeof result.retryable === 'boolean' ? result.retryable : declared.retryable === true,
  };
  if (checked !== undefined) failure.data = checked;
  return new ToolCallFailure('TOOL_FAILED', message, details, undefined, failure);
}

/** `OUTPUT_INVALID` for a failure that breaks the tool's declared errors; what it returned is in `details.returned`. */
function invalidFailure(
  tool: ITool,
  result: ToolExecutionFailure,
  problem: string,
  errors?: readonly unknown[],
): ToolCallFailure {
  const { success: _success, ...returned } = result;
  const details: Record<string, unknown> = { returned: { ...returned, details: withoutStack(result.details) } };
  if (errors !== undefined) details.errors = errors;
  return new ToolCallFailure(
    'OUTPUT_INVALID',
    `Tool '${tool.name}' answered a failure that breaks its declared errors: ${problem}.`,
    details,
  );
}
