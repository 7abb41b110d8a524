/**
 * Implementation of the tool `test_multiple_content_types` (schemas/test_multiple_content_types.tool.json), called by the conformance scenario `tools-call-mixed-content`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestMultipleContentTypesToolBase } from '../generated/tools/test-multiple-content-types.base.js';
import type {
  TestMultipleContentTypesArgs,
  TestMultipleContentTypesOutput,
} from '../generated/types/test-multiple-content-types.js';
import { RED_PIXEL_PNG } from './samples.js';

/** `test_multiple_content_types`: a text, an image and an embedded JSON resource, in that order. */
export class TestMultipleContentTypesTool extends TestMultipleContentTypesToolBase {
  readonly contentTypes = ['text', 'image', 'resource'] as const;

  async execute(
    _args: TestMultipleContentTypesArgs,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestMultipleContentTypesOutput>> {
    return {
      success: true,
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    };
  }
}
