/**
 * Generated TypeScript laid out as prettier lays it out (the generator's options: width 120, two
 * spaces, single quotes, trailing commas), written directly instead of printed and then formatted.
 * Why: prettier would be most of the time of a full generate (bench/README.md); a file laid out here is
 * handed on `preformatted`. Where a rule here is not sure to match prettier's choice (a head that
 * does not fit its line, a key prettier would unquote), it says so on the `Layout`, and that file
 * goes through prettier. `test/codegen/emit/layout.test.ts` runs prettier over generated
 * files and fails on any byte a file marked exact would change.
 */
import { PRINT_WIDTH, quoted, typeKey } from './literal.js';

/** Whether everything laid out so far is known to be prettier's layout. */
export interface Layout {
  exact: boolean;
}

/** A fresh layout record. */
export function newLayout(): Layout {
  return { exact: true };
}

/** Marks the layout inexact when a line that prettier would break another way is too long. */
export function fitsOrInexact(layout: Layout, width: number): void {
  if (width > PRINT_WIDTH) layout.exact = false;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** An object key as prettier prints it: bare when an identifier, single-quoted otherwise, computed for `__proto__`. */
export function objectKey(key: string, layout: Layout): string {
  if (key === '__proto__') return "['__proto__']";
  // prettier unquotes every ES5 identifier name, Unicode letters included; not decided here.
  if (NON_ASCII.test(key)) layout.exact = false;
  return typeKey(key);
}

/** A number as prettier prints it (JSON's text, `e+` shortened to `e`). */
export function numberText(value: number): string {
  return JSON.stringify(value).replace('e+', 'e');
}

/** A key of at most this width keeps a long string on its line (prettier's "short key": tabWidth + 3). */
const SHORT_KEY = 5;

/**
 * A JSON value as a literal starting at column `head` of a line indented by `indent`, followed on
 * that line by `tail` characters (`,`, `);`). Objects are always expanded (prettier keeps an object
 * expanded when its source is); arrays go on one line when they fit and hold no expanded object.
 */
export function valueLiteral(value: unknown, indent: string, head: number, tail: number, layout: Layout): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'string') return quoted(value);
  if (Array.isArray(value)) return arrayLiteral(value, indent, head, tail, layout);
  if (typeof value === 'object') return objectLiteral(value as Record<string, unknown>, indent, layout);
  throw new TypeError(`not a JSON value: ${typeof value}`);
}

function objectLiteral(value: Record<string, unknown>, indent: string, layout: Layout): string {
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  const inner = `${indent}  `;
  const lines = keys.map((key) => propertyLine(objectKey(key, layout), value[key], inner, layout));
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** `key: value,` at `indent`; a string that does not fit goes under its key (unless the key is short). */
export function propertyLine(key: string, value: unknown, indent: string, layout: Layout): string {
  const head = `${indent}${key}: `;
  if (typeof value === 'string') {
    const text = quoted(value);
    if (head.length + text.length + 1 <= PRINT_WIDTH || key.length < SHORT_KEY) return `${head}${text},`;
    return `${indent}${key}:\n${indent}  ${text},`;
  }
  if (typeof value === 'object' && value !== null) fitsOrInexact(layout, head.length + 1);
  return `${head}${valueLiteral(value, indent, head.length, 1, layout)},`;
}

/** Whether a value holds an expanded object (a non-empty one), which breaks every array around it. */
function holdsExpanded(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsExpanded);
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}

/** An array's text on one line (only called when it holds no expanded object). */
function flatArray(items: readonly unknown[]): string {
  return `[${items.map((item) => (Array.isArray(item) ? flatArray(item) : flatScalar(item))).join(', ')}]`;
}

function flatScalar(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number') return numberText(value);
  if (value === null || typeof value === 'boolean') return String(value);
  return '{}';
}

/** prettier breaks an array of two or more objects, or of two or more arrays, each of more than one entry. */
function breaksAlways(items: readonly unknown[]): boolean {
  if (items.length < 2) return false;
  const arrays = items.every((item) => Array.isArray(item) && item.length > 1);
  const objects = items.every(
    (item) => typeof item === 'object' && item !== null && !Array.isArray(item) && Object.keys(item).length > 1,
  );
  return arrays || objects;
}

