import { ToolExecutor, ToolOrchestrator, ToolPermissionManager } from '@framers/agentos/core/tools';
const tool = {
  id: 'add_numbers@1', name: 'add_numbers', displayName: 'Add', description: 'Adds', category: 'bench', version: '1', hasSideEffects: false, requiredCapabilities: [],
  inputSchema: { type: 'object', required: ['a', 'b'], additionalProperties: false, properties: { a: { type: 'number' }, b: { type: 'number' } } },
  outputSchema: { type: 'object', required: ['sum'], additionalProperties: false, properties: { sum: { type: 'number' } } },
  async execute(args: any) { return { success: true, output: { sum: args.a + args.b } }; },
};
const pm = new ToolPermissionManager();
await pm.initialize({ strictCapabilityChecking: false, logToolCalls: false });
const ex = new ToolExecutor();
const orch = new ToolOrchestrator();
await orch.initialize({ logToolCalls: false }, pm, ex, [tool as any]);
const r = await orch.processToolCall({ toolCallRequest: { id: 'c1', name: 'add_numbers', arguments: { a: 1, b: '2' } }, gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' } } as any);
console.log(JSON.stringify(r));
const r2 = await orch.processToolCall({ toolCallRequest: { id: 'c1', name: 'add_numbers', arguments: { a: 1, b: 'x' } }, gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' } } as any);
console.log(JSON.stringify(r2));
const t = performance.now(); for (let i = 0; i < 20000; i++) await orch.processToolCall({ toolCallRequest: { id: 'c1', name: 'add_numbers', arguments: { a: 1, b: 2 } }, gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' } } as any);
console.error('us/call', (performance.now() - t) / 20);
