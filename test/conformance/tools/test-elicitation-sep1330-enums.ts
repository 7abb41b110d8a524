/**
 * Implementation of the tool `test_elicitation_sep1330_enums` (schemas/test_elicitation_sep1330_enums.tool.json), called by the conformance scenario `elicitation-sep1330-enums`.
 */
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestElicitationSep1330EnumsToolBase } from '../generated/tools/test-elicitation-sep1330-enums.base.js';
import type {
  TestElicitationSep1330EnumsArgs,
  TestElicitationSep1330EnumsOutput,
} from '../generated/types/test-elicitation-sep1330-enums.js';

/** `test_elicitation_sep1330_enums`: a form with the five enum field shapes of SEP-1330. */
export class TestElicitationSep1330EnumsTool extends TestElicitationSep1330EnumsToolBase {
  async execute(
    _args: TestElicitationSep1330EnumsArgs,
    context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestElicitationSep1330EnumsOutput>> {
    if (context.elicit === undefined)
      return { success: false, error: 'This client cannot ask its user (no elicitation capability).' };
    const answer = await context.elicit({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            description: 'Select one option with titles',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Select one option (legacy)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Select multiple options',
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Select multiple options with titles',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
      },
    });
    return {
      success: true,
      output: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    };
  }
}
