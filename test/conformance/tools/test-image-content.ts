/**
 * Implementation of the tool `test_image_content` (schemas/test_image_content.tool.json), called by the conformance scenario `tools-call-image`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestImageContentToolBase } from '../generated/tools/test-image-content.base.js';
import type { TestImageContentArgs, TestImageContentOutput } from '../generated/types/test-image-content.js';
import { RED_PIXEL_PNG } from './samples.js';

/** `test_image_content`: one image block, a 1×1 red PNG. */
export class TestImageContentTool extends TestImageContentToolBase {
  async execute(
    _args: TestImageContentArgs,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestImageContentOutput>> {
    return { success: true, content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] };
  }
}
