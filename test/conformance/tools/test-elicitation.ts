/**
 * Implementation of the tool `test_elicitation` (schemas/test_elicitation.tool.json), called by the conformance scenario `tools-call-elicitation`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestElicitationToolBase } from '../generated/tools/test-elicitation.base.js';
import type { TestElicitationArgs, TestElicitationOutput } from '../generated/types/test-elicitation.js';

/** `test_elicitation`: asks for a username and an email address; an error when the client cannot ask its user. */
export class TestElicitationTool extends TestElicitationToolBase {
  async execute(
    args: TestElicitationArgs,
    context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestElicitationOutput>> {
    if (context.elicit === undefined)
      return { success: false, error: 'This client cannot ask its user (no elicitation capability).' };
    const answer = await context.elicit({
      message: args.message,
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    });
    return {
      success: true,
      output: `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    };
  }
}
