import { readdirSync } from 'node:fs';
import { DEFAULT_MANIFEST_TARGETS, MANIFEST_TARGETS, type ManifestTarget } from '../../src/manifest-targets/table.js';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from '../../codegen/generate.js';
import { main } from '../../codegen/cli/main.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';
import { FIXTURE_TOOLS } from './manifest-fixtures.js';
import { makeProject, makeTool, spliceRun, TEST_CONTEXT, emitManifests } from './model-factory.js';

const FILES: Record<ManifestTarget, { file: string; key?: string }> = {
  openai: { file: 'manifests/openai.json' },
  'openai-strict': { file: 'manifests/openai-strict.json' },
  'openai-responses': { file: 'manifests/openai-responses.json' },
  'openai-responses-strict': { file: 'manifests/openai-responses-strict.json' },
  anthropic: { file: 'manifests/anthropic.json' },
  gemini: { file: 'manifests/gemini.json', key: 'functionDeclarations' },
  'gemini-legacy': { file: 'manifests/gemini-legacy.json', key: 'functionDeclarations' },
  mcp: { file: 'manifests/mcp.json', key: 'tools' },
  'mcp-portable': { file: 'manifests/mcp-portable.json', key: 'tools' },
};

function entries(result: ReturnType<typeof emitManifests>, target: ManifestTarget): any[] {
  const { file, key } = FILES[target];
  const found = result.files.find((candidate) => candidate.path === file);
  if (found === undefined) throw new Error(`no ${file}`);
  const content = JSON.parse(found.content);
  return key === undefined ? content : content[key];
}

const names = (list: any[]) => list.map((entry) => entry.name ?? entry.function?.name);

describe('default targets', () => {
  it('are every target but the opt-in gemini-legacy and mcp-portable', () => {
    expect(DEFAULT_MANIFEST_TARGETS).toEqual([
      'openai',
      'openai-strict',
      'openai-responses',
      'openai-responses-strict',
      'anthropic',
      'gemini',
      'mcp',
    ]);
    const result = emitManifests(makeProject([...FIXTURE_TOOLS]), TEST_CONTEXT);
    expect(result.files.map((file) => file.path)).toEqual([
      ...DEFAULT_MANIFEST_TARGETS.flatMap((target) => [
        FILES[target].file,
        FILES[target].file.replace(/\.json$/, '.ts'),
      ]),
      'manifests/loss-report.json',
      'manifests/loss-report.md',
      'manifests/token-report.json',
    ]);
  });

  it('take every fixture (recursion, free-form object, tuple, dependencies, $ref siblings, $ref output root): no problem, no warning', () => {
    const result = emitManifests(makeProject([...FIXTURE_TOOLS]), TEST_CONTEXT);
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([]);
    const all = FIXTURE_TOOLS.map((tool) => tool.name).sort();
    for (const target of DEFAULT_MANIFEST_TARGETS) expect(names(entries(result, target)), target).toEqual(all);
    const gemini = new Map(entries(result, 'gemini').map((entry) => [entry.name, entry]));
    expect(gemini.get('recursive_tree').parametersJsonSchema.$defs.Node.properties.children.items).toEqual({
      $ref: '#/$defs/Node',
    });
    expect(gemini.get('free_form').parametersJsonSchema.properties.labels.additionalProperties).toEqual({
      type: 'string',
    });
    expect(gemini.get('tuple_point').parametersJsonSchema.properties.point).toEqual({
      type: 'array',
      prefixItems: [{ type: 'number' }, { type: 'number' }],
      items: false,
    });
    expect(gemini.get('ref_output').responseJsonSchema).toEqual({
      $ref: '#/$defs/Entry',
      $defs: {
        Entry: {
          type: 'object',
          required: ['key'],
          properties: { key: { type: 'string' }, value: { type: 'string' } },
        },
      },
    });
    const mcp = new Map(entries(result, 'mcp').map((entry) => [entry.name, entry]));
    expect(mcp.get('dependent').inputSchema.dependentRequired).toEqual({ card: ['billing'] });
    expect(mcp.get('ref_output').outputSchema.$ref).toBe('#/$defs/Entry');
  });
});

