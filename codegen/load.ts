import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readFileSync,
  realpathSync,
  statSync,
  type Stats,
  type Dirent,
} from 'node:fs';
import path from 'node:path';
import {
  findNodeAtLocation,
  getLocation,
  parseTree,
  printParseErrorCode,
  visit,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import type { Problem } from './model.js';
import { compareStrings } from '../src/manifest-targets/build.js';
import { formatPointer, parsePointer } from '../src/schema/json-pointer.js';

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
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/**
 * Where a JSON pointer points in a file: the property key when `atKey` (so an unknown field is
 * reported at its name), else the value; the nearest existing parent when the pointer is missing.
 */
export function positionOf(source: SourceFile, pointer: string, atKey = false): { line: number; column: number } {
  if (!source.tree) return { line: 1, column: 1 };
  const segments: (string | number)[] = parsePointer(pointer).map((segment) =>
    /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment,
  );
  for (let length = segments.length; length >= 0; length--) {
    const node = findNodeAtLocation(source.tree, segments.slice(0, length));
    if (node) {
      const target =
        atKey && length === segments.length && node.parent?.type === 'property' ? node.parent.children![0]! : node;
      return lineColumn(source.text, target.offset);
    }
  }
  return { line: 1, column: 1 };
}

/** A problem with a whole file, folder or side, placed at its start. */
export function fileProblem(file: string, message: string, hint: string): Problem {
  return { file, line: 1, column: 1, pointer: '', message, hint };
}

/** Builds a problem located at a pointer of a file. */
export function problemAt(source: SourceFile, pointer: string, message: string, hint?: string, atKey = false): Problem {
  const position = positionOf(source, pointer, atKey);
  return { file: source.file, ...position, pointer, message, ...(hint === undefined ? {} : { hint }) };
}

/** True for a name the generator reads: a definition (`*.tool.json`) or a shared schema (`*.schema.json`). */
function isDefinitionName(name: string): boolean {
  return name.endsWith('.tool.json') || name.endsWith('.schema.json');
}

/** What `scanSchemasFolder` found: definition paths (relative, unsorted) and paths it could not walk. */
export interface FolderScan {
  files: string[];
  /** Folders that cannot be read, folder links that loop, links out of the project: relative path, why, what to do. */
  unreadable: { relPath: string; message: string; hint: string }[];
}

/** Why a link in the schemas folder is not followed: the same rule as a `$ref` (ref-bundling.ts), nothing outside is read. */
const OUTSIDE_HINT =
  'toolsmith reads nothing outside the project folder, as a $ref may not point outside it: copy the file or folder into the project, or link to one inside it';

/**
 * Every `*.tool.json` and `*.schema.json` under `dir`, whatever kind of entry carries the name (a
 * FIFO, a link, a folder so named): `readRegularFile` decides later whether it can be read. Links
 * to folders are followed, each real folder once; one that leads back to a folder being walked is
 * reported instead of followed forever. A link whose target is outside `projectRoot` (and outside
 * `dir` itself, wherever the config put it) is reported, never followed nor read.
 */
export function scanSchemasFolder(dir: string, projectRoot: string): FolderScan {
  const scan: FolderScan = { files: [], unreadable: [] };
  // A folder that cannot be walked.
  const unwalked = (relPath: string, message: string) =>
    scan.unreadable.push({ relPath, message, hint: 'fix or remove it: the definitions below it would be missed' });
  const within = [projectRoot, dir].map((folder) => realPath(folder) ?? path.resolve(folder));
  // A link is followed only to inside the project: its target's real path, when it has one.
  const outside = (absolute: string, rel: string): boolean => {
    const real = realPath(absolute);
    if (real === undefined) return false; // a dangling or looping link: `readRegularFile` says which
    const inside = within.some((folder) => {
      const relative = path.relative(folder, real);
      return !relative.startsWith('..') && !path.isAbsolute(relative);
    });
    if (!inside) {
      const message = `not read: it is a symbolic link that points outside the project folder (to ${readlinkSync(absolute)})`;
      scan.unreadable.push({ relPath: rel, message, hint: OUTSIDE_HINT });
    }
    return !inside;
  };
  const walk = (folder: string, prefix: string, ancestors: ReadonlySet<string>) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      unwalked(prefix, `the folder cannot be read (${errorCode(error)})`);
      return;
    }
    for (const entry of entries) {
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      const absolute = path.join(folder, entry.name);
      if (entry.isSymbolicLink() && outside(absolute, rel)) continue;
      if (isDefinitionName(entry.name)) {
        scan.files.push(rel);
        continue;
      }
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      let real: string;
      try {
        real = realpathSync(absolute);
      } catch (error) {
        // A link that dangles or loops, without a definition's name, is not ours to read.
        if (!entry.isSymbolicLink()) unwalked(rel, `the folder cannot be read (${errorCode(error)})`);
        continue;
      }
      if (entry.isSymbolicLink() && statSync(real, { throwIfNoEntry: false })?.isDirectory() !== true) continue;
      if (ancestors.has(real))
        unwalked(rel, 'the folder link leads back to a folder that contains it (a loop); it is not followed');
      else walk(absolute, rel, new Set([...ancestors, real]));
    }
  };
  walk(dir, '', new Set([within[1]!]));
  return scan;
}

