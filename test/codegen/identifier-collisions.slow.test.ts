/**
 * Generated identifiers never collide silently: with each other (across tools, definitions and
 * shared files) or with the names generated files import from the runtime. Each case is either an
 * error naming both sides, or — where naming.ts makes the collision impossible — generates code
 * tsc accepts. Without the check, each error case below generated code that did not compile
 * (duplicate identifiers, `export *` ambiguities) or merged two different types into one.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { loadDefinitions } from '../../codegen/load.js';
import { normalize } from '../../codegen/normalize.js';
import { createTempProject, typeCheck, type TempProject } from '../helpers/temp-project.js';

const FIELD_NAMES = 'test/fixtures/field-names/schemas';

const object = (properties: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...extra,
});
const tool = (name: string, inputSchema: object = object(), outputSchema?: object) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema,
  ...(outputSchema ? { outputSchema } : {}),
});

interface ErrorCase {
  name: string;
  files: Record<string, object>;
  /** Each expected problem (in the order they are reported: by file, line): file, pointer and the start of the message. */
  expected: { file: string; pointer: string; message: string }[];
}

const ERROR_CASES: ErrorCase[] = [
  {
    name: 'a tool named `i` (its class would be the runtime’s `ITool`)',
    files: { 'i.tool.json': tool('i') },
    expected: [
      {
        file: 'schemas/i.tool.json',
        pointer: '/name',
        message: 'the implementation class of "i" would be named `ITool`, which is already the runtime\'s `ITool`',
      },
    ],
  },
  {
    name: 'a tool named `tool` (its input type would be the registry’s `ToolInput<N>`)',
    files: { 'tool.tool.json': tool('tool') },
    expected: [
      {
        file: 'schemas/tool.tool.json',
        pointer: '/name',
        message: 'the output type of "tool" would be named `ToolOutput`, which is already the registry\'s `ToolOutput`',
      },
      {
        file: 'schemas/tool.tool.json',
        pointer: '/inputSchema',
        message: 'the input type of "tool" would be named `ToolInput`, which is already the registry\'s `ToolInput`',
      },
    ],
  },
  {
    name: 'definitions `Output` and `OutputDefinition` (the first takes the distinguishing word, the second is that name)',
    files: {
      'foo.tool.json': tool(
        'foo',
        object(
          { a: { $ref: '#/definitions/Output' }, b: { $ref: '#/definitions/OutputDefinition' } },
          { definitions: { Output: { type: 'string' }, OutputDefinition: { type: 'number' } } },
        ),
      ),
    },
    expected: [
      {
        file: 'schemas/foo.tool.json',
        pointer: '/inputSchema/definitions/OutputDefinition',
        message:
          'the type of the definition "OutputDefinition" of "foo" would be named `FooOutputDefinition`, which is already the type of the definition "Output" of "foo" (schemas/foo.tool.json /inputSchema/definitions/Output)',
      },
    ],
  },
  {
    name: 'a shared file `base-tool-input.schema.json` and a tool `base_tool`',
    files: {
      'shared/base-tool-input.schema.json': { type: 'string' },
      'base_tool.tool.json': tool('base_tool', object({ a: { $ref: './shared/base-tool-input.schema.json' } })),
    },
    expected: [
      {
        file: 'schemas/base_tool.tool.json',
        pointer: '/inputSchema',
        message:
          'the input type of "base_tool" would be named `BaseToolInput`, which is already the type of the shared schema shared/base-tool-input.schema.json',
      },
    ],
  },
  {
    name: 'definitions `foo_bar` and `fooBar` in one schema (one type name for two types)',
    files: {
      'x.tool.json': tool(
        'x',
        object(
          { a: { $ref: '#/definitions/foo_bar' }, b: { $ref: '#/definitions/fooBar' } },
          { definitions: { foo_bar: { type: 'string' }, fooBar: { type: 'number' } } },
        ),
      ),
    },
    expected: [
      {
        file: 'schemas/x.tool.json',
        pointer: '/inputSchema/definitions/foo_bar',
        message:
          'the type of the definition "foo_bar" of "x" would be named `XFooBar`, which is already the type of the definition "fooBar" of "x" (schemas/x.tool.json /inputSchema/definitions/fooBar)',
      },
    ],
  },
  {
    name: 'the same definition key in input and output with different schemas',
    files: {
      'y.tool.json': tool(
        'y',
        object({ a: { $ref: '#/definitions/item' } }, { definitions: { item: { type: 'string' } } }),
        object({ b: { $ref: '#/definitions/item' } }, { definitions: { item: { type: 'number' } } }),
      ),
    },
    expected: [
      {
        file: 'schemas/y.tool.json',
        pointer: '/outputSchema/definitions/item',
        message:
          'the definition "item" differs between inputSchema and outputSchema, but both would be the type `YItem`',
      },
    ],
  },
  {
    name: 'two tools: `foo_bar`’s input type and a definition `bar_input` of `foo`',
    files: {
      'foo.tool.json': tool(
        'foo',
        object({ a: { $ref: '#/definitions/bar_input' } }, { definitions: { bar_input: { type: 'string' } } }),
      ),
      'foo_bar.tool.json': tool('foo_bar'),
    },
    expected: [
      {
        file: 'schemas/foo_bar.tool.json',
        pointer: '/inputSchema',
        message:
          'the input type of "foo_bar" would be named `FooBarInput`, which is already the type of the definition "bar_input" of "foo" (schemas/foo.tool.json /inputSchema/definitions/bar_input)',
      },
    ],
  },
  {
    name: 'a shared file named after a TypeScript global the generated code uses (`required.schema.json`)',
    files: {
      'shared/required.schema.json': { type: 'string' },
      'z.tool.json': tool('z', object({ a: { $ref: './shared/required.schema.json' } })),
    },
    expected: [
      {
        file: 'schemas/shared/required.schema.json',
        pointer: '',
        message:
          "the type of the shared schema shared/required.schema.json would be named `Required`, which is already TypeScript's global `Required`",
      },
    ],
  },
];

