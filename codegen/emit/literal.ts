/**
 * The escaping helpers for text that reaches generated TypeScript/JavaScript: strings go through
 * `JSON.stringify` (quotes, newlines, backslashes escaped) with U+2028/U+2029 escaped too, whole JSON
 * values through `valueLiteral`, object keys through `objectKey`, comment text through `docText`.
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

/** A key of a type literal or interface (no prototype there to guard): bare when an identifier, else quoted. */
export function typeKey(key: string): string {
  return IDENTIFIER.test(key) ? key : quoted(key);
}

/** Text safe inside a JSDoc description: no `*\/` ends it, every line break is LF, no line starts a tag. */
export function docText(text: string): string {
  return text
    .replace(/\*\//g, '*\\/')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/(^|\n)(\s*)@/g, '$1$2\\@');
}

/** A JSDoc block of `text` (made safe by `docText`), one ` * line` each. */
export function jsDoc(text: string): string {
  return `/**\n${docText(text)
    .split('\n')
    .map((line) => ` * ${line}`.trimEnd())
    .join('\n')}\n */`;
}

/** A key of an object literal: bare when an identifier, quoted otherwise, computed for `__proto__` (which would set the prototype). */
function objectKey(key: string): string {
  return key === '__proto__' ? "['__proto__']" : typeKey(key);
}

/**
 * A JSON value as a TypeScript literal. Laid out in lines from column 0, or from `indent` (the printer
 * indents them to where the literal starts): an object one property per line, an array of scalars on
 * one line, any other array one item per line; or, `inline`, all on one line (`{ a: 1, b: ['x'] }`).
 */
export function valueLiteral(value: unknown, inline = false, indent = ''): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return quoted(value);
  if (typeof value !== 'object') throw new TypeError(`not a JSON value: ${typeof value}`);
  const array = Array.isArray(value);
  const entries = array ? value.map((item) => ['', item] as const) : Object.entries(value);
  const [open, close] = array ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  const oneLine = inline || (array && value.every((item) => item === null || typeof item !== 'object'));
  const inner = `${indent}  `;
  const texts = entries.map(
    ([key, item]) => `${array ? '' : `${objectKey(key)}: `}${valueLiteral(item, oneLine, inner)}`,
  );
  if (oneLine) return array ? `[${texts.join(', ')}]` : `{ ${texts.join(', ')} }`;
  return `${open}\n${texts.map((text) => `${inner}${text},\n`).join('')}${indent}${close}`;
}

/** `import { a, type B } from 'specifier';` (`import type` when `typeOnly`), names in the order given. */
export function importLine(names: readonly string[], specifier: string, typeOnly = false): string {
  return `import ${typeOnly ? 'type ' : ''}{ ${names.join(', ')} } from ${quoted(specifier)};`;
}
