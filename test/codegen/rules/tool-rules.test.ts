/**
 * The rules that turn an accepted definition into a tool, and the shared-schema rule, each alone:
 * a fragment in, the exact diagnostics or the model change out.
 */
import { describe, expect, it } from 'vitest';
import type { SourceFile } from '../../../codegen/load.js';
import { toolSubject } from '../../../codegen/normalize.js';
import { defaultValues } from '../../../codegen/rules/default-values.js';
import { examples } from '../../../codegen/rules/examples.js';
import { refBundling } from '../../../codegen/rules/ref-bundling.js';
import type { SharedEntry, ToolSubject } from '../../../codegen/rules/rule.js';
import { sharedSchemas } from '../../../codegen/rules/shared-schemas.js';
import { type Candidate, nameCollisions, uniqueToolNames } from '../../../codegen/rules/tool-names.js';
import { assembleToolModel, toolHash } from '../../../codegen/rules/tool-model.js';
import { placeProblem } from '../../../codegen/problems.js';
import { schemaRejections } from '../../../codegen/emit/validators.js';
import { ENV, runRule, sourceOf } from './rule-fixtures.js';

const base = { name: 'a', description: 'A tool.' };

/** The shared schema files `files` (relative path → schema) as the shared-schemas rule accepts them. */
function sharedOf(files: Record<string, unknown>): { shared: Map<string, SharedEntry>; lines: string[] } {
  const shared = new Map<string, SharedEntry>();
  const sources = Object.entries(files).map(([relPath, value]) => sourceOf(relPath, value));
  const { lines } = runRule(sharedSchemas, { sources, env: ENV, shared });
  return { shared, lines };
}

/** A tool subject for `definition` (in `a.tool.json`), bundled unless `bundle` is false. */
function subjectOf(definition: Record<string, unknown>, shared = new Map<string, SharedEntry>()): ToolSubject {
  const source = sourceOf('a.tool.json', definition);
  return toolSubject(source, source.value as Record<string, unknown>, shared);
}

describe('shared-schemas', () => {
  it('accepts a shared file: its root and each definition become types, bundled', () => {
    const { shared, lines } = sharedOf({
      'common/geo.schema.json': {
        type: 'object',
        properties: { at: { $ref: '#/definitions/Point' } },
        definitions: { Point: { type: 'number' } },
      },
    });
    expect(lines).toEqual([]);
    const model = shared.get('common/geo.schema.json')!.model;
    expect(model.typeNames).toEqual({ '#': 'Geo', '#/definitions/Point': 'Point' });
    expect(model.types).toEqual([
      { typeName: 'Geo', schema: { type: 'object', properties: { at: { $ref: '#/definitions/Point' } } } },
      { typeName: 'Point', schema: { type: 'number' } },
    ]);
  });

  it.each([
    [{ 'x.schema.json': [] }, ['error schemas/x.schema.json:1:1  a shared schema must be a JSON object']],
    [
      { 'x.schema.json': { $schema: 'http://example.com/s' } },
      ['error schemas/x.schema.json:2:14 /$schema unsupported $schema "http://example.com/s"'],
    ],
    [
      { 'x.schema.json': { type: 'object', requried: [] } },
      ['error schemas/x.schema.json:3:3 /requried unknown keyword "requried"'],
    ],
    // Checked against its dialect's meta-schema as a schema field is, with the same words.
    [
      { 'x.schema.json': { type: 'string', minLength: -1 } },
      ['error schemas/x.schema.json:3:16 /minLength not a valid draft-07 schema: /minLength must be >= 0'],
    ],
    [
      { 'x.schema.json': { type: 'object', properties: { a: { type: 'strng' } } } },
      ['error schemas/x.schema.json:5:15 /properties/a/type "strng" is not a JSON Schema type'],
    ],
    [
      { 'a/geo.schema.json': { type: 'number' }, 'b/geo.schema.json': { type: 'string' } },
      ['error schemas/b/geo.schema.json:1:1  shared type name "Geo" is already taken by schemas/a/geo.schema.json'],
    ],
  ])('%j', (files, expected) => {
    const { shared, lines } = sharedOf(files);
    expect(lines).toEqual(expected);
    expect(shared.size).toBe(Object.keys(files).length - 1);
  });
});

