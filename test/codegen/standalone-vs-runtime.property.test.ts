/**
 * Property: for random draft-07 schemas and random values, the generated standalone validator (built
 * the way the generator builds it: defaults checked, Ajv standalone without coercion, wrapped in the
 * runtime's `coerceWhereNeeded`) and the runtime-compiled validator of the same schema
 * (`compileSchema`) give the same verdict, the same errors and the same value afterwards (coerced
 * where needed, defaults filled). A schema strict mode or the defaults check rejects must be rejected
 * by both. And a value that validates without coercion is never changed: afterwards it equals what
 * a non-coercing Ajv (defaults on) leaves, and every part of it that was sent is still there as sent.
 *
 * 200 schemas in all: 10 runs of 20 schemas, each run compiled into one standalone module; the same
 * samples every run (test/setup/fast-check.ts fixes the seed), new ones with `npm run fuzz`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ErrorObject, ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeneratorAjv, standaloneCode } from '../../codegen/ajv.js';
import { addValidatorSchema } from '../../codegen/ajv.js';
import { toEsm } from '../../codegen/emit/validators.js';
import { copyJsonValue } from '../../src/schema/walk.js';
import { compileSchema } from '../../src/index.js';
import { prepareValidatorSchema } from '../../src/schema/defaults.js';
import { createAjvLikeGenerator } from '../helpers/standalone.js';
import { REPO } from '../helpers/temp-project.js';

/** `FC_RUNS` raises it for fuzzing (`npm run fuzz`). */
const RUNS = Number(process.env.FC_RUNS ?? 10);
const SCHEMAS_PER_RUN = 20;

/** Property names, including ones an object inherits (`constructor`, `toString`) and a non-identifier. */
const NAMES = ['a', 'b', 'c', 'constructor', 'toString', 'my-prop'] as const;
const PATTERNS = ['^[a-z]+$', '^\\d{1,3}$', 'a', '^$', '^\\S*$', '^\\p{Lu}'] as const;
const FORMATS = ['date', 'email', 'uuid', 'date-time'] as const;

type Schema = Record<string, unknown>;

const primitive = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 4 }),
);
/** Strings that coercion turns into numbers, booleans or null, and some that it cannot. */
const coercible = fc.constantFrom('1', '0', '-2.5', '1e3', 'true', 'false', '', 'null', 'abc', ' 7', '2024-01-31');

/** A random JSON value, biased towards the shapes and names the random schemas use. */
const valueArb: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    primitive,
    coercible,
    fc.dictionary(fc.constantFrom(...NAMES), tie('value'), { maxKeys: 4 }),
    fc.array(tie('value'), { maxLength: 3 }),
  ),
})).value;

const defaultValue = fc.oneof(primitive, coercible, fc.constant([]), fc.constant({}));

