/**
 * json-schema-to-typescript's known traps, one regression test each, on one generated project:
 * a `$ref` with a sibling `description` (jstt alone gives a duplicate `Address1`), two subschemas
 * titled `Status` (jstt alone renames one `Status1` silently), index signatures only where
 * `additionalProperties` allows extra keys, `maxItems` not turning `string[]` into a tuple union,
 * shared types imported rather than copied, a root `title` not renaming the type, and a recursive
 * tree node giving a recursive type. Types are read with ts-morph; tsc is the final oracle.
 */
import { Project, type InterfaceDeclaration, type SourceFile } from 'ts-morph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { createTempProject, typeCheck, type TempProject } from '../helpers/temp-project.js';

const ADDRESS = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Postal address',
  description: 'A postal address.',
  type: 'object',
  additionalProperties: false,
  required: ['street'],
  properties: { street: { type: 'string' }, city: { type: 'string' } },
};

const SHIP_ORDER = {
  name: 'ship_order',
  description: 'Ships an order.',
  inputSchema: {
    title: 'Whatever the author called it',
    type: 'object',
    additionalProperties: false,
    required: ['billing', 'tree'],
    properties: {
      billing: { $ref: './shared/address.schema.json', description: 'Where the bill goes.' },
      shipping: { $ref: './shared/address.schema.json', description: 'Where the parcel goes.' },
      status: { title: 'Status', type: 'string', enum: ['open', 'closed'] },
      history: {
        type: 'array',
        items: { title: 'Status', type: 'object', additionalProperties: false, properties: { at: { type: 'string' } } },
      },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
      meta: { type: 'object', additionalProperties: { type: 'string' } },
      open: { type: 'object', properties: { a: { type: 'string' } } },
      anything: { type: 'object', additionalProperties: true },
      closed: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
      tree: { $ref: '#/definitions/TreeNode' },
    },
    definitions: {
      TreeNode: {
        title: 'Node',
        type: 'object',
        additionalProperties: false,
        required: ['label'],
        properties: {
          label: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/definitions/TreeNode' } },
        },
      },
    },
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['to'],
    properties: { to: { $ref: './shared/address.schema.json' } },
  },
};

const TRACK_ORDER = {
  name: 'track_order',
  description: 'Tracks an order.',
  inputSchema: { type: 'object', additionalProperties: false, properties: { id: { type: 'string' } } },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { at: { $ref: './shared/address.schema.json', description: 'Where the parcel is.' } },
  },
};

/** Whitespace-insensitive text of a property's type in an interface. */
function propertyType(iface: InterfaceDeclaration, name: string): string {
  return iface.getPropertyOrThrow(name).getTypeNodeOrThrow().getText().replace(/\s+/g, ' ').replace(/; }/g, ' }');
}

