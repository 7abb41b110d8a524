import fc from 'fast-check';
import type { JSONSchema7 } from 'json-schema';
import { describe, expect, it } from 'vitest';
import { createGeneratorAjv } from '../../../codegen/ajv.js';
import { compareSchema, compareTool, verdictOf } from '../../../codegen/diff/compare.js';
import { errorChanges } from '../../../codegen/diff/compare-errors.js';
import { asDraft07, type DiffTool } from '../../../codegen/diff/sources.js';
import type { DeclaredError } from '../../../codegen/model.js';
import { toJsonSchema2020 } from '../../../src/schema/json-schema-2020.js';
import { coerceWhereNeeded } from '../../../src/schema/validator-runtime.js';
import { arbitraryFor } from '../../helpers/schema-arbitrary.js';

type S = JSONSchema7;
type V = 'breaking' | 'compatible' | 'unchanged';
/** [name, before, after, input verdict] */
type Pair = [string, S, S, V];

const obj = (properties: Record<string, S>, extra: Partial<S> = {}): S => ({ type: 'object', properties, ...extra });

const PAIRS: Pair[] = [
  // numbers
  ['maximum lowered', { type: 'integer', maximum: 100 }, { type: 'integer', maximum: 50 }, 'breaking'],
  ['maximum raised', { type: 'integer', maximum: 50 }, { type: 'integer', maximum: 100 }, 'compatible'],
  ['minimum raised', { type: 'number', minimum: 0 }, { type: 'number', minimum: 1 }, 'breaking'],
  ['minimum lowered', { type: 'number', minimum: 1 }, { type: 'number', minimum: 0 }, 'compatible'],
  ['maximum added', { type: 'integer' }, { type: 'integer', maximum: 10 }, 'breaking'],
  ['maximum removed', { type: 'integer', maximum: 10 }, { type: 'integer' }, 'compatible'],
  [
    'exclusiveMaximum lowered',
    { type: 'number', exclusiveMaximum: 10 },
    { type: 'number', exclusiveMaximum: 5 },
    'breaking',
  ],
  ['integer from number', { type: 'number' }, { type: 'integer' }, 'breaking'],
  ['number from integer', { type: 'integer' }, { type: 'number' }, 'compatible'],
  ['multipleOf added', { type: 'number' }, { type: 'number', multipleOf: 2 }, 'breaking'],
  // strings
  ['maxLength lowered', { type: 'string', maxLength: 10 }, { type: 'string', maxLength: 5 }, 'breaking'],
  ['maxLength raised', { type: 'string', maxLength: 5 }, { type: 'string', maxLength: 10 }, 'compatible'],
  ['minLength raised', { type: 'string', minLength: 1 }, { type: 'string', minLength: 3 }, 'breaking'],
  ['minLength removed', { type: 'string', minLength: 3 }, { type: 'string' }, 'compatible'],
  ['pattern added', { type: 'string' }, { type: 'string', pattern: '^[a-z]+$' }, 'breaking'],
  ['pattern removed', { type: 'string', pattern: '^[a-z]+$' }, { type: 'string' }, 'compatible'],
  ['pattern changed', { type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }, 'breaking'],
  // formats
  ['format email added', { type: 'string' }, { type: 'string', format: 'email' }, 'breaking'],
  ['format removed', { type: 'string', format: 'email' }, { type: 'string' }, 'compatible'],
  ['format changed', { type: 'string', format: 'email' }, { type: 'string', format: 'uri' }, 'breaking'],
  ['format date-time added', { type: 'string' }, { type: 'string', format: 'date-time' }, 'breaking'],
  // enum/const
  ['enum value removed', { type: 'string', enum: ['a', 'b'] }, { type: 'string', enum: ['a'] }, 'breaking'],
  ['enum value added', { type: 'string', enum: ['a'] }, { type: 'string', enum: ['a', 'b'] }, 'compatible'],
  ['enum added', { type: 'string' }, { type: 'string', enum: ['a'] }, 'breaking'],
  ['enum removed', { type: 'string', enum: ['a'] }, { type: 'string' }, 'compatible'],
  ['enum reordered', { type: 'string', enum: ['a', 'b'] }, { type: 'string', enum: ['b', 'a'] }, 'unchanged'],
  ['const changed', { const: 'a' }, { const: 'b' }, 'breaking'],
  ['const to enum', { const: 'a' }, { enum: ['a', 'b'] }, 'compatible'],
  // keywords no rule compares: counted breaking, with the reason, never left unchanged
  ['propertyNames added', { type: 'object' }, { type: 'object', propertyNames: { pattern: '^a' } }, 'breaking'],
  ['propertyNames removed', { type: 'object', propertyNames: { pattern: '^a' } }, { type: 'object' }, 'breaking'],
  [
    'patternProperties changed',
    { type: 'object', patternProperties: { '^x': { type: 'string' } } },
    { type: 'object', patternProperties: { '^x': { type: 'number' } } },
    'breaking',
  ],
  [
    'if/then added',
    obj({ a: { type: 'string' } }),
    obj({ a: { type: 'string' } }, { if: { required: ['a'] }, then: { required: ['b'] } }),
    'breaking',
  ],
  ['contains added', { type: 'array' }, { type: 'array', contains: { type: 'string' } }, 'breaking'],
  ['deprecated added (an annotation)', { type: 'string' }, { type: 'string', deprecated: true } as S, 'unchanged'],
  // types
  ['type narrowed', { type: ['string', 'object'] }, { type: 'string' }, 'breaking'],
  ['null dropped (coerced to "")', { type: ['string', 'null'] }, { type: 'string' }, 'compatible'],
  ['type widened', { type: 'string' }, { type: ['string', 'null'] }, 'compatible'],
  ['type array of one', { type: ['string'] }, { type: 'string' }, 'unchanged'],
  ['number|string to string (coerced)', { type: ['number', 'string'] }, { type: 'string' }, 'compatible'],
  ['boolean to integer (coerced to 0/1)', { type: 'boolean' }, { type: 'integer' }, 'compatible'],
  ['string to integer', { type: 'string' }, { type: 'integer' }, 'breaking'],
  // objects
  ['required added', obj({ a: { type: 'string' } }), obj({ a: { type: 'string' } }, { required: ['a'] }), 'breaking'],
  [
    'required with default',
    obj({ a: { type: 'string', default: 'x' } }),
    obj({ a: { type: 'string', default: 'x' } }, { required: ['a'] }),
    'compatible',
  ],
  [
    'required removed',
    obj({ a: { type: 'string' } }, { required: ['a'] }),
    obj({ a: { type: 'string' } }),
    'compatible',
  ],
  [
    'property removed, closed',
    obj({ a: { type: 'string' }, b: { type: 'string' } }, { additionalProperties: false }),
    obj({ a: { type: 'string' } }, { additionalProperties: false }),
    'breaking',
  ],
  [
    'property removed, open',
    obj({ a: { type: 'string' }, b: { type: 'string' } }),
    obj({ a: { type: 'string' } }),
    'compatible',
  ],
  [
    'property renamed, closed',
    obj({ a: { type: 'string' } }, { additionalProperties: false }),
    obj({ b: { type: 'string' } }, { additionalProperties: false }),
    'breaking',
  ],
  [
    'optional property added, closed',
    obj({ a: { type: 'string' } }, { additionalProperties: false }),
    obj({ a: { type: 'string' }, b: { type: 'string' } }, { additionalProperties: false }),
    'compatible',
  ],
  [
    'optional property added, open',
    obj({ a: { type: 'string' } }),
    obj({ a: { type: 'string' }, b: { type: 'string' } }),
    'compatible',
  ],
  [
    'additionalProperties false added',
    obj({ a: { type: 'string' } }),
    obj({ a: { type: 'string' } }, { additionalProperties: false }),
    'breaking',
  ],
  [
    'additionalProperties false removed',
    obj({ a: { type: 'string' } }, { additionalProperties: false }),
    obj({ a: { type: 'string' } }),
    'compatible',
  ],
  [
    'additionalProperties schema narrowed',
    obj({}, { additionalProperties: { type: ['string', 'number'] } }),
    obj({}, { additionalProperties: { type: 'number' } }),
    'breaking',
  ],
  [
    'nested property maximum lowered',
    obj({ o: obj({ n: { type: 'integer', maximum: 9 } }) }),
    obj({ o: obj({ n: { type: 'integer', maximum: 3 } }) }),
    'breaking',
  ],
  [
    'property order',
    obj({ a: { type: 'string' }, b: { type: 'number' } }),
    obj({ b: { type: 'number' }, a: { type: 'string' } }),
    'unchanged',
  ],
  [
    'description only',
    obj({ a: { type: 'string', description: 'x' } }),
    obj({ a: { type: 'string', description: 'y' } }),
    'unchanged',
  ],
  ['maxProperties added', obj({}), obj({}, { maxProperties: 1 }), 'breaking'],
  // arrays
  ['maxItems lowered', { type: 'array', maxItems: 5 }, { type: 'array', maxItems: 2 }, 'breaking'],
  ['minItems raised', { type: 'array', minItems: 0 }, { type: 'array', minItems: 2 }, 'breaking'],
  ['minItems lowered', { type: 'array', minItems: 2 }, { type: 'array', minItems: 0 }, 'compatible'],
  ['uniqueItems added', { type: 'array' }, { type: 'array', uniqueItems: true }, 'breaking'],
  ['uniqueItems removed', { type: 'array', uniqueItems: true }, { type: 'array' }, 'compatible'],
  [
    'items type narrowed',
    { type: 'array', items: { type: ['string', 'array'] } },
    { type: 'array', items: { type: 'string' } },
    'breaking',
  ],
  [
    'items enum widened',
    { type: 'array', items: { enum: ['a'] } },
    { type: 'array', items: { enum: ['a', 'b'] } },
    'compatible',
  ],
  [
    'array of objects: required added',
    { type: 'array', items: obj({ id: { type: 'string' } }) },
    { type: 'array', items: obj({ id: { type: 'string' } }, { required: ['id'] }) },
    'breaking',
  ],
  [
    'array of objects: property added, closed',
    { type: 'array', items: obj({ id: { type: 'string' } }, { additionalProperties: false }) },
    { type: 'array', items: obj({ id: { type: 'string' }, n: { type: 'number' } }, { additionalProperties: false }) },
    'compatible',
  ],
  // anyOf / oneOf / allOf
  [
    'anyOf branch removed',
    { anyOf: [{ type: 'string' }, { type: 'object' }] },
    { anyOf: [{ type: 'string' }] },
    'breaking',
  ],
  [
    'anyOf branch added',
    { anyOf: [{ type: 'string' }] },
    { anyOf: [{ type: 'string' }, { type: 'number' }] },
    'compatible',
  ],
  [
    'oneOf branch added',
    { oneOf: [{ type: 'string' }, { type: 'number' }] },
    { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'integer' }] },
    'breaking',
  ],
  [
    'anyOf branch edited',
    { anyOf: [{ type: 'string', maxLength: 9 }, { type: 'number' }] },
    { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'number' }] },
    'breaking',
  ],
  [
    'anyOf reordered',
    { anyOf: [{ type: 'string' }, { type: 'number' }] },
    { anyOf: [{ type: 'number' }, { type: 'string' }] },
    'unchanged',
  ],
  ['one-schema allOf', { type: 'string', maxLength: 4 }, { allOf: [{ type: 'string', maxLength: 4 }] }, 'unchanged'],
  [
    'allOf member narrowed',
    { allOf: [{ type: 'integer' }, { maximum: 9 }] },
    { allOf: [{ type: 'integer' }, { maximum: 2 }] },
    'breaking',
  ],
  [
    'one schema split into anyOf branches, one of them narrowed',
    obj({ t: { enum: ['a', 'b', 'c'] } }, { required: ['t'] }),
    {
      anyOf: [
        obj({ t: { enum: ['a', 'b'] } }, { required: ['t'] }),
        obj({ r: { type: 'string' } }, { required: ['r'] }),
      ],
    },
    'breaking',
  ],
  [
    'one schema split into anyOf branches, loosened',
    { type: 'string', maxLength: 3 },
    { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'number' }] },
    'compatible',
  ],
  [
    'anyOf merged into one of its branches',
    { anyOf: [{ type: 'string' }, { type: 'array' }] },
    { type: 'string' },
    'breaking',
  ],
  // $ref (bundled definitions)
  [
    'moved into definitions',
    obj({ a: { type: 'string', maxLength: 3 } }),
    { ...obj({ a: { $ref: '#/definitions/A' } }), definitions: { A: { type: 'string', maxLength: 3 } } },
    'unchanged',
  ],
  [
    'change inside a definition',
    { ...obj({ a: { $ref: '#/definitions/A' } }), definitions: { A: { type: 'integer', maximum: 9 } } },
    { ...obj({ a: { $ref: '#/definitions/A' } }), definitions: { A: { type: 'integer', maximum: 1 } } },
    'breaking',
  ],
  [
    'definition loosened',
    { ...obj({ a: { $ref: '#/definitions/A' } }), definitions: { A: { type: 'string', enum: ['x'] } } },
    { ...obj({ a: { $ref: '#/definitions/A' } }), definitions: { A: { type: 'string' } } },
    'compatible',
  ],
  // a definition reached through a union and a nested $ref: compared where the $ref leads, not by its text
  [
    'anyOf → properties → $ref: maxLength lowered',
    withKey(10, (k) => ({ anyOf: [obj({ key: k }, { required: ['key'] }), { type: 'null' }] })),
    withKey(5, (k) => ({ anyOf: [obj({ key: k }, { required: ['key'] }), { type: 'null' }] })),
    'breaking',
  ],
  [
    'oneOf → items → $ref: maxLength lowered',
    withKey(10, (k) => ({ oneOf: [{ type: 'array', items: k }, { type: 'integer' }] })),
    withKey(5, (k) => ({ oneOf: [{ type: 'array', items: k }, { type: 'integer' }] })),
    'breaking',
  ],
  [
    'oneOf → $ref → properties → $ref: maxLength lowered',
    {
      oneOf: [{ $ref: '#/definitions/Entry' }, { type: 'integer' }],
      definitions: { Entry: obj({ key: { $ref: '#/definitions/Key' } }), Key: { type: 'string', maxLength: 10 } },
    },
    {
      oneOf: [{ $ref: '#/definitions/Entry' }, { type: 'integer' }],
      definitions: { Entry: obj({ key: { $ref: '#/definitions/Key' } }), Key: { type: 'string', maxLength: 5 } },
    },
    'breaking',
  ],
  [
    'anyOf → properties → $ref: maxLength raised',
    withKey(5, (k) => ({ anyOf: [obj({ key: k }), { type: 'null' }] })),
    withKey(10, (k) => ({ anyOf: [obj({ key: k }), { type: 'null' }] })),
    'compatible',
  ],
  [
    'anyOf branch moved into definitions, another one added',
    { anyOf: [{ type: 'string', maxLength: 3 }] },
    { anyOf: [{ type: 'number' }, { $ref: '#/definitions/S' }], definitions: { S: { type: 'string', maxLength: 3 } } },
    'compatible',
  ],
  [
    'allOf → $ref: minLength lowered',
    withKey(10, (k) => ({ allOf: [k, { maxLength: 20 }] }), 'minLength'),
    withKey(5, (k) => ({ allOf: [k, { maxLength: 20 }] }), 'minLength'),
    'compatible',
  ],
  ['not → $ref changed', withKey(5, (k) => ({ not: k })), withKey(10, (k) => ({ not: k })), 'breaking'],
  [
    'propertyNames → $ref changed',
    withKey(10, (k) => ({ type: 'object', propertyNames: k })),
    withKey(5, (k) => ({ type: 'object', propertyNames: k })),
    'breaking',
  ],
  [
    'tuple → $ref: maxLength lowered',
    withKey(10, (k) => ({ type: 'array', items: [k, { type: 'integer' }] })),
    withKey(5, (k) => ({ type: 'array', items: [k, { type: 'integer' }] })),
    'breaking',
  ],
  // oneOf alternatives: an added one that no value can match beside the others widens only
  [
    'oneOf alternative of a distinct type added',
    { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }] },
    'compatible',
  ],
  [
    'oneOf alternative with a distinct const discriminator added',
    { oneOf: [tagged('circle', { r: { type: 'number' } })] },
    { oneOf: [tagged('circle', { r: { type: 'number' } }), tagged('square', { side: { type: 'number' } })] },
    'compatible',
  ],
  [
    'oneOf alternative with a distinct enum discriminator added',
    { oneOf: [obj({ kind: { enum: ['a', 'b'] } }, { required: ['kind'] }), { type: 'null' }] },
    {
      oneOf: [
        obj({ kind: { enum: ['a', 'b'] } }, { required: ['kind'] }),
        { type: 'null' },
        obj({ kind: { enum: ['c'] }, n: { type: 'integer' } }, { required: ['kind'] }),
      ],
    },
    'compatible',
  ],
  [
    'oneOf closed alternative with a property the old ones forbid added',
    { oneOf: [obj({ key: { type: 'string' } }, { required: ['key'], additionalProperties: false })] },
    {
      oneOf: [
        obj({ key: { type: 'string' } }, { required: ['key'], additionalProperties: false }),
        obj({ tag: { type: 'string' } }, { required: ['tag'], additionalProperties: false }),
      ],
    },
    'compatible',
  ],
  [
    'oneOf alternative with an overlapping discriminator added',
    { oneOf: [tagged('circle', { r: { type: 'number' } })] },
    { oneOf: [tagged('circle', { r: { type: 'number' } }), obj({ kind: { enum: ['circle', 'square'] } })] },
    'breaking',
  ],
  [
    'oneOf alternative widened into another',
    {
      oneOf: [
        { type: 'string', maxLength: 3 },
        { type: 'string', minLength: 5 },
      ],
    },
    {
      oneOf: [
        { type: 'string', maxLength: 10 },
        { type: 'string', minLength: 5 },
      ],
    },
    'breaking',
  ],
];

