import { describeThrown } from './errors.js';
import { OrchestratorHost } from './orchestrator.js';
import type { PipelineCall } from './pipeline/call.js';
import { runCall } from './pipeline/driver.js';
import { withoutStack } from './pipeline/failure.js';
import { prepareTool, type RegisterOptions, type RegisteredTool } from './pipeline/registered-tool.js';
import type { ToolExecutionRequestDetails } from './pipeline/types.js';
import type { ToolRegistry } from './registry.js';
import type { ITool, ToolExecutionResult } from './tool.js';

/**
 * The executor as a host of the call pipeline: the orchestrator's host with no orchestrator to
 * attach tools to and none of its options (no gate, queue, hooks or disabled tools, and side effects
 * allowed: AgentOS's executor runs what it is given, approval is the orchestrator's), answering
 * AgentOS-shaped results.
 */
class ExecutorHost extends OrchestratorHost {
  constructor() {
    super(undefined, { allowSideEffects: true });
  }

  override answer(call: PipelineCall): ToolExecutionResult {
    try {
      return executionResult(call);
    } catch (error) {
      // A result whose fields cannot be copied (a throwing getter): the call still resolves, once.
      return {
        success: false,
        error: `Tool '${call.toolName}' answered a result that cannot be read: ${describeThrown(error)}`,
        details: { code: 'TOOL_ERROR' },
      };
    }
  }
}

/**
 * The call as a `ToolExecutionResult`, as AgentOS's executor answers it: a failure carries its code
 * in `details.code`; a tool's own failed result is kept as the tool gave it (code added, stack
 * removed); a failing output fails the call but the result keeps the output.
 */
function executionResult(call: PipelineCall): ToolExecutionResult {
  const { toolResult: result, failure, output } = call;
  if (failure === undefined) return output === undefined ? result! : { ...result!, output };
  const code = failure.code;
  if (result !== undefined && (code === 'TOOL_FAILED' || code === 'STEP_FAILED' || code === 'COMPOSITION_TOO_DEEP')) {
    try {
      const details: Record<string, unknown> = { code: 'TOOL_FAILED', ...withoutStack(result.details) };
      // A declared failure, checked: the same field as the orchestrator's `errorDetails.failure`.
      if (failure.declared !== undefined) details.failure = failure.declared;
      return { ...result, details };
    } catch {
      // a result that cannot be copied: answered as any other failure
    }
  }
  const failed: ToolExecutionResult = {
    success: false,
    error: failure.message,
    details: { code, ...failure.details },
  };
  const given = code === 'OUTPUT_INVALID' ? result?.output : undefined;
  if (given !== undefined) failed.output = given;
  return failed;
}

/**
 * Registers tools and executes one call, with the AgentOS `ToolExecutor` contract
 * (`registerTool`, `getTool`, `executeTool` answering a `ToolExecutionResult`), so generated tools
 * drop into AgentOS-style code. A view on the orchestrator's call pipeline: the same steps in the
 * same order (request, lookup, lazy load, refusal, capabilities, arguments validated on a copy,
 * execute, output check), without what only an orchestrator has (shutdown, an approval gate,
 * queues, hooks). Failures carry their code in `details.code`; it never rejects.
 */
export class ToolExecutor {
  readonly #host = new ExecutorHost();
  /** Registered tools by exact name. */
  readonly registry: ToolRegistry<RegisteredTool> = this.#host.registry;

  /** Registers `tool` (validators prepared now); returns the registration it replaced, if any. */
  registerTool(tool: ITool, options: RegisterOptions = {}): RegisteredTool | undefined {
    return this.registry.add(prepareTool(tool), options);
  }

  /** Removes the tool registered under exactly `name`, without shutting it down; returns its registration. */
  removeTool(name: string): RegisteredTool | undefined {
    return this.registry.delete(name);
  }

  /** The tool registered under exactly `name`. */
  getTool(name: string): ITool | undefined {
    return this.registry.get(name)?.tool;
  }

  /** The prepared registration under exactly `name`. */
  getRegisteredTool(name: string): RegisteredTool | undefined {
    return this.registry.get(name);
  }

  /** Every registered tool, in registration order. */
  listTools(): ITool[] {
    return this.registry.values().map((entry) => entry.tool);
  }

  /** Executes one call through the call steps and answers the tool's result (a failure carries `details.code`); never rejects. */
  executeTool(request: ToolExecutionRequestDetails): Promise<ToolExecutionResult> {
    return runCall(this.#host, request);
  }
}