function arrayLiteral(items: readonly unknown[], indent: string, head: number, tail: number, layout: Layout): string {
  if (items.length === 0) return '[]';
  if (!holdsExpanded(items) && !breaksAlways(items)) {
    const flat = flatArray(items);
    if (head + flat.length + tail <= PRINT_WIDTH) return flat;
  }
  const inner = `${indent}  `;
  if (items.length > 1 && items.every((item) => typeof item === 'number')) {
    return `[\n${fill(
      items.map((item) => `${numberText(item as number)},`),
      inner,
    )}\n${indent}]`;
  }
  const lines = items.map((item) => `${inner}${valueLiteral(item, inner, inner.length, 1, layout)},`);
  return `[\n${lines.join('\n')}\n${indent}]`;
}

/** prettier's `fill` of an array of numbers: as many per line as fit, each with its comma. */
function fill(parts: readonly string[], indent: string): string {
  const lines: string[] = [];
  let line = `${indent}${parts[0]}`;
  for (const part of parts.slice(1)) {
    if (line.length + 1 + part.length <= PRINT_WIDTH) line += ` ${part}`;
    else {
      lines.push(line);
      line = `${indent}${part}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/**
 * `name(value)` where value is a JSON literal, hugged as prettier hugs a call's last object or array
 * argument: `deepFreeze({` … `})`. `head` is the column the call starts at, `tail` what follows `)`.
 */
export function callWithLiteral(
  callee: string,
  value: unknown,
  indent: string,
  head: number,
  tail: number,
  layout: Layout,
): string {
  const start = head + callee.length + 1;
  const text = valueLiteral(value, indent, start, tail + 1, layout);
  // Hugged only while `callee({` fits; past that prettier may break the argument out.
  if (text.includes('\n')) fitsOrInexact(layout, start + 1);
  return `${callee}(${text})`;
}

/**
 * `callee({ a: x, b: y })` for an object written on one line (identifier values): flat when the
 * line fits, else hugged with one entry per line.
 */
export function callWithFlatObject(
  callee: string,
  entries: readonly string[],
  indent: string,
  head: number,
  tail: number,
  layout: Layout,
): string {
  const object = flatObject(entries, indent, head + callee.length + 1, tail + 1);
  if (object.includes('\n')) fitsOrInexact(layout, head + callee.length + 2);
  return `${callee}(${object})`;
}

/** `{ a: x, b: y }` written on one line: flat when it fits, else one entry per line. */
export function flatObject(entries: readonly string[], indent: string, head: number, tail: number): string {
  const flat = `{ ${entries.join(', ')} }`;
  if (head + flat.length + tail <= PRINT_WIDTH) return flat;
  return `{\n${entries.map((entry) => `${indent}  ${entry},`).join('\n')}\n${indent}}`;
}

/**
 * An import declaration: on one line when it fits (or names one thing), else one name per line (prettier's layout).
 * `names` are printed in the order given.
 */
export function importDeclaration(
  names: readonly string[],
  specifier: string,
  layout: Layout,
  typeOnly = false,
): string {
  const keyword = typeOnly ? 'import type ' : 'import ';
  const from = ` from ${quoted(specifier)};`;
  const inline = `${keyword}{ ${names.join(', ')} }${from}`;
  // prettier never breaks an import of a single name.
  if (inline.length <= PRINT_WIDTH || names.length === 1) return inline;
  fitsOrInexact(layout, Math.max(...names.map((name) => name.length + 3), from.length + 1));
  return `${keyword}{\n${names.map((name) => `  ${name},`).join('\n')}\n}${from}`;
}

/**
 * A JSDoc block at `indent`: `/** text *\/` for one line, else one ` * line` each (trailing spaces
 * trimmed, as prettier trims an indentable block comment). `text` must already be safe in a comment.
 */
export function docBlock(text: string, indent: string): string {
  const lines = text.split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */`;
}

/**
 * A class property or variable with a simple right-hand side (`= 'text'`, `= name`, `= 5`): on one
 * line when it fits; a string that does not goes on the next line, indented (prettier's
 * break-after-operator); any other right-hand side that does not fit is left to prettier.
 */
export function assignmentLine(left: string, right: string, indent: string, layout: Layout): string {
  const line = `${indent}${left} = ${right};`;
  if (line.length <= PRINT_WIDTH) return line;
  if (right.startsWith("'") || right.startsWith('"')) return `${indent}${left} =\n${indent}  ${right};`;
  layout.exact = false;
  return line;
}
