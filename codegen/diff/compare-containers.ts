import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import { bound, deref, found, sampleFor, type Rule } from './compare-kit.js';

/*
 * The container keyword families of the schema comparison (./compare.ts): objects (properties,
 * `required`, `additionalProperties`, the property counts) and arrays (item counts, `uniqueItems`,
 * `items`). Nested schemas are compared by the walk the context carries (`ctx.compare`).
 */

const arr = (n: number) => Array.from({ length: n }, () => null);

export const objectRule: Rule = (before, after, pointer, ctx) => {
  const ap = before.properties ?? {};
  const bp = after.properties ?? {};
  const ar = new Set(before.required ?? []);
  const br = new Set(after.required ?? []);
  const aClosed = before.additionalProperties === false;
  const bClosed = after.additionalProperties === false;
  for (const key of Object.keys(bp)) {
    if (!Object.hasOwn(ap, key)) {
      if (br.has(key)) continue; // reported below
      if (aClosed) {
        found(ctx, `${pointer}/properties/${escapePointerSegment(key)}`, 'widened', `property ${key} added`);
      } else if (before.additionalProperties === undefined || before.additionalProperties === true) {
        found(
          ctx,
          `${pointer}/properties/${escapePointerSegment(key)}`,
          ctx.options.strictOpenObjects ? 'narrowed' : 'note',
          `optional property ${key} added to an object that accepts extra properties: a ${key} of another shape ` +
            'is now refused (callers do not send undeclared properties)',
        );
      }
    }
  }
  for (const key of Object.keys(ap)) {
    const at = `${pointer}/properties/${escapePointerSegment(key)}`;
    if (!Object.hasOwn(bp, key)) {
      if (bClosed) {
        found(
          ctx,
          at,
          'narrowed',
          `property ${key} removed and extra properties are refused: arguments with ${key} are now refused`,
          { [key]: sampleFor(ap[key]!, ctx.beforeRoot) },
        );
      } else if (ar.has(key)) {
        found(ctx, at, 'widened', `required property ${key} removed: objects without it are now accepted`, {});
      } else {
        found(ctx, at, 'widened', `property ${key} removed: any ${key} is now accepted`);
      }
      continue;
    }
    ctx.compare(ap[key], bp[key], at, ctx);
  }
  requiredRule(before, after, pointer, ctx);
};

const requiredRule: Rule = (before, after, pointer, ctx) => {
  const ar = new Set(before.required ?? []);
  const br = new Set(after.required ?? []);
  const bp = after.properties ?? {};
  for (const key of br) {
    if (ar.has(key)) continue;
    const prop = deref(bp[key], ctx.afterRoot);
    const hasDefault = typeof prop === 'object' && prop.default !== undefined;
    found(
      ctx,
      `${pointer}/required`,
      hasDefault ? 'note' : 'narrowed',
      hasDefault
        ? `${key} is now required, but has a default the runtime fills in`
        : `${key} is now required: arguments without it are now refused`,
      hasDefault ? undefined : {},
    );
  }
  for (const key of ar) {
    if (br.has(key) || !Object.hasOwn(bp, key)) continue;
    found(ctx, `${pointer}/required`, 'widened', `${key} is no longer required`, {});
  }
  // additionalProperties (a schema of it is compared by the walk, through its `$ref`s)
  const aa = before.additionalProperties;
  const ba = after.additionalProperties;
  if (aa !== ba) {
    const at = `${pointer}/additionalProperties`;
    if (ba === false && aa !== false) {
      found(ctx, at, 'narrowed', 'additionalProperties: false added: undeclared properties are now refused', {
        __extra: 1,
      });
    } else if (aa === false && ba !== false) {
      found(ctx, at, 'widened', 'undeclared properties are now accepted', { __extra: 1 });
    } else if (typeof aa === 'object' || typeof ba === 'object') {
      ctx.compare(aa ?? true, ba ?? true, at, ctx);
    }
  }
  for (const key of ['minProperties', 'maxProperties'] as const)
    bound(key, key === 'minProperties', (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 1])))(
      before,
      after,
      pointer,
      ctx,
    );
};

export const arrayRule: Rule = (before, after, pointer, ctx) => {
  bound('minItems', true, arr)(before, after, pointer, ctx);
  bound('maxItems', false, arr)(before, after, pointer, ctx);
  if (!before.uniqueItems && after.uniqueItems) {
    found(ctx, `${pointer}/uniqueItems`, 'narrowed', 'items must now be unique', [1, 1]);
  } else if (before.uniqueItems && !after.uniqueItems) {
    found(ctx, `${pointer}/uniqueItems`, 'widened', 'items need no longer be unique', [1, 1]);
  }
  const ai = before.items;
  const bi = after.items;
  if (Array.isArray(ai) && Array.isArray(bi) && ai.length === bi.length) {
    ai.forEach((item, i) => ctx.compare(item, bi[i], `${pointer}/items/${i}`, ctx));
    return;
  }
  if (Array.isArray(ai) || Array.isArray(bi)) {
    found(ctx, `${pointer}/items`, 'undecidable', 'tuple items changed: cannot compare (treated as breaking)');
    return;
  }
  if (ai !== undefined || bi !== undefined) ctx.compare(ai ?? true, bi ?? true, `${pointer}/items`, ctx);
};
