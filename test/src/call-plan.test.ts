import { describe, expect, it } from 'vitest';
import { ToolOrchestrator, type ITool } from '../../src/index.js';
import { PipelineCall, endCall, type CallHost, type CallStep } from '../../src/pipeline/call.js';
import { createDriver, planSteps } from '../../src/pipeline/driver.js';
import { prepareTool } from '../../src/pipeline/registered-tool.js';

import { CALL_STEPS } from '../../src/pipeline/driver.js';
import { callTool, makeTool } from './helpers.js';

/** The settings of a host, as the steps' `plain` read them. */
function host(settings: Partial<CallHost> = {}): CallHost {
  return {
    defaultTimeoutMs: undefined,
    requireApproval: 'side-effects',
    approvalGate: undefined,
    allowSideEffects: false,
    maxConcurrency: undefined,
    isDisabled: () => false,
    ...settings,
  } as CallHost;
}

/** The names of the steps a plain call of `tool` skips on `on`. */
function skipped(tool: ITool, on: CallHost): string[] {
  const mask = planSteps(prepareTool(tool), on);
  return CALL_STEPS.filter((_, index) => (mask & (1 << index)) !== 0).map((step) => step.name);
}

describe('the plan of a registration: the steps a plain call skips', () => {
  it('a trivial tool on a host without settings skips every step that has nothing to do', () => {
    expect(skipped(makeTool('t'), host())).toEqual([
      'deadline',
      'refusal',
      'permissions',
      'budget',
      'approval',
      'slot',
    ]);
  });

  it('a step the tool or the host gives something to do is not skipped', () => {
    const busy = makeTool('busy', {
      timeoutMs: 100,
      refusal: () => undefined,
      requiredCapabilities: ['cap:x'],
      hasSideEffects: true,
    });
    expect(skipped(busy, host({ approvalGate: async () => true, maxConcurrency: 1 }))).toEqual(['budget']);
    expect(skipped(makeTool('t'), host({ defaultTimeoutMs: 5 }))).not.toContain('deadline');
    expect(skipped(makeTool('t'), host({ isDisabled: () => true }))).not.toContain('permissions');
    expect(skipped(makeTool('t'), host({ requireApproval: 'always' }))).not.toContain('approval');
    // Side effects, no gate, policy `side-effects`: approval refuses unless the host allows side effects.
    expect(skipped(makeTool('t', { hasSideEffects: true }), host())).not.toContain('approval');
    expect(skipped(makeTool('t', { hasSideEffects: true }), host({ allowSideEffects: true }))).toContain('approval');
  });

  it('a lazy tool not loaded yet has no plan (-1): its stand-in decides nothing', async () => {
    const { defineLazyTool } = await import('../../src/index.js');
    const lazy = defineLazyTool(makeTool('lazy'), async () => makeTool('lazy'));
    expect(planSteps(prepareTool(lazy), host())).toBe(-1);
  });

  it('the driver passes over the positions the call skips, and only those', async () => {
    const ran: number[] = [];
    const steps: CallStep[] = [0, 1, 2, 3].map((index) => ({
      name: 'request',
      codes: [],
      resume: undefined,
      reject: undefined,
      run(call: PipelineCall) {
        ran.push(index);
        if (index === 3) endCall(call);
      },
    }));
    let settled!: () => void;
    const done = new Promise<void>((resolve) => {
      settled = resolve;
    });
    const call = new PipelineCall({ settle: () => settled() } as unknown as CallHost);
    call.skip = 0b0110;
    createDriver(steps)(call, 0);
    await done;
    expect(ran).toEqual([0, 3]);
  });
});

describe('a plain call and a call with its own options answer alike', () => {
  it('a call that brings a budget or a timeout runs the steps a plain call of the same tool skips', async () => {
    const slow = makeTool('t', {
      execute: () => new Promise((resolve) => setTimeout(resolve, 50, { success: true, output: {} })),
    });
    const orchestrator = new ToolOrchestrator({ tools: [slow] });
    expect((await callTool(orchestrator, 't', {})).isError).toBe(false); // the plan of `t` is made
    const plainTool = new ToolOrchestrator({ tools: [makeTool('p')] });
    expect((await callTool(plainTool, 'p', {})).isError).toBe(false); // the plan of `p` is made
    const budget = { remaining: 1 };
    const first = await callTool(plainTool, 'p', {}, { callerTurn: { budget } });
    expect(first.isError).toBe(false);
    expect(budget.remaining).toBe(0);
    const spent = await callTool(plainTool, 'p', {}, { callerTurn: { budget } });
    expect(spent.errorDetails?.code).toBe('BUDGET_EXCEEDED');
    const timedOut = await callTool(orchestrator, 't', {}, { timeoutMs: 10 });
    expect(timedOut.errorDetails?.code).toBe('TIMEOUT');
    await Promise.all([orchestrator.shutdown(), plainTool.shutdown()]);
  });
});