describe('unique-tool-names and name-collisions', () => {
  it('takes a free name and reports a taken one', () => {
    const taken = new Map<string, SourceFile>();
    const first = sourceOf('a.tool.json', base);
    const second = sourceOf('b.tool.json', base);
    expect(runRule(uniqueToolNames, { source: first, definition: base, taken }).lines).toEqual([]);
    expect(runRule(uniqueToolNames, { source: second, definition: base, taken }).lines).toEqual([
      'error schemas/b.tool.json:2:11 /name the tool name "a" is already used by schemas/a.tool.json',
    ]);
    expect(taken.get('a')).toBe(first);
  });

  it('takes the later of two names with the same file or type name out of the candidates', () => {
    const candidates: Candidate[] = ['web-search', 'web_search', 'other'].map((name, index) => {
      const definition = { ...base, name };
      return { source: sourceOf(`${index}.tool.json`, definition), definition };
    });
    expect(runRule(nameCollisions, candidates).lines).toEqual([
      'error schemas/1.tool.json:2:11 /name the tool names "web-search" (schemas/0.tool.json) and "web_search" map to the same file name "web-search"',
    ]);
    expect(candidates.map((candidate) => candidate.definition.name)).toEqual(['web-search', 'other']);
  });
});

describe('ref-bundling', () => {
  const geo = { 'common/geo.schema.json': { type: 'object', properties: { lat: { type: 'number' } } } };

  it('copies a shared schema under definitions/<TypeName> and points the $ref there', () => {
    const { shared } = sharedOf(geo);
    const subject = subjectOf(
      { ...base, inputSchema: { type: 'object', properties: { at: { $ref: 'common/geo.schema.json' } } } },
      shared,
    );
    expect(runRule(refBundling, subject).lines).toEqual([]);
    expect(subject.input!.bundled).toEqual({
      type: 'object',
      properties: { at: { $ref: '#/definitions/Geo' } },
      definitions: { Geo: { type: 'object', properties: { lat: { type: 'number' } } } },
    });
    expect({ ...subject.input!.origins }).toEqual({ Geo: { kind: 'shared', module: 'common/geo', typeName: 'Geo' } });
    expect([...subject.sharedUsed]).toEqual(['common/geo']);
  });

  it.each([
    [
      { $ref: '#/definitions/Nope' },
      'error schemas/a.tool.json:8:17 /inputSchema/properties/at/$ref the $ref "#/definitions/Nope" does not resolve: there is nothing at that pointer in the schema',
    ],
    [
      { $ref: 'common/gep.schema.json' },
      'error schemas/a.tool.json:8:17 /inputSchema/properties/at/$ref the $ref "common/gep.schema.json" does not resolve: no shared schema file "common/gep.schema.json"',
    ],
    [
      { $ref: '../outside.schema.json' },
      'error schemas/a.tool.json:8:17 /inputSchema/properties/at/$ref the $ref "../outside.schema.json" points outside the schemas folder',
    ],
    [
      { $ref: 'common/geo.schema.json#/properties/lat' },
      'error schemas/a.tool.json:8:17 /inputSchema/properties/at/$ref the $ref points at "#/properties/lat" inside schemas/common/geo.schema.json',
    ],
  ])('%j', (at, expected) => {
    const { shared } = sharedOf(geo);
    const subject = subjectOf({ ...base, inputSchema: { type: 'object', properties: { at } } }, shared);
    expect(runRule(refBundling, subject).lines).toEqual([expected]);
  });

  it('suggests the nearest shared file', () => {
    const { shared } = sharedOf(geo);
    const subject = subjectOf(
      { ...base, inputSchema: { type: 'object', properties: { at: { $ref: 'common/gep.schema.json' } } } },
      shared,
    );
    expect(runRule(refBundling, subject).diagnostics.problems()[0]!.hint).toBe(
      'did you mean "common/geo.schema.json"? (paths are relative to a.tool.json)',
    );
  });
});

/** A bundled subject (ref-bundling run), ready for the value rules. */
function bundled(definition: Record<string, unknown>, checkValues = true): ToolSubject {
  const subject = subjectOf(definition);
  runRule(refBundling, subject);
  subject.checkValues = checkValues;
  return subject;
}

