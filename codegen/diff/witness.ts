import type { JSONSchema7, JSONSchema7Definition } from 'json-schema';
import { coerceWhereNeeded } from '../../src/schema/validator-runtime.js';
import type { Ajv } from 'ajv';
import { allowExtensionKeywords, allowUnknownFormats, createGeneratorAjv } from '../ajv.js';
import { walkSchema } from '../schema-walk.js';
import { deref, sampleFor, type SchemaChange } from './compare-kit.js';

type Schema = JSONSchema7;
type Check = (value: unknown) => boolean;

/** Values tried at a change's position when its rule gave none (a pattern or an enum added, a branch removed). */
const CANDIDATES: readonly unknown[] = [
  '',
  'a',
  'A',
  '0',
  ' ',
  '-',
  'not a match',
  'a'.repeat(300),
  0,
  -1,
  1,
  0.5,
  1e9,
  true,
  false,
  null,
  [],
  {},
];

let sharedAjv: Ajv | undefined;

/**
 * A validator as the runtime runs one: the generator's Ajv settings, coercion only where a value does
 * not validate as sent. One Ajv for the process, its code not optimized: a witness check runs each
 * validator a few times, and a fresh Ajv per schema cost ~5× the compile (1,000-tool bench, P9).
 */
function validatorOf(schema: Schema): Check | undefined {
  sharedAjv ??= createGeneratorAjv({ overrides: { code: { optimize: false } } });
  const ajv = sharedAjv;
  const { $id: _, ...anonymous } = schema;
  try {
    const keywords = new Set<string>();
    walkSchema(anonymous as never, '', (node) => Object.keys(node).forEach((key) => keywords.add(key)));
    allowExtensionKeywords(ajv, keywords);
    allowUnknownFormats(ajv, anonymous);
    const strict = ajv.compile(anonymous);
    ajv.removeSchema(anonymous);
    const validate = coerceWhereNeeded(strict as never) as unknown as (data: unknown) => boolean;
    return (value) => validate(structuredClone(value));
  } catch {
    return undefined;
  }
}

/** The pointer of the schema a change's value is a value of: the keyword dropped (and `properties/<name>`). */
export function valuePointerOf(pointer: string): string {
  const segments = pointer.split('/');
  // A branch (`/anyOf/1`): the value is one of the branch.
  if (/^\d+$/.test(segments.at(-1) ?? '') && ['anyOf', 'oneOf', 'allOf'].includes(segments.at(-2) ?? ''))
    return pointer;
  segments.pop();
  if (segments.at(-1) === 'properties') segments.pop();
  return segments.join('/');
}

function decode(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The required properties of an object schema, each given a sample value. */
function filled(schema: Schema, root: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of schema.required ?? []) {
    const property = schema.properties?.[key];
    Object.defineProperty(out, key, {
      value: property === undefined ? 1 : sampleFor(property, root),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * A whole value of `root` whose part at `pointer` (a logical pointer: `$ref`s followed) is `value`,
 * its other required properties sampled; undefined where the path is not one a value can take.
 */
export function embed(root: Schema, pointer: string, value: unknown): unknown {
  const tokens = pointer === '' ? [] : pointer.split('/').slice(1).map(decode);
  const build = (node: JSONSchema7Definition | undefined, i: number): unknown => {
    const schema = deref(node, root);
    if (schema === undefined) return undefined;
    if (i === tokens.length) {
      if (typeof schema === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value))
        return { ...filled(schema, root), ...(value as object) };
      return value;
    }
    if (typeof schema !== 'object') return undefined;
    const token = tokens[i]!;
    if (token === 'properties' || token === 'additionalProperties') {
      const name = token === 'properties' ? tokens[i + 1]! : '__extra';
      const inner =
        token === 'properties'
          ? build(schema.properties?.[name], i + 2)
          : build(schema.additionalProperties as JSONSchema7Definition, i + 1);
      if (inner === undefined) return undefined;
      const out = filled(schema, root);
      Object.defineProperty(out, name, { value: inner, enumerable: true, writable: true, configurable: true });
      return out;
    }
    if (token === 'items' && !Array.isArray(schema.items)) {
      const inner = build(schema.items as JSONSchema7Definition, i + 1);
      return inner === undefined ? undefined : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => inner);
    }
    // A single schema the other side made a union of reads as its one branch.
    if ((token === 'anyOf' || token === 'oneOf') && schema[token] === undefined) return build(schema, i + 2);
    if (token === 'anyOf' || token === 'oneOf' || token === 'allOf')
      return build(schema[token]?.[Number(tokens[i + 1])], i + 2);
    return undefined;
  };
  return build(root, 0);
}

/**
 * Finds whole witnesses for one side's changes: arguments valid before and invalid after (input),
 * or an output valid after and invalid before — each checked with validators compiled as the
 * generated ones are. Validators are compiled on the first change that asks.
 */
export function findWitness(
  before: Schema,
  after: Schema,
  side: 'input' | 'output',
): { find(change: SchemaChange): unknown } {
  let checks: { holds: Check; fails: Check } | null | undefined;
  const ready = () => {
    if (checks === undefined) {
      const a = validatorOf(before);
      const b = validatorOf(after);
      checks =
        a === undefined || b === undefined ? null : side === 'input' ? { holds: a, fails: b } : { holds: b, fails: a };
    }
    return checks;
  };
  // Input witnesses are arguments the before schema took; output witnesses outputs the after schema allows.
  const frame = side === 'input' ? before : after;
  return {
    find(change) {
      const c = ready();
      if (c === null) return undefined;
      const at = valuePointerOf(change.pointer);
      const tries = change.witness === undefined ? CANDIDATES : [change.witness, ...CANDIDATES];
      for (const candidate of tries) {
        const whole = embed(frame, at, candidate);
        if (whole !== undefined && c.holds(whole) && !c.fails(whole)) return whole;
      }
      return undefined;
    },
  };
}
