/**
 * `emitToolTypes` and `emitSharedTypes`, table-driven with the exact file each writes (before
 * prettier), on models built by `normalize` from definition files: optionality, descriptions as
 * JSDoc, enums/const/null, `additionalProperties`, local and shared definitions (shared types
 * imported, never copied), prototype and quoted property names, empty objects, arrays of objects;
 * and the declarations alone: the declared name is naming.ts's (json-schema-to-typescript never
 * derives one), the args type claims exactly the defaults Ajv fills, `if`/`then`/`else`/`not`/
 * shapeless schemas are typed soundly, and json-schema-to-typescript's own keywords in a schema
 * (`tsType`, `tsEnumNames`) never reach the code.
 */
import type { JSONSchema7 } from 'json-schema';
import { describe, expect, it } from 'vitest';
import { emitSharedTypes, emitToolTypes } from '../../../codegen/emit/types.js';
import { type Definitions, EMIT_CONTEXT, projectOf, tool, toolOf, typeHomes } from './project.js';
import { banner, closed, lines, TOOL_CASES } from './type-cases.js';

describe('emitToolTypes', () => {
  it.each(TOOL_CASES)('$name', async ({ definitions, tool: name, expected }) => {
    const project = projectOf(definitions);
    const file = await emitToolTypes(toolOf(project, name), typeHomes(project), EMIT_CONTEXT);
    expect(file.path).toBe(`types/${name}.ts`);
    expect(file.kind).toBe('generated');
    expect(file.content).toBe(`${banner(`schemas/${name}.tool.json`)}\n${expected}`);
  });
});

interface SharedCase {
  name: string;
  definitions: Definitions;
  module: string;
  expected: string;
}

const SHARED_CASES: SharedCase[] = [
  {
    name: 'a shared file declares its root and each definition, documented',
    definitions: {
      'shared/geo.schema.json': {
        description: 'A point.',
        ...closed({ lat: { type: 'number' }, label: { $ref: '#/definitions/Label' } }, { required: ['lat'] }),
        definitions: { Label: { type: 'string', description: 'A label.' } },
      },
    },
    module: 'shared/geo',
    expected: [
      lines('/**', ' * A point.', ' */', 'export interface Geo {', 'lat: number', 'label?: Label', '}'),
      lines('/**', ' * A label.', ' */', 'export type Label = string'),
    ].join('\n'),
  },
  {
    name: 'a shared file that refers to another imports its type',
    definitions: {
      'shared/geo.schema.json': closed({ lat: { type: 'number' } }, { required: ['lat'] }),
      'shared/route.schema.json': closed(
        { stops: { type: 'array', items: { $ref: 'geo.schema.json' } }, name: { type: ['string', 'null'] } },
        { required: ['stops'] },
      ),
    },
    module: 'shared/route',
    expected: [
      lines("import type { Geo } from './geo.js';"),
      lines('export interface Route {', 'stops: Geo[]', 'name?: (string | null)', '}'),
    ].join('\n'),
  },
];

describe('emitSharedTypes', () => {
  it.each(SHARED_CASES)('$name', async ({ definitions, module, expected }) => {
    const project = projectOf(definitions);
    const shared = project.shared.find((entry) => entry.module === module)!;
    const file = await emitSharedTypes(shared, typeHomes(project), EMIT_CONTEXT);
    expect(file.path).toBe(`types/${module}.ts`);
    expect(file.content).toBe(`${banner(`schemas/${module}.schema.json`)}\n${expected}`);
  });
});

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ type: 'object', additionalProperties: false, properties, ...extra }) as JSONSchema7;

