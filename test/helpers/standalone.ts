import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { createGeneratorAjv, standaloneCode } from '../../codegen/ajv.js';
import { addValidatorSchema } from '../../codegen/ajv.js';
import { toEsm } from '../../codegen/emit/validators.js';
import { REPO } from './temp-project.js';

/** A schema to compile, exported from the standalone module under `exportName`. */
export interface StandaloneEntry {
  exportName: string;
  schema: object | boolean;
}

/** How to build the Ajv instance: option overrides (tests only) and extra documents by URI. */
export interface StandaloneOptions {
  /** Merged over `AJV_OPTIONS` exactly like `createGeneratorAjv({ overrides })` does. */
  overrides?: Options;
  /** Documents added before compiling, keyed by the URI they are referenced by (e.g. the suite's remotes). */
  remotes?: Readonly<Record<string, object>>;
}

/** The Ajv the generator uses (same factory, same options), with the remotes added. */
export function createAjvLikeGenerator(options: StandaloneOptions & { code: boolean }): Ajv {
  const ajv = createGeneratorAjv({
    code: options.code,
    ...(options.overrides ? { overrides: options.overrides } : {}),
  });
  for (const [uri, document] of Object.entries(options.remotes ?? {})) ajv.addSchema(document, uri);
  return ajv;
}

/**
 * The ESM source of one standalone module exporting a validator per entry, built by the generator's
 * own code path: `createGeneratorAjv({ code: true })`, `addValidatorSchema`, Ajv's `standaloneCode`,
 * then `toEsm` (which turns Ajv's leftover `require`s into imports). Throws when a schema does not compile.
 */
function standaloneSource(entries: readonly StandaloneEntry[], options: StandaloneOptions = {}): string {
  const ajv = createAjvLikeGenerator({ ...options, code: true });
  const exports: Record<string, string> = {};
  entries.forEach((entry, index) => {
    const key = `schema-${index}`;
    addValidatorSchema(ajv, entry.schema as never, key);
    exports[entry.exportName] = key;
  });
  return toEsm(standaloneCode(ajv, exports));
}

/**
 * Loads an ES module with Node's own loader, out of reach of vitest's module runner: vitest's
 * CommonJS interop hands `import x from 'ajv/dist/runtime/equal.js'` the inner `default`, which real
 * Node does not, so a module imported through vitest would not behave as it does for users. Node
 * 20.19+ loads a synchronous ES module graph through `require` (and vitest leaves `require` alone).
 */
const nodeRequire = createRequire(import.meta.url);

/** A folder for standalone modules that can resolve `ajv/dist/runtime/*` (the repo's node_modules linked in). */
export interface ModuleDir {
  /** Writes `source` as `<name>.mjs` and imports it as real ESM. */
  load(name: string, source: string): Promise<Record<string, ValidateFunction>>;
  dispose(): void;
}

/** Creates a temp module folder; dispose it after use. */
export function createModuleDir(): ModuleDir {
  const root = mkdtempSync(path.join(tmpdir(), 'toolsmith-standalone-'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  writeFileSync(path.join(root, 'package.json'), '{ "private": true, "type": "module" }\n');
  mkdirSync(path.join(root, 'modules'));
  let counter = 0;
  return {
    async load(name, source) {
      // A fresh file name each time: the module cache must never hand back an older module.
      const file = path.join(root, 'modules', `${name.replace(/[^A-Za-z0-9_-]/g, '_')}-${counter++}.mjs`);
      writeFileSync(file, source);
      return nodeRequire(file) as Record<string, ValidateFunction>;
    },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Compiles entries to one standalone module, writes it and imports it. */
export async function importStandalone(
  dir: ModuleDir,
  name: string,
  entries: readonly StandaloneEntry[],
  options: StandaloneOptions = {},
): Promise<Record<string, ValidateFunction>> {
  return dir.load(name, standaloneSource(entries, options));
}