describe('openai-responses', () => {
  const tool = makeTool({
    name: 'lookup',
    description: 'Looks up.',
    inputSchema: {
      type: 'object',
      required: ['q'],
      properties: { q: { type: 'string', maxLength: 5 }, page: { type: 'integer' } },
    },
  });

  it('emits Responses function tools, non-strict with the whole schema', () => {
    const result = emitManifests(makeProject([tool]), TEST_CONTEXT, { targets: ['openai-responses'] });
    expect(entries(result, 'openai-responses')).toEqual([
      { type: 'function', name: 'lookup', description: 'Looks up.', parameters: tool.inputSchema, strict: false },
    ]);
  });

  it('and strict, with the strict-mode schema and its null convention', () => {
    const result = emitManifests(makeProject([tool]), TEST_CONTEXT, {
      targets: ['openai-responses-strict', 'openai-strict'],
      describeLosses: false,
    });
    const [entry] = entries(result, 'openai-responses-strict');
    expect(entry).toEqual({
      type: 'function',
      name: 'lookup',
      description: 'Looks up.',
      parameters: {
        type: 'object',
        required: ['q', 'page'],
        properties: { q: { type: 'string' }, page: { type: ['integer', 'null'] } },
        additionalProperties: false,
      },
      strict: true,
    });
    expect(entry.parameters).toEqual(entries(result, 'openai-strict')[0].function.parameters);
  });
});

describe('a tool a target cannot take', () => {
  const tools = [
    ...FIXTURE_TOOLS,
    makeTool({ name: 'plain', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }),
  ];

  it('omit (default): left out of that target only, with a warning and a line in the loss report', () => {
    const result = emitManifests(makeProject(tools), TEST_CONTEXT, { targets: ['gemini-legacy', 'openai'] });
    expect(result.problems).toEqual([]);
    expect(result.warnings.map((warning) => `${warning.severity} ${warning.file} ${warning.pointer}`)).toEqual([
      'warning schemas/free_form.tool.json /inputSchema/properties/labels',
      'warning schemas/recursive_tree.tool.json /inputSchema/definitions/Node/properties/children/items',
    ]);
    expect(result.warnings[1]!.message).toBe(
      "Tool 'recursive_tree' cannot be sent to gemini-legacy: its schema is recursive (`$ref: #/definitions/Node` at /inputSchema/definitions/Node/properties/children/items refers back to itself); Gemini has no `$ref`, so the schema would have to be inlined forever. It is left out of manifests/gemini-legacy.json.",
    );
    expect(names(entries(result, 'gemini-legacy'))).toEqual([
      'dependent',
      'plain',
      'ref_output',
      'ref_siblings',
      'tuple_point',
    ]);
    expect(names(entries(result, 'openai'))).toEqual(tools.map((tool) => tool.name).sort());
    const markdown = result.files.find((file) => file.path === 'manifests/loss-report.md')!.content;
    expect(markdown).toContain(
      "- **gemini-legacy**: not available — Tool 'recursive_tree' cannot be sent to gemini-legacy: its schema is recursive",
    );
    expect(result.unavailable).toEqual({
      free_form: { 'gemini-legacy': expect.stringContaining('names no properties') },
      recursive_tree: { 'gemini-legacy': expect.stringContaining('is recursive') },
    });
  });

  it('error: every such tool is a problem in one run', () => {
    const result = emitManifests(makeProject(tools), TEST_CONTEXT, {
      targets: ['gemini-legacy'],
      unrepresentable: 'error',
    });
    expect(result.problems.map((problem) => problem.file)).toEqual([
      'schemas/free_form.tool.json',
      'schemas/recursive_tree.tool.json',
    ]);
    expect(result.warnings).toEqual([]);
  });

  it('a definition can turn a target off for itself: left out silently, the loss report says why', () => {
    const off = makeTool({
      name: 'recursive_tree',
      inputSchema: FIXTURE_TOOLS[0]!.inputSchema,
      excludedTargets: ['gemini-legacy', 'openai'],
    });
    const result = emitManifests(makeProject([off, tools.at(-1)!]), TEST_CONTEXT, {
      targets: ['gemini-legacy', 'openai', 'anthropic'],
    });
    expect(result.warnings).toEqual([]);
    expect(names(entries(result, 'gemini-legacy'))).toEqual(['plain']);
    expect(names(entries(result, 'openai'))).toEqual(['plain']);
    expect(names(entries(result, 'anthropic'))).toEqual(['plain', 'recursive_tree']);
    expect(result.unavailable.recursive_tree).toEqual({
      'gemini-legacy': 'turned off in its definition (`targets`)',
      openai: 'turned off in its definition (`targets`)',
    });
    const report = JSON.parse(result.files.find((file) => file.path === 'manifests/loss-report.json')!.content);
    expect(report.recursive_tree.openai).toEqual([
      { pointer: '', keyword: '', action: 'omitted', value: null, message: 'turned off in its definition (`targets`)' },
    ]);
    expect(report.recursive_tree.anthropic).toEqual([]);
  });
});

