/**
 * fast-check values shaped by a bundled schema (refs are `#/definitions/...` of its root): mostly
 * near what the schema accepts, for tests that let a validator sort them (types-accept-valid,
 * shared-validators).
 */
import fc from 'fast-check';
import type { JSONSchema7 } from 'json-schema';
import { copyJsonValue } from '../../src/schema/walk.js';

const FORMAT_SAMPLES: Record<string, string[]> = {
  'date-time': ['2026-01-01T00:00:00.000Z', '2024-02-29T23:59:59+01:00'],
  date: ['2026-01-01'],
  time: ['10:00:00Z'],
  email: ['a@example.com'],
  uri: ['https://example.com/a?b=c'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000'],
  hostname: ['example.com'],
};

export type Schema = JSONSchema7 | boolean;

/** Values shaped by a bundled schema (refs are `#/definitions/...` of `root`); the validator filters them after. */
export function arbitraryFor(schema: Schema, root: JSONSchema7, depth = 0): fc.Arbitrary<unknown> {
  if (schema === true) return fc.jsonValue({ maxDepth: 1 });
  if (schema === false) return fc.constant(Symbol('never'));
  if (typeof schema.$ref === 'string') {
    const key = decodeURIComponent(schema.$ref.replace(/^#\/definitions\//, ''))
      .replace(/~1/g, '/')
      .replace(/~0/g, '~');
    const target = schema.$ref === '#' ? root : (root.definitions?.[key] as Schema);
    return arbitraryFor(target, root, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => arbitraryFor(branch, root, depth + 1)));
  if (schema.allOf)
    return arbitraryFor(
      Object.assign({}, ...schema.allOf.filter((branch) => typeof branch === 'object'), {
        ...schema,
        allOf: undefined,
      }),
      root,
      depth + 1,
    );
  const types = Array.isArray(schema.type)
    ? schema.type
    : schema.type
      ? [schema.type]
      : ['string', 'number', 'boolean', 'null'];
  return fc.constantFrom(...types).chain((type) => arbitraryOfType(type, schema, root, depth));
}

/** Values of one JSON type under `schema`'s constraints for that type. */
function arbitraryOfType(type: string, schema: JSONSchema7, root: JSONSchema7, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'object':
      return objectArbitrary(schema, root, depth);
    case 'array': {
      const items = Array.isArray(schema.items) ? true : (schema.items ?? true);
      const min = schema.minItems ?? 0;
      return fc.array(arbitraryFor(items, root, depth + 1), {
        minLength: min,
        maxLength: depth >= 4 ? min : Math.min(schema.maxItems ?? 3, min + 3),
      });
    }
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
    case 'number':
      return numberArbitrary(type, schema);
    case 'boolean':
      return fc.boolean();
    default:
      return fc.constant(null);
  }
}

function objectArbitrary(schema: JSONSchema7, root: JSONSchema7, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(schema.required ?? []);
  // Deep in a recursive schema, only required properties: the sample must end.
  const keys = Object.keys(properties).filter((key) => depth < 4 || required.has(key));
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keys)
    Object.defineProperty(shape, key, {
      value: arbitraryFor(properties[key]!, root, depth + 1),
      enumerable: true,
    });
  const known = fc.record(shape, { requiredKeys: keys.filter((key) => required.has(key)) });
  const extra = schema.additionalProperties;
  if (extra === false || depth >= 4) return known;
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }).filter((key) => !Object.hasOwn(properties, key)),
    arbitraryFor(extra ?? true, root, depth + 1),
    { maxKeys: 2 },
  );
  return fc.tuple(known, extras).map(([a, b]) => Object.assign(copyJsonValue(b), a));
}

function stringArbitrary(schema: JSONSchema7): fc.Arbitrary<unknown> {
  if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format])
    return fc.constantFrom(...FORMAT_SAMPLES[schema.format]!);
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern, 'u'));
  const min = schema.minLength ?? 0;
  return fc.string({ minLength: min, maxLength: Math.min(schema.maxLength ?? min + 8, min + 8) });
}

function numberArbitrary(type: 'integer' | 'number', schema: JSONSchema7): fc.Arbitrary<unknown> {
  const min = schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : -1000);
  const max = schema.maximum ?? (typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : 1000);
  const step = schema.multipleOf ?? (type === 'integer' ? 1 : undefined);
  if (step === undefined) return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((n) => n * step);
}
