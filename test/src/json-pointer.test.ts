import { describe, expect, it } from 'vitest';
import {
  decodeFragment,
  definitionKey,
  escapePointerSegment,
  formatPointer,
  parseLocalRef,
  parsePointer,
  resolveLocalRef,
  unescapePointerSegment,
  valueAt,
} from '../../src/schema/json-pointer.js';

describe('the pointer module', () => {
  it('escapes ~ and / only, and reads its own pointers back', () => {
    const segments = ['properties', 'a/b', '~x', '50%', '', '0'];
    expect(formatPointer(segments)).toBe('/properties/a~1b/~0x/50%//0');
    expect(parsePointer(formatPointer(segments))).toEqual(segments);
    expect(unescapePointerSegment('~01')).toBe('~1');
    expect(escapePointerSegment(3)).toBe('3');
    expect(parsePointer('#')).toEqual([]);
  });

  it('definitionKey names the definition a #/definitions or #/$defs ref points at, and nothing else', () => {
    expect(definitionKey('#/definitions/a~1b')).toBe('a/b');
    expect(definitionKey('#/$defs/50%25')).toBe('50%');
    for (const ref of [
      '#',
      '#/definitions',
      '#/definitions/a/b',
      '#/properties/a',
      'other.json#/definitions/a',
      '#/definitions/%zz',
    ])
      expect(definitionKey(ref), ref).toBeUndefined();
  });

  it('valueAt walks own properties and array indices only', () => {
    const root = { a: [10, { b: 'x' }], 'c/d': 1 };
    expect(valueAt(root, ['a', '1', 'b'])).toBe('x');
    expect(valueAt(root, ['c/d'])).toBe(1);
    expect(valueAt(root, [])).toBe(root);
    for (const segments of [['a', '01'], ['a', '-'], ['a', 'length'], ['toString'], ['__proto__'], ['a', '0', 'x']])
      expect(valueAt(root, segments), segments.join('/')).toBeUndefined();
  });

  it('a $ref fragment is percent-decoded once, then read as a pointer (RFC 6901 §6)', () => {
    const root = { definitions: { 'a b': 1, 'a/b': 2, a: { b: 3 } } };
    expect(resolveLocalRef(root, '#/definitions/a%20b')).toBe(1);
    expect(resolveLocalRef(root, '#/definitions/a~1b')).toBe(2);
    expect(resolveLocalRef(root, '#/definitions/a%2Fb')).toBe(3);
    expect(resolveLocalRef(root, '#')).toBe(root);
    expect(resolveLocalRef(root, 'other.json#/definitions/a')).toBeUndefined();
    expect(resolveLocalRef(root, '#/definitions/%zz')).toBeUndefined();
    expect(parseLocalRef('#/definitions/a%20b')).toEqual(['definitions', 'a b']);
    expect(decodeFragment('#/x/%zz')).toEqual({ error: expect.stringContaining('malformed percent escape "%zz"') });
    expect(decodeFragment('#anchor')).toEqual({ error: expect.stringContaining('not a JSON pointer') });
  });
});
