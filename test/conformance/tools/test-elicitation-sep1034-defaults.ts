/**
 * Implementation of the tool `test_elicitation_sep1034_defaults` (schemas/test_elicitation_sep1034_defaults.tool.json), called by the conformance scenario `elicitation-sep1034-defaults`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestElicitationSep1034DefaultsToolBase } from '../generated/tools/test-elicitation-sep1034-defaults.base.js';
import type {
  TestElicitationSep1034DefaultsArgs,
  TestElicitationSep1034DefaultsOutput,
} from '../generated/types/test-elicitation-sep1034-defaults.js';

/** `test_elicitation_sep1034_defaults`: a form whose fields of every primitive type carry defaults (SEP-1034). */
export class TestElicitationSep1034DefaultsTool extends TestElicitationSep1034DefaultsToolBase {
  async execute(
    _args: TestElicitationSep1034DefaultsArgs,
    context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestElicitationSep1034DefaultsOutput>> {
    if (context.elicit === undefined)
      return { success: false, error: 'This client cannot ask its user (no elicitation capability).' };
    const answer = await context.elicit({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
      },
    });
    return {
      success: true,
      output: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    };
  }
}
