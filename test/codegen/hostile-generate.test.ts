/**
 * Generate meets hostile input: every case ends in valid output or a clear problem with the file,
 * its line:column and a JSON pointer — never a crash, a hang or a raw errno trace — and a failed
 * run writes nothing. Each describe block is one class of input; each test one case of it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli.js';
import { createTempProject, run, typeCheck, type TempProject } from '../helpers/temp-project.js';

/** Every `Object.prototype` member that is also a valid tool name, definition key and property name. */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'] as const;

/** Runs `toolsmith generate` in a temp project holding `files` under schemas/. */
async function generateIn(project: TempProject, files: Record<string, unknown>, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  for (const [file, value] of Object.entries(files)) project.write(`schemas/${file}`, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
  if (!Object.hasOwn(files, '../toolsmith.config.json')) project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
  let stdout = '';
  let stderr = '';
  const code = await main(['generate', ...args], { cwd: project.root, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/**
 * Generates where generate must fail and returns stderr, after checking that it exited 1, printed
 * nothing on stdout, left the previous output and stubs byte-identical and left no temp folder.
 */
async function expectFailure(files: Record<string, unknown>, prepare?: (project: TempProject) => void): Promise<string> {
  const project = createTempProject();
  try {
    project.write('generated/index.ts', '// previous output\n');
    project.write('src/tools/keep.ts', '// hand-written\n');
    prepare?.(project);
    const before = { generated: project.snapshot('generated'), tools: project.snapshot('src/tools') };
    const { code, stdout, stderr } = await generateIn(project, files);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect({ generated: project.snapshot('generated'), tools: project.snapshot('src/tools') }).toEqual(before);
    return stderr;
  } finally {
    project.dispose();
  }
}

/** A minimal valid definition. */
function tool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, description: `The ${name} tool.`, inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, ...extra };
}

// ---------------------------------------------------------------------------------------------
// Object.prototype names
// ---------------------------------------------------------------------------------------------

describe('names that are Object.prototype members (tools, definitions, properties, categories)', () => {
  let project: TempProject;
  let result: { code: number; stdout: string; stderr: string };

  /** Every prototype name as a tool whose definitions and properties are named after every prototype name. */
  function prototypeProject(): Record<string, unknown> {
    const files: Record<string, unknown> = {};
    for (const name of PROTOTYPE_NAMES) {
      const properties: Record<string, unknown> = {};
      const definitions: Record<string, unknown> = {};
      const outputProperties: Record<string, unknown> = {};
      for (const key of PROTOTYPE_NAMES) {
        Object.defineProperty(properties, key, { value: { $ref: `#/definitions/${key}` }, enumerable: true });
        Object.defineProperty(definitions, key, { value: { type: 'string', description: `the ${key} definition` }, enumerable: true });
        Object.defineProperty(outputProperties, key, { value: { type: 'string' }, enumerable: true });
      }
      files[`${name}.tool.json`] = {
        name,
        description: `Echoes its arguments (${name}).`,
        category: name,
        version: name === 'valueOf' ? '1.0.0' : undefined,
        requiredCapabilities: [name],
        inputSchema: { type: 'object', properties, required: [...PROTOTYPE_NAMES], definitions },
        outputSchema: { type: 'object', properties: outputProperties, required: [...PROTOTYPE_NAMES] },
        examples: [{ input: Object.fromEntries(PROTOTYPE_NAMES.map((key) => [key, key])) }],
      };
    }
    // A shared schema whose properties carry the same names (its definitions get them in the next block:
    // here their type names would collide with the tools' own \`Constructor\`, … definitions).
    const sharedProperties: Record<string, unknown> = {};
    for (const key of PROTOTYPE_NAMES) Object.defineProperty(sharedProperties, key, { value: { type: 'integer' }, enumerable: true });
    files['shared/prototype-keys.schema.json'] = { type: 'object', properties: sharedProperties };
    files['uses-shared.tool.json'] = tool('uses_shared', { inputSchema: { type: 'object', properties: { a: { $ref: './shared/prototype-keys.schema.json' } } } });
    return files;
  }

  beforeAll(async () => {
    project = createTempProject();
    // JSON.stringify keeps an own `__proto__` key (Object.defineProperty above), as a user's file would have it.
    result = await generateIn(project, prototypeProject());
    // Implementations that echo their input, so the run checks the output validators with these keys too.
    for (const name of PROTOTYPE_NAMES) {
      const stem = name === '__proto__' ? 'proto' : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      const pascal = name === '__proto__' ? 'Proto' : name[0]!.toUpperCase() + name.slice(1);
      project.write(
        `src/tools/${stem}.ts`,
        `import type { ToolExecutionResult } from '${path.relative(path.join(project.root, 'src/tools'), path.join(project.root, project.runtimeImport)).split(path.sep).join('/')}';
import { ${pascal}ToolBase } from '../../generated/tools/${stem}.base.js';
import type { ${pascal}Input, ${pascal}Output } from '../../generated/types/${stem}.js';

export class ${pascal}Tool extends ${pascal}ToolBase {
  async execute(args: ${pascal}Input): Promise<ToolExecutionResult<${pascal}Output>> {
    return { success: true, output: { ...args } };
  }
}
`,
      );
    }
  }, 120_000);

  afterAll(() => project?.dispose());

  it('generates without a problem', () => {
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('does not pollute Object.prototype in the generating process', () => {
    for (const target of ['openai', 'openai-strict', 'anthropic', 'gemini', 'mcp']) expect(Object.prototype.hasOwnProperty.call(Object.prototype, target), target).toBe(false);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).openai).toBeUndefined();
  });

  it('type-checks with tsc (strict, NodeNext), implementations included', async () => {
    expect(await typeCheck(project, ['generated', 'src'])).toEqual({ code: 0, output: '' });
  }, 60_000);

  it('lists every tool and its losses in the manifests and the loss report', () => {
    const names = [...PROTOTYPE_NAMES, 'uses_shared'].sort();
    const mcp = JSON.parse(project.read('generated/manifests/mcp.json')) as { tools: { name: string }[] };
    expect(mcp.tools.map((entry) => entry.name)).toEqual(names);
    const openai = JSON.parse(project.read('generated/manifests/openai.json')) as { function: { name: string; parameters: { properties: object } } }[];
    expect(openai.map((entry) => entry.function.name)).toEqual(names);
    const constructorTool = openai.find((entry) => entry.function.name === 'constructor')!;
    expect(Object.keys(constructorTool.function.parameters.properties).sort()).toEqual([...PROTOTYPE_NAMES].sort());
    const report = JSON.parse(project.read('generated/manifests/loss-report.json')) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual(names);
    expect(Object.keys(report['__proto__'] as object).sort()).toEqual(['anthropic', 'gemini', 'mcp', 'openai', 'openai-strict']);
    expect(project.read('generated/manifests/loss-report.md')).toContain('## __proto__');
  });

  it('renders a docs page per tool with every category in the index', () => {
    const index = project.read('generated/docs/index.md');
    for (const name of ['constructor', 'to-string', 'value-of', 'has-own-property', 'proto']) expect(project.read(`generated/docs/tools/${name}.md`)).toContain('## Input');
    for (const name of PROTOTYPE_NAMES) expect(index).toMatch(new RegExp(`^## ${name.replace(/_/g, '\\\\_')}$`, 'm'));
    const page = project.read('generated/docs/tools/proto.md');
    expect(page).toMatch(/^\| Capabilities \| `__proto__` \|$/m);
    for (const key of PROTOTYPE_NAMES) expect(page).toContain(`| \`${key}\` | [`);
  });

  it('runs every tool through the orchestrator, validating input and output with those keys', async () => {
    project.write(
      'check/run.ts',
      `import { ToolOrchestrator } from '${path.relative(path.join(project.root, 'check'), path.join(project.root, project.runtimeImport)).split(path.sep).join('/')}';
import { createTools } from '../generated/registry.js';
const orchestrator = new ToolOrchestrator({ tools: createTools() });
const names = ${JSON.stringify(PROTOTYPE_NAMES)};
const out: unknown[] = [];
for (const name of names) {
  const args = JSON.stringify(Object.fromEntries(names.map((key) => [key, name + ':' + key])));
  const ok = await orchestrator.processToolCall({ toolCallRequest: { id: 'c-' + name, name, arguments: args }, gmiId: 'g', personaId: 'p', personaCapabilities: [name], userContext: { userId: 'u' } });
  const bad = await orchestrator.processToolCall({ toolCallRequest: { id: 'd-' + name, name, arguments: '{"constructor":1}' }, gmiId: 'g', personaId: 'p', personaCapabilities: [name], userContext: { userId: 'u' } });
  out.push([name, ok.isError, ok.output, bad.isError]);
}
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'check/run.ts'], { cwd: project.root });
    const results = JSON.parse(stdout) as [string, boolean, Record<string, string>, boolean][];
    expect(results.map(([name, isError, , badIsError]) => [name, isError, badIsError])).toEqual(PROTOTYPE_NAMES.map((name) => [name, false, true]));
    for (const [name, , output] of results) {
      expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
      expect(Object.keys(output).sort()).toEqual([...PROTOTYPE_NAMES].sort());
      for (const key of PROTOTYPE_NAMES) expect(Object.getOwnPropertyDescriptor(output, key)?.value).toBe(`${name}:${key}`);
    }
  }, 60_000);
});

describe('shared schema definitions named after Object.prototype members', () => {
  it('generates, type-checks and validates through the shared types', async () => {
    const project = createTempProject();
    try {
      const definitions: Record<string, unknown> = {};
      for (const key of PROTOTYPE_NAMES) Object.defineProperty(definitions, key, { value: { type: 'integer', minimum: 1 }, enumerable: true });
      const properties: Record<string, unknown> = {};
      for (const key of PROTOTYPE_NAMES) Object.defineProperty(properties, key, { value: { $ref: `./shared/keys.schema.json#/definitions/${key}` }, enumerable: true });
      const result = await generateIn(project, { 'shared/keys.schema.json': { definitions }, 'plain.tool.json': tool('plain', { inputSchema: { type: 'object', properties } }) });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const types = project.read('generated/types/shared/keys.ts');
      for (const name of ['Constructor', 'ToString', 'ValueOf', 'HasOwnProperty', 'Proto']) expect(types).toMatch(new RegExp(`^export type ${name} = number;$`, 'm'));
      expect(await typeCheck(project, ['generated', 'src'])).toEqual({ code: 0, output: '' });
      project.write(
        'check/validate.ts',
        `import { validatePlainInput } from '../generated/validators/plain.js';
console.log(JSON.stringify([validatePlainInput(JSON.parse('{"constructor":2,"valueOf":3}')), validatePlainInput(JSON.parse('{"hasOwnProperty":0}')), validatePlainInput.errors?.[0]?.instancePath]));
`,
      );
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'check/validate.ts'], { cwd: project.root });
      expect(JSON.parse(stdout)).toEqual([true, false, '/hasOwnProperty']);
    } finally {
      project.dispose();
    }
  }, 120_000);
});
