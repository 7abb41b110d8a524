import { describe, expect, it } from 'vitest';
import { keywordsWhere } from '../../src/schema/keywords.js';
import { deepFreeze } from '../../src/schema/freeze.js';
import { forEachSubschema, mapSchema, walkSchema } from '../../src/schema/walk.js';

/** A schema with one subschema at every position of both dialects (`{ title: <pointer> }` each). */
const EVERY_POSITION = {
  properties: { 'a/b': { title: 'p' } },
  patternProperties: { '^x~': { title: 'pp' } },
  definitions: { D: { title: 'd' } },
  $defs: { E: { title: 'e' } },
  dependentSchemas: { c: { title: 'ds' } },
  additionalItems: { title: 'ai' },
  additionalProperties: { title: 'ap' },
  contains: { title: 'c' },
  propertyNames: { title: 'pn' },
  if: { title: 'if' },
  then: { title: 'then' },
  else: { title: 'else' },
  not: { title: 'not' },
  unevaluatedItems: { title: 'ui' },
  unevaluatedProperties: { title: 'up' },
  contentSchema: { title: 'cs' },
  allOf: [{ title: 'all' }],
  anyOf: [{ title: 'any' }],
  oneOf: [{ title: 'one' }],
  prefixItems: [{ title: 'pi' }],
  items: [{ title: 'i0' }, { title: 'i1' }],
  dependencies: { x: { title: 'dep' }, y: ['x'] },
  enum: [{ title: 'data, not a schema' }],
  default: { title: 'data, not a schema' },
};

