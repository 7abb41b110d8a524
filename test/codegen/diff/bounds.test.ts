import type { JSONSchema7 } from 'json-schema';
import { describe, expect, it } from 'vitest';
import { compareSchema, compareTool, verdictOf } from '../../../codegen/diff/compare.js';
import type { DiffTool } from '../../../codegen/diff/sources.js';
import { MAX_WITNESS_SEARCHES } from '../../../codegen/diff/witness.js';

/*
 * The work a comparison does is bounded, never timed: how many schema pairs it walks is capped
 * (`maxComparisons`), and the tests below say how many a shape needs, so a comparison that grows
 * faster than its schemas fails them. What is past a bound is reported undecidable, so breaking.
 */
type S = JSONSchema7;

const STOPPED = /^not compared: the comparison stopped after \d+ schema pairs \(--max-comparisons\)/;

/** `anyOf` nested `depth` deep, two branches at each level (2^depth leaves: a string with `maxLength`). */
function nestedAnyOf(depth: number, maxLength: number, extraBranch = false): S {
  if (depth === 0) return { type: 'string', maxLength };
  const inner = () => nestedAnyOf(depth - 1, maxLength, extraBranch);
  return {
    anyOf: [
      inner(),
      { type: 'object', properties: { n: inner() } },
      ...(extraBranch ? [{ type: 'null' as const }] : []),
    ],
  };
}

/** `depth` definitions, each an `anyOf` reaching the next one twice (a shared DAG), the last a string. */
function refChain(depth: number, maxLength: number, name: string, extraBranch = false): S {
  const definitions: Record<string, S> = {};
  for (let k = 0; k < depth; k++) {
    const next: S = { $ref: `#/definitions/${name}${k + 1}` };
    definitions[`${name}${k}`] = {
      anyOf: [next, { type: 'object', properties: { n: next } }, ...(extraBranch ? [{ type: 'null' as const }] : [])],
    };
  }
  definitions[`${name}${depth}`] = { type: 'string', maxLength };
  return { type: 'object', properties: { v: { $ref: `#/definitions/${name}0` } }, definitions };
}

function tool(inputSchema: S): DiffTool {
  return {
    name: 't',
    description: 'd',
    inputSchema,
    kind: 'definition',
    annotations: {},
    shared: new Map(),
    base: '',
    translated: false,
  };
}

describe('toolsmith diff: bounded work', () => {
  it('nested inline anyOf, 11 deep (2,048 leaves, 168 KB): every leaf compared in place, in as many pairs as the schema has nodes', () => {
    const before = nestedAnyOf(11, 10);
    expect(JSON.stringify(before).length).toBeGreaterThan(160_000);
    // 3 · 2^11 schema pairs is the size of the tree: each union's branches are paired once, never each with each.
    const changes = compareSchema(before, nestedAnyOf(11, 5), { maxComparisons: 3 * 2 ** 11 });
    expect(changes.filter((change) => STOPPED.test(change.message))).toEqual([]);
    expect(
      changes.filter((change) => change.direction === 'narrowed' && change.pointer.endsWith('/maxLength')),
    ).toHaveLength(2 ** 11);
  });

  it('a DAG of $refs compared pair by pair: each pair of schemas is compared once (memoized), not once per path', () => {
    // The two sides name their definitions apart, and the after side adds a branch at each level, so the
    // branches are paired by comparing them: without the memo the pairs of one level are compared again
    // for every path that reaches it (2^14 paths; 5 levels already take 140,000 pairs).
    const changes = compareSchema(refChain(14, 10, 'A'), refChain(14, 5, 'B', true), { maxComparisons: 20_000 });
    expect(changes.filter((change) => STOPPED.test(change.message))).toEqual([]);
    expect(changes.filter((change) => change.direction === 'narrowed')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('maxLength 10 → 5') }),
    ]);
  });

  it('past the budget: one undecidable change with the reason, so the tool breaks, and nothing more is walked', () => {
    // Unions of different lengths at every level are paired by counting changes, pair against pair.
    const before = nestedAnyOf(11, 10);
    const after = nestedAnyOf(11, 5, true);
    const changes = compareSchema(before, after, { maxComparisons: 2_000 });
    expect(changes).toEqual([expect.objectContaining({ pointer: '/anyOf', direction: 'undecidable' })]);
    expect(changes[0]!.message).toMatch(STOPPED);
    expect(verdictOf('input', changes[0]!.direction)).toBe('breaking');
    // Through a tool: breaking, at the pointer where the walk stopped.
    const [change] = compareTool(
      tool({ type: 'object', properties: { v: nestedAnyOf(6, 10) } }),
      tool({ type: 'object', properties: { v: nestedAnyOf(6, 5, true) } }),
      { maxComparisons: 100 },
    );
    expect(change).toMatchObject({ side: 'input', pointer: '/inputSchema/properties/v/anyOf', verdict: 'breaking' });
  });

  it('schemas nested past 256 levels through $refs: undecidable where the walk stops, never a stack overflow', () => {
    const chain = (maxLength: number): S => {
      const definitions: Record<string, S> = {};
      for (let k = 0; k < 5_000; k++)
        definitions[`D${k}`] = { type: 'object', properties: { a: { $ref: `#/definitions/D${k + 1}` } } };
      definitions.D5000 = { type: 'string', maxLength };
      return { $ref: '#/definitions/D0', definitions };
    };
    const changes = compareSchema(chain(10), chain(5));
    expect(changes).toEqual([
      expect.objectContaining({
        direction: 'undecidable',
        message: expect.stringContaining('schemas nest more than 256 deep here (through $refs)'),
      }),
    ]);
    expect(changes[0]!.pointer.split('/properties/a')).toHaveLength(257);
  });

  it(`witnesses are searched for the first ${MAX_WITNESS_SEARCHES} breaking changes of a side, the rest are listed without one`, () => {
    const properties = (maxLength: number) =>
      Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, { type: 'string', maxLength } as S]));
    const changes = compareTool(
      tool({ type: 'object', properties: properties(10) }),
      tool({ type: 'object', properties: properties(5) }),
    );
    expect(changes.filter((change) => change.verdict === 'breaking')).toHaveLength(100);
    expect(changes.filter((change) => change.witness !== undefined)).toHaveLength(MAX_WITNESS_SEARCHES);
    expect(changes[0]!.witness).toEqual({ p0: 'aaaaaa' });
  });
});