/** A schema whose one `$ref` (`#/definitions/Key`) leads to a string with `keyword` (maxLength) set to `n`. */
function withKey(n: number, around: (key: S) => S, keyword: 'maxLength' | 'minLength' = 'maxLength'): S {
  return { ...around({ $ref: '#/definitions/Key' }), definitions: { Key: { type: 'string', [keyword]: n } } };
}

/** A closed object alternative told apart by `kind: <tag>` (required). */
function tagged(tag: string, properties: Record<string, S>): S {
  return obj({ kind: { const: tag }, ...properties }, { required: ['kind'], additionalProperties: false });
}

function verdictFor(changes: ReturnType<typeof compareSchema>, side: 'input' | 'output'): V {
  const verdicts = changes.map((c) => verdictOf(side, c.direction));
  if (verdicts.includes('breaking')) return 'breaking';
  return verdicts.length > 0 ? 'compatible' : 'unchanged';
}

/** The pointer of the schema a witness is a value of: the change's keyword removed (and a property name with `properties`). */
function schemaPointerOf(pointer: string): string {
  const segs = pointer.split('/');
  // A branch added or removed: its value is checked against the whole union.
  if (/^\d+$/.test(segs.at(-1)!) && ['anyOf', 'oneOf'].includes(segs.at(-2)!)) return segs.slice(0, -2).join('/');
  segs.pop();
  if (segs.at(-1) === 'properties') segs.pop();
  return segs.join('/');
}

