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
import { main } from '../../codegen/cli/main.js';
import { valueLiteral } from '../../codegen/emit/literal.js';
import { loadDefinitions } from '../../codegen/load.js';
import type { ToolModel } from '../../codegen/model.js';
import { normalize } from '../../codegen/normalize.js';
import { copyJsonValue } from '../../src/schema/walk.js';
import { arbitraryFor } from '../helpers/schema-arbitrary.js';
import { createAjvLikeGenerator } from '../helpers/standalone.js';
import { createTempProject, typeCheck, type TempProject } from '../helpers/temp-project.js';

const SAMPLES_PER_SCHEMA = 40;
/** Sampled values the validator accepts, as the validator leaves them (coerced, defaults filled). */
function acceptedValues(schema: JSONSchema7, seed: number): unknown[] {
  const validate = createAjvLikeGenerator({ code: false }).compile(schema);
  const out: unknown[] = [];
  for (const value of fc.sample(arbitraryFor(schema, schema), { numRuns: SAMPLES_PER_SCHEMA, seed })) {
    const copy = copyJsonValue(value);
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
    lines.push(`export const input${index}: ${tool.names.inputType} = ${valueLiteral(value)};`),
  );
  outputs.forEach((value, index) =>
    lines.push(`export const output${index}: ${tool.names.outputType} = ${valueLiteral(value)};`),
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