/** The real path of an entry, or undefined for a link that dangles or loops, or an entry that cannot be read. */
function realPath(entry: string): string | undefined {
  try {
    return realpathSync(entry);
  } catch {
    return undefined;
  }
}

/**
 * The bytes of a regular file, or why it is not one. The file is opened non-blocking (a FIFO would
 * otherwise wait for a writer forever) and checked with `fstat` on the opened descriptor, so the
 * check and the read are about the same file. Links to regular files are followed.
 */
export function readRegularFile(file: string): { bytes: Buffer } | { error: string; hint: string } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return openError(file, error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      return {
        error: `it is ${kindOf(stats)}, not a regular file`,
        hint: 'only regular files are read (links to them are followed): replace it with one or move it away',
      };
    return { bytes: readFileSync(fd) };
  } catch (error) {
    return { error: `it cannot be read (${errorCode(error)})`, hint: "check the file's permissions" };
  } finally {
    closeSync(fd);
  }
}

/** Why a file cannot be opened and what to do, by error code (`ENOENT` is told apart in `openError`). */
const OPEN_ERRORS: Readonly<Record<string, { error: string; hint: string }>> = {
  ELOOP: { error: 'it is a symbolic link that loops (ELOOP)', hint: 'point the link at a regular file or remove it' },
  EISDIR: {
    error: 'it is a folder, not a regular file',
    hint: 'rename the folder: only files may end in .tool.json or .schema.json',
  },
  EACCES: { error: 'it cannot be read (EACCES)', hint: "check the file's permissions" },
  EPERM: { error: 'it cannot be read (EPERM)', hint: "check the file's permissions" },
};

function openError(file: string, error: unknown): { error: string; hint: string } {
  const code = errorCode(error);
  if (code === 'ENOENT')
    return lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()
      ? {
          error: 'it is a symbolic link to a file that does not exist (ENOENT)',
          hint: 'point the link at a regular file or remove it',
        }
      : { error: 'it disappeared while it was read (ENOENT)', hint: 'run the generator again' };
  return (
    OPEN_ERRORS[code] ?? {
      error: `it cannot be opened (${code})`,
      hint: 'definitions and shared schemas must be regular files',
    }
  );
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** The code of a file-system error (`ENOENT`, `EACCES`, …). */
function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | null | undefined)?.code ?? 'unknown error';
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

