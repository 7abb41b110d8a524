import { describe, expect, it } from 'vitest';
import { SchemaValidator, ToolsmithError, compileSchema, copyJsonValue, toValidationIssues } from '../../src/index.js';
import { buildNullPlan, stripOptionalNulls } from '../../src/schema/validation.js';

describe('compileSchema', () => {
  it('coerces where a value does not fit and fills defaults, in place (draft-07, the one option set)', () => {
    const validate = compileSchema({
      type: 'object',
      properties: { count: { type: 'integer' }, unit: { type: 'string', default: 'm' } },
      required: ['count'],
    });
    const data: Record<string, unknown> = { count: '3' };
    expect(validate(data)).toBe(true);
    expect(data).toEqual({ count: 3, unit: 'm' });
  });

  it('rejects unknown keywords and formats as the typos they usually are', () => {
    const typo = () => compileSchema({ type: 'object', requried: ['x'] });
    expect(typo).toThrow(ToolsmithError);
    expect(typo).toThrow(/requried/);
    try {
      compileSchema({ type: 'string', format: 'emial' });
      expect.unreachable();
    } catch (error) {
      expect((error as ToolsmithError).code).toBe('SCHEMA_INVALID');
      expect((error as Error).message).toMatch(/emial/);
    }
  });

  it('allows x- extension keywords anywhere and known formats', () => {
    const validate = compileSchema({
      type: 'object',
      'x-ui': { order: 1 },
      properties: { at: { type: 'string', format: 'date-time', 'x-widget': 'clock' } },
    });
    expect(validate({ at: '2024-01-02T03:04:05Z' })).toBe(true);
    expect(validate({ at: 'yesterday' })).toBe(false);
  });

  it('compiles two different schemas with the same $id', () => {
    const first = compileSchema({ $id: 'https://example.com/s.json', type: 'string' });
    const second = compileSchema({ $id: 'https://example.com/s.json', type: 'number' });
    expect(first('a')).toBe(true);
    expect(second(5)).toBe(true);
    expect(second('abc')).toBe(false);
  });
});

describe('toValidationIssues', () => {
  it('gives JSON pointers into the value, naming missing and extra properties', () => {
    const validate = compileSchema({
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', properties: { 'a/b': { type: 'integer' } }, required: ['id'] },
        },
      },
      required: ['name'],
      additionalProperties: false,
    });
    expect(validate({ items: [{ 'a/b': 'x' }], extra: 1 })).toBe(false);
    const issues = toValidationIssues(validate.errors);
    expect(issues).toEqual(
      expect.arrayContaining([
        {
          path: '/name',
          message: '/name is required',
          keyword: 'required',
          params: { missingProperty: 'name' },
          schemaPath: '#/required',
        },
        {
          path: '/extra',
          message: '/extra is not allowed',
          keyword: 'additionalProperties',
          params: { additionalProperty: 'extra' },
          schemaPath: '#/additionalProperties',
        },
        {
          path: '/items/0/id',
          message: '/items/0/id is required',
          keyword: 'required',
          params: { missingProperty: 'id' },
          schemaPath: '#/properties/items/items/required',
        },
        {
          path: '/items/0/a~1b',
          message: '/items/0/a~1b must be integer',
          keyword: 'type',
          params: { type: 'integer' },
          schemaPath: '#/properties/items/items/properties/a~1b/type',
        },
      ]),
    );
    expect(issues).toHaveLength(4);
  });

  it('names the root and caps the number of issues', () => {
    const validate = compileSchema({ type: 'object' });
    expect(validate(5)).toBe(false);
    expect(toValidationIssues(validate.errors)[0]).toMatchObject({ path: '', message: '(root) must be object' });
    const many = compileSchema({ type: 'array', items: { type: 'integer' } });
    expect(many(Array.from({ length: 500 }, () => 'x'))).toBe(false);
    expect(toValidationIssues(many.errors)).toHaveLength(100);
  });
});

