/**
 * The shared schemas' validators live in one module that every tool validator calls (#17), instead
 * of each tool module carrying its own copy: the same verdicts, errors, defaults and coercion as the
 * tool's own copy gives, on every corpus.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import type { JSONSchema7 } from 'json-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../codegen/generate.js';
import {
  sharedModuleCode,
  SHARED_KEYWORD,
  sharedValidators,
  withSharedCalls,
} from '../../codegen/emit/shared-validators.js';
import { compileToolValidators, indentCode, toEsm } from '../../codegen/emit/validators.js';
import { SHARED_VALIDATORS_FILE } from '../../codegen/naming.js';
import type { ProjectModel, ToolModel } from '../../codegen/model.js';
import { copyJsonValue } from '../../src/schema/walk.js';
import { coerceWhereNeeded } from '../../src/schema/validator-runtime.js';
import { arbitraryFor } from '../helpers/schema-arbitrary.js';
import { createCorpusProject, REPO } from '../helpers/temp-project.js';
import { corpora } from './emit/project.js';
import { makeShared, makeTool } from './model-factory.js';

/** Loads ES modules with Node's own loader (see test/helpers/standalone.ts: vitest's interop differs). */
const nodeRequire = createRequire(import.meta.url);

let scratch: string;
let projects: { field: ProjectModel; examples: ProjectModel; bench: ProjectModel };
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'toolsmith-shared-validators-'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
  writeFileSync(path.join(scratch, 'package.json'), '{ "private": true, "type": "module" }\n');
  projects = corpora(path.join(scratch, 'corpus'), 23);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An error as compared: everything but its `schemaPath` (relative to the shared schema when called there). */
const comparable = (errors: ValidateFunction['errors']) =>
  (errors ?? []).map(({ schemaPath: _schemaPath, ...rest }) => rest);

/** Values for a schema: sampled from it, each object with a property of the wrong type, and the given ones. */
function valuesFor(schema: JSONSchema7, seed: number, given: readonly unknown[]): unknown[] {
  let sampled: unknown[];
  try {
    sampled = fc.sample(arbitraryFor(schema, schema), { numRuns: 30, seed });
  } catch {
    // A reference the sampler does not follow (`$defs`, a nested pointer): any JSON instead.
    sampled = fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 30, seed });
  }
  const wrong: unknown[] = [];
  for (const value of sampled.slice(0, 10)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const key of Object.keys(value).slice(0, 4))
      for (const replacement of ['12', 12, null, true, [], {}])
        wrong.push({ ...(value as Record<string, unknown>), [key]: replacement });
  }
  return [...sampled, ...wrong, ...given];
}

/** Writes a project's modules under `dir`: the shared module, and each tool's with and without it. */
function writeModules(project: ProjectModel, dir: string) {
  const shared = sharedValidators(project.shared);
  if (shared === undefined) return undefined;
  mkdirSync(path.join(dir, 'validators/shared'), { recursive: true });
  mkdirSync(path.join(dir, 'own'), { recursive: true });
  const code = sharedModuleCode(shared);
  if (code !== undefined)
    writeFileSync(path.join(dir, SHARED_VALIDATORS_FILE), indentCode(toEsm(code, undefined, { wrap: false })));
  let calling = 0;
  let ownBytes = 0;
  let sharingBytes = 0;
  for (const tool of project.tools) {
    const sharing = toEsm(compileToolValidators(tool, shared));
    const own = toEsm(compileToolValidators(tool));
    if (sharing.includes('./shared/index.js')) calling++;
    ownBytes += own.length;
    sharingBytes += sharing.length;
    writeFileSync(path.join(dir, 'validators', `${tool.names.kebab}.js`), sharing);
    writeFileSync(path.join(dir, 'own', `${tool.names.kebab}.js`), own);
  }
  return { calling, ownBytes, sharingBytes };
}

/** The validators of a tool, loaded from `dir/folder`. */
function load(dir: string, folder: string, tool: ToolModel) {
  return nodeRequire(path.join(dir, folder, `${tool.names.kebab}.js`)) as Record<string, ValidateFunction>;
}

