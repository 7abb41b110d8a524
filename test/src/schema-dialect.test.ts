import { describe, expect, it } from 'vitest';
import { classifyFormat, classifyKeyword, schemaDialect } from '../../src/schema/dialect.js';
import { compileSchema } from '../../src/schema/validation.js';

describe('schemaDialect', () => {
  it.each([
    [{ type: 'object' }, 'draft-07'],
    [{ $schema: 'http://json-schema.org/draft-07/schema#' }, 'draft-07'],
    [{ $schema: 'http://json-schema.org/draft-07/schema' }, 'draft-07'],
    [{ $schema: 'https://json-schema.org/draft/2020-12/schema' }, '2020-12'],
    [{ $schema: 'https://json-schema.org/draft/2020-12/schema#' }, '2020-12'],
    [{ $schema: 'http://json-schema.org/draft-04/schema#' }, undefined],
    [{ $schema: 'https://json-schema.org/draft/2019-09/schema' }, undefined],
    [{ $schema: 42 }, undefined],
  ])('%j is %s', (schema, dialect) => {
    expect(schemaDialect(schema)).toBe(dialect);
  });
});

describe('classifyKeyword: near-typos are errors, other unknown keywords are ignored', () => {
  it.each([
    ['required', 'draft-07', { kind: 'known' }],
    ['$defs', 'draft-07', { kind: 'known' }],
    ['x-order', 'draft-07', { kind: 'known' }],
    ['requried', 'draft-07', { kind: 'typo', suggestion: 'required' }],
    ['minLenght', 'draft-07', { kind: 'typo', suggestion: 'minLength' }],
    ['propertyNmaes', 'draft-07', { kind: 'typo', suggestion: 'propertyNames' }],
    ['optional', 'draft-07', { kind: 'ignored' }],
    ['markdownDescription', 'draft-07', { kind: 'ignored' }],
    ['propertyOrder', 'draft-07', { kind: 'ignored' }],
    ['example', 'draft-07', { kind: 'ignored' }],
    ['nullable', 'draft-07', { kind: 'ajv-only' }],
    ['formatMaximum', 'draft-07', { kind: 'ajv-only' }],
    ['prefixItems', 'draft-07', { kind: 'other-dialect', dialect: '2020-12' }],
    ['prefixItems', '2020-12', { kind: 'known' }],
    ['additionalItems', '2020-12', { kind: 'other-dialect', dialect: 'draft-07' }],
    ['dependencies', '2020-12', { kind: 'ajv-only' }],
    ['prefixItem', '2020-12', { kind: 'typo', suggestion: 'prefixItems' }],
  ] as const)('%s in %s', (keyword, dialect, verdict) => {
    expect(classifyKeyword(keyword, dialect)).toEqual(verdict);
  });

  it('tells a format typo from an unknown format', () => {
    expect(classifyFormat('email')).toEqual({ kind: 'known' });
    expect(classifyFormat('emial')).toEqual({ kind: 'typo', suggestion: 'email' });
    expect(classifyFormat('date-tiem')).toEqual({ kind: 'typo', suggestion: 'date-time' });
    expect(classifyFormat('json')).toEqual({ kind: 'ignored' });
    expect(classifyFormat('phone')).toEqual({ kind: 'ignored' });
  });
});