describe('copyJsonValue', () => {
  it('copies deeply so the original never changes', () => {
    const original = { a: [1, { b: '2' }], c: { d: null } };
    const copy = copyJsonValue(original);
    expect(copy).toEqual(original);
    expect(copy).not.toBe(original);
    expect(copy.a[1]).not.toBe(original.a[1]);
  });

  it('keeps an own __proto__ key as data without touching any prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
    const copy = copyJsonValue(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'constructor']);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('rejects cycles with INVALID_REQUEST', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => copyJsonValue(cyclic)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});

describe('optional nulls', () => {
  const schema = {
    type: 'object',
    required: ['id', 'nested'],
    properties: {
      id: { type: 'string' },
      limit: { type: 'integer', default: 10 },
      note: { type: ['string', 'null'], default: 'n' },
      mode: { enum: ['a', 'b', null] },
      anything: {},
      ref: { $ref: '#/definitions/count' },
      nested: {
        type: 'object',
        properties: {
          depth: { type: 'integer', default: 1 },
          keep: { type: ['integer', 'null'] },
          either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
      },
    },
    definitions: { count: { type: 'integer', default: 7 } },
  };

  it('plans removal only for optional properties whose schema does not allow null', () => {
    expect(buildNullPlan(schema)).toEqual({
      optional: ['limit', 'ref'],
      nested: [['nested', { optional: ['depth'], nested: [] }]],
    });
  });

  it('removes them so defaults apply, and leaves nullable and required ones', () => {
    const validator = new SchemaValidator({ schema, stripOptionalNulls: true });
    const args = {
      id: 'x',
      limit: null,
      note: null,
      mode: null,
      anything: null,
      ref: null,
      nested: { depth: null, keep: null },
    };
    const outcome = validator.validate(args);
    expect(outcome.valid).toBe(true);
    // `ref` is removed; Ajv does not apply a default inside a $ref'd definition (see DEPENDENCIES.md).
    expect(outcome.value).toEqual({
      id: 'x',
      limit: 10,
      note: null,
      mode: null,
      anything: null,
      nested: { depth: 1, keep: null },
    });
    expect(args.limit).toBeNull(); // the caller's object is untouched
  });

  it('does not remove a null for a required property', () => {
    const validator = new SchemaValidator({
      schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      stripOptionalNulls: true,
    });
    const data: Record<string, unknown> = { id: null };
    expect(validator.check(data)).toBeUndefined(); // null does not fit `integer`: coerced (Ajv's rule) to 0
    expect(data).toEqual({ id: 0 });
    stripOptionalNulls(data, { optional: [], nested: [] });
    expect(data).toEqual({ id: 0 });
  });
});

describe('SchemaValidator', () => {
  it('validate answers a copy that changed only where it did not fit, a coerced root included', () => {
    const validator = new SchemaValidator({
      schema: { type: 'object', properties: { n: { type: ['number', 'string'] }, k: { type: 'integer', default: 2 } } },
    });
    const sent = { n: '5' };
    expect(validator.validate(sent)).toEqual({ valid: true, value: { n: '5', k: 2 } });
    expect(sent).toEqual({ n: '5' });
    const root = new SchemaValidator({ schema: { type: 'number' } });
    expect(root.validate('2.5')).toEqual({ valid: true, value: 2.5 });
    expect(root.validate(null)).toEqual({ valid: true, value: 0 });
    expect(root.validate('x')).toMatchObject({ valid: false, value: 'x' });
  });

  it('uses a generated validator as is and reports a schema that does not compile', () => {
    let calls = 0;
    const generated = Object.assign(
      (data: unknown): data is string => {
        calls++;
        return typeof data === 'string';
      },
      { errors: null },
    );
    const validator = new SchemaValidator({ generated, schema: { type: 'string' } });
    expect(validator.validateFunction).toBe(generated);
    expect(validator.validate('a').valid).toBe(true);
    expect(calls).toBe(1);

    const broken = new SchemaValidator({ schema: { type: 'strin' } });
    expect(broken.validateFunction).toBeUndefined();
    expect(broken.schemaError).toMatch(/does not compile/);
    expect(() => broken.check({})).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }));
  });
});
