/**
 * Issue 11 §1: a value that already fits is never changed — on input, on output and for defaults,
 * through the generated validators (built by `npm run generate`'s own code) and through the
 * runtime-compiled path of a hand-written tool, called end to end with `processToolCall`.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { compileSchema, type ITool, type ValidateFunction } from '../../src/index.js';
import { createTempProject, REPO, type TempProject } from '../helpers/temp-project.js';
import { callTool, makeTool, useOrchestrators } from './helpers.js';

/** The shapes real tool schemas use most: pydantic `Optional[str] = None`, zod `.nullable()`, a union with string. */
const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    s: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
    n: { anyOf: [{ type: 'number' }, { type: 'string' }] },
    a: { type: 'integer' },
    d: { type: 'integer', default: 10 },
    // "no default" written as `default: null` on a property that does not allow null.
    z: { type: 'string', default: null },
  },
  additionalProperties: false,
};

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    score: { anyOf: [{ type: 'number' }, { type: 'null' }] },
    level: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
  },
  additionalProperties: false,
};

const definition = {
  name: 'fidelity_probe',
  description: 'Receives arguments and answers the output it is told to.',
  inputSchema: INPUT_SCHEMA,
  outputSchema: OUTPUT_SCHEMA,
};

interface Validators {
  input: ValidateFunction<Record<string, unknown>>;
  output: ValidateFunction;
}

let project: TempProject;
let generated: Validators;
let generateOutput: { code: number; stderr: string };

async function generateIn(target: TempProject): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(['generate'], { cwd: target.root, stdout: () => {}, stderr: (text) => (stderr += text) });
  return { code, stderr };
}

beforeAll(async () => {
  project = createTempProject();
  // The runtime as an absolute specifier to its TypeScript source, so vitest can import the generated module.
  project.write('toolsmith.config.json', { runtimeImport: path.join(REPO, 'src/index.ts') });
  project.write('schemas/fidelity-probe.tool.json', definition);
  generateOutput = await generateIn(project);
  const module = (await import(path.join(project.root, 'generated/validators/fidelity-probe.js'))) as Record<
    string,
    ValidateFunction
  >;
  generated = {
    input: module.validateFidelityProbeInput as Validators['input'],
    output: module.validateFidelityProbeOutput!,
  };
}, 60_000);
afterAll(() => project?.dispose());

const orchestrator = useOrchestrators();

/** The probe tool: records what reaches `execute` and answers `nextOutput`. Generated validators or none (runtime-compiled). */
function probe(path: 'generated' | 'runtime') {
  const seen: Record<string, unknown>[] = [];
  let nextOutput: unknown = {};
  const tool: ITool = makeTool('fidelity_probe', {
    inputSchema: INPUT_SCHEMA,
    outputSchema: OUTPUT_SCHEMA,
    ...(path === 'generated' ? { validators: generated } : {}),
    async execute(args) {
      seen.push(structuredClone(args));
      return { success: true, output: nextOutput };
    },
  });
  const tools = orchestrator({ tools: [tool] });
  return {
    async input(args: unknown): Promise<unknown> {
      const result = await callTool(tools, 'fidelity_probe', args);
      expect(result.isError, JSON.stringify(result)).toBe(false);
      return seen.at(-1);
    },
    async output(output: unknown) {
      nextOutput = output;
      return callTool(tools, 'fidelity_probe', {});
    },
  };
}

