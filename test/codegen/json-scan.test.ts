/**
 * json-scan reads JSON text without a parser (so that files too deep for every parser can still be
 * reported with a pointer): checked against jsonc-parser's syntax tree on random JSON.
 */
import fc from 'fast-check';
import { getNodePath, parseTree, type Node } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { pointerAt, scanJson } from '../../codegen/load.js';
import { formatPointer } from '../../src/schema/json-pointer.js';

/** Every object and array node with its depth (the root is 1). */
function containers(node: Node, depth = 1): { node: Node; depth: number }[] {
  if (node.type !== 'object' && node.type !== 'array') return [];
  const children =
    node.type === 'object' ? (node.children ?? []).map((property) => property.children![1]!) : (node.children ?? []);
  return [{ node, depth }, ...children.flatMap((child) => containers(child, depth + 1))];
}

function properties(node: Node): number {
  return (node.type === 'property' ? 1 : 0) + (node.children ?? []).reduce((sum, child) => sum + properties(child), 0);
}

const texts = fc
  .tuple(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 1, 2, '\t'))
  .map(([value, space]) => JSON.stringify(value, null, space));

describe('scanJson and pointerAt', () => {
  it('count every key, quotes and backslashes in strings included (property)', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(scanJson(text).keys).toBe(properties(parseTree(text)!));
      }),
      { numRuns: 500 },
    );
  });

  it('give the pointer of every container, as jsonc-parser does (property)', () => {
    fc.assert(
      fc.property(texts, (text) => {
        for (const { node } of containers(parseTree(text)!))
          expect(pointerAt(text, node.offset)).toBe(formatPointer(getNodePath(node)));
      }),
      { numRuns: 500 },
    );
  });

  it('find the first container deeper than the limit (property)', () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 0, max: 7 }), (text, limit) => {
        const deeper = containers(parseTree(text)!)
          .filter(({ depth }) => depth > limit)
          .map(({ node }) => node.offset);
        expect(scanJson(text, limit).tooDeepAt).toBe(deeper.length === 0 ? undefined : Math.min(...deeper));
      }),
      { numRuns: 500 },
    );
  });

  it('reads escaped quotes, backslash runs and keys with slashes and tildes', () => {
    const text = '{"a\\\\":{"b\\"":[1,{"c/~d":[[]]}]},"e":"\\\\\\"{"}';
    expect(scanJson(text).keys).toBe(4);
    const inner = text.indexOf('[[]]') + 1;
    expect(pointerAt(text, inner)).toBe('/a\\/b"/1/c~1~0d/0');
    expect(scanJson(text, 5).tooDeepAt).toBe(inner);
    expect(scanJson(text, 6).tooDeepAt).toBeUndefined();
  });
});
