import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import equalModule from 'ajv/dist/runtime/equal.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createGeneratorAjv, standaloneCode } from '../../codegen/ajv.js';
import { addValidatorSchema } from '../../codegen/ajv.js';
import { toEsm } from '../../codegen/emit/validators.js';
import { SchemaValidator, ToolOrchestrator, type ITool } from '../../src/index.js';
import { Ajv } from 'ajv';
import { coerceWhereNeeded, jsonEqual } from '../../src/schema/validator-runtime.js';
import { REPO } from '../helpers/temp-project.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'toolsmith-validator-runtime-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A standalone validator laid out as generate lays it out: helpers from the runtime's `validatorRuntime`. */
async function generatedValidator(schema: object): Promise<(data: unknown) => boolean> {
  const ajv = createGeneratorAjv({ code: true, overrides: { validateSchema: false } });
  addValidatorSchema(ajv, schema, 'input');
  const file = path.join(scratch, `validator-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, toEsm(standaloneCode(ajv, { validate: 'input' }), path.join(REPO, 'src/index.ts')));
  return ((await import(file)) as { validate: (data: unknown) => boolean }).validate;
}

/** Ajv's own deep equality (fast-deep-equal), as its runtime module exports it under Node and vite alike. */
const fastDeepEqual = ((equalModule as unknown as { default?: unknown }).default ?? equalModule) as unknown as (
  a: unknown,
  b: unknown,
) => boolean;

const FAST_DEEP_EQUAL_KEYS = new Set(['constructor', 'valueOf', 'toString']);

/** Whether any object inside `value` has an own key in `keys`. */
function hasKeyNamed(value: unknown, keys: ReadonlySet<string>): boolean {
  if (Array.isArray(value)) return value.some((item) => hasKeyNamed(item, keys));
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some((key) => keys.has(key) || hasKeyNamed((value as Record<string, unknown>)[key], keys));
}

const TO_STRING_ITEMS = { type: 'array', uniqueItems: true, items: { type: 'object', required: ['toString'] } };

describe('jsonEqual (the deep equality generated validators use)', () => {
  it("agrees with Ajv's fast-deep-equal on JSON data wherever that one answers", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.boolean(), (a, b, same) => {
        const right = same ? structuredClone(a) : b;
        // fast-deep-equal reads `constructor`, `valueOf` and `toString` through the objects: an own key
        // of that name makes it throw or answer wrongly (`{ "constructor": {} }` twice: not equal).
        if (hasKeyNamed(a, FAST_DEEP_EQUAL_KEYS) || hasKeyNamed(right, FAST_DEEP_EQUAL_KEYS)) return;
        expect(jsonEqual(a, right)).toBe(fastDeepEqual(a, right));
      }),
      { numRuns: 2000 },
    );
    expect(jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual([0], [false])).toBe(false);
    expect(jsonEqual({ toString: '' }, { toString: '' })).toBe(true);
    expect(jsonEqual({ constructor: {} }, { constructor: {} })).toBe(true);
    expect(jsonEqual({ valueOf: 1 }, { valueOf: 2 })).toBe(false);
    expect(jsonEqual({ toString: 'a' }, { toString: 'b' })).toBe(false);
  });

  it('lets a generated uniqueItems validator answer where fast-deep-equal threw', async () => {
    expect(() => fastDeepEqual({ toString: '' }, { toString: '' })).toThrow(/toString is not a function/);
    const validate = await generatedValidator(TO_STRING_ITEMS);
    expect(validate([{ toString: 'a' }, { toString: 'b' }])).toBe(true);
    expect(validate([{ toString: '' }, { toString: '' }])).toBe(false);
  });

  it('a runtime-compiled validator that throws rejects the arguments (INVALID_ARGUMENTS), never an internal error', async () => {
    const validator = new SchemaValidator({ schema: TO_STRING_ITEMS });
    expect(validator.check([{ toString: '' }, { toString: '' }])).toEqual([
      {
        path: '',
        message: expect.stringMatching(/^\(root\) could not be validated: .*toString is not a function/),
        keyword: 'exception',
        params: {},
      },
    ]);
    const tool: ITool = {
      id: 'tags',
      name: 'tags',
      displayName: 'Tags',
      description: 'Takes tags.',
      inputSchema: { type: 'object', properties: { tags: TO_STRING_ITEMS } },
      hasSideEffects: false,
      async execute() {
        return { success: true, output: {} };
      },
    };
    const result = await new ToolOrchestrator({ tools: [tool] }).processToolCall({
      toolCallRequest: { id: '1', name: 'tags', arguments: { tags: [{ toString: '' }, { toString: '' }] } },
      gmiId: 'g',
      personaId: 'p',
      userContext: { userId: 'u' },
    });
    expect(result.errorDetails?.code).toBe('INVALID_ARGUMENTS');
  });
});

describe('coerceWhereNeeded', () => {
  it('validates again only after a round that converted something', () => {
    const ajv = new Ajv().compile({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } });
    let calls = 0;
    const strict = Object.assign(
      (data: unknown) => {
        calls++;
        const valid = ajv(data);
        strict.errors = ajv.errors;
        return valid;
      },
      { errors: null as typeof ajv.errors },
    );
    const validate = coerceWhereNeeded(strict);
    expect(validate({ b: 'x' })).toBe(false);
    expect(calls).toBe(1);
    const value = { a: '1', b: 'x' };
    expect(validate(value)).toBe(false);
    expect(calls).toBe(3);
    expect(value).toEqual({ a: '1', b: 'x' });
  });
});