describe('generate: the defaults check never fills a coerced or disallowed default', () => {
  it('generates with a warning for `default: null` on a string, naming the position', () => {
    expect(generateOutput.code).toBe(0);
    expect(generateOutput.stderr).toMatch(
      /^schemas\/fidelity-probe\.tool\.json:\d+:\d+ \/inputSchema\/properties\/z\/default: warning: the default null is not allowed by its own schema/m,
    );
    // The validator: Ajv's code without coercion, wrapped; `z`'s null default is not in it, `d`'s is.
    const source = project.read('generated/validators/fidelity-probe.js');
    expect(source).toMatch(
      /^export const validateFidelityProbeInput = validatorRuntime\.coerceWhereNeeded\(validate\d+\);$/m,
    );
    expect(source).toMatch(
      /^export const validateFidelityProbeOutput = validatorRuntime\.coerceWhereNeeded\(validate\d+\);$/m,
    );
    expect(source).not.toMatch(/\bcoerced\b/);
    expect(source).toContain('data.d = 10;');
    expect(source).not.toMatch(/data\.z = /);
    // The published schema keeps the default as written; only the validator leaves it out.
    expect(
      JSON.parse(project.read('generated/schemas/fidelity-probe.json')).inputSchema.properties.z.default,
    ).toBeNull();
  });

  it('refuses a default that matches only after coercion ("10" for an integer), and `default: 0` for a string', async () => {
    const other = createTempProject();
    try {
      other.write('schemas/bad-default.tool.json', {
        name: 'bad_default',
        description: 'A default that would be filled in converted.',
        inputSchema: {
          type: 'object',
          properties: { count: { type: 'integer', default: '10' }, label: { type: 'string', default: 0 } },
        },
      });
      const result = await generateIn(other);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(
        /\/inputSchema\/properties\/count\/default: the default "10" does not match its own schema: \/ must be integer/,
      );
      expect(result.stderr).toMatch(
        /\/inputSchema\/properties\/label\/default: the default 0 does not match its own schema: \/ must be string/,
      );
      expect(result.stderr).toContain('nothing was written');
    } finally {
      other.dispose();
    }
  }, 60_000);
});

describe.each(['generated', 'runtime'] as const)('%s validators: the issue 11 §1 table', (path) => {
  it('{} reaches execute as { s: null } (the default as written), and `default: null` on a string is not filled', async () => {
    const tool = probe(path);
    expect(await tool.input({})).toEqual({ s: null, d: 10 });
  });

  it('{ s: null } reaches execute unchanged', async () => {
    expect(await probe(path).input({ s: null })).toEqual({ s: null, d: 10 });
  });

  it('{ n: "5" } and { n: "02134" } stay strings (a string is allowed)', async () => {
    const tool = probe(path);
    expect(await tool.input({ n: '5' })).toEqual({ n: '5', s: null, d: 10 });
    expect(await tool.input({ n: '02134' })).toEqual({ n: '02134', s: null, d: 10 });
    expect(await tool.input({ n: 5 })).toEqual({ n: 5, s: null, d: 10 });
  });

  it('"3" for an integer-only property still becomes 3, without converting a neighbour another branch accepts', async () => {
    const tool = probe(path);
    expect(await tool.input({ a: '3' })).toEqual({ a: 3, s: null, d: 10 });
    // The nested case: `a` needs coercion, `n` does not — only `a` changes.
    expect(await tool.input({ a: '3', n: '5', s: 'x' })).toEqual({ a: 3, n: '5', s: 'x', d: 10 });
    expect(await tool.input({ a: '3', n: '02134', d: '7' })).toEqual({ a: 3, n: '02134', d: 7, s: null });
  });

  it('a value that cannot be coerced is rejected, and the caller is told where', async () => {
    const result = await callTool(
      orchestrator({
        tools: [
          makeTool('fidelity_probe', {
            inputSchema: INPUT_SCHEMA,
            ...(path === 'generated' ? { validators: generated } : {}),
          }),
        ],
      }),
      'fidelity_probe',
      { a: 'three', n: '5' },
    );
    expect(result.isError).toBe(true);
    expect(result.errorDetails?.code).toBe('INVALID_ARGUMENTS');
    expect(result.errorDetails?.details?.errors).toEqual([
      {
        path: '/a',
        message: '/a must be integer',
        keyword: 'type',
        params: { type: 'integer' },
        schemaPath: '#/properties/a/type',
      },
    ]);
  });

  it('output { score: null } for anyOf [number, null] and null for oneOf [integer, null] are valid and unchanged', async () => {
    const tool = probe(path);
    const result = await tool.output({ score: null, level: null });
    expect(result.isError, JSON.stringify(result)).toBe(false);
    expect(result.output).toEqual({ score: null, level: null });
    const numbers = await tool.output({ score: 2.5, level: 4 });
    expect(numbers.output).toEqual({ score: 2.5, level: 4 });
  });

  it('output is answered as coerced only where coercion was needed', async () => {
    const result = await probe(path).output({ score: '7', level: null });
    expect(result.isError, JSON.stringify(result)).toBe(false);
    expect(result.output).toEqual({ score: 7, level: null });
  });
});