function withOptional<T extends Schema>(
  base: fc.Arbitrary<T>,
  optional: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Schema> {
  return fc.tuple(base, fc.record(optional, { requiredKeys: [] })).map(([schema, extra]) => ({ ...schema, ...extra }));
}

const memo = new Map<string, fc.Arbitrary<Schema>>();

/**
 * A random schema of at most `depth` levels. `withDefault`: it may carry a `default` (only where Ajv
 * applies defaults — a property — since strict mode rejects a `default` it would ignore).
 */
function schemaArb(depth: number, withDefault: boolean): fc.Arbitrary<Schema> {
  const key = `${depth}:${withDefault}`;
  const cached = memo.get(key);
  if (cached) return cached;
  const dflt: Record<string, fc.Arbitrary<unknown>> = withDefault ? { default: defaultValue } : {};
  const leaves: fc.Arbitrary<Schema>[] = [
    withOptional(fc.constant({ type: 'string' }), {
      minLength: fc.integer({ min: 0, max: 3 }),
      maxLength: fc.integer({ min: 0, max: 6 }),
      pattern: fc.constantFrom(...PATTERNS),
      format: fc.constantFrom(...FORMATS),
      ...dflt,
    }),
    withOptional(fc.record({ type: fc.constantFrom('number', 'integer') }), {
      minimum: fc.integer({ min: -5, max: 5 }),
      maximum: fc.integer({ min: -5, max: 10 }),
      exclusiveMinimum: fc.integer({ min: -5, max: 5 }),
      multipleOf: fc.constantFrom(1, 2, 0.5),
      ...dflt,
    }),
    withOptional(fc.record({ type: fc.constantFrom('boolean', 'null') }), dflt),
    withOptional(
      fc.record({
        type: fc.uniqueArray(fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'array', 'object'), {
          minLength: 2,
          maxLength: 3,
        }),
      }),
      dflt,
    ),
    withOptional(
      fc.record({ enum: fc.uniqueArray(primitive, { minLength: 1, maxLength: 4, comparator: isDeepStrictEqual }) }),
      dflt,
    ),
    withOptional(fc.record({ const: primitive }), dflt),
  ];
  let arb: fc.Arbitrary<Schema>;
  if (depth === 0) arb = fc.oneof(...leaves);
  else {
    const child = schemaArb(depth - 1, false);
    const property = schemaArb(depth - 1, true);
    const composites: fc.Arbitrary<Schema>[] = [
      withOptional(
        fc.record({
          type: fc.constant('object'),
          properties: fc.dictionary(fc.constantFrom(...NAMES), property, { maxKeys: 4 }),
        }),
        {
          required: fc.subarray([...NAMES], { maxLength: 3 }),
          additionalProperties: fc.oneof(fc.boolean(), child),
          ...dflt,
        },
      ),
      withOptional(fc.record({ type: fc.constant('array'), items: child }), {
        minItems: fc.integer({ min: 0, max: 2 }),
        maxItems: fc.integer({ min: 0, max: 4 }),
        uniqueItems: fc.boolean(),
        ...dflt,
      }),
      fc.record({ anyOf: fc.array(child, { minLength: 1, maxLength: 3 }) }),
      fc.record({ oneOf: fc.array(child, { minLength: 1, maxLength: 3 }) }),
      fc.record({ allOf: fc.array(child, { minLength: 1, maxLength: 2 }) }),
    ];
    arb = fc.oneof({ weight: 2, arbitrary: fc.oneof(...leaves) }, { weight: 3, arbitrary: fc.oneof(...composites) });
  }
  if (withDefault) {
    // A default drawn at random (it may break its schema: both paths must refuse it alike), or a
    // value of the schema itself, or `null` (the "no default" idiom wherever null does not fit).
    arb = arb.chain((schema) => {
      if (!Object.hasOwn(schema, 'default')) return fc.constant(schema);
      const { default: drawn, ...rest } = schema;
      return fc
        .oneof(fc.constant(drawn), valueFor(rest), fc.constant(null))
        .map((value) => ({ ...rest, default: value }));
    });
  }
  memo.set(key, arb);
  return arb;
}

/** A root schema: an object (like every tool input) or anything else, never with a root `default`. */
const rootSchema = fc.oneof(
  { weight: 3, arbitrary: schemaArb(2, false).filter((schema) => schema.type === 'object') },
  { weight: 1, arbitrary: schemaArb(2, false) },
);

const FORMAT_SAMPLES: Record<string, string> = {
  date: '2024-01-31',
  email: 'a@b.co',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  'date-time': '2024-01-31T10:00:00Z',
};

/** A value shaped by the schema (often valid, sometimes a string that needs coercion). */
function valueFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return valueArb;
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(schema[keyword]))
      return fc.oneof(...(schema[keyword] as Schema[]).map((branch) => valueFor(branch, depth + 1)));
  }
  const type = Array.isArray(schema.type)
    ? fc.constantFrom(...(schema.type as string[]))
    : fc.constant(schema.type as string);
  return type.chain((name): fc.Arbitrary<unknown> => {
    switch (name) {
      case 'object': {
        const properties = (schema.properties ?? {}) as Record<string, Schema>;
        const shape: Record<string, fc.Arbitrary<unknown>> = {};
        for (const key of Object.keys(properties)) shape[key] = valueFor(properties[key]!, depth + 1);
        // `Object.hasOwn`, not `in`: `constructor` and `toString` are among the names.
        for (const key of (schema.required ?? []) as string[]) if (!Object.hasOwn(shape, key)) shape[key] = valueArb;
        return fc.record(shape, { requiredKeys: (schema.required ?? []) as string[] });
      }
      case 'array':
        return fc.array(valueFor((schema.items ?? {}) as Schema, depth + 1), {
          minLength: (schema.minItems as number) ?? 0,
          maxLength: Math.max((schema.maxItems as number) ?? 3, (schema.minItems as number) ?? 0),
        });
      case 'string':
        if (typeof schema.format === 'string') return fc.constant(FORMAT_SAMPLES[schema.format]);
        if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern, 'u'));
        return fc.string({
          minLength: (schema.minLength as number) ?? 0,
          maxLength: Math.max((schema.maxLength as number) ?? 5, (schema.minLength as number) ?? 0),
        });
      case 'number':
      case 'integer': {
        const number = fc.integer({ min: -6, max: 10 });
        return fc.oneof(number, number.map(String));
      }
      case 'boolean':
        return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false'));
      case 'null':
        return fc.constantFrom(null, '');
      default:
        return valueArb;
    }
  });
}

