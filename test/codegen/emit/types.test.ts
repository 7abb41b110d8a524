/**
 * `emitToolTypes` and `emitSharedTypes`, table-driven with the exact file each writes (before
 * prettier), on models built by `normalize` from definition files: optionality, descriptions as
 * JSDoc, enums/const/null, `additionalProperties`, local and shared definitions (shared types
 * imported, never copied), prototype and quoted property names, empty objects, arrays of objects.
 */
import { describe, expect, it } from 'vitest';
import { emitSharedTypes, emitToolTypes } from '../../../codegen/emit/types.js';
import { type Definitions, EMIT_CONTEXT, projectOf, toolOf, typeHomes } from './project.js';
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
