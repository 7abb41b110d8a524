import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { compile } from 'json-schema-to-typescript';
import { format } from 'prettier';
import { PRETTIER_OPTIONS as PRETTIER } from '../emit/format.js';
import { CONFIG_SCHEMA } from './config-schema.js';
import { standaloneCode } from '../ajv.js';

/** The repository root (this file lives in `codegen/config/`). */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const BANNER = (what: string) =>
  `// ${what}, generated from codegen/config/config-schema.ts by \`npm run config-schema\`. Do not edit.\n`;

/**
 * The files derived from `CONFIG_SCHEMA`, path (relative to the repository) → content: the shipped
 * JSON schema, the `ToolsmithConfig` type, and the Ajv standalone validator (so the CLI checks a
 * config without loading Ajv's compiler). Pure: the test compares them with the committed files.
 */
export async function configArtifacts(): Promise<Map<string, string>> {
  const { title: _title, ...untitled } = CONFIG_SCHEMA;
  const type = await compile(structuredClone(untitled) as never, 'ToolsmithConfig', {
    bannerComment: '',
    additionalProperties: false,
    format: false,
    unknownAny: true,
  });
  // Ajv's `unicode: false` counts UTF-16 units for `minLength` (the only length here is `minLength: 1`,
  // which is the same either way) and so needs no runtime helper: the module has no import at all.
  const ajv = new Ajv({
    allErrors: true,
    unicode: false,
    strict: true,
    code: { source: true, esm: true, lines: true },
    logger: {
      log: () => undefined,
      warn: (message: unknown) => {
        if (!String(message).startsWith('DEPRECATED: option unicode')) throw new Error(String(message));
      },
      error: (message: unknown) => {
        throw new Error(String(message));
      },
    },
  });
  const validator = standaloneCode(ajv, ajv.compile(structuredClone(CONFIG_SCHEMA) as never));
  if (/\brequire\(/.test(validator))
    throw new Error('the config validator needs a runtime helper: keep it import-free');
  const validatorModule = `${BANNER('The Ajv standalone validator of toolsmith.config.*')}// @ts-nocheck\n${validator.replace(/^"use strict";/, '')}`;
  const typescript = (code: string) => format(code, { ...PRETTIER, parser: 'typescript' });
  return new Map([
    ['toolsmith.config.schema.json', await format(JSON.stringify(CONFIG_SCHEMA), { ...PRETTIER, parser: 'json' })],
    ['codegen/config/generated/config-type.ts', await typescript(`${BANNER('The type of toolsmith.config.*')}${type}`)],
    ['codegen/config/generated/config-validator.ts', await typescript(validatorModule)],
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [file, content] of await configArtifacts()) writeFileSync(path.join(REPO, file), content);
}
