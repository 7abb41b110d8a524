import { ToolExecutor as AgentOSToolExecutor } from '@framers/agentos/core/tools';
import { describe, expect, it, vi } from 'vitest';
import { createTools } from '../../../generated/registry.js';

describe('generated tools in an AgentOS ToolExecutor, unchanged', () => {
  it('register every generated tool and run the calculator and a failing call', async () => {
    const silence = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => undefined),
    );
    try {
      const executor = new AgentOSToolExecutor();
      const tools = createTools();
      for (const tool of tools) await executor.registerTool(tool as never);
      expect(tools.map((tool) => executor.getTool(tool.name)?.name)).toEqual(tools.map((tool) => tool.name));
      const caller = { gmiId: 'g', personaId: 'p', userContext: { userId: 'u' } };
      const ok = await executor.executeTool({
        ...caller,
        personaCapabilities: [],
        toolCallRequest: { id: '1', name: 'calculator', arguments: { expression: '2*(3+4)', precision: 2 } },
      });
      expect(ok).toMatchObject({ success: true, output: { expression: '2*(3+4)', result: 14 } });
      // AgentOS compiles the generated (bundled, self-contained) inputSchema itself and rejects bad input.
      const bad = await executor.executeTool({
        ...caller,
        personaCapabilities: [],
        toolCallRequest: { id: '2', name: 'calculator', arguments: { expression: 7, precision: 99 } },
      });
      expect(bad.success).toBe(false);
      const shared = await executor.executeTool({
        ...caller,
        personaCapabilities: [],
        toolCallRequest: { id: '3', name: 'memory_read', arguments: { query: { key: 'NOT A KEY' } } },
      });
      expect(shared.success).toBe(false);
    } finally {
      for (const spy of silence) spy.mockRestore();
    }
  });
});
