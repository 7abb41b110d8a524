import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { SchemaDialect } from '../../src/schema/keywords.js';
import {
  SCHEMA_KEYWORDS,
  keywordsOfDialect,
  type KeywordInfo,
  type SubschemaPosition,
} from '../../src/schema/keywords.js';

const require = createRequire(import.meta.url);
const ajvRefs = path.join(path.dirname(require.resolve('ajv/package.json')), 'dist', 'refs');
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8'));

/** Ajv's view of a dialect: every keyword it knows, and those it has validation code for. */
function ajvKeywords(dialect: SchemaDialect): { known: Set<string>; coded: Map<string, { schemaType?: unknown }> } {
  const ajv = dialect === '2020-12' ? new Ajv2020() : new Ajv();
  const rules = (
    ajv as unknown as {
      RULES: { keywords: Record<string, unknown>; all: Record<string, { definition?: { schemaType?: unknown } }> };
    }
  ).RULES;
  const coded = new Map(Object.keys(rules.all).map((keyword) => [keyword, rules.all[keyword]!.definition ?? {}]));
  return { known: new Set(Object.keys(rules.keywords)), coded };
}

function info(keyword: string): KeywordInfo {
  const row = SCHEMA_KEYWORDS.get(keyword);
  if (row === undefined) throw new Error(`'${keyword}' is not in the keyword table`);
  return row;
}

/** The subschema position a meta-schema gives a keyword's value (draft-07 `#`, 2020-12 `#meta`). */
function metaPosition(property: unknown): SubschemaPosition | undefined {
  const node = property as Record<string, unknown> | undefined;
  const self = (schema: unknown) =>
    (schema as { $ref?: unknown })?.$ref === '#' || (schema as { $dynamicRef?: unknown })?.$dynamicRef === '#meta';
  const refEnds = (schema: unknown, end: string) => String((schema as { $ref?: unknown })?.$ref ?? '').endsWith(end);
  if (node === undefined || typeof node !== 'object') return undefined;
  if (self(node)) return 'schema';
  if (refEnds(node, 'schemaArray')) return 'list';
  const anyOf = node.anyOf as unknown[] | undefined;
  if (anyOf?.some(self) && anyOf.some((branch) => refEnds(branch, 'schemaArray'))) return 'schema-or-list';
  const values = node.additionalProperties as Record<string, unknown> | undefined;
  if (self(values)) return 'map';
  const either = values?.anyOf as unknown[] | undefined;
  if (either?.some(self) && either.some((branch) => refEnds(branch, 'stringArray'))) return 'map-of-schema-or-names';
  return undefined;
}

const DIALECTS: readonly SchemaDialect[] = ['draft-07', '2020-12'];

describe('the keyword table agrees with Ajv', () => {
  for (const dialect of DIALECTS) {
    const { known, coded } = ajvKeywords(dialect);

    it(`${dialect}: every keyword Ajv knows is in the table with a kind`, () => {
      const missing = [...known].filter((keyword) => !SCHEMA_KEYWORDS.has(keyword));
      expect(missing).toEqual([]);
      for (const keyword of known)
        expect(['annotation', 'applicator', 'validation', 'meta', 'tooling']).toContain(info(keyword).kind);
    });

    it(`${dialect}: every keyword Ajv validates with is the dialect's, or an error as Ajv-only (never ignored)`, () => {
      const ignoredThoughEnforced = [...coded.keys()].filter(
        (keyword) => !info(keyword).dialects.includes(dialect) && !info(keyword).ajvMeaning?.includes(dialect),
      );
      expect(ignoredThoughEnforced).toEqual([]);
      // Spot checks on both sides of the rule.
      expect(info('nullable').ajvMeaning).toContain(dialect);
      expect(info('minLength').dialects).toContain(dialect);
    });

    it(`${dialect}: annotations are exactly what Ajv has no code for among the dialect's non-core keywords`, () => {
      const annotations = [...keywordsOfDialect(dialect)].filter((keyword) => info(keyword).kind === 'annotation');
      expect(annotations.filter((keyword) => coded.has(keyword))).toEqual([]);
      const uncoded = [...known].filter(
        (keyword) => !coded.has(keyword) && !['meta', 'tooling'].includes(info(keyword).kind),
      );
      expect(uncoded.sort()).toEqual(
        [...SCHEMA_KEYWORDS]
          .filter(([, row]) => row.kind === 'annotation')
          .map(([keyword]) => keyword)
          .sort(),
      );
    });

    it(`${dialect}: every keyword of the dialect is known to Ajv's class for it (but 2020-12's $anchor, which Ajv resolves without a keyword)`, () => {
      const unknown = [...keywordsOfDialect(dialect)].filter((keyword) => !known.has(keyword));
      expect(unknown).toEqual(dialect === '2020-12' ? ['$anchor'] : []);
    });

    it(`${dialect}: subschema positions match the schema types Ajv's applicators take`, () => {
      const expected: Record<SubschemaPosition, string[]> = {
        schema: ['boolean', 'object'],
        list: ['array'],
        map: ['object'],
        'schema-or-list': dialect === '2020-12' ? ['boolean', 'object'] : ['array', 'boolean', 'object'],
        'map-of-schema-or-names': ['object'],
      };
      const checked: string[] = [];
      for (const [keyword, definition] of coded) {
        const position = info(keyword).subschemas;
        if (position === undefined) continue;
        checked.push(keyword);
        expect([...(definition.schemaType as string[])].sort(), keyword).toEqual(expected[position]);
      }
      expect(checked).toEqual(expect.arrayContaining(['properties', 'items', 'anyOf', 'if', 'then', 'else', 'not']));
    });
  }
});

