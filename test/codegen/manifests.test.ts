import type { JSONSchema7 } from 'json-schema';
import type { ManifestTarget } from '../../src/manifest-targets/table.js';
import { describe, expect, it } from 'vitest';
import type { ToolModel } from '../../codegen/model.js';
import { SchemaValidator } from '../../src/schema/validation.js';
import { isMcpObjectSchema, MCP_SCHEMA_DIALECT, toMcpToolFromTool } from '../../src/mcp/tool.js';
import type { ITool } from '../../src/tool.js';
import { makeProject, makeTool, TEST_CONTEXT, emitManifests } from './model-factory.js';

type Json = Record<string, any>;

/**
 * The targets these tests were written for; the policy `error`, so that what a target cannot take is a
 * problem; descriptions left as written (manifests-targets.slow.test.ts tests carrying losses into them).
 */
const CLASSIC: ManifestTarget[] = ['openai', 'openai-strict', 'anthropic', 'gemini-legacy', 'mcp'];

function emit(tools: ToolModel[], targets: ManifestTarget[] = CLASSIC, unrepresentable: 'omit' | 'error' = 'error') {
  return emitManifests(makeProject(tools), TEST_CONTEXT, { targets, unrepresentable, describeLosses: false });
}

function file(result: ReturnType<typeof emit>, path: string): any {
  const found = result.files.find((candidate) => candidate.path === path);
  if (found === undefined) throw new Error(`no ${path} among ${result.files.map((f) => f.path).join(', ')}`);
  return JSON.parse(found.content);
}

function tool(inputSchema: JSONSchema7, fields: Partial<ToolModel> = {}): ToolModel {
  return makeTool({ name: 'probe', inputSchema, ...fields });
}

function losses(result: ReturnType<typeof emit>, target: ManifestTarget, name = 'probe') {
  return (result.losses[name]?.[target] ?? []).map(({ pointer, keyword, action }) => `${action} ${keyword} ${pointer}`);
}

const openaiParameters = (result: ReturnType<typeof emit>): Json =>
  file(result, 'manifests/openai.json')[0].function.parameters;
const strictParameters = (result: ReturnType<typeof emit>): Json =>
  file(result, 'manifests/openai-strict.json')[0].function.parameters;
const anthropicSchema = (result: ReturnType<typeof emit>): Json =>
  file(result, 'manifests/anthropic.json')[0].input_schema;
const geminiParameters = (result: ReturnType<typeof emit>): Json | undefined =>
  file(result, 'manifests/gemini-legacy.json').functionDeclarations[0]?.parameters;

describe('tool names', () => {
  it.each([
    ['web.search', ['anthropic', 'openai', 'openai-strict']],
    ['9lives', ['gemini-legacy']],
    ['a'.repeat(65), ['anthropic', 'gemini-legacy', 'openai', 'openai-strict']],
    ['web-search_2', []],
  ])('%s breaks the patterns of %j', (name, failing) => {
    const result = emit([makeTool({ name, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } })]);
    const messages = result.problems.map((problem) => problem.message);
    expect(messages.map((message) => /cannot be sent to ([a-z-]+)/.exec(message)![1]).sort()).toEqual(failing);
    for (const problem of result.problems) {
      expect(problem).toMatchObject({ file: `schemas/${name}.tool.json`, line: 1, column: 1, pointer: '/name' });
      expect(problem.message).toContain(`Tool name '${name}'`);
      expect(problem.message).toMatch(/must match \^/);
      expect(problem.hint).toMatch(
        /^turn [a-z-]+ off for this tool \(`"targets": \{ "[a-z-]+": false \}` in its definition\)/,
      );
    }
  });

  it('gives the exact OpenAI message with the pattern', () => {
    const result = emit(
      [makeTool({ name: 'web.search', inputSchema: { type: 'object', properties: {} } })],
      ['openai'],
    );
    expect(result.problems).toEqual([
      {
        file: 'schemas/web.search.tool.json',
        line: 1,
        column: 1,
        pointer: '/name',
        message:
          "Tool name 'web.search' cannot be sent to openai: OpenAI function names must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, _ and -, at most 64).",
        hint: 'turn openai off for this tool (`"targets": { "openai": false }` in its definition), or let generate leave it out of openai with a warning (`"manifests": { "unrepresentable": "omit" }` in toolsmith.config.json, the default)',
      },
    ]);
    expect(file(result, 'manifests/openai.json')).toEqual([]);
  });

  it('a target turned off reports no problem for it', () => {
    const result = emit(
      [makeTool({ name: 'web.search', inputSchema: { type: 'object', properties: {} } })],
      ['gemini', 'mcp'],
    );
    expect(result.problems).toEqual([]);
    expect(result.files.map((f) => f.path)).toEqual([
      'manifests/gemini.json',
      'manifests/gemini.ts',
      'manifests/mcp.json',
      'manifests/mcp.ts',
      'manifests/loss-report.json',
      'manifests/loss-report.md',
      'manifests/token-report.json',
    ]);
  });
});