interface Case {
  schema: Schema;
  values: unknown[];
}
const caseArb: fc.Arbitrary<Case> = rootSchema.chain((schema) =>
  fc.record({
    schema: fc.constant(schema),
    values: fc.array(fc.oneof(valueFor(schema), valueArb), { minLength: 2, maxLength: 8 }),
  }),
);

interface Outcome {
  valid: boolean;
  errors: unknown[];
  after: unknown;
  /** What the validator threw, if anything (both paths must throw alike). */
  threw?: string;
}

function reduceErrors(errors: ErrorObject[] | null | undefined): unknown[] {
  return (errors ?? []).map(({ keyword, instancePath, schemaPath, params, message }) => ({
    keyword,
    instancePath,
    schemaPath,
    params,
    message,
  }));
}

function validateCopy(validate: ValidateFunction, value: unknown): Outcome {
  // Held by a parent, as Ajv passes it on, so a coerced root value is visible afterwards too.
  const holder = [copyJsonValue(value)];
  try {
    const valid = (validate as (data: unknown, context: object) => boolean)(holder[0], {
      instancePath: '',
      parentData: holder,
      parentDataProperty: 0,
      rootData: holder[0],
    });
    return { valid, errors: reduceErrors(validate.errors), after: holder[0] };
  } catch (error) {
    return { valid: false, errors: [], after: holder[0], threw: (error as Error).message };
  }
}

/**
 * Equal as JSON: a schema's `-0` (JSON text `-0` parses to -0) reaches a standalone module as `0`,
 * since Ajv writes schema values into the code with `JSON.stringify`, so an error's
 * `params.allowedValues` can hold -0 at run time and 0 in the standalone module. JSON has no
 * negative zero and tool results travel as JSON, so the two are compared as JSON text; everything
 * else still has to be the same value.
 */
function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

/** Whether `after` holds every part of `sent` unchanged (objects may have gained properties: defaults). */
function keepsWhatWasSent(sent: unknown, after: unknown): boolean {
  if (Array.isArray(sent))
    return (
      Array.isArray(after) &&
      after.length === sent.length &&
      sent.every((item, index) => keepsWhatWasSent(item, after[index]))
    );
  if (sent !== null && typeof sent === 'object') {
    if (after === null || typeof after !== 'object' || Array.isArray(after)) return false;
    return Object.keys(sent).every(
      (key) =>
        Object.hasOwn(after, key) &&
        keepsWhatWasSent((sent as Record<string, unknown>)[key], (after as Record<string, unknown>)[key]),
    );
  }
  return Object.is(sent, after);
}

const RUNTIME = path.join(REPO, 'src/index.ts');

/**
 * One ES module of generated validators, built the generator's way (normalize's defaults check and
 * emit/validators.ts): a default that breaks its own schema is refused, a `default: null` that
 * does not fit is left out, Ajv writes the standalone code without coercion and `toEsm` wraps each
 * export in the runtime's `coerceWhereNeeded`. Throws where generate reports an error.
 */
function generatedModuleSource(entries: readonly { exportName: string; schema: Schema }[]): string {
  const ajv = createGeneratorAjv({ code: true });
  const exports: Record<string, string> = {};
  entries.forEach((entry, index) => {
    const prepared = prepareValidatorSchema(ajv, entry.schema);
    const wrong = prepared.mismatches.filter((mismatch) => !mismatch.noDefaultIdiom);
    if (wrong.length > 0) throw new Error(`a default does not match its own schema at ${wrong[0]!.pointer}`);
    addValidatorSchema(ajv, prepared.schema as never, `schema-${index}`);
    exports[entry.exportName] = `schema-${index}`;
  });
  return toEsm(standaloneCode(ajv, exports), RUNTIME);
}