describe('the schema walker', () => {
  it('finds a subschema at every position the keyword table lists, with escaped pointers, in walk order', () => {
    const found: string[] = [];
    forEachSubschema(EVERY_POSITION, '/root', (child, pointer, { keyword, at }) =>
      found.push(`${pointer} ${keyword} ${String(at)} ${(child as { title: string }).title}`),
    );
    expect(found).toEqual([
      '/root/properties/a~1b properties a/b p',
      '/root/patternProperties/^x~0 patternProperties ^x~ pp',
      '/root/definitions/D definitions D d',
      '/root/$defs/E $defs E e',
      '/root/dependentSchemas/c dependentSchemas c ds',
      '/root/additionalItems additionalItems undefined ai',
      '/root/additionalProperties additionalProperties undefined ap',
      '/root/contains contains undefined c',
      '/root/propertyNames propertyNames undefined pn',
      '/root/if if undefined if',
      '/root/then then undefined then',
      '/root/else else undefined else',
      '/root/not not undefined not',
      '/root/unevaluatedItems unevaluatedItems undefined ui',
      '/root/unevaluatedProperties unevaluatedProperties undefined up',
      '/root/contentSchema contentSchema undefined cs',
      '/root/allOf/0 allOf 0 all',
      '/root/anyOf/0 anyOf 0 any',
      '/root/oneOf/0 oneOf 0 one',
      '/root/prefixItems/0 prefixItems 0 pi',
      '/root/items/0 items 0 i0',
      '/root/items/1 items 1 i1',
      '/root/dependencies/x dependencies x dep',
    ]);
    const keywords = new Set(found.map((line) => line.split(' ')[1]));
    expect([...keywords].sort()).toEqual(keywordsWhere((info) => info.subschemas !== undefined).sort());
  });

  it('visits in walk order whatever the order of the keys', () => {
    const reversed = Object.fromEntries(Object.entries(EVERY_POSITION).reverse());
    const pointers = (schema: Record<string, unknown>) => {
      const found: string[] = [];
      forEachSubschema(schema, '', (_child, pointer) => found.push(pointer));
      return found;
    };
    expect(pointers(reversed)).toEqual(pointers(EVERY_POSITION));
  });

  it('hands over boolean subschemas (and nothing but schemas) with `booleans`, and only the keywords `through` names', () => {
    const schema = {
      properties: { a: true, b: 5, c: {} },
      additionalProperties: false,
      anyOf: [false, 'x', {}],
      items: true,
      dependencies: { d: false, e: ['a'] },
    };
    const found = (options?: Parameters<typeof forEachSubschema>[3]) => {
      const out: string[] = [];
      forEachSubschema(schema, '', (child, pointer) => out.push(`${pointer}=${JSON.stringify(child)}`), options);
      return out;
    };
    expect(found()).toEqual([
      '/properties/a=true',
      '/properties/b=5',
      '/properties/c={}',
      '/anyOf/0=false',
      '/anyOf/1="x"',
      '/anyOf/2={}',
    ]);
    expect(found({ booleans: true })).toEqual([
      '/properties/a=true',
      '/properties/c={}',
      '/additionalProperties=false',
      '/anyOf/0=false',
      '/anyOf/2={}',
      '/items=true',
      '/dependencies/d=false',
    ]);
    expect(found({ booleans: true, through: new Set(['anyOf', 'items']) })).toEqual([
      '/anyOf/0=false',
      '/anyOf/2={}',
      '/items=true',
    ]);
  });

  it('walks nested subschemas (not data keywords), stops at maxDepth, and skips boolean schemas', () => {
    const schema = {
      type: 'object',
      properties: { a: { items: { not: { const: 1 } } }, b: true },
      additionalProperties: false,
      enum: [{ properties: { hidden: {} } }],
    };
    const visited: string[] = [];
    walkSchema(schema, '', (_node, pointer) => visited.push(pointer));
    expect(visited).toEqual(['', '/properties/a', '/properties/a/items', '/properties/a/items/not']);
    const shallow: string[] = [];
    walkSchema(schema, '', (_node, pointer) => shallow.push(pointer), 1);
    expect(shallow).toEqual(['', '/properties/a']);
  });

  it('maps subschemas into a copy, leaving the original and data keywords alone', () => {
    // JSON.parse keeps `__proto__` as an own key, as a definition file read from disk has it.
    const text =
      '{"properties":{"__proto__":{"type":"string"},"n":{"type":"integer"}},"items":[{"type":"string"}],"default":{"type":"string"}}';
    const schema = JSON.parse(text);
    const mapped = mapSchema(schema, '', (node: Record<string, unknown>, pointer) =>
      node.type === 'string' ? { type: 'string', title: pointer } : undefined,
    ) as Record<string, any>;
    expect(Object.hasOwn(mapped.properties, '__proto__')).toBe(true);
    expect(mapped.properties.__proto__).toEqual({ type: 'string', title: '/properties/__proto__' });
    expect(mapped.properties.n).toEqual({ type: 'integer' });
    expect(mapped.items).toEqual([{ type: 'string', title: '/items/0' }]);
    expect(mapped.default).toEqual({ type: 'string' });
    expect(JSON.stringify(schema)).toBe(text);
  });

  it('copies each node of a deep schema once, in its own key order, sharing nothing with the input', () => {
    // The deepest node's `type` counts its reads: each copy of the node reads it once.
    let reads = 0;
    const leaf = Object.defineProperty({ title: 'leaf' }, 'type', {
      enumerable: true,
      get: () => {
        reads += 1;
        return 'string';
      },
    });
    const levels: Array<(schema: unknown) => object> = [
      (schema) => ({ type: 'object', properties: { a: schema }, required: ['a'] }),
      (schema) => ({ items: [schema, true], minItems: 1 }),
      (schema) => ({ title: 'not', not: schema }),
      (schema) => ({ dependencies: { a: schema, b: ['a'] }, description: 'deps' }),
      (schema) => ({ $comment: 'x', anyOf: [schema] }),
      (schema) => ({ items: schema, enum: [{ items: {} }] }),
      (schema) => ({ definitions: { d: schema }, $ref: '#/definitions/d' }),
    ];
    const schema = deepFreeze(levels.reduce<unknown>((inner, wrap) => wrap(inner), leaf));
    const mapped = mapSchema(schema, '', () => undefined);
    expect(reads).toBe(1);
    expect(JSON.stringify(mapped)).toBe(JSON.stringify(schema));
    const objects = (value: unknown, into = new Set<unknown>()): Set<unknown> => {
      if (typeof value !== 'object' || value === null) return into;
      into.add(value);
      for (const child of Object.values(value)) objects(child, into);
      return into;
    };
    const given = objects(schema);
    expect([...objects(mapped)].filter((object) => given.has(object))).toEqual([]);
  });
});