describe('openai', () => {
  it('emits function tools with the whole schema', () => {
    const schema: JSONSchema7 = {
      type: 'object',
      required: ['q'],
      properties: { q: { type: 'string', maxLength: 5, default: 'x' } },
    };
    const result = emit([tool(schema, { description: 'Finds.' })]);
    expect(file(result, 'manifests/openai.json')).toEqual([
      { type: 'function', function: { name: 'probe', description: 'Finds.', parameters: schema } },
    ]);
    expect(losses(result, 'openai')).toEqual([]);
  });

  it('drops root combinators OpenAI refuses at the top level', () => {
    const result = emit([
      tool({
        type: 'object',
        properties: { a: { type: 'string' } },
        anyOf: [{ required: ['a'] }],
        not: { required: ['b'] },
      }),
    ]);
    expect(openaiParameters(result)).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(losses(result, 'openai')).toEqual(['dropped anyOf /inputSchema', 'dropped not /inputSchema']);
  });

  it('adds empty properties to a root without them and removes $schema', () => {
    const result = emit([tool({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' })]);
    expect(openaiParameters(result)).toEqual({ type: 'object', properties: {} });
  });

  it('refuses a root that is not an object', () => {
    const result = emit([tool({ type: 'string' } as JSONSchema7)], ['openai']);
    expect(result.problems.map((problem) => [problem.pointer, problem.message])).toEqual([
      [
        '/inputSchema',
        `Tool 'probe' cannot be sent to openai: its input schema root must be \`type: "object"\` (got "string").`,
      ],
    ]);
  });
});

describe('openai-strict', () => {
  const schema: JSONSchema7 = {
    type: 'object',
    required: ['q'],
    properties: {
      q: { type: 'string', minLength: 1, pattern: '^[a-z]+$' },
      when: { type: 'string', format: 'date-time' },
      site: { type: 'string', format: 'uri' },
      unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      at: { $ref: '#/definitions/Point', description: 'where' },
      pick: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
      meta: { type: 'object', additionalProperties: { type: 'string' } },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 1 },
      both: { type: 'string', allOf: [{ minLength: 2 }] },
    },
    definitions: {
      Point: { type: 'object', required: ['x'], properties: { x: { type: 'number' }, y: { type: 'number' } } },
    },
  };
  const result = emit([tool(schema)]);
  const parameters = strictParameters(result);

  it('sets strict: true', () => {
    expect(file(result, 'manifests/openai-strict.json')[0].function.strict).toBe(true);
  });

  it('closes every object with additionalProperties: false', () => {
    expect(parameters.additionalProperties).toBe(false);
    expect(parameters.definitions.Point.additionalProperties).toBe(false);
    expect(parameters.properties.meta.additionalProperties).toBe(false);
  });

  it('lists every property in required', () => {
    expect(parameters.required).toEqual(['q', 'when', 'site', 'unit', 'at', 'pick', 'meta', 'tags', 'both']);
    expect(parameters.definitions.Point.required).toEqual(['x', 'y']);
    expect(parameters.properties.meta.required).toEqual([]);
  });

  it('makes optional properties nullable and keeps required ones as they are', () => {
    expect(parameters.properties.q.type).toBe('string');
    expect(parameters.properties.when.type).toEqual(['string', 'null']);
    expect(parameters.properties.unit).toEqual({ type: ['string', 'null'], enum: ['c', 'f', null] });
    expect(parameters.properties.at).toEqual({
      anyOf: [{ $ref: '#/definitions/Point' }, { type: 'null' }],
      description: 'where',
    });
    expect(parameters.properties.pick.anyOf).toEqual([
      { type: 'string' },
      { type: 'integer', minimum: 0 },
      { type: 'null' },
    ]);
    expect(parameters.definitions.Point.properties.y.type).toEqual(['number', 'null']);
    expect(parameters.definitions.Point.properties.x.type).toBe('number');
  });

  it('sends nulls for omitted properties that the runtime takes back out', () => {
    const sent = { q: 'a', when: null, site: null, unit: null, at: { x: 1, y: null }, pick: null, meta: null };
    const validator = new SchemaValidator({ schema, stripOptionalNulls: true });
    expect(validator.validate({ ...sent, tags: null, both: null })).toEqual({
      valid: true,
      value: { q: 'a', unit: 'c', at: { x: 1 } },
    });
  });

  it('keeps supported keywords and $ref/definitions', () => {
    expect(parameters.properties.q.pattern).toBe('^[a-z]+$');
    expect(parameters.properties.when.format).toBe('date-time');
    expect(parameters.properties.tags.minItems).toBe(1);
    expect(parameters.definitions.Point.properties.x).toEqual({ type: 'number' });
  });

  it('removes unsupported keywords, formats and defaults, each with a loss entry', () => {
    expect(parameters.properties.q.minLength).toBeUndefined();
    expect(parameters.properties.site.format).toBeUndefined();
    expect(parameters.properties.unit.default).toBeUndefined();
    expect(parameters.properties.tags.uniqueItems).toBeUndefined();
    expect(parameters.properties.pick.oneOf).toBeUndefined();
    expect(losses(result, 'openai-strict')).toEqual([
      'dropped allOf /inputSchema/properties/both',
      'rewritten additionalProperties /inputSchema/properties/meta',
      'rewritten oneOf /inputSchema/properties/pick',
      'dropped minLength /inputSchema/properties/q',
      'dropped format /inputSchema/properties/site',
      'dropped uniqueItems /inputSchema/properties/tags',
      'dropped default /inputSchema/properties/unit',
    ]);
  });

  it('keeps recursion through $ref', () => {
    const recursive = emit(
      [
        tool({
          type: 'object',
          properties: { tree: { $ref: '#/definitions/Node' } },
          definitions: {
            Node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/definitions/Node' } } } },
          },
        }),
      ],
      ['openai-strict'],
    );
    expect(recursive.problems).toEqual([]);
    expect(strictParameters(recursive).definitions.Node.properties.kids.items).toEqual({ $ref: '#/definitions/Node' });
  });

  it('refuses a value without a type and an array without items', () => {
    const anyValue = emit([tool({ type: 'object', properties: { blob: {} } })], ['openai-strict']);
    expect(anyValue.problems.map((problem) => problem.pointer)).toEqual(['/inputSchema/properties/blob']);
    const noItems = emit([tool({ type: 'object', properties: { list: { type: 'array' } } })], ['openai-strict']);
    expect(noItems.problems[0]!.message).toContain('is an array without `items`');
  });

  it('enforces the size limits', () => {
    const properties: Record<string, JSONSchema7> = {};
    for (let index = 0; index < 5001; index += 1) properties[`p${index}`] = { type: 'string' };
    const wide = emit([tool({ type: 'object', properties })], ['openai-strict']);
    expect(wide.problems[0]!.message).toContain("5001 object properties, over strict mode's limit of 5000");
    let deep: JSONSchema7 = { type: 'string' };
    for (let level = 0; level < 11; level += 1) deep = { type: 'object', properties: { d: deep } };
    const nested = emit([tool(deep)], ['openai-strict']);
    expect(nested.problems[0]!.message).toContain('11 levels of object nesting');
    let ten: JSONSchema7 = { type: 'string' };
    for (let level = 0; level < 10; level += 1) ten = { type: 'object', properties: { d: ten } };
    expect(emit([tool(ten)], ['openai-strict']).problems).toEqual([]);
  });
});

describe('anthropic', () => {
  it('translates draft-07 forms to draft 2020-12 without loss entries', () => {
    const result = emit([
      tool({
        type: 'object',
        properties: {
          at: { $ref: '#/definitions/Point' },
          pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
          definitions: { type: 'string' },
        },
        dependencies: { a: ['b'], c: { required: ['d'] } },
        definitions: { Point: { type: 'object', properties: { x: { type: 'number' } } } },
      }),
    ]);
    const schema = anthropicSchema(result);
    expect(schema.properties.at).toEqual({ $ref: '#/$defs/Point' });
    expect(schema.properties.definitions).toEqual({ type: 'string' });
    expect(schema.$defs).toEqual({ Point: { type: 'object', properties: { x: { type: 'number' } } } });
    expect(schema.definitions).toBeUndefined();
    expect(schema.properties.pair).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }],
      items: false,
    });
    expect(schema.dependentRequired).toEqual({ a: ['b'] });
    expect(schema.dependentSchemas).toEqual({ c: { required: ['d'] } });
    expect(losses(result, 'anthropic')).toEqual([]);
  });

  it('keeps validation keywords (the model sees the whole schema) and drops top-level combinators', () => {
    const result = emit([
      tool({
        type: 'object',
        properties: { q: { type: 'string', maxLength: 200, format: 'uri' } },
        oneOf: [{ required: ['q'] }],
      }),
    ]);
    expect(anthropicSchema(result)).toEqual({
      type: 'object',
      properties: { q: { type: 'string', maxLength: 200, format: 'uri' } },
    });
    expect(losses(result, 'anthropic')).toEqual(['dropped oneOf /inputSchema']);
  });

  it('emits name, description and input_schema', () => {
    const result = emit([tool({ type: 'object', properties: {} }, { description: 'Probes.' })]);
    expect(file(result, 'manifests/anthropic.json')).toEqual([
      { name: 'probe', description: 'Probes.', input_schema: { type: 'object', properties: {} } },
    ]);
  });
});

