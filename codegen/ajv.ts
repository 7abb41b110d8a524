import { Ajv, type Options } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { AJV_OPTIONS, EXTENSION_KEYWORD } from '../src/ajv-options.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Formats the validators know (ajv-formats' full set); any other `format` is an error. */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set(Object.keys(fullFormats));

/**
 * An Ajv configured exactly like the runtime, emitting ESM standalone code when `code` is set.
 * `overrides` is for tests only (the JSON-Schema-Test-Suite needs no coercion, no defaults, no strict mode).
 */
export function createGeneratorAjv(options: { code?: boolean; overrides?: Options } = {}): Ajv {
  const ajv = new Ajv({
    ...AJV_OPTIONS,
    ...options.overrides,
    ...(options.code ? { code: { source: true, esm: true, lines: true, optimize: true } } : {}),
  });
  addFormats(ajv);
  return ajv;
}

/** Declares every `x-` keyword found in a schema as an annotation, so strict mode accepts it. */
export function allowExtensionKeywords(ajv: Ajv, keywords: Iterable<string>): void {
  for (const keyword of keywords) {
    if (EXTENSION_KEYWORD.test(keyword) && !ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  }
}

type StandaloneCode = typeof standaloneModule.default;

/** Ajv's standalone code generator (a CommonJS module whose default export TypeScript sees as the module). */
export const standaloneCode: StandaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ?? standaloneModule) as StandaloneCode;
