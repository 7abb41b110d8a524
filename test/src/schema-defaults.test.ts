/**
 * The defaults check decides the plain cases without compiling (`fitsPlainly`): a scalar (or an
 * empty array) under a few keywords. It may only ever answer "valid" where Ajv, with the
 * generator's options, validates the same value; everything else goes to Ajv, whose messages the
 * problems quote. Checked on a table of edge cases and on 3,000 seeded schema/value pairs.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../bench/corpus.js';
import { AJV_OPTIONS } from '../../src/schema/ajv-options.js';
import { findDefaultMismatches, fitsPlainly } from '../../src/schema/defaults.js';

const ajv = new Ajv({ ...AJV_OPTIONS, strict: false, strictSchema: false });
const ajvAccepts = (schema: Record<string, unknown>, value: unknown): boolean => {
  const validate = ajv.compile(schema);
  ajv.removeSchema(schema);
  return validate(structuredClone(value)) === true;
};

describe('fitsPlainly', () => {
  const cases: [string, Record<string, unknown>, unknown, boolean][] = [
    ['an integer in bounds', { type: 'integer', minimum: 1, maximum: 100 }, 10, true],
    ['an integer out of bounds (Ajv decides)', { type: 'integer', maximum: 5 }, 10, false],
    ['a number for an integer (Ajv decides)', { type: 'integer' }, 1.5, false],
    ['an exclusive bound met exactly (Ajv decides)', { type: 'number', exclusiveMinimum: 0 }, 0, false],
    ['an enum member', { type: 'string', enum: ['asc', 'desc'], description: 'Order.' }, 'asc', true],
    ['not an enum member (Ajv decides)', { type: 'string', enum: ['asc'] }, 'desc', false],
    ['code points, not UTF-16 units: one emoji is one', { type: 'string', maxLength: 1 }, '😀', true],
    ['a pattern with the u flag', { type: 'string', pattern: '^\\p{L}+$' }, 'café', true],
    ['a type list with null', { type: ['string', 'null'] }, null, true],
    [
      'an empty array under items, maxItems, uniqueItems',
      { type: 'array', items: { type: 'string' }, maxItems: 3, uniqueItems: true },
      [],
      true,
    ],
    ['an empty array under minItems 1 (Ajv decides)', { type: 'array', minItems: 1 }, [], false],
    ['a format (Ajv decides)', { type: 'string', format: 'email' }, 'a@b.c', false],
    ['a $ref (Ajv decides)', { $ref: '#/definitions/x' }, 1, false],
    ['a non-empty array (Ajv decides)', { type: 'array' }, [1], false],
    ['an object (Ajv decides)', { type: 'object' }, {}, false],
    ['an x- keyword is an annotation', { type: 'boolean', 'x-order': 2 }, false, true],
  ];
  it.each(cases)('%s', (_name, schema, value, expected) => {
    expect(fitsPlainly(schema, value)).toBe(expected);
    if (expected) expect(ajvAccepts(schema, value)).toBe(true);
  });

  it('never says valid where Ajv does not: 3,000 seeded schemas and values', () => {
    const random = createRandom(23);
    const values = [0, 1, -1, 2.5, 100, 1e21, '', 'a', 'asc', 'café', '😀😀', 'ab\u0301', true, false, null, [], [1]];
    const keywords: [string, () => unknown][] = [
      [
        'type',
        () =>
          random.pick([
            'string',
            'number',
            'integer',
            'boolean',
            'null',
            'array',
            ['string', 'null'],
            ['integer', 'boolean'],
          ]),
      ],
      ['minimum', () => random.pick([0, 1, 2.5, -5])],
      ['maximum', () => random.pick([0, 1, 2.5, 100])],
      ['exclusiveMinimum', () => random.pick([0, 1, -1])],
      ['exclusiveMaximum', () => random.pick([1, 100, 2.5])],
      ['minLength', () => random.int(0, 3)],
      ['maxLength', () => random.int(0, 3)],
      ['pattern', () => random.pick(['^a', '\\p{L}', '^.$', '^..$', 'é'])],
      ['enum', () => random.pick([['asc', 'desc'], [0, 1], [null, 'a'], [true]])],
      ['const', () => random.pick([0, 'a', null, true])],
      ['description', () => 'text'],
      ['maxItems', () => random.int(0, 2)],
      ['minItems', () => random.int(0, 1)],
      ['uniqueItems', () => true],
    ];
    let decided = 0;
    for (let i = 0; i < 3000; i++) {
      const schema: Record<string, unknown> = {};
      for (let k = random.int(1, 3); k > 0; k--) {
        const [key, make] = random.pick(keywords);
        schema[key] = make();
      }
      const value = random.pick(values);
      if (!fitsPlainly(schema, value)) continue;
      decided++;
      expect(ajvAccepts(schema, value), `${JSON.stringify(schema)} ${JSON.stringify(value)}`).toBe(true);
    }
    expect(decided).toBeGreaterThan(300);
  });

  it('the check still finds a default that does not fit, with Ajv’s message, beside plain ones that do', () => {
    const schema = {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, default: 10 },
        order: { type: 'string', enum: ['asc', 'desc'], default: 'up' },
      },
    };
    expect(findDefaultMismatches(new Ajv({ ...AJV_OPTIONS, strict: false }), schema)).toEqual([
      {
        pointer: '/properties/order',
        value: 'up',
        instancePath: '',
        message: 'must be equal to one of the allowed values',
        noDefaultIdiom: false,
      },
    ]);
  });

  it('makes no Ajv for a schema whose defaults are all plain, and one for a schema that needs it', () => {
    const plain = { type: 'object', properties: { n: { type: 'integer', minimum: 1, default: 10 } } };
    expect(
      findDefaultMismatches(() => {
        throw new Error('an Ajv was made');
      }, plain),
    ).toEqual([]);
    let made = 0;
    const formatted = { type: 'object', properties: { e: { type: 'integer', multipleOf: 3, default: 10 } } };
    const mismatches = findDefaultMismatches(() => {
      made++;
      return new Ajv({ ...AJV_OPTIONS, strict: false });
    }, formatted);
    expect(made).toBe(1);
    expect(mismatches.map((entry) => entry.pointer)).toEqual(['/properties/e']);
  });

  it('checks each default once: a plain one never reaches Ajv, any other is compiled alone, a $ref to the root resolving', () => {
    const fragments: string[] = [];
    class CountingAjv extends Ajv {
      override getSchema<T = unknown>(key: string) {
        // A fragment of a checked document (not Ajv's own look-up of the meta-schema).
        if (key.includes('#/')) fragments.push(key.slice(key.indexOf('#') + 1));
        return super.getSchema<T>(key);
      }
    }
    const schema = {
      $id: 'https://example.com/tree',
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, default: 10 },
        tags: { type: 'array', items: { type: 'string' }, default: ['a', 3] },
        child: { $ref: '#', default: { limit: 0 } },
      },
    };
    const checker = new CountingAjv({ ...AJV_OPTIONS, strict: false });
    const mismatches = findDefaultMismatches(checker, schema);
    expect(fragments).toEqual(['/properties/tags', '/properties/child']);
    expect(mismatches.map(({ pointer, instancePath }) => `${pointer} ${instancePath}`)).toEqual([
      '/properties/tags /1',
      '/properties/child /limit',
    ]);
    // Nothing is left registered under the schema's `$id` for its own compile to collide with.
    expect(checker.getSchema('https://example.com/tree')).toBeUndefined();
  });
});
