import type { JSONSchema7Definition } from 'json-schema';
import { deref, onlyKeys, sampleFor, stable, strip, typesOf, type Ctx, type Rule, type Schema } from './compare-kit.js';

/*
 * The composition keyword families of the schema comparison (./compare.ts): `anyOf`/`oneOf` (branches
 * matched by canonical form, split or merged branches paired), `allOf` and `not`. Nested schemas are
 * compared by the walk the context carries (`ctx.compare`).
 */

/** anyOf/oneOf: branches matched by canonical form; an added or removed branch is a widening or narrowing. */
export function unionRule(keyword: 'anyOf' | 'oneOf'): Rule {
  return (before, after, pointer, ctx) => {
    const a = before[keyword];
    const b = after[keyword];
    if (a === undefined && b === undefined) return;
    const at = `${pointer}/${keyword}`;
    const canon = (s: JSONSchema7Definition, root: Schema) => stable(strip(deref(s, root)));
    const as = (a ?? []).map((s) => canon(s, ctx.beforeRoot));
    const bs = (b ?? []).map((s) => canon(s, ctx.afterRoot));
    if (a === undefined || b === undefined) {
      ctx.out.push({
        pointer: at,
        direction: 'undecidable',
        message: `${keyword} ${a === undefined ? 'added' : 'removed'}: cannot compare (treated as breaking)`,
      });
      return;
    }
    const removed = as.filter((s) => !bs.includes(s));
    const added = bs.filter((s) => !as.includes(s));
    if (removed.length === 0 && added.length === 0) return;
    if (removed.length === 1 && added.length === 1 && a.length === b.length) {
      // One branch edited: compare it in place.
      const i = as.indexOf(removed[0]!);
      const j = bs.indexOf(added[0]!);
      ctx.compare(a[i], b[j], `${at}/${j}`, ctx);
      return;
    }
    // A branch split or merged: each removed branch is compared in place with the closest added one of an
    // overlapping type (fewest changes); the rest are removed or added.
    for (const [i, j] of pairBranches(
      a,
      b,
      removed.map((r) => as.indexOf(r)),
      added.map((x) => bs.indexOf(x)),
      at,
      ctx,
    )) {
      ctx.compare(a[i], b[j], `${at}/${j}`, ctx);
      removed.splice(removed.indexOf(as[i]!), 1);
      added.splice(added.indexOf(bs[j]!), 1);
    }
    for (const s of removed) {
      if (keyword === 'oneOf' && b.length > 0) {
        ctx.out.push({
          pointer: `${at}/${as.indexOf(s)}`,
          direction: 'undecidable',
          message:
            'oneOf branch removed: a value it and another branch matched now passes, and values only it matched fail (treated as breaking)',
        });
      }
      ctx.out.push({
        pointer: `${at}/${as.indexOf(s)}`,
        direction: 'narrowed',
        message: `${keyword} branch removed: values only it matched are now refused`,
        witness: sampleFor(a[as.indexOf(s)]!, ctx.beforeRoot),
      });
    }
    for (const s of added) {
      const index = bs.indexOf(s);
      if (keyword === 'oneOf' && b.length > 1) {
        ctx.out.push({
          pointer: `${at}/${index}`,
          direction: 'undecidable',
          message:
            'oneOf branch added: a value matching it and another branch now fails (treated as breaking unless the branches are disjoint)',
        });
        ctx.out.push({
          pointer: `${at}/${index}`,
          direction: 'widened',
          message: 'oneOf branch added: values it alone matches are now accepted',
          witness: sampleFor(b[index]!, ctx.afterRoot),
        });
      } else {
        ctx.out.push({
          pointer: `${at}/${index}`,
          direction: 'widened',
          message: `${keyword} branch added: values it matches are now accepted`,
          witness: sampleFor(b[index]!, ctx.afterRoot),
        });
      }
    }
  };
}

/** How many changes `compareSchemas` finds between two branches (on a scratch context). */
function changeCount(x: JSONSchema7Definition, y: JSONSchema7Definition, pointer: string, ctx: Ctx): number {
  const scratch: Ctx = { ...ctx, out: [], seen: new Set(ctx.seen), crossings: new Map() };
  scratch.compare(x, y, pointer, scratch);
  return scratch.out.length;
}

/** Removed and added branch indexes paired by overlapping type and fewest changes (greedy, in order). */
function pairBranches(
  a: JSONSchema7Definition[],
  b: JSONSchema7Definition[],
  removed: number[],
  added: number[],
  at: string,
  ctx: Ctx,
): [number, number][] {
  const pairs: [number, number][] = [];
  const free = new Set(added);
  for (const i of removed) {
    const x = deref(a[i], ctx.beforeRoot);
    if (typeof x !== 'object') continue;
    let best: [number, number] | undefined;
    for (const j of free) {
      const y = deref(b[j], ctx.afterRoot);
      if (typeof y !== 'object' || ![...typesOf(x)].some((t) => typesOf(y).has(t))) continue;
      const count = changeCount(a[i]!, b[j]!, `${at}/${j}`, ctx);
      if (best === undefined || count < best[1]) best = [j, count];
    }
    if (best !== undefined) {
      pairs.push([i, best[0]]);
      free.delete(best[0]);
    }
  }
  return pairs;
}

/** The union keyword a schema is made of alone (`anyOf`/`oneOf` and metadata), if any. */
function unionOnly(schema: Schema): 'anyOf' | 'oneOf' | undefined {
  for (const keyword of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(schema[keyword]) && onlyKeys(schema, [keyword])) return keyword;
  return undefined;
}

/**
 * A schema that became a union of branches (or a union that became one schema): the single schema read
 * as a one-branch union, so its branches are paired rather than every keyword reported as lost.
 */
export function asUnions(a: Schema, b: Schema): { keyword: 'anyOf' | 'oneOf'; a: Schema; b: Schema } | undefined {
  const ua = unionOnly(a);
  const ub = unionOnly(b);
  const plain = (s: Schema) => s.anyOf === undefined && s.oneOf === undefined;
  if (ub !== undefined && ua === undefined && plain(a)) return { keyword: ub, a: { [ub]: [a] }, b };
  if (ua !== undefined && ub === undefined && plain(b)) return { keyword: ua, a, b: { [ua]: [b] } };
  return undefined;
}

export const allOfRule: Rule = (before, after, pointer, ctx) => {
  const a = before.allOf;
  const b = after.allOf;
  if (a === undefined && b === undefined) return;
  if (stable(a) === stable(b)) return;
  if (a !== undefined && b !== undefined && a.length === b.length) {
    a.forEach((s, i) => ctx.compare(s, b[i], `${pointer}/allOf/${i}`, ctx));
    return;
  }
  ctx.out.push({
    pointer: `${pointer}/allOf`,
    direction: 'undecidable',
    message: 'allOf members changed: cannot compare (treated as breaking)',
  });
};

export const notRule: Rule = (before, after, pointer, ctx) => {
  if (stable(before.not) === stable(after.not)) return;
  ctx.out.push({
    pointer: `${pointer}/not`,
    direction: 'undecidable',
    message: 'not changed: cannot compare (treated as breaking)',
  });
};
