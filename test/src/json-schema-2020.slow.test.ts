import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AJV_OPTIONS } from '../../src/schema/ajv-options.js';
import { JSON_SCHEMA_2020_12, toJsonSchema2020, translateRef } from '../../src/schema/json-schema-2020.js';

/*
 * The translation's proof: every case of the draft-07 JSON-Schema-Test-Suite (vendored in
 * test/fixtures/json-schema-test-suite, see its ORIGIN), translated, gets under Ajv 2020 the verdict
 * draft-07 Ajv gives on the original. Remote refs are served from the suite's remotes/ (translated for
 * the 2020 side). Both sides run the project's Ajv options (strictness off: the suite has unknown keywords).
 */

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;
const suite = join(import.meta.dirname, '..', 'fixtures', 'json-schema-test-suite');
const OPTIONS: Options = {
  ...AJV_OPTIONS,
  strict: false,
  strictSchema: false,
  strictNumbers: false,
  coerceTypes: false,
  useDefaults: false,
  allErrors: true,
  logger: false,
};

/**
 * Groups draft-07 Ajv itself cannot compile (so there is no verdict to keep), with the reason. They are
 * still run: the 2020 side must not compile them either. No group is skipped.
 */
const UNCOMPILABLE: ReadonlyMap<string, string> = new Map([
  [
    'optional/cross-draft.json: refs to future drafts are processed as future drafts',
    'refers to the 2019-09 meta-schema, which a draft-07 Ajv does not have',
  ],
  [
    'optional/unknownKeyword.json: $id inside an unknown keyword is not a real identifier',
    'Ajv registers the `$id`s inside the unknown keyword and refuses them as duplicates',
  ],
]);

interface Case {
  description: string;
  data: unknown;
  valid: boolean;
}
interface Group {
  description: string;
  schema: unknown;
  tests: Case[];
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) =>
      statSync(join(dir, name)).isDirectory()
        ? jsonFiles(join(dir, name))
        : name.endsWith('.json')
          ? [join(dir, name)]
          : [],
    )
    .sort();
}

const remotes = jsonFiles(join(suite, 'remotes'))
  .filter((file) => !/remotes\/(draft2019-09|draft2020-12|draft3|draft4|draft6|v1)\//.test(file))
  .map((file) => ({
    uri: `http://localhost:1234/${relative(join(suite, 'remotes'), file)}`,
    schema: JSON.parse(readFileSync(file, 'utf8')) as unknown,
  }));

const draft07MetaSchema = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '..', '..', 'node_modules', 'ajv', 'dist', 'refs', 'json-schema-draft-07.json'),
    'utf8',
  ),
) as Record<string, unknown>;
delete draft07MetaSchema.$id;

function as2020(schema: unknown): unknown {
  const translated = toJsonSchema2020(schema);
  if (typeof translated === 'object' && translated !== null && '$schema' in translated)
    (translated as Record<string, unknown>).$schema = JSON_SCHEMA_2020_12;
  return translated;
}

function instances(): { draft7: Ajv; draft2020: Ajv2020 } {
  const draft7 = new Ajv(OPTIONS);
  const draft2020 = new Ajv2020(OPTIONS);
  addFormats(draft7);
  addFormats(draft2020);
  // The draft-07 meta-schema, which some cases `$ref`, translated like any remote.
  draft2020.addSchema(as2020(draft07MetaSchema) as object, 'http://json-schema.org/draft-07/schema');
  for (const { uri, schema } of remotes) {
    draft7.addSchema(schema as object, uri);
    draft2020.addSchema(as2020(schema) as object, uri);
  }
  return { draft7, draft2020 };
}

type Verdict = boolean | 'compile error';

function verdicts(compile: () => (data: unknown) => boolean, tests: Case[]): Verdict[] {
  let validate: (data: unknown) => boolean;
  try {
    validate = compile();
  } catch {
    return tests.map(() => 'compile error');
  }
  return tests.map((test) => validate(structuredClone(test.data)));
}

const files = jsonFiles(join(suite, 'tests', 'draft7'));
const results: { group: string; test: string; draft7: Verdict; draft2020: Verdict; expected: boolean }[] = [];
for (const file of files) {
  const name = relative(join(suite, 'tests', 'draft7'), file);
  for (const group of JSON.parse(readFileSync(file, 'utf8')) as Group[]) {
    const id = `${name}: ${group.description}`;
    const { draft7, draft2020 } = instances();
    const before = verdicts(() => draft7.compile(group.schema as object) as (data: unknown) => boolean, group.tests);
    const after = verdicts(
      () => draft2020.compile(as2020(group.schema) as object) as (data: unknown) => boolean,
      group.tests,
    );
    group.tests.forEach((test, index) =>
      results.push({
        group: id,
        test: test.description,
        draft7: before[index]!,
        draft2020: after[index]!,
        expected: test.valid,
      }),
    );
  }
}

