/**
 * One naming rule for every emitter. json-schema-to-typescript used to derive the declared type
 * name itself (`md5sum` → `Md5SumInput`) while the base class, validator `.d.ts`, registry and stub
 * used naming.ts (`Md5sumInput`): TS2724. Now it compiles under a placeholder and the declaration
 * is renamed to naming.ts's name. The oracle is tsc over a generated project of many such names.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { loadDefinitions } from '../../codegen/load.js';
import { normalize } from '../../codegen/normalize.js';
import { definitionTypeName, findIdentifierCollisions, toolNames, toPascalCase } from '../../codegen/naming.js';
import { createTempProject, run, typeCheck, type TempProject } from '../helpers/temp-project.js';

/** Tool names json-schema-to-typescript's own `toSafeString` would spell differently (a digit before a lower-case letter, runs of capitals, underscores). */
const NAMES: { tool: string; pascal: string }[] = [
  { tool: 'md5sum', pascal: 'Md5sum' },
  { tool: 'base64decode', pascal: 'Base64decode' },
  { tool: 'get_v2beta_item', pascal: 'GetV2betaItem' },
  { tool: 'clear001a_runIt', pascal: 'Clear001aRunIt' },
  { tool: 'sha256sum', pascal: 'Sha256sum' },
  { tool: 'oauth2token', pascal: 'Oauth2token' },
  { tool: 'i18n_lookup', pascal: 'I18nLookup' },
  { tool: 'ipv4_to_ipv6', pascal: 'Ipv4ToIpv6' },
  { tool: 'x2y', pascal: 'X2y' },
  { tool: '_3d_model', pascal: '_3dModel' },
  { tool: 'getHTTPResponse2xx', pascal: 'GetHttpResponse2xx' },
  { tool: 'HTTPServer', pascal: 'HttpServer' },
  { tool: 'a1b2c3', pascal: 'A1b2c3' },
  { tool: 'foo-bar-2go', pascal: 'FooBar2go' },
  { tool: '__dunder__', pascal: 'Dunder' },
];

function definitionFor(tool: string): object {
  return {
    name: tool,
    description: `The ${tool} tool.`,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['item'],
      properties: {
        item: { $ref: '#/definitions/item2go' },
        count: { type: 'integer', default: 1 },
        mode: { $ref: '#/definitions/v1beta' },
      },
      definitions: {
        item2go: {
          type: 'object',
          additionalProperties: false,
          required: ['id'],
          properties: { id: { type: 'string' } },
        },
        v1beta: { enum: ['a', 'b'] },
      },
    },
    outputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['ok'],
      properties: { ok: { type: 'boolean' } },
    },
  };
}

describe('naming.ts decides every identifier', () => {
  it.each(NAMES)('$tool → $pascal', ({ tool, pascal }) => {
    expect(toPascalCase(tool)).toBe(pascal);
    expect(toolNames(tool)).toMatchObject({
      inputType: `${pascal}Input`,
      argsType: `${pascal}Args`,
      outputType: `${pascal}Output`,
      base: `${pascal}ToolBase`,
      impl: `${pascal}Tool`,
    });
  });

  it('the table has no two names that collide (else the project below could not generate)', () => {
    const claims = NAMES.map(({ tool }) => ({
      identifier: toolNames(tool).inputType,
      file: tool,
      pointer: '',
      what: tool,
    }));
    expect(findIdentifierCollisions(claims)).toEqual([]);
  });
});