function resolves(root: S, pointer: string): boolean {
  let node: unknown = root;
  for (const seg of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, seg)) return false;
    node = (node as Record<string, unknown>)[seg];
  }
  return true;
}

function at(root: S, pointer: string): S {
  let node: unknown = root;
  for (const seg of pointer.split('/').slice(1)) node = (node as Record<string, unknown>)[seg];
  const schema = node as S;
  return root.definitions && schema !== root ? { ...schema, definitions: root.definitions } : schema;
}

function validator(schema: S): (value: unknown) => boolean {
  const validate = createGeneratorAjv().compile(schema);
  return (value) => validate(structuredClone(value)) as boolean;
}

describe('toolsmith diff: before/after pairs', () => {
  it('has at least 60 pairs', () => expect(PAIRS.length).toBeGreaterThanOrEqual(60));

  for (const [name, before, after, expected] of PAIRS) {
    it(`${name}: input ${expected}`, () => {
      const changes = compareSchema(before, after);
      expect(verdictFor(changes, 'input')).toBe(expected);
      // Output is judged the other way: the reverse pair has the same verdict on the output side.
      // (Not where the runtime's coercion or filled defaults decide, or for a note about open objects: output has neither.)
      if (!changes.some((c) => c.direction === 'note') && !name.includes('coerced')) {
        expect(verdictFor(compareSchema(after, before), 'output')).toBe(expected);
      }
      if (expected === 'breaking') {
        const witnessed = changes.filter((c) => c.direction === 'narrowed' && c.witness !== undefined);
        // A union read from a single schema has no branch pointer on that side: its witness is checked whole (below).
        for (const change of witnessed.filter((c) => resolves(before, schemaPointerOf(c.pointer)))) {
          const where = schemaPointerOf(change.pointer);
          expect(validator(at(before, where))(change.witness), `${change.message}: valid before`).toBe(true);
          expect(validator(at(after, where))(change.witness), `${change.message}: invalid after`).toBe(false);
        }
      } else {
        // No sampled value is valid before and invalid after (what a coercing runtime accepts aside: plain Ajv here).
        const validBefore = validator(before);
        const validAfter = validator(after);
        // Coerced values and undeclared properties on open objects are what the notes report (tested below).
        if (!changes.some((c) => c.direction === 'note')) {
          fc.assert(
            fc.property(arbitraryFor(before, before), (value) => !validBefore(value) || validAfter(value)),
            { numRuns: 200 },
          );
        }
      }
    });
  }

  it('a $ref outside the schema (a snapshot may hold one) is never fetched: a change of it is undecidable', () => {
    const changes = compareSchema(
      obj({ a: { $ref: 'https://example.com/a.json' } }),
      obj({ a: { $ref: 'https://example.com/b.json' } }),
    );
    expect(changes).toEqual([expect.objectContaining({ pointer: '/properties/a/$ref', direction: 'undecidable' })]);
    expect(changes[0]!.message).toContain('https://example.com/a.json → https://example.com/b.json: not fetched');
  });

  it('an optional property added to an open object is breaking under --strict-open-objects, with a set witness', () => {
    const before = obj({ a: { type: 'string' } });
    const after = obj({ a: { type: 'string' }, b: { type: 'string' } });
    expect(verdictFor(compareSchema(before, after, { strictOpenObjects: true }), 'input')).toBe('breaking');
    expect(validator(before)({ b: 5 })).toBe(true);
    expect(validator(after)({ b: 5 })).toBe(false);
  });
});

