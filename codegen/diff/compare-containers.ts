import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import { bound, deref, found, sampleFor, type Rule } from './compare-kit.js';

/*
 * The container keyword families of the schema comparison (./compare.ts): objects (properties,
 * `required`, `additionalProperties`, the property counts) and arrays (item counts, `uniqueItems`,
 * `items`). Nested schemas are compared by the walk the context carries (`ctx.compare`).
 */

/** Objects: properties added, removed or changed, `required`, `additionalProperties` and the property counts. */
export const objectRule: Rule = (before, after, pointer, ctx) => {
  const ap = before.properties ?? {};
  const bp = after.properties ?? {};
  const ar = new Set(before.required ?? []);
  const br = new Set(after.required ?? []);
  const at = (key: string) => `${pointer}/properties/${escapePointerSegment(key)}`;
  for (const key of Object.keys(bp)) {
    // A new required property is reported with `required` below.
    if (Object.hasOwn(ap, key) || br.has(key)) continue;
    if (before.additionalProperties === false) found(ctx, at(key), 'widened', `property ${key} added`);
    else if (before.additionalProperties === undefined || before.additionalProperties === true) {
      const message = `optional property ${key} added to an object that accepts extra properties: a ${key} of another shape is now refused (callers do not send undeclared properties)`;
      found(ctx, at(key), ctx.options.strictOpenObjects ? 'narrowed' : 'note', message);
    }
  }
  for (const key of Object.keys(ap)) {
    if (Object.hasOwn(bp, key)) ctx.compare(ap[key], bp[key], at(key), ctx);
    else if (after.additionalProperties === false) {
      const message = `property ${key} removed and extra properties are refused: arguments with ${key} are now refused`;
      found(ctx, at(key), 'narrowed', message, { [key]: sampleFor(ap[key]!, ctx.beforeRoot) });
    } else if (ar.has(key))
      found(ctx, at(key), 'widened', `required property ${key} removed: objects without it are now accepted`, {});
    else found(ctx, at(key), 'widened', `property ${key} removed: any ${key} is now accepted`);
  }
  for (const key of br) {
    if (ar.has(key)) continue;
    const property = deref(bp[key], ctx.afterRoot);
    if (typeof property === 'object' && property.default !== undefined)
      found(ctx, `${pointer}/required`, 'note', `${key} is now required, but has a default the runtime fills in`);
    else
      found(ctx, `${pointer}/required`, 'narrowed', `${key} is now required: arguments without it are now refused`, {});
  }
  for (const key of ar)
    if (!br.has(key) && Object.hasOwn(bp, key))
      found(ctx, `${pointer}/required`, 'widened', `${key} is no longer required`, {});
  additionalPropertiesRule(before, after, pointer, ctx);
  bound('minProperties')(before, after, pointer, ctx);
  bound('maxProperties')(before, after, pointer, ctx);
};

/** `additionalProperties`: `false` added or removed; a schema of it is compared by the walk, through its `$ref`s. */
const additionalPropertiesRule: Rule = (before, after, pointer, ctx) => {
  const a = before.additionalProperties;
  const b = after.additionalProperties;
  if (a === b) return;
  const at = `${pointer}/additionalProperties`;
  if (b === false)
    found(ctx, at, 'narrowed', 'additionalProperties: false added: undeclared properties are now refused', {
      __extra: 1,
    });
  else if (a === false) found(ctx, at, 'widened', 'undeclared properties are now accepted', { __extra: 1 });
  else if (typeof a === 'object' || typeof b === 'object') ctx.compare(a ?? true, b ?? true, at, ctx);
};

/** Arrays: the item counts, `uniqueItems`, and `items` (a tuple's compared in place when as long). */
export const arrayRule: Rule = (before, after, pointer, ctx) => {
  bound('minItems')(before, after, pointer, ctx);
  bound('maxItems')(before, after, pointer, ctx);
  if (!before.uniqueItems !== !after.uniqueItems) {
    const narrowed = !before.uniqueItems;
    const message = narrowed ? 'items must now be unique' : 'items need no longer be unique';
    found(ctx, `${pointer}/uniqueItems`, narrowed ? 'narrowed' : 'widened', message, [1, 1]);
  }
  const ai = before.items;
  const bi = after.items;
  if (Array.isArray(ai) && Array.isArray(bi) && ai.length === bi.length)
    ai.forEach((item, i) => ctx.compare(item, bi[i], `${pointer}/items/${i}`, ctx));
  else if (Array.isArray(ai) || Array.isArray(bi))
    found(ctx, `${pointer}/items`, 'undecidable', 'tuple items changed: cannot compare (treated as breaking)');
  else if (ai !== undefined || bi !== undefined) ctx.compare(ai ?? true, bi ?? true, `${pointer}/items`, ctx);
};
