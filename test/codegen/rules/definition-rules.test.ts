/**
 * The definition rules, each alone: a definition fragment in, the exact diagnostics (severity,
 * file:line:column, pointer, message) or the subject change out.
 */
import { describe, expect, it } from 'vitest';
import { booleanSchemas } from '../../../codegen/rules/boolean-schemas.js';
import { declaredErrors } from '../../../codegen/rules/declared-errors.js';
import { definitionObject, definitionShape } from '../../../codegen/rules/definition-shape.js';
import { ignoredDefaults } from '../../../codegen/rules/ignored-defaults.js';
import { inputRootObject } from '../../../codegen/rules/input-root-object.js';
import { keywordLint } from '../../../codegen/rules/keyword-lint.js';
import { schemaDialects } from '../../../codegen/rules/schema-dialects.js';
import { unsatisfiableRequired } from '../../../codegen/rules/unsatisfiable-required.js';
import { definitionSubject, runRule, sourceOf } from './rule-fixtures.js';

const base = { name: 'a', description: 'A tool.' };
const object = { type: 'object' };

describe('definition-object', () => {
  it.each([
    [[1, 2], ['error schemas/a.tool.json:1:1  a tool definition must be a JSON object']],
    ['text', ['error schemas/a.tool.json:1:1  a tool definition must be a JSON object']],
    [{ ...base, inputSchema: object }, []],
  ])('%j → %j', (value, expected) => {
    expect(runRule(definitionObject, sourceOf('a.tool.json', value)).lines).toEqual(expected);
  });
});

describe('definition-shape', () => {
  it.each([
    [{ ...base, inputSchema: object }, []],
    [
      { ...base, descripton: 'x', inputSchema: object },
      ['error schemas/a.tool.json:4:3 /descripton unknown field "descripton" in a tool definition'],
    ],
    [{ name: 'a', inputSchema: object }, ['error schemas/a.tool.json:1:1  missing required field "description"']],
    [
      { ...base, name: '1a', inputSchema: object },
      ['error schemas/a.tool.json:2:11 /name the tool name "1a" does not match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$'],
    ],
    [
      { ...base, typeName: 'lower', inputSchema: object },
      ['error schemas/a.tool.json:4:15 /typeName the typeName "lower" is not a PascalCase identifier'],
    ],
  ])('%j', (definition, expected) => {
    expect(runRule(definitionShape, definitionSubject(definition)).lines).toEqual(expected);
  });

  it('gives the hint a reader acts on', () => {
    const { diagnostics } = runRule(
      definitionShape,
      definitionSubject({ ...base, descripton: 'x', inputSchema: object }),
    );
    expect(diagnostics.problems().map((problem) => problem.hint)).toEqual(['did you mean `description`?']);
  });
});

describe('boolean-schemas', () => {
  it.each([
    [
      { ...base, inputSchema: true },
      [
        'error schemas/a.tool.json:4:18 /inputSchema the input schema is `true`, a boolean schema; a tool\'s input schema must be an object schema with `"type": "object"`',
      ],
    ],
    [
      { ...base, inputSchema: object, outputSchema: false },
      [
        'error schemas/a.tool.json:7:19 /outputSchema the output schema is `false`: it accepts no output, so every call of the tool would fail',
      ],
    ],
    [
      { ...base, inputSchema: object, outputSchema: true },
      [
        'error schemas/a.tool.json:7:19 /outputSchema the output schema is `true`: it accepts any output, so it checks nothing',
      ],
    ],
    [{ ...base, inputSchema: object, outputSchema: object }, []],
  ])('%j', (definition, expected) => {
    expect(runRule(booleanSchemas, definitionSubject(definition)).lines).toEqual(expected);
  });
});

