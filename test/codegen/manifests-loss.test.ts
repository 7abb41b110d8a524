import type { JSONSchema7 } from 'json-schema';
import type { ManifestTarget } from '../../src/manifest-targets/table.js';
import { describe, expect, it } from 'vitest';
import { makeProject, makeTool, TEST_CONTEXT, emitManifests } from './model-factory.js';

/** One definition that uses oneOf, maxLength, formats, $ref and recursion. */
const inputSchema: JSONSchema7 = {
  type: 'object',
  required: ['query'],
  properties: {
    query: { type: 'string', maxLength: 200 },
    since: { type: 'string', format: 'date-time' },
    homepage: { type: 'string', format: 'uri' },
    id: { type: 'string', format: 'uuid' },
    origin: { $ref: '#/definitions/GeoPoint' },
    target: { oneOf: [{ type: 'string', format: 'email' }, { $ref: '#/definitions/GeoPoint' }] },
    outline: { $ref: '#/definitions/Section' },
  },
  definitions: {
    GeoPoint: {
      type: 'object',
      required: ['lat', 'lon'],
      properties: { lat: { type: 'number' }, lon: { type: 'number' } },
    },
    Section: {
      type: 'object',
      required: ['title'],
      properties: {
        title: { type: 'string', maxLength: 80 },
        children: { type: 'array', items: { $ref: '#/definitions/Section' } },
      },
    },
  },
};

const project = makeProject([
  makeTool({
    name: 'research',
    inputSchema,
    definitionOrigins: {
      GeoPoint: { kind: 'shared', module: 'shared/geo-point', typeName: 'GeoPoint' },
      Section: { kind: 'local', typeName: 'ResearchSection' },
    },
  }),
]);

function summary(targets: ManifestTarget[]) {
  const result = emitManifests(project, TEST_CONTEXT, { targets, unrepresentable: 'error', describeLosses: false });
  return {
    losses: Object.fromEntries(
      targets.map((target) => [
        target,
        (result.losses.research![target] ?? []).map(
          (e) => `${e.action} ${e.keyword} ${JSON.stringify(e.value)} at ${e.pointer}`,
        ),
      ]),
    ),
    problems: result.problems.map((problem) => `${problem.pointer}: ${problem.message}`),
  };
}

describe('loss report for a definition with oneOf, maxLength, formats, $ref and recursion', () => {
  it('openai, anthropic and mcp carry the whole schema: nothing lost', () => {
    expect(summary(['openai', 'anthropic', 'mcp'])).toEqual({
      losses: { openai: [], anthropic: [], mcp: [] },
      problems: [],
    });
  });

  it('openai-strict drops maxLength and unsupported formats, rewrites oneOf, keeps $ref and recursion', () => {
    expect(summary(['openai-strict'])).toEqual({
      losses: {
        'openai-strict': [
          'dropped maxLength 80 at /inputSchema/definitions/Section/properties/title',
          'dropped format "uri" at /inputSchema/properties/homepage',
          'dropped maxLength 200 at /inputSchema/properties/query',
          'rewritten oneOf [{"type":"string","format":"email"},{"$ref":"#/definitions/GeoPoint"}] at /inputSchema/properties/target',
        ],
      },
      problems: [],
    });
  });

  it('gemini (JSON Schema) takes the recursion and $refs; drops maxLength and the formats it lacks, rewrites oneOf', () => {
    expect(summary(['gemini'])).toEqual({
      losses: {
        gemini: [
          'dropped maxLength 80 at /inputSchema/definitions/Section/properties/title',
          'dropped format "uri" at /inputSchema/properties/homepage',
          'dropped format "uuid" at /inputSchema/properties/id',
          'dropped maxLength 200 at /inputSchema/properties/query',
          'rewritten oneOf [{"type":"string","format":"email"},{"$ref":"#/definitions/GeoPoint"}] at /inputSchema/properties/target',
          'dropped format "email" at /inputSchema/properties/target/oneOf/0',
        ],
      },
      problems: [],
    });
    const parameters = JSON.parse(
      emitManifests(project, TEST_CONTEXT, { targets: ['gemini'], describeLosses: false }).files[0]!.content,
    ).functionDeclarations[0].parametersJsonSchema;
    expect(parameters.$defs.Section.properties.children).toEqual({ type: 'array', items: { $ref: '#/$defs/Section' } });
    expect(parameters.properties.target).toEqual({ anyOf: [{ type: 'string' }, { $ref: '#/$defs/GeoPoint' }] });
  });

  it('gemini-legacy cannot take the recursion: an error naming the $ref, and no entries', () => {
    expect(summary(['gemini-legacy'])).toEqual({
      losses: { 'gemini-legacy': [] },
      problems: [
        "/inputSchema/definitions/Section/properties/children/items: Tool 'research' cannot be sent to gemini-legacy: its schema is recursive (`$ref: #/definitions/Section` at /inputSchema/definitions/Section/properties/children/items refers back to itself); Gemini has no `$ref`, so the schema would have to be inlined forever.",
      ],
    });
  });

  it('gemini-legacy, once the recursion is gone, inlines $refs and reports formats and oneOf', () => {
    const flat = structuredClone(inputSchema) as any;
    delete flat.definitions.Section.properties.children;
    const result = emitManifests(makeProject([makeTool({ name: 'research', inputSchema: flat })]), TEST_CONTEXT, {
      targets: ['gemini-legacy'],
    });
    expect(result.problems).toEqual([]);
    expect(result.losses.research!['gemini-legacy']!.map((e) => `${e.action} ${e.keyword} at ${e.pointer}`)).toEqual([
      'dropped format at /inputSchema/properties/homepage',
      'dropped format at /inputSchema/properties/id',
      'rewritten oneOf at /inputSchema/properties/target',
      'dropped format at /inputSchema/properties/target/oneOf/0',
    ]);
    const parameters = JSON.parse(result.files[0]!.content).functionDeclarations[0].parameters;
    expect(JSON.stringify(parameters)).not.toContain('$ref');
    expect(parameters.properties.since.format).toBe('date-time');
    expect(parameters.properties.query).toEqual({ type: 'STRING', maxLength: '200' });
  });
});
