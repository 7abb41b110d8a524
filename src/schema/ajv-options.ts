import type { Options } from 'ajv';

/**
 * The one set of Ajv options used everywhere: by the generator for standalone validators and by the
 * runtime when it compiles a hand-written tool's schema. Unknown keywords and formats are errors
 * (they are usually typos); `x-` extension keywords are allowed (see `allowExtensionKeywords`).
 * `ownProperties`: a property named `constructor` or `toString` is present only when the value has
 * it as its own (without it, `required: ["constructor"]` accepts `{}` through the prototype).
 * `coerceTypes: false`: Ajv's coercion converts at every `type` it meets, inside every `anyOf`/`oneOf`
 * branch, even when another branch accepts the value as sent; toolsmith coerces only where a value
 * does not validate as sent (`coerceWhereNeeded` in validator-runtime.ts wraps every validator).
 */
export const AJV_OPTIONS = Object.freeze({
  strict: true,
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allowUnionTypes: true,
  coerceTypes: false,
  useDefaults: true,
  allErrors: true,
  validateFormats: true,
  unicodeRegExp: true,
  ownProperties: true,
} satisfies Options);

/** Matches an `x-` extension keyword, which every schema may carry. */
export const EXTENSION_KEYWORD = /^x-/;
