/**
 * Every shape a definition can take — accept-anything `{}` and `true`, `false`, `anyOf`/`oneOf`/`allOf`
 * containing them, `not`, `const`, enums of mixed types, `if` with one branch, boolean subschemas,
 * shapeless schemas — put behind a `$ref`, inline, and in a shared file, in the input and the output:
 * each generates (no internal error of json-schema-to-typescript, which declares nothing for a named
 * `anyOf` holding `{}`: SchemaStore's codecov schema) and the generated types accept, under tsc, the
 * values the validator accepts. fast-check builds the shapes from a fixed seed.
 */
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
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

const SEED = 26;
const SAMPLES = 40;

/** The leaves: the shapes json-schema-to-typescript mistypes or trips over on their own. */
const LEAVES: readonly JSONSchema7Definition[] = [
  {},
  true,
  false,
  { description: 'Only a description.' },
  { minimum: 1 },
  { not: { type: 'string' } },
  { const: 1 },
  { const: 'a' },
  { const: null },
  { const: { nested: [1, 'two'] } },
  { enum: [1, 'a', null, true, { a: 1 }, [1]] },
  { enum: ['header', 'footer'] },
  { if: { type: 'string' }, then: { minLength: 1 } },
  { if: { type: 'number' }, else: { type: 'string' } },
  { type: 'string' },
  { type: ['integer', 'null'] },
];

const shapes: fc.Arbitrary<JSONSchema7Definition> = fc.letrec<{ shape: JSONSchema7Definition }>((tie) => ({
  shape: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...LEAVES),
    fc
      .tuple(fc.constantFrom('anyOf', 'oneOf', 'allOf'), fc.array(tie('shape'), { minLength: 1, maxLength: 3 }))
      .map(([keyword, members]) => ({ [keyword]: members }) as JSONSchema7),
    fc
      .tuple(tie('shape'), tie('shape'), fc.boolean())
      .map(
        ([a, b, closed]) => ({ type: 'object', properties: { a, b }, additionalProperties: !closed }) as JSONSchema7,
      ),
    tie('shape').map((items) => ({ type: 'array', items }) as JSONSchema7),
    tie('shape').map((additionalProperties) => ({ type: 'object', additionalProperties }) as JSONSchema7),
  ),
})).shape;

/** The codecov case first (the minimal reproduction), then the sampled shapes. */
const SHAPES: readonly JSONSchema7Definition[] = [
  { anyOf: [{}, { enum: ['header', 'footer'] }] },
  { anyOf: [true, { type: 'string' }] },
  { allOf: [true] },
  { oneOf: [{}, { type: 'string' }] },
  { anyOf: [false, { const: 1 }] },
  ...LEAVES,
  ...fc.sample(shapes, { numRuns: SAMPLES, seed: SEED }),
];

/** One tool per shape: the shape behind a local `$ref`, inline, and behind a `$ref` into the shared file, on both sides. */
function toolFor(index: number, shape: JSONSchema7Definition): object {
  const side = (): JSONSchema7 => ({
    type: 'object',
    additionalProperties: false,
    properties: {
      viaRef: { $ref: '#/definitions/Shape' },
      inline: copyJsonValue(shape),
      shared: { $ref: `./shared/shapes.schema.json#/definitions/Def${index}` },
      sharedRoot: { $ref: `./shared/shape-${index}.schema.json` },
    },
    definitions: { Shape: copyJsonValue(shape) },
  });
  return {
    name: `shape_${index}`,
    description: `Definition shape ${index}: ${JSON.stringify(shape)}`,
    inputSchema: side(),
    outputSchema: side(),
  };
}

/** Distinct sampled values the validator accepts. */
function acceptedValues(schema: JSONSchema7, seed: number): unknown[] {
  const validate = createAjvLikeGenerator({ code: false }).compile(schema);
  const out: unknown[] = [];
  for (const value of fc.sample(arbitraryFor(schema, schema), { numRuns: 30, seed })) {
    const copy = copyJsonValue(value);
    if (validate(copy) && !out.some((seen) => isDeepStrictEqual(seen, copy))) out.push(copy);
  }
  return out;
}