describe('draft-07 → 2020-12 translation on the JSON-Schema-Test-Suite', () => {
  it('covers the whole draft-07 suite (required and optional tests)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(results.length).toBeGreaterThan(1100);
    expect([
      ...new Set(results.filter((result) => result.draft7 === 'compile error').map((result) => result.group)),
    ]).toEqual([...UNCOMPILABLE.keys()]);
  });

  it('gives under Ajv 2020 the verdict draft-07 Ajv gives on the original, case by case', () => {
    const different = results
      .filter((result) => result.draft7 !== result.draft2020)
      .map((result) => `${result.group} / ${result.test}: draft-07 ${result.draft7}, 2020-12 ${result.draft2020}`);
    expect(different).toEqual([]);
  });

  it('translates the keywords the two drafts spell differently', () => {
    expect(
      toJsonSchema2020({
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { A: { type: 'string' } },
        properties: {
          definitions: { $ref: '#/definitions/A', description: 'kept' },
          tuple: { items: [{ type: 'string' }, { $ref: '#/properties/tuple/items/0' }], additionalItems: false },
          list: { items: { type: 'string' }, additionalItems: false },
          pair: { dependencies: { a: ['b'], c: { required: ['d'] } } },
          later: { prefixItems: [{ type: 'string' }] },
        },
      }),
    ).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $defs: { A: { type: 'string' } },
      properties: {
        definitions: { $ref: '#/$defs/A', description: 'kept' },
        tuple: { prefixItems: [{ type: 'string' }, { $ref: '#/properties/tuple/prefixItems/0' }], items: false },
        list: { items: { type: 'string' } },
        pair: { dependentRequired: { a: ['b'] }, dependentSchemas: { c: { required: ['d'] } } },
        later: {},
      },
    });
    expect(translateRef('#/properties/definitions/dependencies/x/items/2/additionalItems')).toBe(
      '#/properties/definitions/dependentSchemas/x/prefixItems/2/items',
    );
    expect(translateRef('other.json#/definitions/a%20b')).toBe('other.json#/$defs/a%20b');
    expect(translateRef('#/definitions/a:b~1c/items/0')).toBe('#/$defs/a:b~1c/prefixItems/0');
    expect(translateRef('#/definitions/items/items/1')).toBe('#/$defs/items/prefixItems/1');
    expect(translateRef('#foo')).toBe('#foo');
    expect(toJsonSchema2020({ $id: 'http://x.test/s.json#node', type: 'string' })).toEqual({
      $id: 'http://x.test/s.json',
      $anchor: 'node',
      type: 'string',
    });
  });

  it('never changes the source schema', () => {
    const source = { definitions: { A: { items: [true] } }, $ref: '#/definitions/A' };
    const copy = structuredClone(source);
    toJsonSchema2020(source);
    expect(source).toEqual(copy);
  });
});

/** Random draft-07 schemas over the keywords the drafts spell differently, with local refs. */
const leaf = fc.oneof(
  fc.constant<unknown>({ type: 'string' }),
  fc.constant<unknown>({ type: 'integer', maximum: 3 }),
  fc.constant<unknown>({ type: 'null' }),
  fc.constant<unknown>({ $ref: '#/definitions/D' }),
  fc.constant<unknown>({ $ref: '#/definitions/D', type: 'integer' }),
  fc.constant<unknown>({ $ref: '#/definitions/T/items/0' }),
  fc.boolean(),
);
const { schema: schemaArbitrary } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record(
      {
        items: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }),
        additionalItems: fc.option(tie('schema'), { nil: undefined }),
      },
      { requiredKeys: ['items'] },
    ),
    fc.record({ items: tie('schema'), additionalItems: tie('schema') }),
    fc.record({
      properties: fc.dictionary(fc.constantFrom('a', 'b', 'definitions', 'items'), tie('schema'), { maxKeys: 3 }),
      required: fc.subarray(['a', 'b']),
    }),
    fc.record({
      dependencies: fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.subarray(['a', 'b', 'c']), tie('schema')), {
        maxKeys: 2,
      }),
    }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }) }),
    fc.record({ not: tie('schema') }),
  ),
}));
/** The item `#/definitions/T/items/0` points at (no ref back to itself). */
const tupleItemArbitrary = fc.oneof(
  fc.constant<unknown>({ type: 'string', maxLength: 1 }),
  fc.constant<unknown>({ $ref: '#/definitions/D', maximum: 2 }),
  fc.boolean(),
);
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 2 }),
    fc.integer({ min: 0, max: 5 }),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'definitions', 'items'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

describe('draft-07 → 2020-12 translation, property', () => {
  it('random schemas with definitions, tuples, additionalItems, dependencies and $ref siblings: same verdicts', () => {
    fc.assert(
      fc.property(
        schemaArbitrary,
        tupleItemArbitrary,
        fc.array(value, { minLength: 1, maxLength: 6 }),
        (body, tupleItem, data) => {
          const schema = {
            ...(typeof body === 'object' && body !== null ? body : { allOf: [body] }),
            definitions: { D: { type: 'integer', minimum: 1 }, T: { items: [tupleItem] } },
          };
          const draft7 = new Ajv(OPTIONS).compile(schema);
          const draft2020 = new Ajv2020(OPTIONS).compile(toJsonSchema2020(schema) as object);
          for (const item of data) expect(draft2020(structuredClone(item))).toBe(draft7(structuredClone(item)));
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 200) },
    );
  });
});
