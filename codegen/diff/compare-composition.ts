import type { JSONSchema7Definition } from 'json-schema';
import { changeCount, deref, found, onlyKeys, sameKeyword, sampleFor, spend, stable, typesOf } from './compare-kit.js';
import type { Ctx, Rule, Schema } from './compare-kit.js';
import { valuesOf } from './compare-scalars.js';

/*
 * The composition keyword families of the schema comparison (./compare.ts): `anyOf`/`oneOf` (branches
 * matched by canonical form, split or merged branches paired), `allOf` and `not`. Nested schemas are
 * compared by the walk the context carries (`ctx.compare`).
 */

/** What a branch change may do in a `oneOf` beyond the branch itself: a value matching two branches fails. */
const ONE_OF_CAVEATS = {
  changed:
    'oneOf branch changed: values it and another branch match differ now, and a value matching two fails (treated as breaking unless the branches are disjoint)',
  removed:
    'oneOf branch removed: a value it and another branch matched now passes, and values only it matched fail (treated as breaking)',
  added:
    'oneOf branch added: a value matching it and another branch now fails (treated as breaking unless the branches are disjoint)',
};

/**
 * anyOf/oneOf: each branch paired with one of the other side (`pairBranches`) and compared with it in
 * place; a branch left unpaired was removed or added: a narrowing or a widening. In a `oneOf`, a value
 * that matches two branches fails, so a branch added (or widened) narrows too, unless it is provably
 * disjoint from the others, and one removed widens too, unless it was.
 */
export function unionRule(keyword: 'anyOf' | 'oneOf'): Rule {
  return (before, after, pointer, ctx) => {
    const a = before[keyword];
    const b = after[keyword];
    if (a === undefined && b === undefined) return;
    const at = `${pointer}/${keyword}`;
    if (a === undefined || b === undefined) {
      const what = a === undefined ? 'added' : 'removed';
      return found(ctx, at, 'undecidable', `${keyword} ${what}: cannot compare (treated as breaking)`);
    }
    const { pairs, removed, added } = pairBranches(a, b, at, ctx);
    // The budget ran out while pairing: the pairs are not known, so nothing is said but that.
    if (ctx.work.left === 0) return void spend(ctx, at);
    // In a `oneOf`, whether the branch at `index` shares no value with the others (then a change of it is its own).
    const alone = (branches: JSONSchema7Definition[], index: number, root: Schema) =>
      keyword === 'anyOf' || branches.every((other, k) => k === index || disjoint(branches[index]!, other, root));
    for (const [i, j] of pairs) {
      const start = ctx.out.length;
      ctx.compare(a[i], b[j], `${at}/${j}`, ctx);
      const changed = (direction: string) => ctx.out.slice(start).some((change) => change.direction === direction);
      // What a branch gains may overlap another branch (now refused); what it loses may have (now accepted).
      if ((!alone(b, j, ctx.afterRoot) && changed('widened')) || (!alone(a, i, ctx.beforeRoot) && changed('narrowed')))
        found(ctx, `${at}/${j}`, 'undecidable', ONE_OF_CAVEATS.changed);
    }
    for (const i of removed) {
      if (!alone(a, i, ctx.beforeRoot)) found(ctx, `${at}/${i}`, 'undecidable', ONE_OF_CAVEATS.removed);
      const message = `${keyword} branch removed: values only it matched are now refused`;
      found(ctx, `${at}/${i}`, 'narrowed', message, sampleFor(a[i]!, ctx.beforeRoot));
    }
    for (const j of added) {
      if (!alone(b, j, ctx.afterRoot)) found(ctx, `${at}/${j}`, 'undecidable', ONE_OF_CAVEATS.added);
      const message = `${keyword} branch added: values it matches are now accepted`;
      found(ctx, `${at}/${j}`, 'widened', message, sampleFor(b[j]!, ctx.afterRoot));
    }
  };
}

/**
 * Pairs each branch of `a` with one of `b`: the same text first (the same branch, though a `$ref` in it
 * may lead to a changed definition), then an equivalent one (reordered, moved into `definitions`: the
 * same schema once metadata is set aside, or — where `$ref`s are involved — one the walk finds no change
 * to). What is left is paired in order when the unions are as long (branches edited in place), else
 * each with the closest of an overlapping type (fewest changes: a branch split or merged). The rest
 * were removed (`a`) or added (`b`).
 */
