import { coerceWhereNeeded } from '../../src/schema/validator-runtime.js';
import type { Ajv } from 'ajv';
import { addValidatorSchema, createGeneratorAjv } from '../ajv.js';
import { isObject, setOwn } from '../../src/schema/walk.js';
import { parsePointer } from '../../src/schema/json-pointer.js';
import { deref, filled, sampleFor } from './compare-kit.js';
import type { Schema, SchemaChange, SchemaSide, Subschema } from './compare-kit.js';

type Check = (value: unknown) => boolean;

/** Values tried at a change's position when its rule gave none (a pattern or an enum added, a branch removed). */
const CANDIDATES: readonly unknown[] = [
  ...['', 'a', 'A', '0', ' ', '-', 'not a match', 'a'.repeat(300)],
  ...[0, -1, 1, 0.5, 1e9, true, false, null, [], {}],
];

let sharedAjv: Ajv | undefined;

/**
 * A validator as the runtime runs one: the generator's Ajv settings, coercion only where a value does
 * not validate as sent. One Ajv for the process, its code not optimized: a witness check runs each
 * validator a few times, and a fresh Ajv per schema cost ~5× the compile (1,000-tool bench, P9).
 */
function validatorOf(schema: Schema): Check | undefined {
  const ajv = (sharedAjv ??= createGeneratorAjv({ overrides: { code: { optimize: false } } }));
  const { $id: _, ...anonymous } = schema;
  try {
    addValidatorSchema(ajv, anonymous, 'witness', { unknownFormats: true });
    const validate = coerceWhereNeeded(ajv.getSchema('witness') as never) as unknown as (data: unknown) => boolean;
    return (value) => validate(structuredClone(value));
  } catch {
    return undefined;
  } finally {
    ajv.removeSchema('witness');
  }
}

/** The pointer of the schema a change's value is a value of: the keyword dropped (and `properties/<name>`). */
function valuePointerOf(pointer: string): string {
  // A branch (`/anyOf/1`): the value is one of the branch.
  if (/\/(anyOf|oneOf|allOf)\/\d+$/.test(pointer)) return pointer;
  return pointer.replace(/(\/properties)?\/[^/]*$/, '');
}

/**
 * A whole value of `root` whose part at `pointer` (a logical pointer: `$ref`s followed) is `value`,
 * its other required properties sampled; undefined where the path is not one a value can take.
 */
function embed(root: Schema, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  const build = (node: Subschema, i: number): unknown => {
    const schema = deref(node, root);
    if (i < tokens.length)
      return typeof schema === 'object'
        ? around(schema, tokens[i]!, tokens[i + 1], root, (child, skip) => build(child, i + skip))
        : undefined;
    if (schema === undefined) return undefined;
    return typeof schema === 'object' && isObject(value) ? { ...filled(schema, root), ...value } : value;
  };
  return build(root, 0);
}

/**
 * One step of `embed`: the value of `schema` around what `below` builds of its subschema at `token`
 * (and `next`, the name or index after it, which `skip` counts in).
 */
function around(
  schema: Schema,
  token: string,
  next: string | undefined,
  root: Schema,
  below: (child: Subschema, skip: 1 | 2) => unknown,
): unknown {
  if (token === 'properties' || token === 'additionalProperties') {
    const named = token === 'properties' && next !== undefined;
    const inner = named ? below(schema.properties?.[next], 2) : below(schema.additionalProperties, 1);
    if (inner === undefined) return undefined;
    const out = filled(schema, root);
    setOwn(out, named ? next : '__extra', inner);
    return out;
  }
  if (token === 'items' && Array.isArray(schema.items)) {
    // A tuple: the value at its index, the positions before it sampled.
    const index = Number(next);
    const inner = below(schema.items[index], 2);
    return inner === undefined ? undefined : [...schema.items.slice(0, index).map((s) => sampleFor(s, root)), inner];
  }
  if (token === 'items') {
    const inner = below(schema.items as Subschema, 1);
    return inner === undefined ? undefined : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => inner);
  }
  if (token !== 'anyOf' && token !== 'oneOf' && token !== 'allOf') return undefined;
  // A single schema the other side made a union of reads as its one branch.
  return below(schema[token] === undefined && token !== 'allOf' ? schema : schema[token]?.[Number(next)], 2);
}

/**
 * The most changes of one side of a tool a witness is searched for: each search validates up to
 * `CANDIDATES.length + 1` whole values, each as costly as the schema is large, so a machine-made
 * schema with thousands of breaking changes stays bounded (the later changes are listed without one).
 */
export const MAX_WITNESS_SEARCHES = 64;

/**
 * Finds whole witnesses for one side's changes: arguments valid before and invalid after (input),
 * or an output valid after and invalid before — each checked with validators compiled as the
 * generated ones are. Validators are compiled on the first change that asks; the first
 * `MAX_WITNESS_SEARCHES` changes that ask are searched.
 */
export function findWitness(before: Schema, after: Schema, side: SchemaSide): (change: SchemaChange) => unknown {
  // Input witnesses are arguments the before schema took; output witnesses outputs the after schema allows.
  const [frame, other] = side === 'input' ? [before, after] : [after, before];
  let checks: [holds: Check | undefined, fails: Check | undefined] | undefined;
  let searches = 0;
  return (change) => {
    if (++searches > MAX_WITNESS_SEARCHES) return undefined;
    checks ??= [validatorOf(frame), validatorOf(other)];
    const [holds, fails] = checks;
    if (holds === undefined || fails === undefined) return undefined;
    const at = valuePointerOf(change.pointer);
    for (const candidate of change.witness === undefined ? CANDIDATES : [change.witness, ...CANDIDATES]) {
      const whole = embed(frame, at, candidate);
      if (whole !== undefined && holds(whole) && !fails(whole)) return whole;
    }
    return undefined;
  };
}
