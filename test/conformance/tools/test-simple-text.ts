/**
 * Implementation of the tool `test_simple_text` (schemas/test_simple_text.tool.json), called by the conformance scenario `tools-call-simple-text`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestSimpleTextToolBase } from '../generated/tools/test-simple-text.base.js';
import type { TestSimpleTextArgs, TestSimpleTextOutput } from '../generated/types/test-simple-text.js';

/** The text the scenario asks for. */
export const SIMPLE_TEXT = 'This is a simple text response for testing.';

/** `test_simple_text`: the text as output and as a text content block. */
export class TestSimpleTextTool extends TestSimpleTextToolBase {
  readonly contentTypes = ['text'] as const;

  async execute(
    _args: TestSimpleTextArgs,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestSimpleTextOutput>> {
    return { success: true, output: SIMPLE_TEXT, content: [{ type: 'text', text: SIMPLE_TEXT }] };
  }
}