function pairBranches(
  a: JSONSchema7Definition[],
  b: JSONSchema7Definition[],
  at: string,
  ctx: Ctx,
): { pairs: [number, number][]; removed: number[]; added: number[] } {
  const pairs: [number, number][] = [];
  const free = new Set(b.keys());
  /** A filter keeping the branches of `a` left unpaired: each is paired with the free branch `choose` picks. */
  const pairWith = (choose: (i: number, free: number[]) => number | undefined) => (i: number) => {
    const j = choose(i, [...free]);
    if (j === undefined) return true;
    pairs.push([i, j]);
    free.delete(j);
    return false;
  };
  const { ids } = ctx.work;
  const equal = (i: number, j: number) => {
    const [x, y] = [deref(a[i], ctx.beforeRoot), deref(b[j], ctx.afterRoot)];
    if (!ids.hasRef(x) && !ids.hasRef(y)) return x !== undefined && y !== undefined && ids.plain(x) === ids.plain(y);
    return changeCount(a[i], b[j], `${at}/${j}`, ctx) === 0;
  };
  const closest = (i: number, candidates: number[]) => {
    const x = deref(a[i], ctx.beforeRoot);
    let best: [number, number] | undefined;
    for (const j of candidates) {
      const y = deref(b[j], ctx.afterRoot);
      if (typeof x !== 'object' || typeof y !== 'object' || ![...typesOf(x)].some((t) => typesOf(y).has(t))) continue;
      const count = changeCount(a[i], b[j], `${at}/${j}`, ctx);
      if (count < (best?.[1] ?? Number.POSITIVE_INFINITY)) best = [j, count];
    }
    return best?.[0];
  };
  let rest = [...a.keys()].filter(pairWith((i, candidates) => candidates.find((j) => ids.of(a[i]) === ids.of(b[j]))));
  rest = rest.filter(pairWith((i, candidates) => candidates.find((j) => equal(i, j))));
  rest = rest.filter(pairWith(a.length === b.length ? (_i, candidates) => candidates[0] : closest));
  return { pairs, removed: rest, added: [...free] };
}

/**
 * True when no value can match both schemas, in the cases provable from their own keywords: types
 * that do not overlap, or objects (and only objects) where one requires a property the other forbids
 * (closed, without it) or allows only with values (`const`/`enum`) the first one does not.
 */
function disjoint(x: JSONSchema7Definition, y: JSONSchema7Definition, root: Schema): boolean {
  const a = deref(x, root);
  const b = deref(y, root);
  if (typeof a !== 'object' || typeof b !== 'object') return a === false || b === false;
  const common = [...typesOf(a)].filter((type) => typesOf(b).has(type));
  if (common.length === 0) return true;
  return common.every((type) => type === 'object') && (excludes(a, b, root) || excludes(b, a, root));
}

/** True when a property `a` requires is forbidden by `b` or held by the two to values no value has for both. */
function excludes(a: Schema, b: Schema, root: Schema): boolean {
  const own = (schema: Schema, name: string) =>
    schema.properties && Object.hasOwn(schema.properties, name) ? deref(schema.properties[name], root) : undefined;
  return (a.required ?? []).some((name) => {
    const there = own(b, name);
    if (there === false || (there === undefined && b.additionalProperties === false && !b.patternProperties))
      return true;
    const mine = valuesOf(own(a, name));
    const theirs = valuesOf(there);
    return mine !== undefined && theirs !== undefined && !mine.some((v) => theirs.some((w) => stable(v) === stable(w)));
  });
}

/**
 * A schema that became a union of branches (or a union that became one schema): the single schema read
 * as a one-branch union, so its branches are paired rather than every keyword reported as lost.
 */
export function asUnions(a: Schema, b: Schema): { keyword: 'anyOf' | 'oneOf'; a: Schema; b: Schema } | undefined {
  const single = (s: Schema) => s.anyOf === undefined && s.oneOf === undefined;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const union = (s: Schema) => Array.isArray(s[keyword]) && onlyKeys(s, [keyword]);
    if (union(b) && single(a)) return { keyword, a: { [keyword]: [a] }, b };
    if (union(a) && single(b)) return { keyword, a, b: { [keyword]: [b] } };
  }
  return undefined;
}

/** allOf: members compared in place when their number is the same; else undecidable. */
export const allOfRule: Rule = (before, after, pointer, ctx) => {
  const a = before.allOf;
  const b = after.allOf;
  if (a === undefined && b === undefined) return;
  if (a !== undefined && b !== undefined && a.length === b.length)
    a.forEach((s, i) => ctx.compare(s, b[i], `${pointer}/allOf/${i}`, ctx));
  else found(ctx, `${pointer}/allOf`, 'undecidable', 'allOf members changed: cannot compare (treated as breaking)');
};

/** not: any change to what it refuses (through its `$ref`s too) is undecidable. */
export const notRule: Rule = (before, after, pointer, ctx) => {
  if (sameKeyword('not', before.not, after.not, pointer, ctx)) return;
  found(ctx, `${pointer}/not`, 'undecidable', 'not changed: cannot compare (treated as breaking)');
};