/** A definition-side tool whose input is `{ v }` with `v` the pair's schema (required). */
function asTool(schema: S): DiffTool {
  const { definitions, ...rest } = schema;
  return {
    name: 't',
    description: 'd',
    inputSchema: {
      type: 'object',
      required: ['v'],
      properties: { v: rest },
      ...(definitions ? { definitions } : {}),
    } as S,
    kind: 'definition',
    annotations: {},
    shared: new Map(),
    base: '',
    translated: false,
  };
}

function runtimeValidator(schema: S): (value: unknown) => boolean {
  const validate = coerceWhereNeeded(createGeneratorAjv().compile(schema) as never) as unknown as (
    v: unknown,
  ) => boolean;
  return (value) => validate(structuredClone(value));
}

describe('toolsmith diff: whole-argument witnesses', () => {
  const breaking = PAIRS.filter(([, , , expected]) => expected === 'breaking');
  for (const [name, before, after] of breaking) {
    it(`${name}: each witness is whole arguments, valid before and refused after (runtime validators)`, () => {
      const a = asTool(before);
      const b = asTool(after);
      const changes = compareTool(a, b);
      const validBefore = runtimeValidator(a.inputSchema);
      const validAfter = runtimeValidator(b.inputSchema);
      for (const change of changes.filter((c) => c.witness !== undefined)) {
        expect(change.witness).toHaveProperty('v');
        expect(validBefore(change.witness), `${change.message}: valid before`).toBe(true);
        expect(validAfter(change.witness), `${change.message}: refused after`).toBe(false);
        expect(change.message).toContain(JSON.stringify(change.witness).slice(0, 100));
      }
      // A rule that knows a value gives a whole witness (the rest are undecidable: a pattern or a branch changed).
      const decidable = compareSchema(before, after).some((c) => c.direction === 'narrowed' && c.witness !== undefined);
      if (decidable) expect(changes.some((c) => c.witness !== undefined)).toBe(true);
    });
  }

  it('finds a witness where the rule has none: a pattern added', () => {
    const [change] = compareTool(asTool({ type: 'string' }), asTool({ type: 'string', pattern: '^[a-z]+$' }));
    expect(change!.witness).toEqual({ v: '' });
    expect(change!.message).toContain('e.g. the arguments {"v":""} were accepted and are now refused');
  });

  it("fills a required name that is also an Object.prototype key from the schema's own properties only", () => {
    const object = (s: S): S => ({ type: 'object', required: ['constructor', 's'], properties: { s } });
    const [change] = compareTool(
      asTool(object({ type: 'string' })),
      asTool(object({ type: 'string', pattern: '^a$' })),
    );
    expect(change!.witness).toEqual({ v: { constructor: 1, s: '' } });
  });

  it('an output witness is an output valid after and invalid before', () => {
    const before: DiffTool = {
      ...asTool({ type: 'string' }),
      outputSchema: obj({ n: { enum: ['a'] } }, { required: ['n'] }),
    };
    const after: DiffTool = { ...before, outputSchema: obj({ n: { enum: ['a', 'b'] } }, { required: ['n'] }) };
    const [change] = compareTool(before, after);
    expect(change).toMatchObject({ side: 'output', verdict: 'breaking', witness: { n: 'b' } });
  });
});