describe('gemini-legacy (the OpenAPI subset, opt-in)', () => {
  it('inlines $refs and removes definitions', () => {
    const result = emit([
      tool({
        type: 'object',
        properties: { at: { $ref: '#/definitions/Point', description: 'where' } },
        definitions: { Point: { type: 'object', properties: { x: { type: 'number' } } } },
      }),
    ]);
    expect(geminiParameters(result)).toEqual({
      type: 'OBJECT',
      properties: { at: { type: 'OBJECT', properties: { x: { type: 'NUMBER' } }, description: 'where' } },
    });
    expect(losses(result, 'gemini-legacy')).toEqual([]);
  });

  it('refuses recursion', () => {
    const result = emit(
      [
        tool({
          type: 'object',
          properties: { tree: { $ref: '#/definitions/Node' } },
          definitions: {
            Node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/definitions/Node' } } } },
          },
        }),
      ],
      ['gemini-legacy'],
    );
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ pointer: '/inputSchema/definitions/Node/properties/kids/items' });
    expect(result.problems[0]!.message).toContain(
      "Tool 'probe' cannot be sent to gemini-legacy: its schema is recursive",
    );
    expect(file(result, 'manifests/gemini-legacy.json')).toEqual({ functionDeclarations: [] });
  });

  it('keeps only the formats Gemini takes, per type', () => {
    const result = emit([
      tool({
        type: 'object',
        properties: {
          a: { type: 'string', format: 'date-time' },
          b: { type: 'string', format: 'uuid' },
          c: { type: 'integer', format: 'int64' },
          d: { type: 'number', format: 'int32' },
        },
      }),
    ]);
    const properties = geminiParameters(result)!.properties;
    expect(properties.a.format).toBe('date-time');
    expect(properties.b.format).toBeUndefined();
    expect(properties.c.format).toBe('int64');
    expect(properties.d.format).toBeUndefined();
    expect(losses(result, 'gemini-legacy')).toEqual([
      'dropped format /inputSchema/properties/b',
      'dropped format /inputSchema/properties/d',
    ]);
  });

  it('rewrites oneOf, null types and string consts; drops what the OpenAPI subset lacks', () => {
    const result = emit([
      tool({
        type: 'object',
        additionalProperties: false,
        properties: {
          pick: { oneOf: [{ type: 'string' }, { type: 'null' }] },
          maybe: { type: ['string', 'null'], maxLength: 3 },
          fixed: { const: 'x' },
          level: { type: 'integer', enum: [1, 2], exclusiveMinimum: 0, default: 1 },
        },
      }),
    ]);
    expect(geminiParameters(result)).toEqual({
      type: 'OBJECT',
      properties: {
        pick: { nullable: true, anyOf: [{ type: 'STRING' }] },
        maybe: { type: 'STRING', nullable: true, maxLength: '3' },
        fixed: { enum: ['x'] },
        level: { type: 'INTEGER' },
      },
    });
    expect(losses(result, 'gemini-legacy')).toEqual([
      'dropped additionalProperties /inputSchema',
      'dropped default /inputSchema/properties/level',
      'dropped enum /inputSchema/properties/level',
      'dropped exclusiveMinimum /inputSchema/properties/level',
      'rewritten oneOf /inputSchema/properties/pick',
    ]);
  });

  it('leaves parameters out for a tool without properties and refuses an empty nested object', () => {
    const none = emit([tool({ type: 'object' })]);
    expect(file(none, 'manifests/gemini-legacy.json')).toEqual({
      functionDeclarations: [{ name: 'probe', description: 'The probe tool.' }],
    });
    const empty = emit([tool({ type: 'object', properties: { meta: { type: 'object' } } })], ['gemini-legacy']);
    expect(empty.problems.map((problem) => problem.pointer)).toEqual(['/inputSchema/properties/meta']);
  });

  it('accepts dots and colons in names', () => {
    expect(
      emit(
        [makeTool({ name: 'ns:web.search', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } })],
        ['gemini-legacy'],
      ).problems,
    ).toEqual([]);
  });
});