describe('default-values', () => {
  it.each([
    [
      { type: 'object', properties: { n: { type: 'integer', default: 'x' } } },
      [
        'error schemas/a.tool.json:9:20 /inputSchema/properties/n/default the default "x" does not match its own schema: / must be integer',
      ],
    ],
    [
      { type: 'object', properties: { n: { type: 'integer', default: null } } },
      [
        'warning schemas/a.tool.json:9:20 /inputSchema/properties/n/default the default null is not allowed by its own schema: it is not filled in (the property stays absent when omitted)',
      ],
    ],
    [{ type: 'object', properties: { n: { type: 'integer', default: 1 } } }, []],
  ])('%j', (inputSchema, expected) => {
    expect(runRule(defaultValues, bundled({ ...base, inputSchema })).lines).toEqual(expected);
  });

  it('leaves a null default the schema forbids out of the schema the validator is compiled from, not out of the model', () => {
    const subject = bundled({
      ...base,
      inputSchema: { type: 'object', properties: { n: { type: 'integer', default: null } } },
    });
    runRule(defaultValues, subject);
    expect(subject.validatorSchemas).toEqual({ input: { type: 'object', properties: { n: { type: 'integer' } } } });
    expect(subject.input!.bundled).toEqual({ type: 'object', properties: { n: { type: 'integer', default: null } } });
  });

  it('checks nothing for a tool whose hash is unchanged, and compiles from the bundled schemas', () => {
    const subject = bundled(
      { ...base, inputSchema: { type: 'object', properties: { n: { type: 'integer', default: 'x' } } } },
      false,
    );
    expect(runRule(defaultValues, subject).lines).toEqual([]);
    expect(subject.validatorSchemas!.input).toBe(subject.input!.bundled);
  });
});

describe('examples', () => {
  const inputSchema = { type: 'object', properties: { q: { type: 'string', maxLength: 3 } }, required: ['q'] };
  /**
   * The rule, then (when it passed and the values are checked) the examples as the validator
   * emitter checks them with the validators it compiles, placed as generate places them.
   */
  const run = (definition: Record<string, unknown>, checkValues = true) => {
    const subject = bundled(definition, checkValues);
    runRule(defaultValues, subject);
    const rule = runRule(examples, subject).lines;
    if (rule.length > 0 || !checkValues) return rule;
    const model = assembleToolModel(subject, toolHash(subject));
    return schemaRejections(model)
      .map((problem) => placeProblem(subject.source, problem))
      .map(
        (problem) => `error ${problem.file}:${problem.line}:${problem.column} ${problem.pointer} ${problem.message}`,
      );
  };

  it.each([
    [[{ input: { q: 'abc' } }], []],
    [
      [{ input: { q: 'abcd' } }],
      [
        'error schemas/a.tool.json:19:14 /examples/0/input/q the example input does not match the input schema: /q must NOT have more than 3 characters',
      ],
    ],
    [
      [{ input: {} }],
      [
        'error schemas/a.tool.json:18:16 /examples/0/input the example input does not match the input schema: the required property "q" is missing',
      ],
    ],
    [
      [{ input: { q: 'a' }, output: 1 }],
      ['error schemas/a.tool.json:21:17 /examples/0/output the example has an output but the tool has no outputSchema'],
    ],
  ])('%j', (list, expected) => {
    expect(run({ ...base, inputSchema, examples: list })).toEqual(expected);
  });

  it('checks the output against the output schema, coercing as the validator does', () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'integer' } } };
    expect(run({ ...base, inputSchema, outputSchema, examples: [{ input: { q: 'a' }, output: { n: '2' } }] })).toEqual(
      [],
    );
    expect(run({ ...base, inputSchema, outputSchema, examples: [{ input: { q: 'a' }, output: { n: 'x' } }] })).toEqual([
      'error schemas/a.tool.json:30:14 /examples/0/output/n the example output does not match the output schema: /n must be integer',
    ]);
  });

  it('reports a schema Ajv rejects at the schema, and checks no example against it', () => {
    const rejected = { type: 'object', properties: { q: { type: 'string', pattern: '\\-' } } };
    expect(run({ ...base, inputSchema: rejected, examples: [{ input: { q: 1 } }] })).toEqual([
      'error schemas/a.tool.json:4:18 /inputSchema the schema does not compile: Invalid regular expression: /\\-/u: Invalid escape',
    ]);
  });

  it('checks nothing for a tool whose hash is unchanged', () => {
    expect(run({ ...base, inputSchema, examples: [{ input: {} }] }, false)).toEqual([]);
  });

  it('compiles no schema in the rule: the examples are checked by the validator emitter, once', () => {
    const subject = bundled({ ...base, inputSchema, examples: [{ input: {} }] });
    runRule(defaultValues, subject);
    let compiled = 0;
    const ajv = subject.ajv();
    const compile = ajv.compile.bind(ajv);
    const addSchema = ajv.addSchema.bind(ajv);
    ajv.compile = ((schema: never) => (compiled++, compile(schema))) as typeof ajv.compile;
    ajv.addSchema = ((...args: never[]) => (compiled++, addSchema(...(args as [never])))) as typeof ajv.addSchema;
    expect(runRule(examples, subject).lines).toEqual([]);
    expect(compiled).toBe(0);
  });
});