let scratch: string;
let counter = 0;

async function importGenerated(
  entries: readonly { exportName: string; schema: Schema }[],
): Promise<Record<string, ValidateFunction>> {
  const file = path.join(scratch, `random-${counter++}.mjs`);
  writeFileSync(file, generatedModuleSource(entries));
  return (await import(file)) as Record<string, ValidateFunction>;
}

const stats = { schemas: 0, compiled: 0, values: 0, valid: 0, invalid: 0, changed: 0, fitAsSent: 0, coerced: 0 };

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'toolsmith-property-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('generated validators vs runtime-compiled ones on random schemas (production path)', () => {
  it('agree on verdict, errors and value; a value that fits as sent is never changed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb, { minLength: SCHEMAS_PER_RUN, maxLength: SCHEMAS_PER_RUN }), async (cases) => {
        const runtime: (ValidateFunction | undefined)[] = cases.map(({ schema }) => {
          try {
            return compileSchema(schema) as unknown as ValidateFunction;
          } catch {
            return undefined;
          }
        });
        // The oracle: Ajv with the production options (no coercion, defaults on), on the schema the validator is built from.
        const oracleAjv = createAjvLikeGenerator({ code: false });
        const entries = cases.flatMap(({ schema }, index) =>
          runtime[index] ? [{ exportName: `randomCase${index}`, schema }] : [],
        );
        const module = await importGenerated(entries);
        for (const [index, { schema, values }] of cases.entries()) {
          stats.schemas++;
          const compiled = runtime[index];
          if (!compiled) {
            // Strict mode or the defaults check rejected it at run time: the generator's path must reject it as well.
            expect(() => generatedModuleSource([{ exportName: 'rejected', schema }]), JSON.stringify(schema)).toThrow();
            continue;
          }
          stats.compiled++;
          const standalone = module[`randomCase${index}`]!;
          const oracle = oracleAjv.compile(prepareValidatorSchema(oracleAjv, schema).schema);
          for (const value of values) {
            const a = validateCopy(compiled, value);
            const b = validateCopy(standalone, value);
            stats.values++;
            if (a.valid) stats.valid++;
            else stats.invalid++;
            if (!isDeepStrictEqual(a.after, value)) stats.changed++;
            if (!sameJson(a, b)) {
              throw new Error(
                `standalone and runtime differ\nschema: ${JSON.stringify(schema)}\nvalue: ${JSON.stringify(value)}\nruntime: ${JSON.stringify(a)}\nstandalone: ${JSON.stringify(b)}`,
              );
            }
            const asSent = validateCopy(oracle as ValidateFunction, value);
            if (asSent.valid && asSent.threw === undefined) {
              stats.fitAsSent++;
              if (!b.valid || !sameJson(b.after, asSent.after) || !keepsWhatWasSent(value, b.after)) {
                throw new Error(
                  `a value that fits as sent was changed\nschema: ${JSON.stringify(schema)}\nvalue: ${JSON.stringify(value)}\nwithout coercion: ${JSON.stringify(asSent.after)}\ngenerated: ${JSON.stringify(b)}`,
                );
              }
            } else if (b.valid) {
              stats.coerced++;
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
    // The property is only meaningful if the schemas compile and the values hit both verdicts and coercion.
    expect(stats.schemas).toBe(RUNS * SCHEMAS_PER_RUN);
    expect(stats.compiled).toBeGreaterThan(stats.schemas * 0.6);
    expect(stats.valid).toBeGreaterThan(stats.values * 0.1);
    expect(stats.invalid).toBeGreaterThan(stats.values * 0.1);
    expect(stats.fitAsSent).toBeGreaterThan(stats.values * 0.1);
    expect(stats.coerced).toBeGreaterThan(0);
    expect(stats.changed).toBeGreaterThan(0);
    console.info(
      `generated vs runtime: ${stats.compiled}/${stats.schemas} schemas compiled, ${stats.values} values (${stats.valid} valid: ${stats.fitAsSent} as sent, ${stats.coerced} after coercion; ${stats.changed} changed by coercion or defaults)`,
    );
  }, 120_000);
});