describe('toolsmith diff: a 2020-12 copy compares as its draft-07 source', () => {
  for (const [name, before, after] of PAIRS) {
    it(name, () => {
      const directions = (b: S) => compareSchema(before, b).map((c) => [c.pointer, c.direction]);
      const after2020 = toJsonSchema2020(after) as S;
      expect(directions(asDraft07(after2020))).toEqual(directions(after));
    });
  }

  it('a tuple and dependencies come back', () => {
    const schema: S = {
      type: 'array',
      items: [{ type: 'string' }, { $ref: '#/definitions/N' }],
      additionalItems: false,
      definitions: { N: { type: 'object', dependencies: { a: ['b'], c: { required: ['d'] } } } },
    };
    expect(asDraft07(toJsonSchema2020(schema))).toEqual(schema);
  });
});

describe('toolsmith diff: output-side verdicts', () => {
  const returning = (outputSchema: S): DiffTool => ({ ...asTool({ type: 'string' }), outputSchema });

  it('an output property no longer nullable is listed as a compatible change (the runtime coerces arguments, not outputs)', () => {
    const changes = compareTool(
      returning(obj({ name: { type: ['string', 'null'] } }, { required: ['name'] })),
      returning(obj({ name: { type: 'string' } }, { required: ['name'] })),
    );
    expect(changes).toEqual([
      expect.objectContaining({
        side: 'output',
        pointer: '/outputSchema/properties/name/type',
        verdict: 'compatible',
        message: expect.stringContaining('type string|null → string: null values are now refused'),
      }),
    ]);
  });

  it('a oneOf alternative added to an output stays breaking, disjoint or not: callers never saw such an output', () => {
    const shapes = [obj({ kind: { const: 'a' } }, { required: ['kind'] })];
    const [change] = compareTool(
      returning({ oneOf: shapes }),
      returning({ oneOf: [...shapes, obj({ kind: { const: 'b' } }, { required: ['kind'] })] }),
    );
    expect(change).toMatchObject({ side: 'output', pointer: '/outputSchema/oneOf/1', verdict: 'breaking' });
    expect(change!.witness).toEqual({ kind: 'b' });
  });
});

