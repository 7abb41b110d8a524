/**
 * The types emitter, table-driven with exact expected declarations (before prettier): the declared
 * name is naming.ts's (json-schema-to-typescript never derives one), the args type claims exactly
 * the defaults Ajv fills, `if`/`then`/`else`/`not`/shapeless schemas are typed soundly, and
 * json-schema-to-typescript's own keywords in a schema (`tsType`, `tsEnumNames`) never reach the code.
 */
import type { JSONSchema7 } from 'json-schema';
import { describe, expect, it } from 'vitest';
import { emitToolTypes } from '../../codegen/emit/types.js';
import { makeTool, TEST_CONTEXT } from './model-factory.js';

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ type: 'object', additionalProperties: false, properties, ...extra }) as JSONSchema7;

async function declarations(name: string, inputSchema: JSONSchema7): Promise<string> {
  const { content } = await emitToolTypes(makeTool({ name, inputSchema }), new Map(), TEST_CONTEXT);
  // Drop the banner and the JSDoc of the args type: what is left is the declarations.
  return content
    .replace(/^\/\*\*[\s\S]*?\*\/\n\n/, '')
    .replace(/\/\*\*\n \* The arguments[^\n]*\n \*\/\n/, '')
    .replace(/\n\/\*\* `[^`]+` declares no outputSchema[^\n]*\nexport type \w+Output = unknown;\n$/, '')
    .trim();
}

interface Case {
  name: string;
  tool: string;
  schema: JSONSchema7;
  expected: string;
}

const CASES: Case[] = [
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
      "export interface NestInput {\no?: {\nx?: number\n}\nd?: {\ny?: string\n}\nnone?: string\nnullable?: (string | null)\nviaRef?: unknown\nbranch?: ({\nz?: number\n} | string)\n}\n\nexport type NestArgs = NestInput & Required<Pick<NestInput, 'd' | 'nullable'>> & { d: NonNullable<NestInput['d']> & Required<Pick<NonNullable<NestInput['d']>, 'y'>>; o?: NonNullable<NestInput['o']> & Required<Pick<NonNullable<NestInput['o']>, 'x'>> };",
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
    name: '`not`, an `if` without `else`, shapeless schemas and json-schema-to-typescript keywords',
    tool: 'loose',
    schema: object({
      notNull: { not: { type: 'null' } },
      onlyThen: { type: 'string', if: { minLength: 2 }, then: { pattern: '^a' } },
      bounded: { minimum: 5 },
      described: { description: 'Anything.' },
      hack: { tsType: 'any' },
      named: { enum: [1, 2], tsEnumNames: ['One', 'Two'] },
    } as Record<string, unknown>),
    expected:
      'export interface LooseInput {\nnotNull?: unknown\nonlyThen?: string\nbounded?: unknown\n/**\n * Anything.\n */\ndescribed?: unknown\nhack?: unknown\nnamed?: (1 | 2)\n}\n\nexport type LooseArgs = LooseInput;',
  },
];

describe('emitToolTypes', () => {
  it.each(CASES)('$name', async ({ tool, schema, expected }) => {
    expect(await declarations(tool, schema)).toBe(expected);
  });
});
