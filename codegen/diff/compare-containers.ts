import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import { bound, deref, sampleFor, stable, type Rule } from './compare-kit.js';

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
        ctx.out.push({
          pointer: `${pointer}/properties/${escapePointerSegment(key)}`,
          direction: 'widened',
          message: `property ${key} added`,
        });
      } else if (before.additionalProperties === undefined || before.additionalProperties === true) {
        ctx.out.push({
          pointer: `${pointer}/properties/${escapePointerSegment(key)}`,
          direction: ctx.options.strictOpenObjects ? 'narrowed' : 'note',
          message:
            `optional property ${key} added to an object that accepts extra properties: a ${key} of another shape ` +
            'is now refused (callers do not send undeclared properties)',
        });
      }
    }
  }
  for (const key of Object.keys(ap)) {
    const at = `${pointer}/properties/${escapePointerSegment(key)}`;
    if (!Object.hasOwn(bp, key)) {
      if (bClosed) {
        ctx.out.push({
          pointer: at,
          direction: 'narrowed',
          message: `property ${key} removed and extra properties are refused: arguments with ${key} are now refused`,
          witness: { [key]: sampleFor(ap[key]!, ctx.beforeRoot) },
        });
      } else if (ar.has(key)) {
        ctx.out.push({
          pointer: at,
          direction: 'widened',
          message: `required property ${key} removed: objects without it are now accepted`,
          witness: {},
        });
      } else {
        ctx.out.push({
          pointer: at,
          direction: 'widened',
          message: `property ${key} removed: any ${key} is now accepted`,
        });
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
    ctx.out.push({
      pointer: `${pointer}/required`,
      direction: hasDefault ? 'note' : 'narrowed',
      message: hasDefault
        ? `${key} is now required, but has a default the runtime fills in`
        : `${key} is now required: arguments without it are now refused`,
      witness: hasDefault ? undefined : {},
    });
  }
  for (const key of ar) {
    if (br.has(key) || !Object.hasOwn(bp, key)) continue;
    ctx.out.push({
      pointer: `${pointer}/required`,
      direction: 'widened',
      message: `${key} is no longer required`,
      witness: {},
    });
  }
  // additionalProperties
  const aa = before.additionalProperties;
  const ba = after.additionalProperties;
  if (stable(aa) !== stable(ba)) {
    const at = `${pointer}/additionalProperties`;
    if (ba === false && aa !== false) {
      ctx.out.push({
        pointer: at,
        direction: 'narrowed',
        message: 'additionalProperties: false added: undeclared properties are now refused',
        witness: { __extra: 1 },
      });
    } else if (aa === false && ba !== false) {
      ctx.out.push({
        pointer: at,
        direction: 'widened',
        message: 'undeclared properties are now accepted',
        witness: { __extra: 1 },
      });
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
    ctx.out.push({
      pointer: `${pointer}/uniqueItems`,
      direction: 'narrowed',
      message: 'items must now be unique',
      witness: [1, 1],
    });
  } else if (before.uniqueItems && !after.uniqueItems) {
    ctx.out.push({
      pointer: `${pointer}/uniqueItems`,
      direction: 'widened',
      message: 'items need no longer be unique',
      witness: [1, 1],
    });
  }
  const ai = before.items;
  const bi = after.items;
  if (Array.isArray(ai) || Array.isArray(bi)) {
    if (stable(ai) !== stable(bi)) {
      ctx.out.push({
        pointer: `${pointer}/items`,
        direction: 'undecidable',
        message: 'tuple items changed: cannot compare (treated as breaking)',
      });
    }
    return;
  }
  if (ai !== undefined || bi !== undefined) ctx.compare(ai ?? true, bi ?? true, `${pointer}/items`, ctx);
};
