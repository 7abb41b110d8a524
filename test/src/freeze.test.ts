import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../src/index.js';
import { freezeParsed } from '../../src/schema/freeze.js';

describe('deepFreeze', () => {
  it('freezes nested objects and arrays and returns the same value', () => {
    const schema = {
      type: 'object',
      properties: { tags: { type: 'array', items: { enum: ['a', 'b'] } } },
      required: ['tags'],
    };
    const frozen = deepFreeze(schema);
    expect(frozen).toBe(schema);
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.properties.tags.items.enum)).toBe(true);
    expect(Object.isFrozen(schema.required)).toBe(true);
    expect(() => {
      (schema.properties.tags as Record<string, unknown>).type = 'string';
    }).toThrow(TypeError);
  });

  it('handles cycles and primitives', () => {
    const node: Record<string, unknown> = { name: 'n' };
    node.self = node;
    expect(deepFreeze(node)).toBe(node);
    expect(Object.isFrozen(node)).toBe(true);
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
  });

  it('stops at a value it froze whole before, and still freezes what is new around it', () => {
    const inner = deepFreeze({ a: { b: [1] } });
    const outer = { inner, fresh: { c: 2 } };
    deepFreeze(outer);
    expect(Object.isFrozen(outer.fresh)).toBe(true);
    expect(Object.isFrozen(inner.a.b)).toBe(true);
  });

  it('does not stop at a value frozen only at its top by someone else', () => {
    const shallow = Object.freeze({ nested: { d: 1 } });
    deepFreeze({ shallow });
    expect(Object.isFrozen(shallow.nested)).toBe(true);
  });
});

describe('freezeParsed', () => {
  it('freezes every object and array of a parsed value, a `__proto__` key included, and deepFreeze then skips it', () => {
    const parsed = JSON.parse('{"a":[{"b":{"c":[1,2]}}],"__proto__":{"d":{}}}') as Record<string, any>;
    expect(freezeParsed(parsed)).toBe(parsed);
    for (const value of [
      parsed,
      parsed.a,
      parsed.a[0],
      parsed.a[0].b,
      parsed.a[0].b.c,
      parsed.__proto__,
      parsed.__proto__.d,
    ])
      expect(Object.isFrozen(value)).toBe(true);
    const holder = { parsed, other: {} };
    deepFreeze(holder);
    expect(Object.isFrozen(holder.other)).toBe(true);
  });
});