describe('the runtime-compiled path checks defaults like the generator', () => {
  it('does not fill `default: null` where null is not allowed', () => {
    const validate = compileSchema({
      type: 'object',
      properties: { z: { type: 'string', default: null }, k: { type: 'integer', default: 1 } },
    });
    const data: Record<string, unknown> = {};
    expect(validate(data)).toBe(true);
    expect(data).toEqual({ k: 1 });
  });

  it('refuses (SCHEMA_INVALID) a default that matches only after coercion', async () => {
    expect(() => compileSchema({ type: 'object', properties: { count: { type: 'integer', default: '10' } } })).toThrow(
      expect.objectContaining({
        code: 'SCHEMA_INVALID',
        message: expect.stringContaining(
          'the default "10" at /properties/count/default does not match its own schema: / must be integer',
        ),
      }),
    );
    const tools = orchestrator({
      tools: [
        makeTool('sloppy', {
          inputSchema: { type: 'object', properties: { count: { type: 'integer', default: '10' } } },
        }),
      ],
    });
    const result = await callTool(tools, 'sloppy', {});
    expect(result.isError).toBe(true);
    expect(result.errorDetails?.code).toBe('SCHEMA_INVALID');
  });

  it('checks each default against the root when a $ref points elsewhere than #/definitions (one by one)', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'integer' },
        b: { $ref: '#/properties/a' },
        c: { allOf: [{ $ref: '#/properties/a' }], default: 4 },
        d: { type: 'string', default: null },
      },
    };
    const validate = compileSchema(schema);
    const data: Record<string, unknown> = { b: 2 };
    expect(validate(data)).toBe(true);
    expect(data).toEqual({ b: 2, c: 4 });
    const wrong = {
      ...schema,
      properties: { ...schema.properties, c: { allOf: [{ $ref: '#/properties/a' }], default: '4' } },
    };
    expect(() => compileSchema(wrong)).toThrow(
      expect.objectContaining({
        code: 'SCHEMA_INVALID',
        message: expect.stringContaining('the default "4" at /properties/c/default'),
      }),
    );
  });

  it('keeps a default that fits, nested defaults filled into it, and resolves $ref defaults against the root', () => {
    const validate = compileSchema({
      type: 'object',
      definitions: { unit: { type: 'string', enum: ['m', 'ft'] } },
      properties: {
        box: {
          type: 'object',
          properties: { unit: { $ref: '#/definitions/unit' }, size: { type: 'integer', default: 1 } },
          required: ['size'],
          default: {},
        },
        unit: { $ref: '#/definitions/unit' },
      },
    });
    const data: Record<string, unknown> = {};
    expect(validate(data)).toBe(true);
    expect(data).toEqual({ box: { size: 1 } });
  });
});