describe('default-values in a shared schema', () => {
  it('reports a default that breaks its schema at the shared file, not at the tool', () => {
    const { shared } = sharedOf({
      'common/n.schema.json': { type: 'object', properties: { k: { type: 'integer', default: 'x' } } },
    });
    const subject = subjectOf(
      { ...base, inputSchema: { type: 'object', properties: { n: { $ref: 'common/n.schema.json' } } } },
      shared,
    );
    runRule(refBundling, subject);
    expect(runRule(defaultValues, subject).lines).toEqual([
      'error schemas/common/n.schema.json:6:18 /properties/k/default the default "x" does not match its own schema: / must be integer',
    ]);
  });
});

describe('default-values in a shared schema, the null idiom', () => {
  it('stays a warning at the shared file', () => {
    const { shared } = sharedOf({
      'common/n.schema.json': { type: 'object', properties: { k: { type: 'integer', default: null } } },
    });
    const subject = subjectOf(
      { ...base, inputSchema: { type: 'object', properties: { n: { $ref: 'common/n.schema.json' } } } },
      shared,
    );
    runRule(refBundling, subject);
    expect(runRule(defaultValues, subject).lines).toEqual([
      'warning schemas/common/n.schema.json:6:18 /properties/k/default the default null is not allowed by its own schema: it is not filled in (the property stays absent when omitted)',
    ]);
  });
});

describe('tool-model', () => {
  it('assembles the model from the definition and the bundled schemas', () => {
    const subject = bundled({
      ...base,
      version: '2.1.0',
      inputSchema: { type: 'object' },
      targets: { gemini: false, openai: true, anthropic: false },
    });
    const model = assembleToolModel(subject, 'h');
    expect(model).toMatchObject({
      name: 'a',
      id: 'a@2.1.0',
      displayName: 'A',
      version: '2.1.0',
      hasSideEffects: false,
      excludedTargets: ['anthropic', 'gemini'],
      inputSchema: { type: 'object' },
      source: { file: 'schemas/a.tool.json', relPath: 'a.tool.json' },
      hash: 'h',
    });
    expect(model.outputSchema).toBeUndefined();
  });

  it('hashes the definition and the shared schemas it uses, not those it does not', () => {
    const geo = (lat: string) => ({
      'common/geo.schema.json': { type: 'object', properties: { [lat]: { type: 'number' } } },
    });
    const hashWith = (files: Record<string, unknown>, ref: boolean) => {
      const { shared } = sharedOf(files);
      const subject = subjectOf(
        { ...base, inputSchema: { type: 'object', properties: ref ? { at: { $ref: 'common/geo.schema.json' } } : {} } },
        shared,
      );
      runRule(refBundling, subject);
      return toolHash(subject);
    };
    expect(hashWith(geo('lat'), true)).not.toBe(hashWith(geo('latitude'), true));
    expect(hashWith(geo('lat'), false)).toBe(hashWith(geo('latitude'), false));
  });
});