describe('the keyword table agrees with the meta-schemas', () => {
  it('draft-07: the meta-schema names every keyword of the table, which adds only what it documents', () => {
    const meta = readJson(path.join(ajvRefs, 'json-schema-draft-07.json'));
    const properties = meta.properties as Record<string, unknown>;
    const table = keywordsOfDialect('draft-07');
    expect(Object.keys(properties).filter((keyword) => !table.has(keyword))).toEqual([]);
    const extra = [...table].filter((keyword) => !(keyword in properties)).sort();
    const beyondSpec = [...table].filter((keyword) => info(keyword).beyondSpec?.includes('draft-07'));
    // writeOnly: draft-07 validation §10.3 defines it beside readOnly; its meta-schema lists only readOnly.
    expect(extra).toEqual([...beyondSpec, 'writeOnly'].sort());
    expect(beyondSpec.sort()).toEqual(['$defs', 'deprecated']);
  });

  it('draft-07: every keyword holds subschemas where the meta-schema says so', () => {
    const properties = readJson(path.join(ajvRefs, 'json-schema-draft-07.json')).properties as Record<string, unknown>;
    const positions = Object.fromEntries(
      Object.keys(properties).map((keyword) => [keyword, metaPosition(properties[keyword])]),
    );
    const table = Object.fromEntries(Object.keys(properties).map((keyword) => [keyword, info(keyword).subschemas]));
    expect(table).toEqual(positions);
    expect(positions.items).toBe('schema-or-list');
    expect(positions.dependencies).toBe('map-of-schema-or-names');
  });

  it('2020-12: the meta-schema and its vocabularies name every keyword of the table, and their positions agree', () => {
    const dir = path.join(ajvRefs, 'json-schema-2020-12');
    const files = ['schema.json', ...readdirSync(path.join(dir, 'meta')).map((file) => `meta/${file}`)];
    const properties: Record<string, unknown> = {};
    for (const file of files) Object.assign(properties, readJson(path.join(dir, file)).properties);
    const table = keywordsOfDialect('2020-12');
    const notInTable = Object.keys(properties)
      .filter((keyword) => !table.has(keyword))
      .sort();
    // The compatibility properties of schema.json that 2020-12 no longer defines: Ajv still applies them, so errors.
    expect(notInTable).toEqual(['$recursiveAnchor', '$recursiveRef', 'dependencies']);
    for (const keyword of notInTable) expect(info(keyword).ajvMeaning).toContain('2020-12');
    expect([...table].filter((keyword) => !(keyword in properties))).toEqual([]);
    for (const keyword of Object.keys(properties)) {
      const fromMeta = metaPosition(properties[keyword]);
      const fromTable = info(keyword).subschemas;
      // 2020-12 `items` is one schema; the table's `schema-or-list` also covers draft-07's tuple form.
      if (keyword === 'items') expect([fromMeta, fromTable]).toEqual(['schema', 'schema-or-list']);
      else expect(fromTable, keyword).toBe(fromMeta);
    }
  });
});
