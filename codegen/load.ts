import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Problem } from './model.js';
import { compareStrings } from './naming.js';
import { parsePointer } from './problems.js';

/** One parsed JSON file with the source positions of its values. */
export interface SourceFile {
  /** Path relative to the schemas folder (forward slashes). */
  relPath: string;
  /** Path relative to the project root (forward slashes), used in messages. */
  file: string;
  kind: 'tool' | 'shared';
  text: string;
  value: unknown;
  tree: Node | undefined;
}

/** Every definition and shared schema file under the schemas folder. */
export interface LoadedFiles {
  tools: SourceFile[];
  shared: SourceFile[];
  problems: Problem[];
}

/** Line and column (1-based) of an offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Where a JSON pointer points in a file: the property key when `atKey` (so an unknown field is
 * reported at its name), else the value; the nearest existing parent when the pointer is missing.
 */
export function positionOf(source: SourceFile, pointer: string, atKey = false): { line: number; column: number } {
  if (!source.tree) return { line: 1, column: 1 };
  const segments: (string | number)[] = parsePointer(pointer).map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
  for (let length = segments.length; length >= 0; length--) {
    const node = findNodeAtLocation(source.tree, segments.slice(0, length));
    if (node) {
      const target = atKey && length === segments.length && node.parent?.type === 'property' ? node.parent.children![0]! : node;
      return lineColumn(source.text, target.offset);
    }
  }
  return { line: 1, column: 1 };
}

/** Builds a problem located at a pointer of a file. */
export function problemAt(source: SourceFile, pointer: string, message: string, hint?: string, atKey = false): Problem {
  const { line, column } = positionOf(source, pointer, atKey);
  return hint === undefined ? { file: source.file, line, column, pointer, message } : { file: source.file, line, column, pointer, message, hint };
}

/** Every definition (`*.tool.json`) and shared schema (`*.schema.json`) under `dir`, relative, unsorted. */
export function listJsonFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listJsonFiles(path.join(dir, entry.name), rel));
    else if (entry.name.endsWith('.tool.json') || entry.name.endsWith('.schema.json')) out.push(rel);
  }
  return out;
}

const JSON_ERRORS: Record<string, string> = {
  PropertyNameExpected: 'a property name was expected here (a trailing comma?)',
  ValueExpected: 'a value was expected here (a trailing comma?)',
  ColonExpected: 'a colon was expected here',
  CommaExpected: 'a comma was expected here',
  CloseBraceExpected: 'a closing } was expected here',
  CloseBracketExpected: 'a closing ] was expected here',
  EndOfFileExpected: 'the file should end here (a second top-level value?)',
  InvalidSymbol: 'this character cannot start a JSON value',
  UnexpectedEndOfString: 'a string is not closed',
  InvalidCommentToken: 'comments are not allowed in JSON',
};

/** Parses one JSON text, keeping positions; syntax errors become problems. */
export function parseSource(relPath: string, file: string, text: string): { source: SourceFile; problems: Problem[] } {
  const kind = relPath.endsWith('.tool.json') ? 'tool' : 'shared';
  let value: unknown;
  let valid = true;
  try {
    value = JSON.parse(text);
  } catch {
    valid = false;
  }
  if (valid) {
    // Valid JSON: the syntax tree (for positions in messages) is built only if a message needs one.
    let tree: Node | undefined | null = null;
    const source: SourceFile = {
      relPath,
      file,
      kind,
      text,
      value,
      get tree(): Node | undefined {
        if (tree === null) tree = parseTree(text, [], { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
        return tree;
      },
    };
    return { source, problems: [] };
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const source: SourceFile = { relPath, file, kind, text, tree: errors.length > 0 ? undefined : tree, value: undefined };
  if (errors.length > 0) {
    return {
      source,
      problems: errors.slice(0, 1).map((error) => {
        const { line, column } = lineColumn(text, error.offset);
        return {
          file,
          line,
          column,
          pointer: '',
          message: `invalid JSON: ${JSON_ERRORS[printParseErrorCode(error.error)] ?? printParseErrorCode(error.error)}`,
          hint: 'fix the JSON syntax (definition files are strict JSON: no comments, no trailing commas)',
        };
      }),
    };
  }
  source.value = JSON.parse(text);
  return { source, problems: [] };
}

/**
 * Finds and parses `**\/*.tool.json` and `**\/*.schema.json` under `schemasDir`, sorted by path.
 * `projectRoot` only shapes the paths shown in messages.
 */
export function loadDefinitions(schemasDir: string, projectRoot: string): LoadedFiles {
  const problems: Problem[] = [];
  const tools: SourceFile[] = [];
  const shared: SourceFile[] = [];
  let relPaths: string[] = [];
  try {
    if (!statSync(schemasDir).isDirectory()) throw new Error('not a directory');
    relPaths = listJsonFiles(schemasDir).sort(compareStrings);
  } catch {
    problems.push({ file: toPosix(path.relative(projectRoot, schemasDir)) || '.', line: 1, column: 1, pointer: '', message: 'the schemas folder does not exist or cannot be read', hint: 'pass --schemas DIR or create the folder (toolsmith init)' });
    return { tools, shared, problems };
  }
  for (const relPath of relPaths) {
    const absolute = path.join(schemasDir, relPath);
    const file = toPosix(path.relative(projectRoot, absolute));
    const parsed = parseSource(relPath, file, readFileSync(absolute, 'utf8'));
    problems.push(...parsed.problems);
    (parsed.source.kind === 'tool' ? tools : shared).push(parsed.source);
  }
  return { tools, shared, problems };
}

/** Backslashes to forward slashes. */
export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
