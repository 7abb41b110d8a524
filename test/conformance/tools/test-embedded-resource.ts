/**
 * Implementation of the tool `test_embedded_resource` (schemas/test_embedded_resource.tool.json), called by the conformance scenario `tools-call-embedded-resource`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestEmbeddedResourceToolBase } from '../generated/tools/test-embedded-resource.base.js';
import type {
  TestEmbeddedResourceArgs,
  TestEmbeddedResourceOutput,
} from '../generated/types/test-embedded-resource.js';

/** `test_embedded_resource`: one embedded text resource. */
export class TestEmbeddedResourceTool extends TestEmbeddedResourceToolBase {
  readonly contentTypes = ['resource'] as const;

  async execute(
    _args: TestEmbeddedResourceArgs,
    _context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestEmbeddedResourceOutput>> {
    return {
      success: true,
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    };
  }
}
