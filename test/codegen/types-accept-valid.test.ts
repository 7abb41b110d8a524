/**
 * The generated TypeScript types accept every value the validator accepts. For each example tool
 * (`schemas/`), the injection fixture and a fixture of shapes that are easy to get wrong (recursion,
 * open objects, unions, nullable, nested arrays, `$ref` with siblings), values are sampled from the
 * bundled schemas with fast-check, kept when the production validator (runtime Ajv, `AJV_OPTIONS`)
 * accepts them, and written — as the validator left them, coerced and with defaults — into a `.ts`
 * file as `const v: <Type> = <value>;` together with every example. One tsc run per project.
 */
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { JSONSchema7 } from 'json-schema';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli.js';
import { newLayout, valueLiteral } from '../../codegen/emit/layout.js';

/** A JSON value as a TypeScript literal, as the generated code writes one. */
const toLiteral = (value: unknown): string => valueLiteral(value, '', 0, 0, newLayout());
import { loadDefinitions } from '../../codegen/load.js';
import type { ToolModel } from '../../codegen/model.js';
import { normalize } from '../../codegen/normalize.js';
import { cloneJson } from '../../codegen/schema-walk.js';
import { createAjvLikeGenerator } from '../helpers/standalone.js';
import { createTempProject, typeCheck, type TempProject } from '../helpers/temp-project.js';

const SAMPLES_PER_SCHEMA = 40;
const FORMAT_SAMPLES: Record<string, string[]> = {
  'date-time': ['2026-01-01T00:00:00.000Z', '2024-02-29T23:59:59+01:00'],
  date: ['2026-01-01'],
  time: ['10:00:00Z'],
  email: ['a@example.com'],
  uri: ['https://example.com/a?b=c'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000'],
  hostname: ['example.com'],
};

type Schema = JSONSchema7 | boolean;

/** Values shaped by a bundled schema (refs are `#/definitions/...` of `root`); the validator filters them after. */
function arbitraryFor(schema: Schema, root: JSONSchema7, depth = 0): fc.Arbitrary<unknown> {
  if (schema === true) return fc.jsonValue({ maxDepth: 1 });
  if (schema === false) return fc.constant(Symbol('never'));
  if (typeof schema.$ref === 'string') {
    const key = decodeURIComponent(schema.$ref.replace(/^#\/definitions\//, ''))
      .replace(/~1/g, '/')
      .replace(/~0/g, '~');
    const target = schema.$ref === '#' ? root : (root.definitions?.[key] as Schema);
    return arbitraryFor(target, root, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => arbitraryFor(branch, root, depth + 1)));
  if (schema.allOf)
    return arbitraryFor(
      Object.assign({}, ...schema.allOf.filter((branch) => typeof branch === 'object'), {
        ...schema,
        allOf: undefined,
      }),
      root,
      depth + 1,
    );
  const types = Array.isArray(schema.type)
    ? schema.type
    : schema.type
      ? [schema.type]
      : ['string', 'number', 'boolean', 'null'];
  return fc.constantFrom(...types).chain((type) => arbitraryOfType(type, schema, root, depth));
}

/** Values of one JSON type under `schema`'s constraints for that type. */
function arbitraryOfType(type: string, schema: JSONSchema7, root: JSONSchema7, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'object':
      return objectArbitrary(schema, root, depth);
    case 'array': {
      const items = Array.isArray(schema.items) ? true : (schema.items ?? true);
      const min = schema.minItems ?? 0;
      return fc.array(arbitraryFor(items, root, depth + 1), {
        minLength: min,
        maxLength: depth >= 4 ? min : Math.min(schema.maxItems ?? 3, min + 3),
      });
    }
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
    case 'number':
      return numberArbitrary(type, schema);
    case 'boolean':
      return fc.boolean();
    default:
      return fc.constant(null);
  }
}

function objectArbitrary(schema: JSONSchema7, root: JSONSchema7, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(schema.required ?? []);
  // Deep in a recursive schema, only required properties: the sample must end.
  const keys = Object.keys(properties).filter((key) => depth < 4 || required.has(key));
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keys)
    Object.defineProperty(shape, key, {
      value: arbitraryFor(properties[key]!, root, depth + 1),
      enumerable: true,
    });
  const known = fc.record(shape, { requiredKeys: keys.filter((key) => required.has(key)) });
  const extra = schema.additionalProperties;
  if (extra === false || depth >= 4) return known;
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }).filter((key) => !Object.hasOwn(properties, key)),
    arbitraryFor(extra ?? true, root, depth + 1),
    { maxKeys: 2 },
  );
  return fc.tuple(known, extras).map(([a, b]) => Object.assign(cloneJson(b), a));
}

