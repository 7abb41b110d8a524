/**
 * Implementation of the tool `test_tool_with_logging` (schemas/test_tool_with_logging.tool.json), called by the conformance scenario `tools-call-with-logging`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestToolWithLoggingToolBase } from '../generated/tools/test-tool-with-logging.base.js';
import type { TestToolWithLoggingArgs, TestToolWithLoggingOutput } from '../generated/types/test-tool-with-logging.js';

/** `test_tool_with_logging`: the scenario's three info messages ~50 ms apart, each also a line of the output. */
export class TestToolWithLoggingTool extends TestToolWithLoggingToolBase {
  async execute(
    _args: TestToolWithLoggingArgs,
    context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestToolWithLoggingOutput>> {
    const steps: string[] = [];
    const step = (message: string) => {
      steps.push(message);
      context.log?.('info', message);
    };
    step('Tool execution started');
    await sleep(50, undefined, { signal: context.signal });
    step('Tool processing data');
    await sleep(50, undefined, { signal: context.signal });
    step('Tool execution completed');
    return { success: true, output: steps.join('\n') };
  }
}