let project: TempProject | undefined;
afterEach(() => {
  project?.dispose();
  project = undefined;
});

function projectWith(files: Record<string, object>): TempProject {
  project = createTempProject();
  for (const [file, value] of Object.entries(files)) project.write(`schemas/${file}`, value);
  project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
  return project;
}

describe('identifier collisions are errors with both sides named', () => {
  it.each(ERROR_CASES)('$name', async ({ files, expected }) => {
    const temp = projectWith(files);
    const { problems } = normalize(loadDefinitions(path.join(temp.root, 'schemas'), temp.root));
    expect(
      problems.map(({ file, pointer, message }) => ({
        file,
        pointer,
        message: message.slice(
          0,
          expected.find((entry) => entry.pointer === pointer && entry.file === file)?.message.length ?? message.length,
        ),
      })),
    ).toEqual(expected);
    for (const problem of problems) {
      expect(problem.hint).toMatch(/^rename /);
      // A real position: the file's root is line 1, anything inside it further down.
      expect(problem.line).toBeGreaterThan(problem.pointer === '' ? 0 : 1);
    }
    // A failed generate writes nothing.
    expect(await main(['generate'], { cwd: temp.root, stdout: () => undefined, stderr: () => undefined })).toBe(1);
    expect(temp.snapshot('generated')).toEqual({});
  });
});