describe('schema-dialects', () => {
  it('decides each schema field’s dialect for the rules after it', () => {
    const subject = definitionSubject({
      ...base,
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
      outputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema' },
    });
    expect(runRule(schemaDialects, subject).lines).toEqual([]);
    expect([...subject.dialects]).toEqual([
      ['inputSchema', '2020-12'],
      ['outputSchema', '2020-12'],
    ]);
  });

  it.each([
    [
      { ...base, inputSchema: { $schema: 'http://example.com/mine', type: 'object' } },
      ['error schemas/a.tool.json:5:16 /inputSchema/$schema unsupported $schema "http://example.com/mine"'],
    ],
    [
      { ...base, inputSchema: { type: 'object', properties: { q: { type: 'strng' } } } },
      ['error schemas/a.tool.json:8:17 /inputSchema/properties/q/type "strng" is not a JSON Schema type'],
    ],
    [
      { ...base, inputSchema: { type: 'object', minProperties: -1 } },
      [
        'error schemas/a.tool.json:6:22 /inputSchema/minProperties not a valid draft-07 schema: /inputSchema/minProperties must be >= 0',
      ],
    ],
    [
      { ...base, inputSchema: object, outputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema' } },
      ['error schemas/a.tool.json:7:19 /outputSchema the outputSchema is 2020-12 but the inputSchema is draft-07'],
    ],
  ])('%j', (definition, expected) => {
    expect(runRule(schemaDialects, definitionSubject(definition)).lines).toEqual(expected);
  });
});

describe('keyword-lint', () => {
  const draft07 = new Map([['inputSchema', 'draft-07']] as const);
  it.each([
    [
      { type: 'object', requried: ['q'] },
      ['error schemas/a.tool.json:6:5 /inputSchema/requried unknown keyword "requried"'],
    ],
    [
      { type: 'object', properties: { q: { type: 'string', nullable: true } } },
      ['error schemas/a.tool.json:9:9 /inputSchema/properties/q/nullable unknown keyword "nullable"'],
    ],
    [
      { type: 'object', properties: { q: { type: 'string', optional: true } } },
      ['warning schemas/a.tool.json:9:9 /inputSchema/properties/q/optional unknown keyword "optional" is ignored'],
    ],
    [
      { type: 'object', properties: { q: { type: 'array', prefixItems: [] } } },
      [
        'warning schemas/a.tool.json:9:9 /inputSchema/properties/q/prefixItems the keyword "prefixItems" is ignored: it is 2020-12, and this schema is draft-07',
      ],
    ],
    [
      { type: 'object', properties: { q: { type: 'string', format: 'emial' } } },
      ['error schemas/a.tool.json:9:19 /inputSchema/properties/q/format unknown format "emial"'],
    ],
    [
      { type: 'object', properties: { q: { type: 'string', format: 'json' } } },
      [
        'warning schemas/a.tool.json:9:19 /inputSchema/properties/q/format unknown format "json" is ignored: every value passes it',
      ],
    ],
    [{ type: 'object', 'x-vendor': 1, properties: { q: { type: 'string', format: 'email' } } }, []],
  ])('%j', (inputSchema, expected) => {
    expect(runRule(keywordLint, definitionSubject({ ...base, inputSchema }, new Map(draft07))).lines).toEqual(expected);
  });

  it('lints only the fields whose dialect was decided', () => {
    const subject = definitionSubject({ ...base, inputSchema: { type: 'object', requried: [] } }, new Map());
    expect(runRule(keywordLint, subject).lines).toEqual([]);
  });
});

describe('ignored-defaults', () => {
  const draft07 = new Map([['inputSchema', 'draft-07']] as const);
  it.each([
    [
      { type: 'object', default: {} },
      [
        'warning schemas/a.tool.json:6:16 /inputSchema/default the default {} is never filled in: it is at the schema root',
      ],
    ],
    [
      { type: 'object', properties: { q: { anyOf: [{ type: 'string', default: 'x' }] } } },
      [
        'warning schemas/a.tool.json:11:24 /inputSchema/properties/q/anyOf/0/default the default "x" is never filled in: it is inside `anyOf`',
      ],
    ],
    [{ type: 'object', properties: { q: { type: 'string', default: 'x' } } }, []],
  ])('%j', (inputSchema, expected) => {
    expect(runRule(ignoredDefaults, definitionSubject({ ...base, inputSchema }, new Map(draft07))).lines).toEqual(
      expected,
    );
  });
});

describe('input-root-object', () => {
  it.each([
    [
      { type: 'string' },
      [
        'error schemas/a.tool.json:4:18 /inputSchema the input schema\'s root must be `"type": "object"` (it is "string")',
      ],
    ],
    [
      {},
      [
        'error schemas/a.tool.json:4:18 /inputSchema the input schema\'s root must be `"type": "object"` (it is "unset")',
      ],
    ],
    [object, []],
  ])('%j', (inputSchema, expected) => {
    expect(runRule(inputRootObject, definitionSubject({ ...base, inputSchema })).lines).toEqual(expected);
  });
});

describe('unsatisfiable-required', () => {
  const fields = new Map([
    ['inputSchema', 'draft-07'],
    ['outputSchema', 'draft-07'],
  ] as const);
  const closed = { type: 'object', additionalProperties: false };
  it.each([
    [{ ...closed, required: ['a'], properties: { a: { type: 'string' } } }, object, []],
    [{ ...closed, required: ['x-a'], patternProperties: { '^x-': {} } }, object, []],
    [{ type: 'object', required: ['a'] }, { type: 'object', additionalProperties: {}, required: ['b'] }, []],
    [
      { ...closed, required: ['a', 'b'], properties: { a: {} } },
      object,
      [
        'warning schemas/a.tool.json:9:7 /inputSchema/required/1 `required` names "b", which `additionalProperties: false` forbids (no `properties` entry matches it): no arguments satisfy the input schema, so every call of the tool fails',
      ],
    ],
    [
      { ...closed, required: ['y'], patternProperties: { '^x-': {} } },
      { ...closed, required: ['out'] },
      [
        'warning schemas/a.tool.json:8:7 /inputSchema/required/0 `required` names "y", which `additionalProperties: false` forbids (no `properties` entry or `patternProperties` pattern matches it): no arguments satisfy the input schema, so every call of the tool fails',
        'warning schemas/a.tool.json:18:7 /outputSchema/required/0 `required` names "out", which `additionalProperties: false` forbids (no `properties` entry matches it): no output satisfies the output schema, so every call of the tool fails',
      ],
    ],
    [
      { type: 'object', properties: { o: { anyOf: [{ ...closed, required: ['k'] }, { type: 'string' }] } } },
      { type: 'object', required: ['gone'], properties: { gone: false } },
      [
        'warning schemas/a.tool.json:13:15 /inputSchema/properties/o/anyOf/0/required/0 `required` names "k", which `additionalProperties: false` forbids (no `properties` entry matches it): no value satisfies this schema',
        'warning schemas/a.tool.json:26:7 /outputSchema/required/0 `required` names "gone", whose schema in `properties` is `false` (it forbids the property): no output satisfies the output schema, so every call of the tool fails',
      ],
    ],
  ])('%j / %j', (inputSchema, outputSchema, expected) => {
    expect(
      runRule(unsatisfiableRequired, definitionSubject({ ...base, inputSchema, outputSchema }, new Map(fields))).lines,
    ).toEqual(expected);
  });
});

describe('declared-errors', () => {
  const run = (errors: unknown, extra: Record<string, unknown> = {}) => {
    const subject = definitionSubject({ ...base, inputSchema: object, ...extra, errors });
    runRule(schemaDialects, subject);
    return runRule(declaredErrors, subject).lines;
  };
  it.each([
    [{ RATE_LIMITED: { description: 'x', data: { type: 'object' } } }, []],
    [
      { TIMEOUT: { description: 'x' } },
      [
        'error schemas/a.tool.json:8:5 /errors/TIMEOUT the error code TIMEOUT is reserved: the runtime answers it itself',
      ],
    ],
    [
      { GONE: { description: 'x', data: { $ref: 'other.json' } } },
      [
        'error schemas/a.tool.json:11:17 /errors/GONE/data/$ref a data schema\'s $ref must stay inside it ("other.json" points outside)',
      ],
    ],
    [
      { GONE: { description: 'x', data: { type: 'nope' } } },
      ['error schemas/a.tool.json:11:17 /errors/GONE/data/type "nope" is not a JSON Schema type'],
    ],
  ])('%j', (errors, expected) => {
    expect(run(errors)).toEqual(expected);
  });

  it('reports errors on a composed tool, which fails with its steps', () => {
    expect(run({ GONE: { description: 'x' } }, { steps: [{ tool: 'b', arguments: {} }] })).toEqual([
      "error schemas/a.tool.json:13:3 /errors a composed tool declares no errors: it fails with its steps' failures (STEP_FAILED)",
    ]);
  });

  it('a code that is not UPPER_SNAKE_CASE is a definition-shape error at the key', () => {
    expect(
      runRule(
        definitionShape,
        definitionSubject({ ...base, inputSchema: object, errors: { gone: { description: 'x' } } }),
      ).lines,
    ).toEqual(['error schemas/a.tool.json:8:5 /errors/gone the error code "gone" does not match ^[A-Z][A-Z0-9_]*$']);
  });
});
