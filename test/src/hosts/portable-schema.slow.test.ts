/**
 * The portable profile: what it writes for each shape (exact), that every host of the table takes
 * its output as it is — the example tools, the real corpus, random schemas — except where it reports
 * a place it cannot say portably, and that it accepts every value the original accepts (fast-check,
 * the suite's seed: test/setup/fast-check.ts).
 */
import fc from 'fast-check';
import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  checkServer,
  checkTool,
  HOSTS,
  portableInputSchema,
  type HostFinding,
  type ServedTool,
} from '../../../src/hosts/index.js';
import { toMcpTool } from '../../../src/mcp/tool.js';
import { arbitraryFor } from '../../helpers/schema-arbitrary.js';
import { corpus, EXAMPLES, REAL_CORPUS, SHAPES } from './corpus.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The tool with its input schema made portable. */
function portableTool(tool: ServedTool): ServedTool {
  return { ...tool, inputSchema: portableInputSchema(tool.inputSchema).schema };
}

/** The findings that change or refuse what a model is shown of the input schema. */
function schemaChanges(findings: readonly HostFinding[]): HostFinding[] {
  return findings.filter(
    (finding) =>
      (finding.effect === 'alters' || finding.effect === 'rejects') && finding.pointer.startsWith('/inputSchema'),
  );
}

/** Changes a host makes that the rewrite did not report as unportable (at or below a reported pointer). */
function unexplained(tool: ServedTool): string[] {
  const { schema, unportable } = portableInputSchema(tool.inputSchema);
  const explained = (pointer: string) =>
    unportable.some((entry) => pointer === entry.pointer || pointer.startsWith(`${entry.pointer}/`));
  return HOSTS.flatMap((host) =>
    schemaChanges(checkTool({ ...tool, inputSchema: schema }, host).findings)
      .filter((finding) => !explained(finding.pointer))
      .map((finding) => `${tool.name} ${finding.rule} ${finding.pointer}`),
  );
}