describe('the shared validator module', () => {
  for (const corpus of ['bench', 'examples', 'field'] as const)
    it(`gives every value of the ${corpus} corpus the verdict, errors, defaults and coercion of the tool's own copy`, () => {
      const project = projects[corpus];
      const dir = path.join(scratch, `modules-${corpus}`);
      const made = writeModules(project, dir);
      if (corpus === 'field' && made === undefined) return expect(project.shared).toEqual([]);
      expect(made).toBeDefined();
      // Not vacuous: most tools that use a shared schema call the module.
      const users = project.tools.filter((tool) =>
        Object.values(tool.definitionOrigins).some((origin) => origin.kind === 'shared'),
      );
      expect(made!.calling).toBeGreaterThan(users.length * 0.8);
      if (corpus === 'bench') expect(made!.sharingBytes).toBeLessThan(made!.ownBytes * 0.8);
      let compared = 0;
      project.tools.forEach((tool, index) => {
        const sharing = load(dir, 'validators', tool);
        const own = load(dir, 'own', tool);
        const sides: [JSONSchema7 | undefined, string, unknown[]][] = [
          [tool.inputSchema, tool.names.inputValidator, tool.examples.map((example) => example.input)],
          [
            tool.outputSchema,
            tool.names.outputValidator,
            tool.examples.flatMap((example) => (example.output === undefined ? [] : [example.output])),
          ],
        ];
        for (const [schema, name, given] of sides) {
          if (schema === undefined) continue;
          const a = own[name]!;
          const b = sharing[name]!;
          const coercedA = coerceWhereNeeded(a);
          const coercedB = coerceWhereNeeded(b);
          for (const value of valuesFor(schema, index + 1, given)) {
            const [x, y] = [copyJsonValue(value), copyJsonValue(value)];
            const verdict = a(x);
            expect(b(y), `${tool.name} ${name} ${JSON.stringify(value)}`).toBe(verdict);
            expect(y).toEqual(x);
            expect(comparable(b.errors)).toEqual(comparable(a.errors));
            const [p, q] = [copyJsonValue(value), copyJsonValue(value)];
            expect(coercedB(q)).toBe(coercedA(p));
            expect(q).toEqual(p);
            compared++;
          }
        }
      });
      expect(compared).toBeGreaterThan(project.tools.length * 30);
    }, 180_000);

  const address: JSONSchema7 = {
    type: 'object',
    required: ['street'],
    properties: { street: { type: 'string', minLength: 1 }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
  };
  const point: JSONSchema7 = { type: 'object', properties: { at: { $ref: '#/definitions/Address' } } };
  const shared = sharedValidators([makeShared('address', 'Address', address), makeShared('point', 'Point', point)])!;
  const tool = (definitions: Record<string, JSONSchema7>, properties: Record<string, JSONSchema7>) =>
    makeTool({
      name: 'shipping',
      inputSchema: { type: 'object', properties, definitions },
    }).inputSchema;

  it('calls a shared schema only where the tool holds it exactly, with every schema it refers to', () => {
    const exact = withSharedCalls(
      tool({ Address: address }, { to: { $ref: '#/definitions/Address' }, local: { $ref: '#/definitions/Address' } }),
      shared,
    );
    expect(exact).toEqual({
      type: 'object',
      properties: { to: { [SHARED_KEYWORD]: 'Address' }, local: { [SHARED_KEYWORD]: 'Address' } },
    });
    // A copy that differs (here: a tool built against another version of the file) stays the tool's.
    const changed = { ...address, required: [] };
    const own = tool({ Address: changed }, { to: { $ref: '#/definitions/Address' } });
    expect(withSharedCalls(own, shared)).toBe(own);
    // Point refers to Address: shared only with the tool's Address shared too.
    const both = withSharedCalls(
      tool({ Address: address, Point: point }, { p: { $ref: '#/definitions/Point' } }),
      shared,
    );
    expect(both).toEqual({ type: 'object', properties: { p: { [SHARED_KEYWORD]: 'Point' } } });
    const pointOnly = withSharedCalls(
      tool({ Address: changed, Point: point }, { p: { $ref: '#/definitions/Point' } }),
      shared,
    );
    expect(pointOnly).toEqual(tool({ Address: changed, Point: point }, { p: { $ref: '#/definitions/Point' } }));
  });

  it('compiles a leaf shared schema into the tool (Ajv inlines it: a call would cost more), and drops a copy only a called one used', () => {
    const code: JSONSchema7 = { type: 'string', pattern: '^[A-Z]{3}$' };
    const money: JSONSchema7 = {
      type: 'object',
      properties: { amount: { type: 'number' }, currency: { $ref: '#/definitions/Code' } },
    };
    const withLeaf = sharedValidators([makeShared('code', 'Code', code), makeShared('money', 'Money', money)])!;
    const leafOnly = tool({ Code: code }, { c: { $ref: '#/definitions/Code' } });
    expect(withSharedCalls(leafOnly, withLeaf)).toBe(leafOnly);
    expect(
      withSharedCalls(tool({ Code: code, Money: money }, { price: { $ref: '#/definitions/Money' } }), withLeaf),
    ).toEqual({ type: 'object', properties: { price: { [SHARED_KEYWORD]: 'Money' } } });
    expect(
      withSharedCalls(
        tool(
          { Code: code, Money: money },
          { price: { $ref: '#/definitions/Money' }, c: { $ref: '#/definitions/Code' } },
        ),
        withLeaf,
      ),
    ).toEqual({
      type: 'object',
      properties: { price: { [SHARED_KEYWORD]: 'Money' }, c: { $ref: '#/definitions/Code' } },
      definitions: { Code: code },
    });
  });

  it('leaves data alone and keeps the copies of a tool that could not share them', () => {
    // A `const` or `default` holding `$ref` text is data, not a reference.
    const data = withSharedCalls(
      tool(
        { Address: address },
        { to: { $ref: '#/definitions/Address' }, raw: { const: { $ref: '#/definitions/Address' } } },
      ),
      shared,
    );
    expect(data.properties!.raw).toEqual({ const: { $ref: '#/definitions/Address' } });
    expect(data.properties!.to).toEqual({ [SHARED_KEYWORD]: 'Address' });
    // A schema that already uses the keyword's name, or an unevaluated keyword: its own copies.
    for (const extra of [{ [SHARED_KEYWORD]: 'x' } as JSONSchema7, { unevaluatedProperties: false } as JSONSchema7]) {
      const schema = tool({ Address: address }, { to: { $ref: '#/definitions/Address' }, other: extra });
      expect(withSharedCalls(schema, shared)).toBe(schema);
    }
  });

  it('is not made for 2020-12 shared schemas; holds only the schemas a tool may call that Ajv compiles', () => {
    expect(
      sharedValidators([
        makeShared('a', 'A', { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' }),
      ]),
    ).toBeUndefined();
    expect(sharedValidators([])).toBeUndefined();
    const broken = { type: 'object', properties: { a: { type: 'no-such-type' } } } as never;
    const mixed = sharedValidators([
      makeShared('address', 'Address', address),
      makeShared('broken', 'Broken', broken),
      makeShared('code', 'Code', { type: 'string', pattern: '^[A-Z]+$' }),
    ])!;
    const code = toEsm(sharedModuleCode(mixed)!);
    expect([...code.matchAll(/^export const (\w+) =/gm)].map((match) => match[1])).toEqual(['validateAddress']);
    // A tool that calls the schema Ajv rejects is that tool's problem, as with its own copy.
    const user = makeTool({
      name: 'uses_broken',
      inputSchema: {
        type: 'object',
        properties: { b: { $ref: '#/definitions/Broken' } },
        definitions: { Broken: broken },
      },
    });
    expect(() => compileToolValidators(user, mixed)).toThrow(/no-such-type/);
    expect(() => compileToolValidators(user)).toThrow(/no-such-type/);
    // Only leaves, or nothing that compiles: no module.
    const leaves = sharedValidators([makeShared('code', 'Code', { type: 'string', pattern: '^[A-Z]+$' })])!;
    expect(sharedModuleCode(leaves)).toBeUndefined();
  });

  it('is made again by every regenerate: after a tool changed, the file edited by hand, a shared schema changed', async () => {
    const project = createCorpusProject(12);
    try {
      const options = { root: project.root, runtimeImport: project.runtimeImport, workers: 1 };
      const file = path.join(project.root, 'generated/validators/shared/index.js');
      const run = async () => {
        const report = await generate(options);
        expect(report.problems).toEqual([]);
        // What every run left is what a fresh check makes.
        const check = await generate({ ...options, check: true });
        expect(check.diff).toMatchObject({ stale: [], missing: [], extra: [] });
        return report;
      };
      const edit = (relPath: string, change: (value: Record<string, unknown>) => Record<string, unknown>) => {
        const full = path.join(project.root, 'schemas', relPath);
        writeFileSync(full, `${JSON.stringify(change(JSON.parse(readFileSync(full, 'utf8'))), null, 2)}\n`);
      };
      const tools = readdirSync(path.join(project.root, 'schemas'), { recursive: true, encoding: 'utf8' })
        .filter((entry) => entry.endsWith('.tool.json'))
        .sort();
      await run();
      const written = readFileSync(file, 'utf8');
      edit(tools[0]!, (value) => ({ ...value, description: `${value.description} Changed once.` }));
      expect((await run()).reused).toBe(11);
      expect(readFileSync(file, 'utf8')).toBe(written);
      // Edited by hand: restored.
      writeFileSync(file, 'export const broken = true;\n');
      edit(tools[1]!, (value) => ({ ...value, description: `${value.description} Changed again.` }));
      await run();
      expect(readFileSync(file, 'utf8')).toBe(written);
      // A shared schema changed: its new text.
      const shared = readdirSync(path.join(project.root, 'schemas/common')).sort()[0]!;
      edit(`common/${shared}`, (value) => ({ ...value, description: 'Changed for the test.' }));
      await run();
      expect(readFileSync(file, 'utf8')).not.toBe(written);
    } finally {
      project.dispose();
    }
  }, 120_000);
});