describe("json-schema-to-typescript's traps", () => {
  let project: TempProject;
  let generated: Record<string, string>;
  let shipTypes: SourceFile;
  let input: InterfaceDeclaration;

  beforeAll(async () => {
    project = createTempProject();
    project.write('schemas/shared/address.schema.json', ADDRESS);
    project.write('schemas/ship_order.tool.json', SHIP_ORDER);
    project.write('schemas/track_order.tool.json', TRACK_ORDER);
    // Gemini has no `$ref`: the recursive tree cannot go there.
    project.write('toolsmith.config.json', {
      runtimeImport: project.runtimeImport,
      manifests: { targets: ['mcp', 'openai', 'anthropic'] },
    });
    let stderr = '';
    const code = await main(['generate'], {
      cwd: project.root,
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    generated = project.snapshot('generated');
    const morph = new Project({ useInMemoryFileSystem: true });
    shipTypes = morph.createSourceFile('/ship-order.ts', generated['types/ship-order.ts']!);
    input = shipTypes.getInterfaceOrThrow('ShipOrderInput');
  }, 60_000);

  afterAll(() => project?.dispose());

  const typeFiles = () => Object.entries(generated).filter(([file]) => file.startsWith('types/'));

  it('a $ref with a sibling description is the shared type, with the description as JSDoc (no Address1)', () => {
    for (const [, content] of Object.entries(generated)) expect(content).not.toMatch(/\b(Address|PostalAddress)\d/);
    expect(propertyType(input, 'billing')).toBe('Address');
    expect(propertyType(input, 'shipping')).toBe('Address');
    expect(
      input
        .getPropertyOrThrow('billing')
        .getJsDocs()
        .map((doc) => doc.getDescription().trim()),
    ).toEqual(['Where the bill goes.']);
    expect(
      input
        .getPropertyOrThrow('shipping')
        .getJsDocs()
        .map((doc) => doc.getDescription().trim()),
    ).toEqual(['Where the parcel goes.']);
  });

  it('titles never name or rename a type (no Status, no Status1, no type from a root title)', () => {
    const declared = typeFiles().flatMap(([, content]) =>
      [...content.matchAll(/export (?:interface|type) (\w+)/g)].map((match) => match[1]),
    );
    expect(declared.sort()).toEqual([
      'Address',
      'ShipOrderArgs',
      'ShipOrderInput',
      'ShipOrderOutput',
      'ShipOrderTreeNode',
      'TrackOrderArgs',
      'TrackOrderInput',
      'TrackOrderOutput',
    ]);
    expect(propertyType(input, 'status')).toBe("'open' | 'closed'");
    expect(propertyType(input, 'history')).toBe('{ at?: string }[]');
  });

  it('index signatures exactly where additionalProperties allows extra keys', () => {
    expect(input.getIndexSignatures()).toEqual([]);
    expect(propertyType(input, 'meta')).toBe('{ [k: string]: string }');
    expect(propertyType(input, 'open')).toBe('{ a?: string; [k: string]: unknown }');
    expect(propertyType(input, 'anything')).toBe('{ [k: string]: unknown }');
    expect(propertyType(input, 'closed')).toBe('{ a?: string }');
    expect(shipTypes.getInterfaceOrThrow('ShipOrderTreeNode').getIndexSignatures()).toEqual([]);
    const address = new Project({ useInMemoryFileSystem: true })
      .createSourceFile('/a.ts', generated['types/shared/address.ts']!)
      .getInterfaceOrThrow('Address');
    expect(address.getIndexSignatures()).toEqual([]);
  });

  it('maxItems does not turn an array into a tuple union', () => {
    expect(propertyType(input, 'tags')).toBe('string[]');
  });

  it('shared types are declared once and imported everywhere', () => {
    const declaring = typeFiles()
      .filter(([, content]) => /export (interface|type) Address\b/.test(content))
      .map(([file]) => file);
    expect(declaring).toEqual(['types/shared/address.ts']);
    expect(generated['types/ship-order.ts']).toContain("import type { Address } from './shared/address.js';");
    expect(generated['types/track-order.ts']).toContain("import type { Address } from './shared/address.js';");
    expect(propertyType(shipTypes.getInterfaceOrThrow('ShipOrderOutput'), 'to')).toBe('Address');
  });

  it('a recursive tree node generates a recursive type', async () => {
    const node = shipTypes.getInterfaceOrThrow('ShipOrderTreeNode');
    expect(propertyType(node, 'label')).toBe('string');
    expect(propertyType(node, 'children')).toBe('ShipOrderTreeNode[]');
    expect(node.getPropertyOrThrow('children').hasQuestionToken()).toBe(true);
    expect(propertyType(input, 'tree')).toBe('ShipOrderTreeNode');
    project.write(
      'check/tree.ts',
      `import type { ShipOrderInput } from '../generated/types/ship-order.js';\nexport const ok: ShipOrderInput['tree'] = { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] };\n// @ts-expect-error a child must be a node\nexport const bad: ShipOrderInput['tree'] = { label: 'a', children: [{ children: [] }] };\n`,
    );
    expect(await typeCheck(project, ['generated', 'src', 'check'])).toEqual({ code: 0, output: '' });
  }, 60_000);
});