describe('portableInputSchema writes', () => {
  const portable = (schema: object) => portableInputSchema(schema);

  it('a oneOf of objects as one object holding every branch’s properties, the alternatives in words', () => {
    const result = portable({
      type: 'object',
      properties: {
        query: {
          description: 'What to look up.',
          oneOf: [
            {
              type: 'object',
              required: ['key'],
              additionalProperties: false,
              properties: { key: { $ref: '#/$defs/Key' } },
            },
            {
              type: 'object',
              required: ['tag'],
              additionalProperties: false,
              properties: { tag: { type: 'string', maxLength: 40 } },
            },
          ],
        },
      },
      required: ['query'],
      additionalProperties: false,
      $defs: { Key: { type: 'string', pattern: '^[a-z]+$' } },
    });
    expect(result.schema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        query: {
          type: 'object',
          description: 'What to look up. Exactly one of: an object with `key`; an object with `tag`.',
          properties: {
            key: { type: 'string', description: 'Matches the pattern ^[a-z]+$.' },
            tag: { type: 'string', description: 'At most 40 characters.' },
          },
          additionalProperties: false,
        },
      },
      required: ['query'],
      additionalProperties: false,
    });
    expect(result.moved.map((move) => [move.pointer, move.keyword, move.prose])).toEqual([
      ['/inputSchema/properties/query/oneOf/0/properties/key/$ref', '$ref', undefined],
      ['/inputSchema/$defs/Key/pattern', 'pattern', 'Matches the pattern ^[a-z]+$.'],
      ['/inputSchema/properties/query/oneOf/1/properties/tag/maxLength', 'maxLength', 'At most 40 characters.'],
      ['/inputSchema/properties/query/oneOf', 'oneOf', 'Exactly one of: an object with `key`; an object with `tag`.'],
    ]);
    expect(result.unportable).toEqual([]);
  });

  it('bounds, formats and defaults as sentences, const as a one-value enum', () => {
    expect(
      portable({
        type: 'object',
        properties: {
          n: { type: 'integer', minimum: 1, maximum: 9, default: 3, description: 'How many' },
          when: { type: 'string', format: 'date' },
          kind: { const: 'fixed' },
        },
      }).schema.properties,
    ).toEqual({
      n: { type: 'integer', description: 'How many. At least 1. At most 9. Default: 3.' },
      when: { type: 'string', description: 'Format: date.' },
      kind: { type: 'string', enum: ['fixed'] },
    });
  });

  it('"or null" in words, with no type, and reports the place as unportable', () => {
    const result = portable({ type: 'object', properties: { note: { type: ['string', 'null'], maxLength: 5 } } });
    expect(result.schema.properties).toEqual({ note: { description: 'A string or null. At most 5 characters.' } });
    expect(result.unportable.map((entry) => entry.pointer)).toEqual(['/inputSchema/properties/note']);
  });

  it('a tuple as one items schema holding every position, the positions in words', () => {
    expect(
      portable({
        type: 'object',
        properties: { pages: { type: 'array', items: [{ type: 'integer' }, { type: 'integer' }], maxItems: 2 } },
      }).schema.properties,
    ).toEqual({
      pages: {
        type: 'array',
        description: 'At most 2 items. Item 1: an integer; Item 2: an integer.',
        items: { type: 'integer' },
      },
    });
    expect(
      portable({
        type: 'object',
        properties: { pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], items: false } },
      }).unportable.map((entry) => entry.pointer),
    ).toEqual(['/inputSchema/properties/pair/items']);
  });

  it('an open object where additionalProperties was a schema or patternProperties named more', () => {
    const result = portable({
      type: 'object',
      properties: {
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        env: { type: 'object', patternProperties: { '^X_': { type: 'string' } }, additionalProperties: false },
      },
    });
    expect(result.schema.properties).toEqual({
      labels: { type: 'object', description: 'Other properties are allowed: a string.', properties: {} },
      env: { type: 'object', description: 'Also: `patternProperties: {"^X_":{"type":"string"}}`.', properties: {} },
    });
  });

  it('allOf merged, a forbidden property and an undeclared required name in words', () => {
    expect(
      portable({
        type: 'object',
        allOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } } }],
        properties: { gone: false },
        required: ['c'],
      }).schema,
    ).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      description: 'Never give `gone`. Always give `c`.',
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      required: ['a'],
    });
  });

  it('a property one branch names as any value, when another branch is an open object', () => {
    const result = portable({
      type: 'object',
      properties: {
        x: {
          anyOf: [
            { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
            { type: 'object' },
          ],
        },
      },
    });
    expect((result.schema.properties as any).x.properties).toEqual({ a: {} });
    expect(result.unportable.map((entry) => entry.pointer)).toEqual(['/inputSchema/properties/x/properties/a']);
  });

  it('a schema that refers to itself once, then by its type', () => {
    const result = portable({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    });
    expect(result.schema.properties).toEqual({
      tree: {
        type: 'object',
        properties: {
          children: { type: 'array', items: { type: 'object', description: 'Same shape as `Node`.', properties: {} } },
        },
      },
    });
    expect(result.unportable).toEqual([]);
  });

  it('a property named `__proto__` as data, and reports each description VS Code Copilot cuts, nested ones too', () => {
    const long = 'x'.repeat(1025);
    const result = portable(
      JSON.parse(
        `{"type":"object","properties":{"__proto__":{"type":"string"},"list":{"type":"array","items":{"type":"object","properties":{"note":{"type":"string","description":"${long}"}}}}}}`,
      ),
    );
    expect(Object.keys(result.schema.properties as object)).toEqual(['__proto__', 'list']);
    expect(Object.getPrototypeOf(result.schema.properties)).toBe(Object.prototype);
    expect(result.unportable).toEqual([
      {
        pointer: '/inputSchema/properties/list/items/properties/note/description',
        reason: 'a description over 1024 characters',
      },
    ]);
  });

  it('nothing but what every host reads: the example tools and the shape fixtures', () => {
    const allowed = new Set([
      '$schema',
      'type',
      'description',
      'properties',
      'required',
      'additionalProperties',
      'items',
      'enum',
    ]);
    const keys = new Set<string>();
    const collect = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const key of Object.keys(node)) keys.add(key);
      const schema = node as Record<string, unknown>;
      for (const child of Object.values((schema.properties as object) ?? {})) collect(child);
      collect(schema.items);
    };
    for (const tool of [...corpus(EXAMPLES), ...corpus(SHAPES)]) collect(portableInputSchema(tool.inputSchema).schema);
    expect([...keys].filter((key) => !allowed.has(key))).toEqual([]);
  });
});

describe('every host takes the portable schema as it is', () => {
  it('the example tools: unaltered by every host, Cursor included (memory_read’s oneOf is folded)', () => {
    const tools = corpus(EXAMPLES).map(portableTool);
    for (const host of HOSTS) {
      const check = checkServer(tools, host);
      expect([host.id, check.verdict]).toEqual([host.id, 'unaltered']);
    }
    expect(corpus(EXAMPLES).flatMap((tool) => portableInputSchema(tool.inputSchema).unportable)).toEqual([]);
  });

  it('the real corpus and the shape fixtures: every change a host still makes is at a place the rewrite reported', () => {
    const tools = [...REAL_CORPUS, SHAPES].flatMap((file) => corpus(file));
    expect(tools.length).toBeGreaterThan(200);
    expect(tools.flatMap(unexplained)).toEqual([]);
  });
});