/** jsonc-parser read as strict JSON: definition files allow no comments, trailing commas or empty content. */
const STRICT_JSON = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/** Parses one JSON text, keeping positions; syntax errors become problems. */
export function parseSource(relPath: string, file: string, text: string): { source: SourceFile; problems: Problem[] } {
  const kind: SourceFile['kind'] = relPath.endsWith('.tool.json') ? 'tool' : 'shared';
  // A file that cannot be parsed is given no value: its one problem is told at `offset`.
  const unparsed = (offset: number, pointer: string, message: string, hint: string) => ({
    source: { relPath, file, kind, text, value: undefined, tree: undefined },
    problems: [{ file, ...lineColumn(text, offset), pointer, message, hint }],
  });
  const scan = scanJson(text);
  if (scan.tooDeepAt !== undefined)
    // Neither parsed nor given a tree: every parser here would overflow the stack on it.
    return unparsed(
      scan.tooDeepAt,
      pointerAt(text, scan.tooDeepAt),
      `the file nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`,
      'flatten the schema: move deep parts under `definitions` and `$ref` them (generated code, validators and docs must stay within the stack)',
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const errors: ParseError[] = [];
    parseTree(text, errors, STRICT_JSON);
    const [first] = errors;
    const code = first === undefined ? 'InvalidSymbol' : printParseErrorCode(first.error);
    return unparsed(
      first?.offset ?? 0,
      '',
      `invalid JSON: ${JSON_ERRORS[code] ?? code}`,
      'fix the JSON syntax (definition files are strict JSON: no comments, no trailing commas)',
    );
  }
  // Valid JSON: the syntax tree (for positions in messages) is built only if a message needs one.
  let tree: Node | undefined | null = null;
  const source: SourceFile = {
    relPath,
    file,
    kind,
    text,
    value,
    get tree(): Node | undefined {
      if (tree === null) tree = parseTree(text, [], STRICT_JSON);
      return tree;
    },
  };
  // A duplicate key is a problem, but the file is still checked (with JSON.parse's last value), so
  // every other problem in it, and in definitions that use it, is reported in the same run.
  return { source, problems: duplicateKeys(file, text, value, scan.keys) };
}

/**
 * Every key that appears twice in one object, as a problem at the second with the first's position:
 * an editor shows one value and `JSON.parse` keeps the other, so neither can be trusted.
 */
export function duplicateKeys(file: string, text: string, value?: unknown, keysInText?: number): Problem[] {
  // Fast path: as many keys in the text as in the parsed value means no key was repeated.
  if (value !== undefined && (keysInText ?? scanJson(text).keys) === keysInValue(value)) return [];
  const problems: Problem[] = [];
  const open: Map<string, { line: number; column: number }>[] = [];
  visit(
    text,
    {
      onObjectBegin: () => void open.push(new Map()),
      onObjectEnd: () => void open.pop(),
      onObjectProperty: (property, _offset, _length, startLine, startCharacter, pathSupplier) => {
        const keys = open.at(-1)!; // a property is always inside an object
        const first = keys.get(property);
        const at = { line: startLine + 1, column: startCharacter + 1 };
        if (first === undefined) keys.set(property, at);
        else
          problems.push({
            ...at,
            file,
            pointer: formatPointer([...pathSupplier(), property]),
            message: `the key ${JSON.stringify(property)} appears twice in one object (first at ${file}:${first.line}:${first.column}, again here)`,
            hint: 'remove one of them: an editor shows the first value, JSON.parse keeps the last',
          });
      },
    },
    STRICT_JSON,
  );
  return problems;
}

/** Object keys in a parsed JSON value, without recursion (a value may nest thousands deep). */
function keysInValue(root: unknown): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) for (const item of value) stack.push(item);
    else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      count += keys.length;
      for (const key of keys) stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return count;
}

/**
 * Finds and parses `**\/*.tool.json` and `**\/*.schema.json` under `schemasDir`, sorted by path.
 * `projectRoot` only shapes the paths shown in messages.
 */