describe('generate and the CLI with a recursive tool and gemini-legacy', () => {
  let project: TempProject | undefined;
  afterEach(() => project?.dispose());

  const definition = `{
  "name": "tree",
  "description": "Walks a tree.",
  "inputSchema": {
    "type": "object",
    "properties": { "root": { "$ref": "#/definitions/Node" } },
    "definitions": {
      "Node": {
        "type": "object",
        "properties": {
          "kids": { "type": "array", "items": { "$ref": "#/definitions/Node" } }
        }
      }
    }
  }
}
`;

  const line = definition.split('\n').findIndex((text) => text.includes('"kids"')) + 1;
  const lineText = definition.split('\n')[line - 1]!;
  // At the key of the offending keyword's schema.
  const column = lineText.indexOf('"items"') + 1;

  function setUp(config: object): TempProject {
    project = createTempProject();
    project.write('schemas/tree.tool.json', definition);
    project.write('schemas/flat.tool.json', {
      name: 'flat',
      description: 'Flat.',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    });
    project.write('toolsmith.config.json', config);
    return project;
  }

  it('error: the problem is placed at the offending $ref (line:column) and nothing is written', async () => {
    const temp = setUp({
      runtimeImport: 'toolsmith-sdk',
      manifests: { targets: ['gemini-legacy', 'mcp'], unrepresentable: 'error' },
    });
    const stderr: string[] = [];
    const code = await main(['generate'], {
      cwd: temp.root,
      stdout: () => {},
      stderr: (text: string) => stderr.push(text),
    } as never);
    expect(code).not.toBe(0);
    expect(stderr.join('')).toContain(
      `schemas/tree.tool.json:${line}:${column} /inputSchema/definitions/Node/properties/kids/items: Tool 'tree' cannot be sent to gemini-legacy`,
    );
    expect(() => temp.read('generated/manifests/mcp.json')).toThrow();
    // Found while the manifests were assembled into the staging tree: that tree is discarded.
    expect(readdirSync(temp.root).filter((name) => name.startsWith('generated'))).toEqual([]);
  });

  it('omit (default), from the CLI: exit 0, the warning on stderr, the manifests written', async () => {
    const temp = setUp({ runtimeImport: 'toolsmith-sdk', manifests: { targets: ['gemini-legacy', 'mcp'] } });
    const stderr: string[] = [];
    const code = await main(['generate'], {
      cwd: temp.root,
      stdout: () => {},
      stderr: (text: string) => stderr.push(text),
    } as never);
    expect(code).toBe(0);
    expect(stderr.join('')).toContain(
      `schemas/tree.tool.json:${line}:${column} /inputSchema/definitions/Node/properties/kids/items: warning: Tool 'tree' cannot be sent to gemini-legacy`,
    );
    expect(
      JSON.parse(temp.read('generated/manifests/gemini-legacy.json')).functionDeclarations.map(
        (entry: { name: string }) => entry.name,
      ),
    ).toEqual(['flat']);
    expect(
      JSON.parse(temp.read('generated/manifests/mcp.json')).tools.map((entry: { name: string }) => entry.name),
    ).toEqual(['flat', 'tree']);
  }, 60_000);

  it('omit (default): generate succeeds, warns at the same place, the other tool is listed', async () => {
    const temp = setUp({ manifests: { targets: ['gemini-legacy', 'mcp'] } });
    const result = await generate({
      root: temp.root,
      runtimeImport: temp.runtimeImport,
      manifests: { targets: ['gemini-legacy', 'mcp'] },
    });
    expect(result.problems).toEqual([]);
    expect(
      result.warnings?.map((warning) => `${warning.file}:${warning.line}:${warning.column} ${warning.severity}`),
    ).toEqual([`schemas/tree.tool.json:${line}:${column} warning`]);
    expect(
      JSON.parse(temp.read('generated/manifests/gemini-legacy.json')).functionDeclarations.map(
        (entry: { name: string }) => entry.name,
      ),
    ).toEqual(['flat']);
  }, 60_000);
});

