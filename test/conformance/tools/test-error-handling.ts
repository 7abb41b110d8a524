/**
 * Implementation of the tool `test_error_handling` (schemas/test_error_handling.tool.json), called by the conformance scenario `tools-call-error`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestErrorHandlingToolBase } from '../generated/tools/test-error-handling.base.js';
import type { TestErrorHandlingArgs, TestErrorHandlingOutput } from '../generated/types/test-error-handling.js';

/** `test_error_handling`: always a failed call, which MCP answers as an `isError: true` result. */
export class TestErrorHandlingTool extends TestErrorHandlingToolBase {
  async execute(
    _args: TestErrorHandlingArgs,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestErrorHandlingOutput>> {
    return { success: false, error: 'This tool intentionally returns an error for testing' };
  }
}