describe('toolsmith diff: declared errors, judged for callers that handle failures by code', () => {
  const declaring = (errors: DeclaredError[]): DiffTool => ({ ...asTool({ type: 'string' }), errors });
  const limited = (data?: S, retryable?: true): DeclaredError => ({
    code: 'RATE_LIMITED',
    description: 'Too many calls.',
    ...(data === undefined ? {} : { data }),
    ...(retryable === undefined ? {} : { retryable }),
  });
  const wait = (extra: Partial<S> = {}) =>
    obj({ retryAfterMs: { type: 'integer', maximum: 1000, ...extra } }, { required: ['retryAfterMs'] });
  const verdicts = (before: DeclaredError[], after: DeclaredError[]) =>
    errorChanges(declaring(before), declaring(after)).map((change) => [change.pointer, change.verdict]);

  it.each<[string, DeclaredError[], DeclaredError[], [string, string][]]>([
    ['a code added is breaking', [], [limited()], [['/errors/RATE_LIMITED', 'breaking']]],
    ['a code removed is compatible', [limited()], [], [['/errors/RATE_LIMITED', 'compatible']]],
    [
      'data widened (a bound raised) is breaking',
      [limited(wait())],
      [limited(wait({ maximum: 5000 }))],
      [['/errors/RATE_LIMITED/data/properties/retryAfterMs/maximum', 'breaking']],
    ],
    [
      'data narrowed (a bound lowered) is compatible',
      [limited(wait())],
      [limited(wait({ maximum: 10 }))],
      [['/errors/RATE_LIMITED/data/properties/retryAfterMs/maximum', 'compatible']],
    ],
    ['data added is compatible', [limited()], [limited(wait())], [['/errors/RATE_LIMITED/data', 'compatible']]],
    ['data removed is breaking', [limited(wait())], [limited()], [['/errors/RATE_LIMITED/data', 'breaking']]],
    [
      'retryable added is compatible',
      [limited()],
      [limited(undefined, true)],
      [['/errors/RATE_LIMITED/retryable', 'compatible']],
    ],
    ['the same errors are unchanged', [limited(wait())], [limited(wait())], []],
  ])('%s', (_name, before, after, expected) => {
    expect(verdicts(before, after)).toEqual(expected);
  });

  it('a new code has the failure now possible as its witness', () => {
    const [change] = errorChanges(declaring([]), declaring([limited()]));
    expect(change!.witness).toEqual({ success: false, code: 'RATE_LIMITED' });
    expect(change!.message).toContain('e.g. the failure {"success":false,"code":"RATE_LIMITED"} may now be returned');
  });

  it('wider data has a witness: data valid after and invalid before (runtime validators)', () => {
    const reason = (values: string[]) => obj({ reason: { enum: values } }, { required: ['reason'] });
    const before = reason(['quota']);
    const after = reason(['quota', 'burst']);
    const [change] = errorChanges(declaring([limited(before)]), declaring([limited(after)]));
    expect(change).toMatchObject({ pointer: '/errors/RATE_LIMITED/data/properties/reason/enum', verdict: 'breaking' });
    const { data } = change!.witness as { data: unknown };
    expect(data).toEqual({ reason: 'burst' });
    expect(runtimeValidator(after)(data)).toBe(true);
    expect(runtimeValidator(before)(data)).toBe(false);
    expect(change!.message).toContain('e.g. the data {"reason":"burst"} may now be returned and was invalid before');
  });
});