/** The declarations `emitToolTypes` writes for a tool with this input schema: no banner, no args JSDoc, no output type. */
async function declarations(name: string, inputSchema: JSONSchema7): Promise<string> {
  const project = projectOf({ [`${name}.tool.json`]: tool(name, inputSchema) });
  const { content } = await emitToolTypes(toolOf(project, name), typeHomes(project), EMIT_CONTEXT);
  return content
    .replace(/^\/\*\*[\s\S]*?\*\/\n\n/, '')
    .replace(/\/\*\*\n \* The arguments[^\n]*\n \*\/\n/, '')
    .replace(/\n\/\*\* `[^`]+` declares no outputSchema[^\n]*\nexport type \w+Output = unknown;\n$/, '')
    .trim();
}

interface DeclarationCase {
  name: string;
  tool: string;
  schema: JSONSchema7;
  expected: string;
}

const DECLARATION_CASES: DeclarationCase[] = [
  {
    name: 'a digit before a lower-case letter keeps naming.ts’s spelling (not `Md5SumInput`)',
    tool: 'md5sum',
    schema: object({ text: { type: 'string' } }, { required: ['text'] }),
    expected: 'export interface Md5sumInput {\ntext: string\n}\n\nexport type Md5sumArgs = Md5sumInput;',
  },
  {
    name: 'root defaults are present in the args type; a required one needs nothing',
    tool: 'calc',
    schema: object(
      {
        expression: { type: 'string', default: '1' },
        precision: { type: 'integer', default: 10 },
        'odd-key': { type: 'boolean', default: false },
      },
      { required: ['expression'] },
    ),
    expected:
      "export interface CalcInput {\nexpression: string\nprecision?: number\n\"odd-key\"?: boolean\n}\n\nexport type CalcArgs = CalcInput & Required<Pick<CalcInput, 'odd-key' | 'precision'>>;",
  },
  {
    name: 'nested defaults, a defaulted object, a null default on a non-null schema (not filled), a $ref target’s default (not filled), an anyOf branch’s default (not filled)',
    tool: 'nest',
    schema: object(
      {
        o: object({ x: { type: 'integer', default: 1 } }),
        d: object({ y: { type: 'string', default: 'y' } }, { default: {} }),
        none: { type: 'string', default: null },
        nullable: { type: ['string', 'null'], default: null },
        viaRef: { $ref: '#/definitions/D' },
        branch: { anyOf: [object({ z: { type: 'integer', default: 2 } }), { type: 'string' }] },
      },
      { definitions: { D: { type: 'integer', default: 5 } } },
    ),
    expected:
      "export interface NestInput {\no?: {\nx?: number\n}\nd?: {\ny?: string\n}\nnone?: string\nnullable?: (string | null)\nviaRef?: NestD\nbranch?: ({\nz?: number\n} | string)\n}\n\nexport type NestArgs = NestInput & Required<Pick<NestInput, 'd' | 'nullable'>> & { d: NonNullable<NestInput['d']> & Required<Pick<NonNullable<NestInput['d']>, 'y'>>; o?: NonNullable<NestInput['o']> & Required<Pick<NonNullable<NestInput['o']>, 'x'>> };\n\nexport type NestD = number",
  },
  {
    name: 'if/then/else: the base intersected with Then | Else (branches take the base type; their required names become present properties)',
    tool: 'cond',
    schema: object(
      { kind: { enum: ['a', 'b'] }, a: { type: 'string' }, b: { type: 'number' } },
      {
        required: ['kind'],
        if: { properties: { kind: { const: 'a' } } },
        then: { required: ['a'] },
        else: { required: ['b'] },
      },
    ),
    expected:
      'export type CondInput = (({\na: unknown\n[k: string]: unknown\n} | {\nb: unknown\n[k: string]: unknown\n}) & {\nkind: ("a" | "b")\na?: string\nb?: number\n})\n\nexport type CondArgs = CondInput;',
  },
  {
    name: '`not`, an `if` without `else`, shapeless schemas, json-schema-to-typescript’s `tsEnumNames`',
    tool: 'loose',
    schema: object({
      notNull: { not: { type: 'null' } },
      onlyThen: { type: 'string', if: { minLength: 2 }, then: { pattern: '^a' } },
      bounded: { minimum: 5 },
      described: { description: 'Anything.' },
      named: { enum: [1, 2], tsEnumNames: ['One', 'Two'] },
    } as Record<string, unknown>),
    expected:
      'export interface LooseInput {\nnotNull?: unknown\nonlyThen?: string\nbounded?: unknown\n/**\n * Anything.\n */\ndescribed?: unknown\nnamed?: (1 | 2)\n}\n\nexport type LooseArgs = LooseInput;',
  },
];

describe('emitToolTypes: the declarations', () => {
  it.each(DECLARATION_CASES)('$name', async ({ tool: name, schema, expected }) => {
    expect(await declarations(name, schema)).toBe(expected);
  });

  it('never sees json-schema-to-typescript’s `tsType`: normalize refuses it, naming the keyword', () => {
    expect(() =>
      projectOf({ 'hack.tool.json': tool('hack', object({ a: { type: 'string', tsType: 'any' } })) }),
    ).toThrow('unknown keyword "tsType"');
  });
});
