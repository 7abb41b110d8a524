import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLazyTools } from '../../generated/lazy-registry.js';
import { createTools } from '../../generated/registry.js';
import { ToolExecutor, ToolOrchestrator, defineLazyTool, isLazyTool, type ITool } from '../../src/index.js';
import { CalculatorTool } from '../../src/tools/calculator.js';

const caller = {
  gmiId: 'g',
  personaId: 'p',
  personaCapabilities: ['capability:memory:write'],
  userContext: { userId: 'u' },
};
const call = (o: ToolOrchestrator, name: string, args: Record<string, unknown>) =>
  o.processToolCall({ ...caller, toolCallRequest: { id: name, name, arguments: args } });
const dataDir = mkdtempSync(path.join(tmpdir(), 'toolsmith-lazy-'));
const previousDataDir = process.env.TOOLSMITH_DATA_DIR;
process.env.TOOLSMITH_DATA_DIR = dataDir;
afterAll(() => {
  if (previousDataDir === undefined) delete process.env.TOOLSMITH_DATA_DIR;
  else process.env.TOOLSMITH_DATA_DIR = previousDataDir;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('lazily loaded tools', () => {
  it('the generated lazy registry lists the same tools, with the same metadata, as the eager one', () => {
    const lazy = createLazyTools();
    const eager = createTools();
    expect(lazy.every((tool) => isLazyTool(tool))).toBe(true);
    const shape = (tool: ITool) => ({
      id: tool.id,
      name: tool.name,
      displayName: tool.displayName,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      requiredCapabilities: tool.requiredCapabilities,
      category: tool.category,
      version: tool.version,
      hasSideEffects: tool.hasSideEffects,
      annotations: tool.annotations,
    });
    expect(lazy.map(shape)).toEqual(eager.map(shape));
    // Serialized, a stand-in gives the metadata fields a loaded tool gives, with the same values (a
    // loaded tool adds its own fields: validators, a root folder, a composed tool's steps).
    const metadataKeys = [
      'id',
      'name',
      'displayName',
      'description',
      'inputSchema',
      'outputSchema',
      'requiredCapabilities',
      'category',
      'version',
      'hasSideEffects',
      'annotations',
    ];
    lazy.forEach((tool, index) => {
      const fromLazy = JSON.parse(JSON.stringify(tool)) as Record<string, unknown>;
      const fromEager = JSON.parse(JSON.stringify(eager[index])) as Record<string, unknown>;
      expect(Object.keys(fromLazy)).toEqual(metadataKeys.filter((key) => key in fromEager));
      for (const key of Object.keys(fromLazy)) expect(fromLazy[key], `${tool.name}.${key}`).toEqual(fromEager[key]);
    });
  });

  it('registering loads nothing; the first call loads once, even when calls race; later calls reuse it', async () => {
    let loads = 0;
    const template = new CalculatorTool();
    const lazy = defineLazyTool({ ...template, requiredCapabilities: [] }, async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return new CalculatorTool();
    });
    const orchestrator = new ToolOrchestrator({ tools: [lazy] });
    expect(loads).toBe(0);
    expect(orchestrator.listTools().map((tool) => tool.name)).toEqual(['calculator']);
    const results = await Promise.all([
      call(orchestrator, 'calculator', { expression: '1+1' }),
      call(orchestrator, 'calculator', { expression: '2*3', precision: '1' }),
    ]);
    expect(results.map((result) => result.output)).toEqual([
      { expression: '1+1', result: 2 },
      { expression: '2*3', result: 6 },
    ]);
    expect((await call(orchestrator, 'calculator', { expression: '' })).errorDetails?.code).toBe('INVALID_ARGUMENTS');
    expect(loads).toBe(1);
    expect(orchestrator.getTool('calculator')).toBeInstanceOf(CalculatorTool);
  });

  it("reads a tool's schemas only when they are first needed (a listing), not at registration", async () => {
    let reads = 0;
    const { inputSchema, outputSchema, ...metadata } = new CalculatorTool();
    const lazy = defineLazyTool(
      { ...metadata, requiredCapabilities: [], schemas: () => (reads++, { inputSchema, outputSchema }) },
      async () => new CalculatorTool(),
    );
    const orchestrator = new ToolOrchestrator({ tools: [lazy] });
    expect(reads).toBe(0);
    expect(orchestrator.listTools()[0]).toMatchObject({ name: 'calculator', inputSchema, outputSchema });
    orchestrator.listTools();
    expect(reads).toBe(1);
  });

  it('known by name alone, with metadata that gives its schemas: the metadata is read once for a listing', () => {
    let reads = 0;
    const { name, inputSchema, outputSchema, ...rest } = new CalculatorTool();
    const schemas = () => ({ inputSchema, outputSchema });
    const lazy = defineLazyTool(
      { name, metadata: () => (reads++, { ...rest, schemas }) },
      async () => new CalculatorTool(),
    );
    expect(new ToolOrchestrator({ tools: [lazy] }).listTools()[0]).toMatchObject({ name, inputSchema, outputSchema });
    expect(reads).toBe(1);
  });

  it('known by name alone, reads its metadata only when asked (a listing or a capability check), once', async () => {
    let reads = 0;
    const { name, inputSchema, outputSchema, ...rest } = new CalculatorTool();
    const metadata = () => (reads++, { ...rest, requiredCapabilities: ['capability:math'], inputSchema, outputSchema });
    const orchestrator = new ToolOrchestrator({
      tools: [defineLazyTool({ name, metadata }, async () => new CalculatorTool())],
    });
    const withCapability = { ...caller, personaCapabilities: ['capability:math'] };
    expect(reads).toBe(0);
    // Listing for a caller reads the metadata (capabilities, description) of the tool not loaded yet.
    expect(orchestrator.listTools({ personaCapabilities: [] })).toEqual([]);
    expect(orchestrator.listTools(withCapability).map((tool) => [tool.name, tool.description])).toEqual([
      ['calculator', rest.description],
    ]);
    expect(reads).toBe(1);

    // Registered and called by name alone: the first call loads the tool and needs no metadata.
    let loads = 0;
    const fresh = new ToolOrchestrator({
      tools: [
        defineLazyTool(
          { name, metadata: () => (reads++, { ...rest, inputSchema }) },
          async () => (loads++, new CalculatorTool()),
        ),
      ],
    });
    const result = await fresh.processToolCall({
      ...caller,
      toolCallRequest: { id: '1', name, arguments: { expression: '1+2' } },
    });
    expect(result.output).toEqual({ expression: '1+2', result: 3 });
    expect([reads, loads]).toEqual([1, 1]);

    // The executor runs the same steps: it loads the tool, then checks the loaded tool's capabilities.
    class MathCalculator extends CalculatorTool {
      override readonly requiredCapabilities = ['capability:math'];
    }
    const lazyMath = () => defineLazyTool({ name, metadata }, async () => new MathCalculator());
    const executor = new ToolExecutor();
    executor.registerTool(lazyMath());
    const request = (personaCapabilities: string[]) => ({
      ...caller,
      personaCapabilities,
      toolCallRequest: { id: '2', name, arguments: { expression: '1+1' } },
    });
    expect((await executor.executeTool(request([]))).details).toEqual({
      code: 'PERMISSION_DENIED',
      missing: ['capability:math'],
    });
    expect(await executor.executeTool(request(['capability:math']))).toEqual({
      success: true,
      output: { expression: '1+1', result: 2 },
    });
    const orchestrator2 = new ToolOrchestrator({ tools: [lazyMath()] });
    expect((await orchestrator2.processToolCall(request([]))).errorDetails?.details).toEqual({
      missing: ['capability:math'],
    });
  });

  it('a failed load is a TOOL_ERROR result, and a later call tries again', async () => {
    let attempts = 0;
    const lazy = defineLazyTool({ ...new CalculatorTool() }, async () => {
      attempts++;
      if (attempts === 1) throw new Error('disk on fire');
      return new CalculatorTool();
    });
    const orchestrator = new ToolOrchestrator({ tools: [lazy] });
    const failed = await call(orchestrator, 'calculator', { expression: '1' });
    expect(failed.errorDetails).toMatchObject({ code: 'TOOL_ERROR', message: expect.stringContaining('disk on fire') });
    expect((await call(orchestrator, 'calculator', { expression: '1' })).output).toEqual({
      expression: '1',
      result: 1,
    });
  });

  it('a loader answering another tool is refused', async () => {
    const lazy = defineLazyTool({ ...new CalculatorTool(), name: 'not_calculator' }, async () => new CalculatorTool());
    const result = await call(new ToolOrchestrator({ tools: [lazy] }), 'not_calculator', { expression: '1' });
    expect(result.errorDetails?.code).toBe('TOOL_ERROR');
  });

  it('the example tools, composed one included, work through the lazy registry', async () => {
    const orchestrator = new ToolOrchestrator({ tools: createLazyTools(), allowSideEffects: true });
    expect((await call(orchestrator, 'calculator', { expression: '2*(3+4)' })).output).toEqual({
      expression: '2*(3+4)',
      result: 14,
    });
    const composed = await call(orchestrator, 'remember_calculation', { expression: '6*7', key: 'lazy.answer' });
    expect(composed.output).toMatchObject({ entry: { key: 'lazy.answer', value: '42' } });
    expect((await call(orchestrator, 'read_file', { path: 'x' })).errorDetails).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { missing: ['capability:filesystem:read'] },
    });
  });
});