describe('a project of tools whose names have digits before lower-case letters', () => {
  let project: TempProject;

  beforeAll(async () => {
    project = createTempProject();
    for (const { tool } of NAMES) project.write(`schemas/${tool}.tool.json`, definitionFor(tool));
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
    // One real implementation (written first, so generate leaves it alone); the others get stubs.
    project.write(
      'src/tools/md5sum.ts',
      [
        `import type { ToolExecutionResult } from '${path.posix.join('../..', project.runtimeImport)}';`,
        "import { Md5sumToolBase } from '../../generated/tools/md5sum.base.js';",
        "import type { Md5sumArgs, Md5sumOutput } from '../../generated/types/md5sum.js';",
        'export class Md5sumTool extends Md5sumToolBase {',
        '  async execute(args: Md5sumArgs): Promise<ToolExecutionResult<Md5sumOutput>> {',
        "    return { success: args.item.id === 'x' && args.count === 1, output: { ok: true } } as ToolExecutionResult<Md5sumOutput>;",
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    let stderr = '';
    const code = await main(['generate'], {
      cwd: project.root,
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 120_000);

  afterAll(() => project?.dispose());

  it('declares each type under the name every other file imports', () => {
    const model = normalize(loadDefinitions(path.join(project.root, 'schemas'), project.root));
    expect(model.problems).toEqual([]);
    for (const tool of model.project.tools) {
      const types = project.read(`generated/types/${tool.names.kebab}.ts`);
      for (const name of [
        tool.names.inputType,
        tool.names.argsType,
        tool.names.outputType,
        `${tool.names.pascal}Item2go`,
        `${tool.names.pascal}V1beta`,
      ]) {
        expect(types, tool.name).toMatch(new RegExp(`^export (interface|type) ${name.replace(/\$/g, '\\$')}\\b`, 'm'));
      }
      expect(types).not.toContain('$ToolsmithType');
      expect(project.read(`generated/tools/${tool.names.kebab}.base.ts`)).toMatch(
        new RegExp(`args: ${tool.names.argsType},`),
      );
    }
  });

  it('calls a tool through createTools() and the typed client at run time', async () => {
    project.write(
      'check/call.ts',
      [
        `import { ToolOrchestrator } from '${path.posix.join('..', project.runtimeImport)}';`,
        "import { createToolClient, createTools } from '../generated/registry.js';",
        'const orchestrator = new ToolOrchestrator({ tools: createTools() });',
        "const client = createToolClient(orchestrator, { gmiId: 'g', personaId: 'p', userContext: { userId: 'u' } });",
        "const ok = await client.call('md5sum', { item: { id: 'x' } });",
        "const stub = await client.call('base64decode', { item: { id: 'x' } });",
        "const bad = await client.call('md5sum', { item: {} as { id: string } });",
        'console.log(JSON.stringify({ ok, stub: stub.errorDetails?.code, bad: bad.errorDetails?.code, count: orchestrator.listTools().length }));',
        'await orchestrator.shutdown();',
        '',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'check/call.ts'], { cwd: project.root });
    const result = JSON.parse(stdout);
    expect(result.ok).toEqual({ toolCallId: 'call-1', toolName: 'md5sum', output: { ok: true }, isError: false });
    expect(result.stub).toBe('TOOL_FAILED');
    expect(result.bad).toBe('INVALID_ARGUMENTS');
    expect(result.count).toBe(NAMES.length);
  }, 60_000);

  it('type-checks: types, validators, bases, registry, index and stubs (tsc strict)', async () => {
    const result = await typeCheck(project, ['generated', 'src']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);
});

describe('definitionTypeName: a tool’s own definition never takes one of the tool’s names', () => {
  it.each([
    ['item', 'Summarize', 'SummarizeItem'],
    ['SummarizeItem', 'Summarize', 'SummarizeItem'],
    ['Input', 'Summarize', 'SummarizeInputDefinition'],
    ['input', 'Summarize', 'SummarizeInputDefinition'],
    ['Output', 'Summarize', 'SummarizeOutputDefinition'],
    ['SummarizeOutput', 'Summarize', 'SummarizeOutputDefinition'],
    ['args', 'Summarize', 'SummarizeArgsDefinition'],
    ['tool', 'Summarize', 'SummarizeToolDefinition'],
    ['tool_base', 'Summarize', 'SummarizeToolBaseDefinition'],
    ['OutputItem', 'Summarize', 'SummarizeOutputItem'],
    ['InputSchema', 'Summarize', 'SummarizeInputSchema'],
    // Shared definitions keep their own names: no tool prefix, nothing to collide with.
    ['Output', undefined, 'Output'],
  ])('%s in %s → %s', (key, toolPascal, expected) => {
    expect(definitionTypeName(key, toolPascal)).toBe(expected);
  });
});