describe('mcp', () => {
  const output: JSONSchema7 = { type: 'object', properties: { ok: { type: 'boolean' } } };

  it('stamps $schema 2020-12 on every schema and derives annotations', () => {
    const result = emit([
      tool(
        { $schema: 'http://json-schema.org/draft-07/schema', type: 'object', properties: {} },
        { outputSchema: output, displayName: 'Probe It' },
      ),
    ]);
    expect(file(result, 'manifests/mcp.json')).toEqual({
      tools: [
        {
          name: 'probe',
          title: 'Probe It',
          description: 'The probe tool.',
          inputSchema: { $schema: MCP_SCHEMA_DIALECT, type: 'object', properties: {} },
          outputSchema: { $schema: MCP_SCHEMA_DIALECT, ...output },
          annotations: { title: 'Probe It', readOnlyHint: true, destructiveHint: false, idempotentHint: true },
        },
      ],
    });
  });

  it('a tool with side effects is not read-only and is said to be destructive outright', () => {
    const result = emit([tool({ type: 'object', properties: {} }, { hasSideEffects: true })]);
    expect(file(result, 'manifests/mcp.json').tools[0].annotations).toEqual({
      title: 'Probe',
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it('translates every schema to 2020-12: $defs, prefixItems, dependentRequired, refs repointed', () => {
    const result = emit([
      tool(
        {
          type: 'object',
          properties: {
            pair: { type: 'array', items: [{ type: 'string' }, { $ref: '#/definitions/N' }], additionalItems: false },
            a: { type: 'string' },
          },
          dependencies: { a: ['pair'] },
          definitions: { N: { type: 'number' } },
        },
        {
          outputSchema: {
            type: 'object',
            properties: { n: { $ref: '#/definitions/N', description: 'a number' } },
            definitions: { N: { type: 'number' } },
          },
        },
      ),
    ]);
    const [entry] = file(result, 'manifests/mcp.json').tools;
    expect(entry.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { $ref: '#/$defs/N' }], items: false },
        a: { type: 'string' },
      },
      dependentRequired: { a: ['pair'] },
      $defs: { N: { type: 'number' } },
    });
    expect(entry.outputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { n: { $ref: '#/$defs/N', description: 'a number' } },
      $defs: { N: { type: 'number' } },
    });
    expect(losses(result, 'mcp')).toEqual([]);
  });

  it('keeps an output schema whose root is a $ref to an object schema (a shared type as output)', () => {
    const outputSchema = {
      $ref: '#/definitions/Entry',
      definitions: { Entry: { type: 'object', required: ['key'], properties: { key: { type: 'string' } } } },
    } as JSONSchema7;
    const result = emit([tool({ type: 'object', properties: {} }, { outputSchema })]);
    expect(file(result, 'manifests/mcp.json').tools[0].outputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $ref: '#/$defs/Entry',
      $defs: { Entry: { type: 'object', required: ['key'], properties: { key: { type: 'string' } } } },
    });
    expect(losses(result, 'mcp')).toEqual([]);
    expect(isMcpObjectSchema(outputSchema)).toBe(true);
    expect(isMcpObjectSchema({ $ref: '#/definitions/L', definitions: { L: { type: 'array' } } })).toBe(false);
    expect(isMcpObjectSchema({ $ref: '#/definitions/L', definitions: { L: { $ref: '#/definitions/L' } } })).toBe(false);
  });

  it('takes the annotations a definition states and completes the rest', () => {
    const result = emit([
      tool(
        { type: 'object', properties: {} },
        { hasSideEffects: true, annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true } },
      ),
    ]);
    expect(file(result, 'manifests/mcp.json').tools[0].annotations).toEqual({
      title: 'Probe',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    const readOnly = emit([tool({ type: 'object', properties: {} }, { annotations: { openWorldHint: false } })]);
    expect(file(readOnly, 'manifests/mcp.json').tools[0].annotations).toEqual({
      title: 'Probe',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('leaves out an output schema whose root is not an object, with a loss entry', () => {
    const result = emit([
      tool({ type: 'object', properties: {} }, { outputSchema: { type: 'array', items: { type: 'string' } } }),
    ]);
    expect(file(result, 'manifests/mcp.json').tools[0].outputSchema).toBeUndefined();
    expect(losses(result, 'mcp')).toEqual(['dropped outputSchema /outputSchema']);
  });

  it('builds the same entry from an ITool at run time', () => {
    const model = tool(
      { type: 'object', properties: { q: { type: 'string' } } },
      { outputSchema: output, hasSideEffects: true },
    );
    const runtimeTool: ITool = {
      id: model.id,
      name: model.name,
      displayName: model.displayName,
      description: model.description,
      inputSchema: model.inputSchema,
      outputSchema: model.outputSchema,
      hasSideEffects: true,
      execute: async () => ({ success: true }),
    };
    expect(toMcpToolFromTool(runtimeTool)).toEqual(file(emit([model]), 'manifests/mcp.json').tools[0]);
  });
});

describe('emitManifests', () => {
  const tools = [
    tool({ type: 'object', properties: { q: { type: 'string', maxLength: 9 } } }, { name: 'zeta' }),
    tool({ type: 'object', properties: { q: { type: 'string', minLength: 1, maxLength: 9 } } }, { name: 'alpha' }),
  ];

  it('is byte-stable: same bytes twice, LF, two-space JSON with a trailing newline', () => {
    const first = emit(tools).files;
    expect(emit(tools).files).toEqual(first);
    for (const generated of first) {
      expect(generated.content.endsWith('\n')).toBe(true);
      expect(generated.content).not.toContain('\r');
    }
    expect(first.find((f) => f.path === 'manifests/openai.json')!.content.startsWith('[\n  {\n    "type"')).toBe(true);
  });

  it('sorts the loss report by tool, target, pointer and keyword', () => {
    const report = file(emit(tools), 'manifests/loss-report.json');
    expect(Object.keys(report)).toEqual(['alpha', 'zeta']);
    expect(Object.keys(report.alpha)).toEqual([
      'anthropic',
      'gemini-legacy',
      'mcp',
      'openai',
      'openai-strict',
      'hosts',
    ]);
    expect(report.alpha['openai-strict'].map((entry: Json) => entry.keyword)).toEqual(['maxLength', 'minLength']);
    expect(report.alpha['openai-strict'][0]).toEqual({
      pointer: '/inputSchema/properties/q',
      keyword: 'maxLength',
      action: 'dropped',
      value: 9,
      message:
        '`maxLength: 9` at `/inputSchema/properties/q` dropped for openai-strict: the model is not told the length limit; the runtime still enforces it',
    });
  });

  it("puts a target's reason between what the model is not told and what the runtime does", () => {
    const result = emit([
      tool(
        {
          type: 'object',
          properties: { when: { type: 'string', format: 'uri' }, size: { enum: [1, 2] } },
          not: { required: ['when'] },
        },
        { outputSchema: { type: 'array' } },
      ),
    ]);
    const messages = (target: ManifestTarget) =>
      (result.losses.probe?.[target] ?? []).map((entry) => entry.message.replace(/^.* for [a-z-]+: /, ''));
    expect(messages('openai')).toEqual([
      'the model is not told what is excluded (openai takes no `not` at the top level); the runtime still enforces it',
    ]);
    expect(messages('openai-strict')).toContain(
      'the model is not told the format (strict mode supports only date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid); the runtime still enforces it',
    );
    expect(messages('gemini-legacy')).toContain(
      'the model is not told the allowed values (Gemini enums hold strings only); the runtime still enforces it',
    );
    expect(messages('mcp')).toEqual([
      'the client is not told the output shape (MCP output schemas must have an object root); the result still arrives as text',
    ]);
  });

  it('writes a readable loss-report.md per tool and target', () => {
    const markdown = emit(tools).files.find((f) => f.path === 'manifests/loss-report.md')!.content;
    expect(markdown).toContain('## alpha\n\n- **anthropic**: nothing lost\n');
    expect(markdown).toContain(
      '- **openai-strict**:\n  - `maxLength: 9` at `/inputSchema/properties/q` dropped for openai-strict',
    );
    expect(markdown.startsWith('<!-- Generated by toolsmith')).toBe(true);
  });
});

describe('manifests.describeErrors', () => {
  const quote = makeTool({
    name: 'quote',
    description: 'Looks up a quote',
    errors: [
      { code: 'RATE_LIMITED', description: 'Too many lookups: wait and call again', retryable: true },
      { code: 'UNKNOWN_SYMBOL', description: 'No such symbol.' },
    ],
  });
  const emit = (describeErrors?: boolean) =>
    emitManifests(makeProject([quote, makeTool({ name: 'plain', description: 'Plain.' })]), TEST_CONTEXT, {
      targets: ['openai', 'anthropic', 'mcp'],
      describeLosses: false,
      ...(describeErrors === undefined ? {} : { describeErrors }),
    });
  const description = (emission: ReturnType<typeof emit>, file: string, tool: string): string => {
    const text = emission.files.find((entry) => entry.path === file)!.content;
    const entries = JSON.parse(text) as unknown;
    const list = (Array.isArray(entries) ? entries : (entries as { tools: unknown[] }).tools) as Record<string, any>[];
    const entry = list.find((item) => (item.function?.name ?? item.name) === tool)!;
    return entry.function?.description ?? entry.description;
  };

  it('tells each declared error in the description of every target, only when asked', () => {
    const told =
      'Looks up a quote. Fails with: RATE_LIMITED (retryable): Too many lookups: wait and call again. UNKNOWN_SYMBOL: No such symbol.';
    const on = emit(true);
    for (const file of ['manifests/openai.json', 'manifests/anthropic.json', 'manifests/mcp.json'])
      expect(description(on, file, 'quote')).toBe(told);
    expect(description(on, 'manifests/openai.json', 'plain')).toBe('Plain.');
    expect(description(emit(), 'manifests/openai.json', 'quote')).toBe('Looks up a quote');
  });

  it('is counted by the token report', () => {
    const cost = (emission: ReturnType<typeof emit>) => Number(emission.tokens!.tools.quote!.openai);
    expect(cost(emit(true))).toBeGreaterThan(cost(emit(false)) + 15);
  });
});