/* ---------------------------------------------------------------- random schemas */

/** Leaves in the shapes the hosts disagree on. */
const LEAVES: readonly JSONSchema7Definition[] = [
  {},
  true,
  false,
  { type: 'string', minLength: 2, maxLength: 5 },
  { type: 'integer', minimum: 0, maximum: 9, default: 3 },
  { type: ['string', 'null'] },
  { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
  { enum: ['a', 'b', null] },
  { const: 1 },
  { const: { k: [1] } },
  { type: 'string', pattern: '^[a-z]+$' },
  { type: 'string', format: 'date' },
  { type: 'array', items: [{ type: 'integer' }, { type: 'string' }], additionalItems: false },
  { type: 'array', items: [{ type: 'integer' }], maxItems: 1 },
  { type: 'array', items: { type: 'boolean' }, uniqueItems: true, minItems: 1 },
  { not: { type: 'string' } },
  { if: { type: 'string' }, then: { minLength: 1 } },
  { type: 'object', patternProperties: { '^x': { type: 'integer' } }, additionalProperties: false },
  { type: 'object', additionalProperties: { type: 'string' } },
  { type: 'object', properties: { gone: false } },
  { $ref: '#/definitions/Key' },
  { type: 'object', required: ['z'], properties: {} },
  { type: 'object', dependencies: { a: ['b'] }, properties: { a: { type: 'string' }, b: { type: 'string' } } },
];

const shapes: fc.Arbitrary<JSONSchema7Definition> = fc.letrec<{ shape: JSONSchema7Definition }>((tie) => ({
  shape: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...LEAVES),
    fc
      .tuple(fc.constantFrom('anyOf', 'oneOf', 'allOf'), fc.array(tie('shape'), { minLength: 1, maxLength: 3 }))
      .map(([keyword, members]) => ({ [keyword]: members }) as JSONSchema7),
    fc
      .tuple(tie('shape'), tie('shape'), fc.boolean(), fc.subarray(['a', 'b']))
      .map(
        ([a, b, closed, required]) =>
          ({ type: 'object', properties: { a, b }, required, additionalProperties: !closed }) as JSONSchema7,
      ),
    tie('shape').map((items) => ({ type: 'array', items, maxItems: 3 }) as JSONSchema7),
    fc
      .tuple(tie('shape'), fc.constantFrom('string', 'object', 'integer'))
      .map(([shape, type]) => ({ type, anyOf: [shape, { type: 'null' }] }) as JSONSchema7),
  ),
})).shape;

/** A definition's input schema around two random shapes, as toolsmith serves it (2020-12). */
function servedTool(a: JSONSchema7Definition, b: JSONSchema7Definition): { definition: JSONSchema7; tool: ServedTool } {
  const definition: JSONSchema7 = {
    type: 'object',
    properties: { a, b },
    required: ['a'],
    additionalProperties: false,
    definitions: { Key: { type: 'string', maxLength: 3 } },
  };
  const entry = toMcpTool({ name: 'random', description: 'A random tool.', inputSchema: definition });
  return { definition, tool: { name: entry.name, description: entry.description, inputSchema: entry.inputSchema } };
}

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));

describe('random schemas (fast-check)', () => {
  it('every host takes the rewrite as it is, but where it reports a place as unportable', () => {
    fc.assert(
      fc.property(shapes, shapes, (a, b) => {
        expect(unexplained(servedTool(a, b).tool)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('the rewrite accepts every value the served schema accepts', () => {
    fc.assert(
      fc.property(
        fc.tuple(shapes, shapes).chain(([a, b]) => {
          const { definition, tool } = servedTool(a, b);
          return fc.tuple(
            fc.constant(tool),
            fc.array(arbitraryFor(definition, definition), { minLength: 8, maxLength: 8 }),
          );
        }),
        ([tool, values]) => {
          const original = ajv.compile(tool.inputSchema as object);
          const portable = ajv.compile(portableInputSchema(tool.inputSchema).schema);
          for (const value of values)
            if (original(value))
              expect(portable(value), JSON.stringify({ schema: tool.inputSchema, value })).toBe(true);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('finds values the served schemas accept, so the property above is not empty', () => {
    let accepted = 0;
    for (const [a, b] of fc.sample(fc.tuple(shapes, shapes), { numRuns: 40, seed: 7 })) {
      const { definition, tool } = servedTool(a, b);
      const original = ajv.compile(tool.inputSchema as object);
      for (const value of fc.sample(arbitraryFor(definition, definition), { numRuns: 8, seed: 7 }))
        if (original(value)) accepted++;
    }
    expect(accepted).toBeGreaterThan(40);
  });
});
