/**
 * The registry type-checks at scale. `createTools()` used to return one array literal of every
 * implementation class; TypeScript builds the union of those distinct classes and, at about 1,000
 * tools, gives up with TS2590 ("union type too complex"). At 1,500 tools the generated project —
 * types, validators, bases, stubs, registry with `createTools()`, `ToolTypes`, the typed client —
 * must pass tsc (strict).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { createTempProject, typeCheck, type TempProject } from '../helpers/temp-project.js';

const COUNT = 1500;
const name = (index: number) => `tool_${String(index).padStart(4, '0')}`;

describe(`a registry of ${COUNT} tools`, () => {
  let project: TempProject;

  beforeAll(async () => {
    project = createTempProject();
    for (let index = 0; index < COUNT; index++) {
      project.write(`schemas/${name(index)}.tool.json`, {
        name: name(index),
        description: `Tool number ${index}.`,
        inputSchema: {
          type: 'object',
          additionalProperties: false,
          required: ['q'],
          properties: { q: { type: 'string' }, n: { type: 'integer', default: index } },
        },
        outputSchema: {
          type: 'object',
          additionalProperties: false,
          required: [`r${index}`],
          properties: { [`r${index}`]: { type: 'number' } },
        },
      });
    }
    // Only what the registry needs: one manifest target, no prettier pass (the emitters' own layout).
    project.write('toolsmith.config.json', {
      runtimeImport: project.runtimeImport,
      format: false,
      manifests: { targets: ['mcp'] },
    });
    let stderr = '';
    const code = await main(['generate'], {
      cwd: project.root,
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 300_000);

  afterAll(() => project?.dispose());

  it('type-checks createTools(), ToolTypes and the typed client (tsc strict)', async () => {
    const registry = project.read('generated/registry.ts');
    expect(registry.match(/^ {2}tools\.push\(makeTool\(factories, '[^']+', Tool\d{4}Tool\)\);$/gm)).toHaveLength(COUNT);
    project.write(
      'check/client.ts',
      [
        "import { createToolClient, createTools, type ToolOutput } from '../generated/registry.js';",
        "import type { ToolOrchestrator } from '../" +
          project.runtimeImport.replace(/index\.js$/, 'orchestrator.js') +
          "';",
        'export const count: number = createTools().length;',
        'export async function use(orchestrator: ToolOrchestrator): Promise<number> {',
        "  const client = createToolClient(orchestrator, { gmiId: 'g', personaId: 'p', userContext: { userId: 'u' } });",
        `  const result = await client.call('${name(COUNT - 1)}', { q: 'x' });`,
        `  if (result.isError) return -1;`,
        `  const output: ToolOutput<'${name(COUNT - 1)}'> = result.output;`,
        `  return output.r${COUNT - 1};`,
        '}',
        '',
      ].join('\n'),
    );
    const result = await typeCheck(project, ['generated', 'src', 'check']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 300_000);
});
