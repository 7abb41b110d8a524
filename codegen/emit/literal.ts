/**
 * The escaping helpers for text that reaches generated TypeScript/JavaScript as a literal. Strings go
 * through `JSON.stringify` (quotes, newlines, backslashes escaped) with U+2028/U+2029 escaped too;
 * whole JSON values are printed by `valueLiteral` (layout.ts), which uses them.
 */

/** A double-quoted string literal, safe in any JS/TS context (also U+2028/U+2029). */
export function stringLiteral(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * A string literal as prettier prints one in our generated TypeScript: single quotes, unless the
 * text holds more single than double quotes. Escapes as `stringLiteral` (JSON's, plus U+2028/9).
 */
export function quoted(text: string): string {
  const json = stringLiteral(text);
  const singles = text.split("'").length - 1;
  const doubles = text.split('"').length - 1;
  if (singles > doubles) return json;
  // JSON escapes every `"` as `\"` and never escapes `'`: swap the two for a single-quoted literal.
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** Longest line of generated TypeScript laid out without prettier (prettier's printWidth there). */
export const PRINT_WIDTH = 120;

/**
 * A bracketed list laid out as prettier would: on the line when `before + list + after` fits in
 * `PRINT_WIDTH`, otherwise one item per line (trailing commas), `indent` being the line's indentation.
 */
export function layoutList(
  items: readonly string[],
  before: string,
  after: string,
  indent = '',
  brackets: readonly [string, string] = ['[', ']'],
): string {
  const [open, close] = brackets;
  const inline = `${indent}${before}${open}${items.join(', ')}${close}${after}`;
  if (inline.length <= PRINT_WIDTH || items.length === 0) return inline;
  // Broken over lines, the brackets lose their inner padding: `{ ` + `a` + ` }` becomes `{`, `  a,`, `}`.
  return `${indent}${before}${open.trimEnd()}\n${items.map((item) => `${indent}  ${item},`).join('\n')}\n${indent}${close.trimStart()}${after}`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A key of a type literal or interface (no prototype there to guard): bare when an identifier, else `quote(key)`. */
export function typeKey(key: string, quote: (text: string) => string = quoted): string {
  return IDENTIFIER.test(key) ? key : quote(key);
}

/** Text for a JSDoc block: no `*\/` can end it early, no line can start a new tag by accident. */
export function jsDoc(text: string): string {
  const lines = text
    .replace(/\*\//g, '*\\/')
    .replace(/[\u2028\u2029]/g, '\n')
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/^(\s*)@/, '$1\\@'));
  return `/**\n${lines.map((line) => ` * ${line}`.trimEnd()).join('\n')}\n */`;
}