describe('every shape of definition, behind a $ref, inline and in a shared file, generates and type-checks', () => {
  let project: TempProject;
  let stderr = '';
  let code: number;

  beforeAll(async () => {
    project = createTempProject();
    const definitions: Record<string, JSONSchema7Definition> = {};
    SHAPES.forEach((shape, index) => {
      definitions[`Def${index}`] = shape;
      project.write(`schemas/shared/shape-${index}.schema.json`, {
        $schema: 'http://json-schema.org/draft-07/schema#',
        ...(typeof shape === 'boolean' ? { allOf: [shape] } : shape),
      });
      project.write(`schemas/shape_${index}.tool.json`, toolFor(index, shape));
    });
    project.write('schemas/shared/shapes.schema.json', {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions,
    });
    project.write('toolsmith.config.json', {
      runtimeImport: project.runtimeImport,
      manifests: { targets: ['mcp', 'openai', 'anthropic'] },
    });
    code = await main(['generate'], { cwd: project.root, stdout: () => undefined, stderr: (text) => (stderr += text) });
  }, 120_000);

  afterAll(() => project?.dispose());

  it('generates every tool without a problem', () => {
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('types an accept-anything definition `unknown` and a reject-everything one `never`, wherever it is', () => {
    const types = project.read('generated/types/shape-0.ts');
    // The codecov case: `{}` in an anyOf behind a $ref is `unknown`, declared under our name.
    expect(types).toMatch(/export type Shape0Shape = unknown \| \('header' \| 'footer'\);/);
    const shared = project.read('generated/types/shared/shapes.ts');
    const empty = 5; // SHAPES[5], [6], [7] are `{}`, `true`, `false`
    expect(shared).toContain(`export type Def${empty} = unknown;`);
    expect(shared).toContain(`export type Def${empty + 1} = unknown;`);
    expect(shared).toContain(`export type Def${empty + 2} = never;`);
    expect(project.read(`generated/types/shape-${empty}.ts`)).toContain(`export type Shape${empty}Shape = unknown;`);
    expect(project.read(`generated/types/shape-${empty + 2}.ts`)).toContain(
      `export type Shape${empty + 2}Shape = never;`,
    );
  });

  it('a `$ref` to a shared `false` definition still rejects every value (it was bundled as `{}`)', () => {
    const normalized = normalize(loadDefinitions(path.join(project.root, 'schemas'), project.root));
    const tool = normalized.project.tools.find((candidate) => candidate.name === 'shape_7')!;
    const validate = createAjvLikeGenerator({ code: false }).compile(tool.inputSchema);
    expect(validate({ shared: 1 })).toBe(false);
    expect(validate({ sharedRoot: 1 })).toBe(false); // the shared root is `allOf: [false]`
    expect(validate({ inline: 1 })).toBe(false);
    expect(validate({})).toBe(true);
  });

  it('the generated types accept every value the validator accepts (tsc is the oracle)', async () => {
    const normalized = normalize(loadDefinitions(path.join(project.root, 'schemas'), project.root));
    expect(normalized.problems).toEqual([]);
    const tools: readonly ToolModel[] = normalized.project.tools;
    expect(tools.length).toBe(SHAPES.length);
    let total = 0;
    tools.forEach((tool, index) => {
      const { inputType, outputType, kebab } = tool.names;
      const lines = [`import type { ${inputType}, ${outputType} } from '../generated/types/${kebab}.js';`];
      for (const [kind, type, schema] of [
        ['input', inputType, tool.inputSchema],
        ['output', outputType, tool.outputSchema!],
      ] as const) {
        acceptedValues(schema, SEED + index).forEach((value, at) => {
          lines.push(`export const ${kind}${at}: ${type} = ${valueLiteral(value)};`);
          total += 1;
        });
      }
      project.write(`check/${kebab}.ts`, `${lines.join('\n')}\n`);
    });
    // Shapes that accept nothing (`false` on a property) still leave the other sides' values.
    expect(total).toBeGreaterThan(SHAPES.length * 2);
    const result = await typeCheck(project, ['generated', 'check']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);
});
