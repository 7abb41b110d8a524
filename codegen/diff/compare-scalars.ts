import { bound, found, sampleOfType, stable, typesOf, type Rule, type Schema } from './compare-kit.js';

/*
 * The scalar keyword families of the schema comparison (./compare.ts): `type` (with the runtime's
 * coercion), `enum`/`const`, the number keywords and the string keywords.
 */

/**
 * True when the runtime's coercion (Ajv's scalar rules, applied only where a value does not validate as
 * sent) turns every value of type `from` into one of the types `to`: `null` → `""`/`0`/`false`,
 * a boolean → `"true"`/`1`, a number → its string. A string is not (only numeric or `"true"`-like ones
 * convert), nor an object or an array.
 */
function coercible(from: string, to: Set<string>): boolean {
  if (from === 'null') return ['string', 'number', 'integer', 'boolean'].some((t) => to.has(t));
  if (from === 'boolean') return to.has('string') || to.has('number') || to.has('integer');
  if (from === 'integer' || from === 'number') return to.has('string');
  return false;
}

/** A value of `type` that coercion does not turn into any of `to` (a witness of a lost type). */
function refusedSample(type: string, to: Set<string>): unknown {
  if (type === 'string') return 'x';
  if (type === 'integer') return to.has('boolean') ? 2 : 1;
  return sampleOfType(type);
}

/** `type`: types lost narrow (unless the runtime coerces them, on the input side), types gained widen. */
export const typeRule: Rule = (before, after, pointer, ctx) => {
  // Tool arguments are always an object (MCP's `arguments`, every adapter's): at the input root only objects count.
  const input = ctx.options.side === 'input';
  const only = (types: Set<string>) =>
    pointer === '' && input ? new Set([...types].filter((t) => t === 'object')) : types;
  const a = only(typesOf(before));
  const b = only(typesOf(after));
  // `typesOf` counts `integer` in `number`: an integer type that became number is neither lost nor gained.
  const lost = [...a].filter((t) => !b.has(t));
  const gained = [...b].filter((t) => !a.has(t));
  // The runtime coerces arguments, never an output: a type an output loses is a narrowing to list.
  const refused = ctx.options.side === 'output' ? lost : lost.filter((t) => !coercible(t, b));
  const at = `${pointer}/type`;
  const change = `type ${typeList(before)} → ${typeList(after)}`;
  if (refused.length > 0) {
    const message = `${change}: ${refused.join(', ')} values are now refused`;
    found(ctx, at, 'narrowed', message, refusedSample(refused[0]!, b));
  } else if (lost.length > 0) {
    found(ctx, at, 'note', `${change}: ${lost.join(', ')} values are now coerced by the runtime`);
  }
  if (gained.length > 0) {
    const message = `${change}: ${gained.join(', ')} values are now accepted`;
    found(ctx, at, 'widened', message, sampleOfType(gained[0]!));
  }
};

function typeList(schema: Schema): string {
  if (schema.type === undefined) return 'any';
  return Array.isArray(schema.type) ? schema.type.join('|') : schema.type;
}

/** `multipleOf`: narrowed when a multiple of the old step may not be one of the new step. */
const multipleOfRule: Rule = (before, after, pointer, ctx) => {
  const a = before.multipleOf;
  const b = after.multipleOf;
  if (a === b) return;
  if (b !== undefined && (a === undefined || !Number.isInteger(a / b)))
    found(ctx, `${pointer}/multipleOf`, 'narrowed', `multipleOf ${a ?? 'none'} → ${b}`, a ?? 1e-7);
  else found(ctx, `${pointer}/multipleOf`, 'widened', `multipleOf ${a ?? 'none'} → ${b ?? 'none'}`);
};

/** The number keywords: the bounds and `multipleOf`. */
export const numberRule = inOrder([
  bound('minimum'),
  bound('maximum'),
  bound('exclusiveMinimum'),
  bound('exclusiveMaximum'),
  multipleOfRule,
]);

/**
 * A string keyword that constrains where it is (`pattern`, `format`): removed widens; added narrows
 * (`added` says what is refused, `witness` a string it refuses when one is known); changed is
 * undecidable (`changed` says why).
 */
function constraint(
  keyword: 'pattern' | 'format',
  added: (value: string) => string,
  changed: string,
  witness?: (value: string) => string,
): Rule {
  return (before, after, pointer, ctx) => {
    const a = before[keyword];
    const b = after[keyword];
    if (a === b) return;
    const at = `${pointer}/${keyword}`;
    if (b === undefined) found(ctx, at, 'widened', `${keyword} ${a} removed`);
    else if (a === undefined) found(ctx, at, 'narrowed', `${keyword} ${b} added: ${added(b)}`, witness?.(b));
    else found(ctx, at, 'undecidable', `${keyword} ${a} → ${b}: ${changed} (treated as breaking)`);
  };
}

/** The string keywords: the lengths, `pattern` and `format`. */
export const stringRule = inOrder([
  bound('minLength'),
  bound('maxLength'),
  constraint(
    'pattern',
    () => 'strings not matching it are now refused',
    'cannot decide whether every string it matched still matches',
  ),
  constraint(
    'format',
    (format) => `strings that are not a valid ${format} are now refused`,
    'strings valid as one may not be the other',
    (format) => `%not a ${format}`,
  ),
]);

/** One rule that runs `rules` in order. */
function inOrder(rules: readonly Rule[]): Rule {
  return (before, after, pointer, ctx) => {
    for (const rule of rules) rule(before, after, pointer, ctx);
  };
}

/** `enum`/`const`: values removed narrow, values added widen (a list added or removed: all the type's values). */
export const enumRule: Rule = (before, after, pointer, ctx) => {
  const a = valuesOf(before);
  const b = valuesOf(after);
  if (a === undefined && b === undefined) return;
  const at = `${pointer}/${after.const !== undefined || (b === undefined && before.const !== undefined) ? 'const' : 'enum'}`;
  const show = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');
  if (a === undefined) return found(ctx, at, 'narrowed', `values limited to ${show(b!)}`);
  if (b === undefined)
    return found(ctx, at, 'widened', 'the value list was removed: any value of the type is accepted');
  const lost = missingFrom(b, a);
  const gained = missingFrom(a, b);
  if (lost.length > 0) found(ctx, at, 'narrowed', `value ${show(lost)} removed: it is now refused`, lost[0]);
  if (gained.length > 0) found(ctx, at, 'widened', `value ${show(gained)} added`, gained[0]);
};

/** The values of `values` that `list` does not have (compared as canonical JSON). */
function missingFrom(list: readonly unknown[], values: readonly unknown[]): unknown[] {
  const has = new Set(list.map(stable));
  return values.filter((value) => !has.has(stable(value)));
}

/** The values a schema allows when it lists them (`const`, `enum`). */
export function valuesOf(schema: Schema | boolean | undefined): unknown[] | undefined {
  if (typeof schema !== 'object') return undefined;
  if (schema.const !== undefined) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}
