/**
 * Implementation of the tool `test_sampling` (schemas/test_sampling.tool.json), called by the conformance scenario `tools-call-sampling`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestSamplingToolBase } from '../generated/tools/test-sampling.base.js';
import type { TestSamplingArgs, TestSamplingOutput } from '../generated/types/test-sampling.js';

/** `test_sampling`: one model call through the client; an error when the client cannot make one. */
export class TestSamplingTool extends TestSamplingToolBase {
  async execute(
    args: TestSamplingArgs,
    context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestSamplingOutput>> {
    if (context.sample === undefined)
      return { success: false, error: 'This client cannot run a model call (no sampling capability).' };
    const answer = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
      maxTokens: 100,
    });
    const text = typeof answer.content?.text === 'string' ? answer.content.text : JSON.stringify(answer.content);
    return { success: true, output: `LLM response: ${text}` };
  }
}
