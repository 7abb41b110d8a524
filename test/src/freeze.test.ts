import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../src/index.js';

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
});