describe('near-collisions that naming.ts keeps apart generate code tsc accepts', () => {
  it('an identical definition in input and output is one type; a definition named like another tool’s type but distinct; digits', async () => {
    const item = {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: { id: { type: 'string' } },
    };
    const temp = projectWith({
      'y.tool.json': tool(
        'y',
        object({ a: { $ref: '#/definitions/item' } }, { definitions: { item } }),
        object({ b: { $ref: '#/definitions/item' } }, { required: ['b'], definitions: { item } }),
      ),
      'foo.tool.json': tool(
        'foo',
        object({ a: { $ref: '#/definitions/bar' } }, { definitions: { bar: { type: 'string' } } }),
      ),
      'foo_bar.tool.json': tool('foo_bar'),
      'i2.tool.json': tool('i2'),
    });
    let stderr = '';
    expect(
      await main(['generate'], { cwd: temp.root, stdout: () => undefined, stderr: (text) => (stderr += text) }),
    ).toBe(0);
    expect(stderr).toBe('');
    const types = temp.read('generated/types/y.ts');
    expect(types.match(/^export interface YItem\b/gm)).toHaveLength(1);
    expect(types).toMatch(/export interface YOutput \{\n\s+b: YItem;/);
    // `foo`'s definition `bar` is `FooBar`, the tool `foo_bar` is `FooBarInput`/`FooBarTool`: different names.
    expect(temp.read('generated/types/foo.ts')).toMatch(/^export type FooBar = string;/m);
    temp.write(
      'check/use.ts',
      [
        "import type { FooBar, FooBarInput, YItem, YOutput } from '../generated/index.js';",
        'export const bar: FooBar = "x";',
        'export const input: FooBarInput = {};',
        "export const out: YOutput = { b: { id: 'a' } satisfies YItem };",
        '',
      ].join('\n'),
    );
    const result = await typeCheck(temp, ['generated', 'src', 'check']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);
});

describe('definitions named like the tool’s own types (pydantic’s Input/Output/args, SchemaStore’s aiconfig and aspire names) get the word Definition', () => {
  it('generates, declares every type once under its distinct name, and tsc accepts code that uses them', async () => {
    project = createTempProject({ schemas: FIELD_NAMES });
    const temp = project;
    temp.write('toolsmith.config.json', {
      runtimeImport: temp.runtimeImport,
      manifests: { targets: ['mcp', 'openai', 'anthropic'] },
    });
    let stderr = '';
    expect(
      await main(['generate'], { cwd: temp.root, stdout: () => undefined, stderr: (text) => (stderr += text) }),
    ).toBe(0);
    expect(stderr).toBe('');
    const declared = (file: string) =>
      [...temp.read(`generated/types/${file}.ts`).matchAll(/^export (?:interface|type) (\w+)/gm)].map(
        (match) => match[1],
      );
    expect(declared('summarize')).toEqual([
      'SummarizeInput',
      'SummarizeArgs',
      'SummarizeInputDefinition',
      'SummarizeOutputDefinition',
      'SummarizeArgsDefinition',
      'SummarizeOutput',
    ]);
    expect(declared('ai-config')).toEqual([
      'AiConfigInput',
      'AiConfigArgs',
      'AiConfigAttachment',
      'AiConfigOutputDefinition',
      'AiConfigPromptInput',
      'AiConfigSchemaVersion',
      'AiConfigOutput',
    ]);
    expect(declared('aspire-manifest')).toEqual([
      'AspireManifestInput',
      'AspireManifestArgs',
      'AspireManifestArgsDefinition',
      'AspireManifestBindings',
      'AspireManifestBuildArgs',
      'AspireManifestEnv',
      'AspireManifestOutput',
    ]);
    temp.write(
      'check/use.ts',
      [
        "import type { AiConfigOutput, AiConfigOutputDefinition, AspireManifestArgsDefinition, AspireManifestInput, SummarizeArgs, SummarizeInput, SummarizeOutput, SummarizeOutputDefinition } from '../generated/index.js';",
        "const summary: SummarizeOutputDefinition = { summary: 'short' };",
        "export const input: SummarizeInput = { input: { text: 'long' }, args: { maxWords: 5 }, previous: summary };",
        'export const args: SummarizeArgs = input;',
        'export const output: SummarizeOutput = { result: summary };',
        "const result: AiConfigOutputDefinition = { output_type: 'error', ename: 'E' };",
        'export const outputs: AiConfigOutput = { outputs: [result] };',
        "const list: AspireManifestArgsDefinition = ['--port', '80'];",
        "export const manifest: AspireManifestInput = { type: 'container.v0', image: 'nginx', args: list };",
        '// @ts-expect-error the definition is not the tool’s output type',
        'export const wrong: SummarizeOutput = summary;',
        '',
      ].join('\n'),
    );
    const result = await typeCheck(temp, ['generated', 'src', 'check']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);
});
