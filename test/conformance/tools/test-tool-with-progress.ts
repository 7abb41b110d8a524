/**
 * Implementation of the tool `test_tool_with_progress` (schemas/test_tool_with_progress.tool.json), called by the conformance scenario `tools-call-with-progress`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolExecutionContext, ToolExecutionResult } from '../../../src/index.js';
import { TestToolWithProgressToolBase } from '../generated/tools/test-tool-with-progress.base.js';
import type {
  TestToolWithProgressArgs,
  TestToolWithProgressOutput,
} from '../generated/types/test-tool-with-progress.js';

/** `test_tool_with_progress`: the scenario's steps 0, 50 and 100 of 100, ~50 ms apart, reported and in the output. */
export class TestToolWithProgressTool extends TestToolWithProgressToolBase {
  async execute(
    _args: TestToolWithProgressArgs,
    context: ToolExecutionContext,
  ): Promise<ToolExecutionResult<TestToolWithProgressOutput>> {
    const reached: number[] = [];
    const reach = (progress: number) => {
      reached.push(progress);
      context.progress?.({ progress, total: 100 });
    };
    reach(0);
    await sleep(50, undefined, { signal: context.signal });
    reach(50);
    await sleep(50, undefined, { signal: context.signal });
    reach(100);
    return { success: true, output: `Progress ${reached.map((value) => `${value}/100`).join(', ')}` };
  }
}