it('every target has a file', () => {
  expect(Object.keys(FILES).sort()).toEqual([...MANIFEST_TARGETS].sort());
});

describe('the definition fields targets and annotations', () => {
  let project: TempProject | undefined;
  afterEach(() => project?.dispose());

  it('"targets": { "gemini": false } leaves the tool out of gemini.json only; a misspelt target is a problem', async () => {
    project = createTempProject();
    project.write('schemas/a.tool.json', {
      name: 'a',
      description: 'A.',
      targets: { gemini: false },
      annotations: { openWorldHint: true },
      inputSchema: { type: 'object', properties: {} },
    });
    project.write('schemas/b.tool.json', {
      name: 'b',
      description: 'B.',
      inputSchema: { type: 'object', properties: {} },
    });
    const result = await generate({ root: project.root, runtimeImport: project.runtimeImport });
    expect(result.problems).toEqual([]);
    const json = (path: string) => JSON.parse(project!.read(`generated/${path}`));
    expect(json('manifests/gemini.json').functionDeclarations.map((entry: { name: string }) => entry.name)).toEqual([
      'b',
    ]);
    expect(json('manifests/mcp.json').tools.map((entry: { name: string }) => entry.name)).toEqual(['a', 'b']);
    expect(json('manifests/mcp.json').tools[0].annotations).toEqual({
      title: 'A',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(json('manifests/loss-report.json').a.gemini).toEqual([
      { pointer: '', keyword: '', action: 'omitted', value: null, message: 'turned off in its definition (`targets`)' },
    ]);
    expect(project.read('generated/manifests/loss-report.md')).toContain(
      '- **gemini**: not available — turned off in its definition (`targets`)',
    );

    project.write('schemas/a.tool.json', {
      name: 'a',
      description: 'A.',
      targets: { gemni: false },
      inputSchema: { type: 'object', properties: {} },
    });
    const typo = await generate({ root: project.root, runtimeImport: project.runtimeImport });
    expect(typo.problems.map((problem) => `${problem.file} ${problem.pointer}`)).toEqual([
      'schemas/a.tool.json /targets/gemni',
    ]);
  }, 60_000);
});

describe('spliced manifests with tools left out of a target', () => {
  const plain = makeTool({ name: 'plain', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });
  const options = { targets: ['gemini-legacy', 'mcp'] as ManifestTarget[] };

  function previousOf(result: ReturnType<typeof emitManifests>) {
    const bytes = new Map(result.files.map((file) => [file.path, Buffer.from(file.content)]));
    return { segments: result.segments!, read: (file: string) => bytes.get(file) };
  }

  it('splice the changed tool into files that list a subset of the tools: same bytes as a full run', () => {
    const before = emitManifests(makeProject([...FIXTURE_TOOLS, plain]), TEST_CONTEXT, options);
    expect(before.segments!['manifests/gemini-legacy.json']!.tools).not.toContain('recursive_tree');
    const changed = makeTool({ ...plain, description: 'Changed.' });
    const project = makeProject([...FIXTURE_TOOLS, changed]);
    const patched = spliceRun(project, TEST_CONTEXT, options, previousOf(before), [changed]);
    expect(patched.spliced).toBe(true);
    const full = emitManifests(makeProject([...FIXTURE_TOOLS, changed]), TEST_CONTEXT, options);
    expect(patched.files.map((file) => [file.path, file.content])).toEqual(
      full.files.map((file) => [file.path, file.content]),
    );
    expect(patched.segments).toEqual(full.segments);
  });

  it('fall back to a full run when a changed tool joins or leaves a target', () => {
    const before = emitManifests(makeProject([...FIXTURE_TOOLS, plain]), TEST_CONTEXT, options);
    const flat = makeTool({
      name: 'recursive_tree',
      inputSchema: { type: 'object', properties: { label: { type: 'string' } } },
    });
    const tools = [...FIXTURE_TOOLS.filter((tool) => tool.name !== 'recursive_tree'), flat, plain];
    const project = makeProject(tools);
    const assembled = spliceRun(project, TEST_CONTEXT, options, previousOf(before), [flat]);
    expect(assembled.spliced).toBeUndefined();
    expect(assembled.files.map((file) => [file.path, file.content])).toEqual(
      emitManifests(makeProject(tools), TEST_CONTEXT, options).files.map((file) => [file.path, file.content]),
    );
  });
});

describe('what a target drops is told in the description', () => {
  const tool = makeTool({
    name: 'search',
    inputSchema: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 500, description: 'What to look for' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
        site: { type: 'string', format: 'hostname', pattern: '^[a-z.]+$' },
        mode: { oneOf: [{ const: 'fast' }, { const: 'deep' }], description: 'How hard to look.' },
        card: { type: 'string' },
        billing: { type: 'string' },
      },
      dependencies: { card: ['billing'] },
    },
  });

  it('in short fixed sentences after the property’s own description', () => {
    const result = emitManifests(makeProject([tool]), TEST_CONTEXT, { targets: ['gemini', 'openai-strict'] });
    const gemini = entries(result, 'gemini')[0].parametersJsonSchema;
    expect(gemini.properties.query.description).toBe('What to look for. At least 1 character. At most 500 characters.');
    expect(gemini.properties.limit).toEqual({ type: 'integer', minimum: 1, maximum: 50, description: 'Default: 10.' });
    expect(gemini.properties.site.description).toBe('Format: hostname. Matches the pattern ^[a-z.]+$.');
    expect(gemini.properties.mode).toEqual({
      anyOf: [{ enum: ['fast'] }, { enum: ['deep'] }],
      description: 'How hard to look. Exactly one of the alternatives.',
    });
    expect(gemini.description).toBe('With card, also give billing.');
    const strict = entries(result, 'openai-strict')[0].function.parameters;
    expect(strict.properties.query.description).toBe('What to look for. At least 1 character. At most 500 characters.');
    expect(strict.properties.limit.description).toBe('Default: 10.');
    expect(strict.properties.site).toEqual({ type: ['string', 'null'], pattern: '^[a-z.]+$', format: 'hostname' });
  });

  it('the loss report tells what was carried into text and what is really lost', () => {
    const result = emitManifests(makeProject([tool]), TEST_CONTEXT, { targets: ['gemini'] });
    expect(
      result.losses.search!.gemini!.map(
        (entry) => `${entry.action} ${entry.keyword} ${entry.pointer}: ${entry.carried ?? 'LOST'}`,
      ),
    ).toEqual([
      'dropped dependencies /inputSchema: With card, also give billing.',
      'dropped default /inputSchema/properties/limit: Default: 10.',
      'rewritten oneOf /inputSchema/properties/mode: Exactly one of the alternatives.',
      'dropped maxLength /inputSchema/properties/query: At most 500 characters.',
      'dropped minLength /inputSchema/properties/query: At least 1 character.',
      'dropped format /inputSchema/properties/site: Format: hostname.',
      'dropped pattern /inputSchema/properties/site: Matches the pattern ^[a-z.]+$.',
    ]);
    const byKeyword = new Map(
      result.losses.search!.gemini!.map((entry) => [`${entry.pointer} ${entry.keyword}`, entry]),
    );
    expect(byKeyword.get('/inputSchema/properties/limit default')!.message).toBe(
      '`default: 10` at `/inputSchema/properties/limit` dropped for gemini; the description tells the model instead: `Default: 10.`; the runtime fills it in when the argument is absent',
    );
    expect(byKeyword.get('/inputSchema/properties/query maxLength')!.carried).toBe('At most 500 characters.');
    const markdown = result.files.find((file) => file.path === 'manifests/loss-report.md')!.content;
    expect(markdown).toContain(`- **gemini** (${result.losses.search!.gemini!.length} told in descriptions, 0 lost):`);
    const tuple = emitManifests(makeProject([FIXTURE_TOOLS[2]!]), TEST_CONTEXT, { targets: ['openai-strict'] });
    expect(tuple.losses.tuple_point!['openai-strict']!.map((entry) => [entry.keyword, entry.carried])).toEqual([
      ['additionalItems', undefined],
      ['items', undefined],
    ]);
    expect(tuple.files.find((file) => file.path === 'manifests/loss-report.md')!.content).toContain(
      '- **openai-strict**:',
    );
  });

  it('can be turned off: descriptions as written, nothing carried', () => {
    const result = emitManifests(makeProject([tool]), TEST_CONTEXT, { targets: ['gemini'], describeLosses: false });
    const gemini = entries(result, 'gemini')[0].parametersJsonSchema;
    expect(gemini.properties.query.description).toBe('What to look for');
    expect(gemini.properties.limit.description).toBeUndefined();
    expect(result.losses.search!.gemini!.every((entry) => entry.carried === undefined)).toBe(true);
  });
});

it('a combinator dropped whole (a root oneOf OpenAI refuses) is not described as if it were there', () => {
  const tool = makeTool({
    name: 'pick',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      oneOf: [{ required: ['a'] }, { required: ['b'] }],
    },
  });
  const result = emitManifests(makeProject([tool]), TEST_CONTEXT, { targets: ['openai'] });
  expect(entries(result, 'openai')[0].function.parameters.description).toBeUndefined();
  expect(result.losses.pick!.openai!.map((entry) => [entry.keyword, entry.action, entry.carried])).toEqual([
    ['oneOf', 'dropped', undefined],
  ]);
});

it('gemini-legacy, which has no additionalProperties, says "No other properties." for a closed object', () => {
  const tool = makeTool({
    name: 'closed',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'string', description: 'A' } },
    },
  });
  const [entry] = entries(
    emitManifests(makeProject([tool]), TEST_CONTEXT, { targets: ['gemini-legacy'] }),
    'gemini-legacy',
  );
  expect(entry.parameters).toEqual({
    type: 'OBJECT',
    properties: { a: { type: 'STRING', description: 'A' } },
    description: 'No other properties.',
  });
});