function stringArbitrary(schema: JSONSchema7): fc.Arbitrary<unknown> {
  if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format])
    return fc.constantFrom(...FORMAT_SAMPLES[schema.format]!);
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern, 'u'));
  const min = schema.minLength ?? 0;
  return fc.string({ minLength: min, maxLength: Math.min(schema.maxLength ?? min + 8, min + 8) });
}

function numberArbitrary(type: 'integer' | 'number', schema: JSONSchema7): fc.Arbitrary<unknown> {
  const min = schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : -1000);
  const max = schema.maximum ?? (typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : 1000);
  const step = schema.multipleOf ?? (type === 'integer' ? 1 : undefined);
  if (step === undefined) return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((n) => n * step);
}

/** Sampled values the validator accepts, as the validator leaves them (coerced, defaults filled). */
function acceptedValues(schema: JSONSchema7, seed: number): unknown[] {
  const validate = createAjvLikeGenerator({ code: false }).compile(schema);
  const out: unknown[] = [];
  for (const value of fc.sample(arbitraryFor(schema, schema), { numRuns: SAMPLES_PER_SCHEMA, seed })) {
    const copy = cloneJson(value);
    if (validate(copy) && !out.some((seen) => isDeepStrictEqual(seen, copy))) out.push(copy);
  }
  return out;
}

/** The check file of one tool: every accepted input and output, and the examples. */
function checkFile(tool: ToolModel, seed: number): { source: string; count: number } {
  const lines = [
    `import type { ${tool.names.inputType}, ${tool.names.outputType} } from '../generated/types/${tool.names.kebab}.js';`,
  ];
  const inputs = [...acceptedValues(tool.inputSchema, seed), ...tool.examples.map((example) => example.input)];
  const outputs = tool.outputSchema
    ? [
        ...acceptedValues(tool.outputSchema, seed + 1),
        ...tool.examples.flatMap((example) => (example.output === undefined ? [] : [example.output])),
      ]
    : [];
  inputs.forEach((value, index) =>
    lines.push(`export const input${index}: ${tool.names.inputType} = ${toLiteral(value)};`),
  );
  outputs.forEach((value, index) =>
    lines.push(`export const output${index}: ${tool.names.outputType} = ${toLiteral(value)};`),
  );
  return { source: `${lines.join('\n')}\n`, count: inputs.length + outputs.length };
}