describe('compileSchema (the runtime path) accepts what the dialect ignores and supports 2020-12', () => {
  it('compiles unknown keywords and formats that are no near-typo, and ignores them', () => {
    const validate = compileSchema({
      type: 'object',
      properties: {
        spec: { type: 'string', format: 'json', markdownDescription: 'x' },
        n: { type: 'integer', optional: true },
      },
    });
    expect(validate({ spec: 'not json', n: 1 })).toBe(true);
    expect(validate({ spec: 1.5, n: 'x' })).toBe(false);
  });

  it('still refuses a near-typo, naming the keyword it resembles', () => {
    expect(() => compileSchema({ type: 'object', requried: ['a'] })).toThrow(
      /unknown keyword: "requried" \(did you mean "required"\?\)/,
    );
    expect(() => compileSchema({ type: 'string', format: 'emial' })).toThrow(/unknown format "emial"/);
  });

  it('compiles a default Ajv never fills in, and does not fill it in', () => {
    const validate = compileSchema({
      type: 'object',
      default: {},
      properties: {
        a: { anyOf: [{ type: 'object', properties: { b: { type: 'string', default: 'x' } } }, { type: 'null' }] },
      },
    });
    const data = { a: {} };
    expect(validate(data)).toBe(true);
    expect(data).toEqual({ a: {} });
  });

  it('resolves $ref into $defs in draft-07', () => {
    const validate = compileSchema({
      type: 'object',
      properties: { u: { $ref: '#/$defs/Unit' } },
      $defs: { Unit: { enum: ['s', 'ms'] } },
    });
    expect(validate({ u: 's' })).toBe(true);
    expect(validate({ u: 'h' })).toBe(false);
  });

  it('compiles a 2020-12 schema with Ajv 2020: prefixItems, items false, unevaluatedProperties, dependentRequired', () => {
    const validate = compileSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        bounds: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }], items: false },
        step: { type: 'integer' },
        unit: { type: 'string' },
      },
      dependentRequired: { step: ['unit'] },
      unevaluatedProperties: false,
    });
    expect(validate({ bounds: [1, 2] })).toBe(true);
    expect(validate({ bounds: [1, 2, 3] })).toBe(false);
    expect(validate({ bounds: [1, 2], other: 1 })).toBe(false);
    expect(validate({ bounds: [1, 2], step: 1 })).toBe(false);
    expect(validate({ bounds: [1, 2], step: 1, unit: 's' })).toBe(true);
  });

  it('refuses a $schema it does not support, naming it', () => {
    expect(() => compileSchema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' })).toThrow(
      'unsupported $schema "http://json-schema.org/draft-04/schema#"',
    );
  });
});

describe('MCP entries keep a 2020-12 schema 2020-12', () => {
  it('publishes a 2020-12 schema as written and translates a draft-07 one to 2020-12', async () => {
    const { toMcpTool } = await import('../../src/mcp/tool.js');
    const entry = toMcpTool({
      name: 't',
      description: 'd',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { p: { prefixItems: [{ type: 'string' }] } },
      },
      outputSchema: { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } },
    });
    expect(entry.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { p: { prefixItems: [{ type: 'string' }] } },
    });
    expect(entry.outputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } },
    });
  });
});

describe('findIgnoredDefaults', () => {
  it('finds each default Ajv never fills in, with why, and none it does fill in', async () => {
    const { findIgnoredDefaults } = await import('../../src/schema/dialect.js');
    expect(
      findIgnoredDefaults({
        type: 'object',
        default: {},
        properties: {
          filled: { type: 'string', default: 'a' },
          list: { type: 'array', items: { default: 1 } },
          tuple: { type: 'array', items: [{ default: 2 }] },
          either: {
            anyOf: [
              { type: 'object', properties: { x: { default: 3 } } },
              { $ref: '#/definitions/Inline' },
              { $ref: '#/definitions/Separate' },
            ],
          },
        },
        definitions: {
          Inline: { type: 'object', properties: { i: { default: 4 } } },
          Separate: { type: 'object', properties: { s: { default: 5 }, r: { $ref: '#/definitions/Leaf' } } },
          Leaf: { type: 'string', default: 'leaf' },
        },
      }),
    ).toEqual([
      { pointer: '', value: {}, reason: { kind: 'root' } },
      { pointer: '/properties/list/items', value: 1, reason: { kind: 'other', keyword: 'items' } },
      { pointer: '/properties/either/anyOf/0/properties/x', value: 3, reason: { kind: 'composite', keyword: 'anyOf' } },
      { pointer: '/definitions/Inline/properties/i', value: 4, reason: { kind: 'composite', keyword: 'anyOf' } },
      { pointer: '/definitions/Leaf', value: 'leaf', reason: { kind: 'definition' } },
    ]);
  });
});

describe('lenientStrictLogger', () => {
  it('lets through what the dialect ignores and x- extensions, and throws every other strict complaint', async () => {
    const { lenientStrictLogger } = await import('../../src/schema/dialect.js');
    const logger = lenientStrictLogger('draft-07');
    expect(logger.warn('strict mode: unknown keyword: "optional"')).toBeUndefined();
    expect(logger.warn('strict mode: unknown keyword: "x-a.b"')).toBeUndefined();
    expect(logger.warn('strict mode: unknown keyword: "prefixItems"')).toBeUndefined();
    expect(logger.warn('strict mode: default is ignored for: data5.exact')).toBeUndefined();
    expect(logger.warn('strict mode: default is ignored in the schema root')).toBeUndefined();
    expect(() => logger.warn('strict mode: unknown keyword: "requried"')).toThrow(
      'strict mode: unknown keyword: "requried" (did you mean "required"?)',
    );
    expect(() => logger.warn('strict mode: "if" without "then" and "else" is ignored')).toThrow(
      'strict mode: "if" without "then" and "else" is ignored',
    );
  });
});