describe('coerceWhereNeeded: where coercion applies (runtime-compiled; generated validators share the wrapper)', () => {
  const check = (schema: object, value: unknown) => {
    const validate = compileSchema(schema);
    const holder = [structuredClone(value)];
    const valid = (validate as unknown as (data: unknown, context: object) => boolean)(holder[0], {
      instancePath: '',
      parentData: holder,
      parentDataProperty: 0,
      rootData: holder[0],
    });
    return {
      valid,
      value: holder[0],
      errors: validate.errors?.map((error) => `${error.instancePath} ${error.keyword}`),
    };
  };

  it('keeps null for anyOf [string, null] and oneOf [integer, null]; Ajv coerceTypes turned it into "" / failed oneOf', () => {
    expect(check({ anyOf: [{ type: 'string' }, { type: 'null' }] }, null)).toEqual({
      valid: true,
      value: null,
      errors: undefined,
    });
    expect(check({ oneOf: [{ type: 'integer' }, { type: 'null' }] }, null)).toMatchObject({ valid: true, value: null });
    expect(check({ type: ['string', 'null'] }, null)).toMatchObject({ valid: true, value: null });
    // Ajv's coerceTypes also converted inside `not` and `if`, rejecting values that fit as sent.
    expect(check({ not: { type: 'integer' } }, '3')).toMatchObject({ valid: true, value: '3' });
    expect(check({ if: { type: 'integer' }, then: { minimum: 5 } }, '1')).toMatchObject({ valid: true, value: '1' });
  });

  it('coerces a value no branch accepts to the first branch type it converts to', () => {
    expect(check({ anyOf: [{ type: 'integer' }, { type: 'boolean' }] }, '3')).toMatchObject({ valid: true, value: 3 });
    expect(check({ anyOf: [{ type: 'integer' }, { type: 'boolean' }] }, 'true')).toMatchObject({
      valid: true,
      value: true,
    });
    expect(check({ oneOf: [{ type: 'integer' }, { type: 'null' }] }, '7')).toMatchObject({ valid: true, value: 7 });
    expect(check({ type: ['integer', 'boolean'] }, 'false')).toMatchObject({ valid: true, value: false });
  });

  it('does not force a branch type on a value several oneOf branches accept as sent', () => {
    // 5 passes `integer` and `number`: oneOf fails; turning it into "5" would make it pass only the string branch.
    const result = check({ oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'number' }] }, 5);
    expect(result).toEqual({ valid: false, value: 5, errors: [' type', ' oneOf'] });
  });

  it('puts a coerced value back when the whole value is still invalid', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer', minimum: 10 } } };
    const result = check(schema, { a: '3', b: '4' });
    expect(result.valid).toBe(false);
    expect(result.value).toEqual({ a: '3', b: '4' });
    expect(result.errors).toEqual(['/b minimum']);
  });

  it('coerces again where a condition that now holds asks for another type (if/then)', () => {
    const schema = {
      type: 'object',
      properties: { kind: { type: 'integer' } },
      if: { properties: { kind: { const: 1 } }, required: ['kind'] },
      then: { properties: { size: { type: 'number' } } },
    };
    expect(check(schema, { kind: '1', size: '2.5' })).toMatchObject({ valid: true, value: { kind: 1, size: 2.5 } });
    // Valid as sent (the condition does not hold for the string "1" and `else` asks nothing): unchanged.
    expect(check({ if: { type: 'integer' }, then: { minimum: 5 } }, '1')).toMatchObject({ valid: true, value: '1' });
  });

  it('coerces a root value and hands it to the parent, as Ajv does', () => {
    expect(check({ type: 'number' }, '2.5')).toMatchObject({ valid: true, value: 2.5 });
    expect(check({ type: 'number' }, 'x')).toMatchObject({ valid: false, value: 'x' });
  });

  it('coerces own properties named like Object.prototype members, and only those that fail', () => {
    const schema = {
      type: 'object',
      properties: {
        constructor: { type: 'integer' },
        toString: { type: 'boolean' },
        valueOf: { anyOf: [{ type: 'number' }, { type: 'string' }] },
      },
    };
    const result = check(schema, { constructor: '2', toString: 'true', valueOf: '3' });
    expect(result.valid).toBe(true);
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(Object.entries(result.value as object)).toEqual([
      ['constructor', 2],
      ['toString', true],
      ['valueOf', '3'],
    ]);
  });
});