export function loadDefinitions(schemasDir: string, projectRoot: string): LoadedFiles {
  const loaded: LoadedFiles = { tools: [], shared: [], problems: [] };
  const shown = (relPath: string) => toPosix(path.relative(projectRoot, path.join(schemasDir, relPath))) || '.';
  // A problem with a whole file or folder, at its first line.
  const unread = (relPath: string, message: string, hint: string) =>
    loaded.problems.push(fileProblem(shown(relPath), message, hint));
  let scan: FolderScan;
  try {
    if (!statSync(schemasDir).isDirectory()) throw new Error('not a directory');
    scan = scanSchemasFolder(schemasDir, projectRoot);
  } catch {
    unread(
      '',
      'the schemas folder does not exist or cannot be read',
      'pass --schemas DIR or create the folder (toolsmith init)',
    );
    return loaded;
  }
  for (const { relPath, message, hint } of scan.unreadable) unread(relPath, message, hint);
  for (const relPath of scan.files.sort(compareStrings)) {
    const read = readRegularFile(path.join(schemasDir, relPath));
    if ('error' in read) {
      unread(relPath, `not read: ${read.error}`, read.hint);
      continue;
    }
    const parsed = parseSource(relPath, shown(relPath), read.bytes.toString('utf8'));
    loaded.problems.push(...parsed.problems);
    (parsed.source.kind === 'tool' ? loaded.tools : loaded.shared).push(parsed.source);
  }
  return loaded;
}

/** Backslashes to forward slashes. */
export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/**
 * One pass over a JSON text, outside the parsers, for what they cannot be trusted with: how deep it
 * nests (JSON.parse, jsonc-parser, Ajv, json-schema-to-typescript, ts-morph and prettier all recurse
 * and overflow the stack somewhere between 140 and 5,000 levels) and how many object keys it
 * spells (a parsed value with fewer has lost a duplicate key).
 */
export interface JsonScan {
  /** Object keys in the text: string literals followed by a colon. */
  keys: number;
  /** Offset of the first `{` or `[` opened deeper than the limit, if any. */
  tooDeepAt?: number;
}

/**
 * The deepest nesting a definition or shared schema file may have: objects and arrays inside one
 * another, the file's root being level 1. Measured with one tool per nesting keyword (`properties`,
 * `items`, `additionalProperties`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`,
 * `patternProperties`, `dependencies`, tuple `items`), each nested as deep as a limit allows:
 * generate succeeds at 160 levels and overflows the stack in prettier at 200 (json-schema-to-typescript
 * and ts-morph give out near 300 levels of schema, Ajv near 600, JSON.parse near 5,000); but `tsc`
 * on the generated base classes reports "excessive stack depth" for `anyOf` nested 40 deep (84
 * levels) and passes at 32 (68 levels). 64 keeps every accepted file type-checking.
 */
export const MAX_JSON_DEPTH = 64;

/** Counts keys and finds the first container deeper than `maxDepth` (quotes occur in JSON only around strings). */
export function scanJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonScan {
  let keys = 0;
  let depth = 0;
  let tooDeepAt: number | undefined;
  const length = text.length;
  for (let at = 0; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code === 34) {
      const end = stringEnd(text, at);
      if (end === -1) break;
      if (isKeyEnd(text, end)) keys++;
      at = end;
    } else if (code === 123 || code === 91) {
      depth++;
      if (depth > maxDepth && tooDeepAt === undefined) tooDeepAt = at;
    } else if (code === 125 || code === 93) {
      depth--;
    }
  }
  return tooDeepAt === undefined ? { keys } : { keys, tooDeepAt };
}

/** The offset of the quote that closes the string opened at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let end = start + 1;
  for (;;) {
    end = text.indexOf('"', end);
    if (end === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return end;
    end++;
  }
}

/** True when the string that closes at `end` is a key: a colon follows it, after white space. */
function isKeyEnd(text: string, end: number): boolean {
  let next = end + 1;
  let after = text.charCodeAt(next);
  while (after === 32 || after === 10 || after === 13 || after === 9) after = text.charCodeAt(++next);
  return after === 58;
}

/**
 * The JSON pointer of the value that starts at `offset` in a JSON text. jsonc-parser's `getLocation`
 * stops reading at the offset, so it stays within the stack on a text too deep to parse whole.
 */
export function pointerAt(text: string, offset: number): string {
  return formatPointer(getLocation(text, offset).path);
}