/** Shapes that are easy to get wrong in types. */
const SHAPES_FIXTURE = {
  'shapes.tool.json': {
    name: 'shapes',
    description: 'Recursion, open and closed objects, unions, nullable values and nested arrays.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['tree'],
      properties: {
        tree: { $ref: '#/definitions/TreeNode' },
        open: { type: 'object', properties: { a: { type: 'integer' } } },
        typedExtras: {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: { type: 'number' },
        },
        closed: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
        nullable: { type: ['string', 'null'] },
        union: {
          anyOf: [
            { type: 'string', maxLength: 3 },
            { type: 'array', items: { type: 'integer' }, maxItems: 2 },
          ],
        },
        oneOf: {
          oneOf: [
            { type: 'object', additionalProperties: false, required: ['kind'], properties: { kind: { const: 'a' } } },
            {
              type: 'object',
              additionalProperties: false,
              required: ['kind', 'n'],
              properties: { kind: { const: 'b' }, n: { type: 'number' } },
            },
          ],
        },
        matrix: {
          type: 'array',
          maxItems: 3,
          items: { type: 'array', maxItems: 2, items: { type: 'number', multipleOf: 0.5 } },
        },
        described: { $ref: '#/definitions/Labelled', description: 'A $ref with a sibling description.' },
        coerced: { type: 'integer', default: 3 },
        // if/then/else: typed as the base intersected with Then | Else; not: the base; no shape keyword: unknown.
        conditional: {
          type: 'object',
          additionalProperties: false,
          required: ['kind'],
          properties: { kind: { enum: ['a', 'b'] }, a: { type: 'string' }, b: { type: 'number' } },
          if: { properties: { kind: { const: 'a' } } },
          then: { required: ['a'] },
          else: { required: ['b'] },
        },
        notNull: { not: { type: 'null' } },
        bounded: { minimum: 5 },
        describedOnly: { description: 'Any JSON value.' },
        typedIf: { type: 'integer', if: { minimum: 10 }, then: { multipleOf: 2 }, else: { multipleOf: 3 } },
        // `constructor` is required: TypeScript gives every object literal an apparent `constructor:
        // Function`, so no literal without it fits an optional `constructor?: number` (a TS limit).
        names: {
          type: 'object',
          additionalProperties: false,
          required: ['constructor'],
          properties: {
            'my-prop': { type: 'boolean' },
            class: { type: 'string' },
            constructor: { type: 'number' },
            '0': { type: 'null' },
          },
        },
      },
      definitions: {
        TreeNode: {
          type: 'object',
          additionalProperties: false,
          required: ['label'],
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/definitions/TreeNode' } },
          },
        },
        Labelled: {
          type: 'object',
          additionalProperties: false,
          required: ['label'],
          properties: { label: { type: 'string', enum: ['x', 'y'] } },
        },
      },
    },
    outputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['count'],
      properties: { count: { type: 'integer', minimum: 0 }, tree: { $ref: '#/definitions/Node' } },
      definitions: {
        Node: { type: 'object', additionalProperties: false, properties: { next: { $ref: '#/definitions/Node' } } },
      },
    },
  },
};

interface Case {
  name: string;
  schemas?: string;
  files?: Record<string, unknown>;
  /** Extra toolsmith.config.json fields. */
  config?: Record<string, unknown>;
  minTools: number;
}

const CASES: Case[] = [
  { name: 'the example tools (schemas/)', schemas: 'schemas', minTools: 7 },
  { name: 'the injection fixture', schemas: 'test/fixtures/injection/schemas', minTools: 1 },
  // Gemini has no `$ref`, so a recursive schema cannot be sent there: that target is off.
  {
    name: 'the shapes fixture',
    files: SHAPES_FIXTURE,
    config: { manifests: { targets: ['mcp', 'openai', 'anthropic'] } },
    minTools: 1,
  },
];

describe.each(CASES)(
  'generated types accept the values the validator accepts: $name',
  ({ schemas, files, config, minTools }) => {
    let project: TempProject;
    let tools: readonly ToolModel[];

    beforeAll(async () => {
      project = createTempProject(schemas ? { schemas } : {});
      for (const [file, value] of Object.entries(files ?? {})) project.write(`schemas/${file}`, value as object);
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport, ...config });
      let stderr = '';
      const code = await main(['generate'], {
        cwd: project.root,
        stdout: () => undefined,
        stderr: (text) => (stderr += text),
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const normalized = normalize(loadDefinitions(path.join(project.root, 'schemas'), project.root));
      expect(normalized.problems).toEqual([]);
      tools = normalized.project.tools;
    }, 60_000);

    afterAll(() => project?.dispose());

    it('type-checks every sampled valid value and every example', async () => {
      expect(tools.length).toBeGreaterThanOrEqual(minTools);
      let total = 0;
      tools.forEach((tool, index) => {
        const { source, count } = checkFile(tool, 1000 + index);
        // Enough valid samples per tool that the check means something.
        expect(count, tool.name).toBeGreaterThanOrEqual(5);
        total += count;
        project.write(`check/${tool.names.kebab}.ts`, source);
      });
      const result = await typeCheck(project, ['check']);
      expect(result.output).toBe('');
      expect(result.code).toBe(0);
      expect(total).toBeGreaterThan(tools.length * 5);
    }, 60_000);
  },
);
