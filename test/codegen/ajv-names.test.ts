/**
 * codegen/ajv-names.ts replaces how Ajv's code tree counts its names (the start of its optimization
 * pass) with a faster way that must give the same counts: the generated code of every validator is
 * compared, byte for byte, with the code Ajv's own getter gives — over the field corpus, the
 * examples, a 150-tool bench corpus and every schema of the JSON-Schema-Test-Suite (draft-07).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CodeGen, ValueScope } from 'ajv/dist/compile/codegen/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { AJV_VERSION, useFasterAjvNames, withShippedAjvNames } from '../../codegen/ajv-names.js';
import { createGeneratorAjv, standaloneCode } from '../../codegen/ajv.js';
import { compileToolValidators } from '../../codegen/emit/validators.js';
import { REPO } from '../helpers/temp-project.js';
import { corpora } from './emit/project.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'toolsmith-ajv-names-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The getter in place on Ajv's block nodes now. */
function namesGetter(): (() => unknown) | undefined {
  const root = (new CodeGen(new ValueScope({ scope: {} })) as unknown as { _root: object })._root;
  return Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Object.getPrototypeOf(root)), 'names')?.get;
}

/** The draft-07 suite's schemas, each as one standalone module (suite options: no coercion, no defaults, no strict). */
function suiteSchemas(): { file: string; schema: unknown }[] {
  const dir = path.join(REPO, 'test/fixtures/json-schema-test-suite/tests/draft7');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) =>
      (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { schema: unknown }[]).map((group) => ({
        file,
        schema: group.schema,
      })),
    );
}

/** The suite schema's standalone code, or undefined when it needs a remote or Ajv rejects it. */
function suiteCode(schema: unknown): string | undefined {
  const ajv = createGeneratorAjv({
    code: true,
    overrides: { strict: false, coerceTypes: false, useDefaults: false, validateSchema: false },
  });
  try {
    ajv.addSchema(schema as object, 'suite');
    ajv.getSchema('suite');
    return standaloneCode(ajv, { validate: 'suite' });
  } catch {
    return undefined;
  }
}

describe("Ajv's names counted the faster way", () => {
  it(`is in place for the pinned Ajv (${AJV_VERSION}), and put back around withShippedAjvNames`, () => {
    const installed = (
      JSON.parse(readFileSync(path.join(REPO, 'node_modules/ajv/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(installed).toBe(AJV_VERSION);
    expect(useFasterAjvNames()).toBe(true);
    const faster = namesGetter();
    expect(faster?.name).toBe('blockNames');
    const shipped = withShippedAjvNames(() => namesGetter());
    expect(shipped).not.toBe(faster);
    expect(namesGetter()).toBe(faster);
  });

  it('gives the code of Ajv’s own getter for every tool of the field corpus, the examples and a bench corpus', () => {
    const { field, examples, bench } = corpora(scratch, 11);
    const tools = [...field.tools, ...examples.tools, ...bench.tools];
    expect(tools.length).toBe(164);
    for (const tool of tools) {
      const expected = withShippedAjvNames(() => compileToolValidators(tool));
      expect(compileToolValidators(tool), tool.source.file).toBe(expected);
    }
  }, 120_000);

  it('gives the code of Ajv’s own getter for every schema of the JSON-Schema-Test-Suite (draft-07)', () => {
    let compared = 0;
    for (const { file, schema } of suiteSchemas()) {
      const expected = withShippedAjvNames(() => suiteCode(schema));
      expect(suiteCode(schema), file).toBe(expected);
      if (expected !== undefined) compared++;
    }
    expect(compared).toBeGreaterThan(200);
  }, 120_000);
});
