import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { SharedSchemaModel, ToolModel, ToolNames } from './model.js';
import { ownValue } from './dictionary.js';
import { formatPointer } from '../src/schema/json-pointer.js';

/** The pattern a tool name must match (the definition format's rule, before any target's own). */
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** The shared validator module under the output folder (a folder: no tool's `validators/<kebab>.js` can be it). */
export const SHARED_VALIDATORS_FILE = 'validators/shared/index.js';

/** Splits a name into lower-case words: `webSearch`, `web_search`, `Web-Search` → [web, search]. */
function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** `web_search` → `WebSearch`; an empty or digit-led result gets an underscore so it is an identifier. */
export function toPascalCase(name: string): string {
  const pascal = capitalizedWords(name).join('');
  return pascal === '' || /^[0-9]/.test(pascal) ? `_${pascal}` : pascal;
}

/** `WebSearch` → `web-search`. */
function toKebabCase(name: string): string {
  return splitWords(name).join('-') || '_';
}

/** `web_search` → `Web Search`. */
export function toDisplayName(name: string): string {
  return capitalizedWords(name).join(' ');
}

function capitalizedWords(name: string): string[] {
  return splitWords(name).map((word) => word[0]!.toUpperCase() + word.slice(1));
}

/**
 * Every generated identifier and file stem of one tool; `typeName` (the definition's optional
 * field) replaces the name they are derived from, for two tools whose names differ only in case
 * or separators.
 */
export function toolNames(toolName: string, typeName?: string): ToolNames {
  const pascal = typeName ?? toPascalCase(toolName);
  const camel = pascal[0]!.toLowerCase() + pascal.slice(1);
  return {
    pascal,
    camel,
    kebab: toKebabCase(typeName ?? toolName),
    inputType: `${pascal}Input`,
    argsType: `${pascal}Args`,
    outputType: `${pascal}Output`,
    inputValidator: `validate${pascal}Input`,
    outputValidator: `validate${pascal}Output`,
    base: `${pascal}ToolBase`,
    impl: `${pascal}Tool`,
    inputSchemaConstant: `${camel}InputSchema`,
    outputSchemaConstant: `${camel}OutputSchema`,
    stepsConstant: `${camel}Steps`,
  };
}

/** Type name of a shared schema file: `shared/geo-point.schema.json` → `GeoPoint`. */
export function sharedRootTypeName(relPath: string): string {
  return toPascalCase(path.posix.basename(relPath, '.schema.json'));
}

/** Module stem of a shared schema file: `shared/geo-point.schema.json` → `shared/geo-point`. */
export function sharedModuleStem(relPath: string): string {
  const parts = relPath.replace(/\.schema\.json$/, '').split('/');
  return parts.map((part) => toKebabCase(part)).join('/');
}

/** The endings of a tool's own type-space names: `<Pascal>Input`, `<Pascal>Args`, `<Pascal>Output`, `<Pascal>Tool`, `<Pascal>ToolBase`. */
const TOOL_TYPE_SUFFIXES: readonly string[] = ['Input', 'Args', 'Output', 'Tool', 'ToolBase'];

/**
 * Type name of a definition: shared ones keep their own name, a tool's own get the tool's prefix
 * (unless they start with it). A tool's own definition that would take one of the tool's names
 * (pydantic's `Input`/`Output`, an `args` model: `FooInput`, `FooOutput`, `FooArgs`; also `Tool`,
 * `ToolBase`) gets the word `Definition` appended (`FooOutputDefinition`) — never a number, and
 * never merged with the tool's type. A name that is then still taken (a definition `OutputDefinition`
 * beside `Output`) is an error naming both, as every collision is.
 */
export function definitionTypeName(key: string, toolPascal?: string): string {
  const own = toPascalCase(key);
  if (toolPascal === undefined) return own;
  const name = own.startsWith(toolPascal) ? own : `${toolPascal}${own}`;
  return TOOL_TYPE_SUFFIXES.some((suffix) => name === `${toolPascal}${suffix}`) ? `${name}Definition` : name;
}

/**
 * Names generated files import from the runtime or declare in the files that list every tool, and
 * global TypeScript names the generated code uses: no tool, definition or shared schema may take one.
 */
const RESERVED_IDENTIFIERS: ReadonlyMap<string, string> = new Map([
  ...[
    'ITool',
    'JSONSchemaObject',
    'ToolExecutionContext',
    'ToolExecutionResult',
    'deepFreeze',
    'ComposedTool',
    'ComposedStep',
    'ValidateFunction',
    'ToolClient',
    'ToolCallDefaults',
    'ToolOrchestrator',
  ].map((name) => [name, `the runtime's \`${name}\`, which generated files import`] as const),
  ...['toolNames', 'ToolName', 'ToolTypes', 'ToolInput', 'ToolOutput', 'createTools', 'createToolClient'].map(
    (name) => [name, `the registry's \`${name}\``] as const,
  ),
  // The globals a types file uses (in `<Pascal>Args`), where a shared or local type of that name would shadow them.
  ...['NonNullable', 'Pick', 'Required'].map(
    (name) => [name, `TypeScript's global \`${name}\`, which generated code uses`] as const,
  ),
]);

/** One generated identifier and what in the definitions it comes from. */
export interface IdentifierClaim {
  identifier: string;
  /** Path relative to the project root of the file it comes from. */
  file: string;
  /** JSON pointer inside that file. */
  pointer: string;
  /** What it names, for messages: e.g. `the input type of "web_search"`. */
  what: string;
}

/** A claim that cannot be honoured: its identifier is already taken. */
export interface IdentifierCollision {
  claim: IdentifierClaim;
  /** The earlier claim, or the reserved name's description. */
  takenBy: IdentifierClaim | string;
}

/**
 * Every identifier one tool's generated files declare and export (through `index.ts`, or the
 * registry's imports): its types, validators, base and implementation classes, schema constants
 * and local definition types. The same definition key in the input and output schemas is one type
 * only when both definitions are the same; otherwise it is a collision (reported by the caller).
 */
export function toolIdentifierClaims(tool: ToolModel): { claims: IdentifierClaim[]; differing: string[] } {
  const { file } = tool.source;
  const { names } = tool;
  const claim = (identifier: string, pointer: string, what: string): IdentifierClaim => ({
    identifier,
    file,
    pointer,
    what: `${what} of "${tool.name}"`,
  });
  const claims = [
    claim(names.inputType, '/inputSchema', 'the input type'),
    claim(names.argsType, '/inputSchema', 'the execute-arguments type'),
    claim(names.outputType, tool.outputSchema ? '/outputSchema' : '/name', 'the output type'),
    claim(names.inputValidator, '/inputSchema', 'the input validator'),
    claim(names.base, '/name', 'the base class'),
    claim(names.impl, '/name', 'the implementation class'),
    claim(names.inputSchemaConstant, '/inputSchema', 'the input schema constant'),
  ];
  if (tool.outputSchema)
    claims.push(
      claim(names.outputValidator, '/outputSchema', 'the output validator'),
      claim(names.outputSchemaConstant, '/outputSchema', 'the output schema constant'),
    );
  if (tool.steps !== undefined) claims.push(claim(names.stepsConstant, '/steps', 'the steps constant'));
  if (tool.errors !== undefined) {
    const failure = failureTypeNames(names);
    claims.push(
      claim(failure.errors, '/errors', 'the declared errors type'),
      claim(failure.failure, '/errors', 'the failure type'),
    );
    for (const error of tool.errors) {
      if (error.data === undefined) continue;
      const data = errorDataNames(names, error.code);
      const pointer = formatPointer(['errors', error.code, 'data']);
      claims.push(
        claim(data.type, pointer, `the data type of the error ${error.code}`),
        claim(data.validator, pointer, `the data validator of the error ${error.code}`),
      );
    }
  }
  const differing: string[] = [];
  const inputDefinitions = tool.inputSchema.definitions ?? {};
  for (const [root, schema] of [
    ['inputSchema', tool.inputSchema],
    ['outputSchema', tool.outputSchema],
  ] as const) {
    for (const [key, definition] of Object.entries(schema?.definitions ?? {})) {
      const origin = ownValue(tool.definitionOrigins, key);
      if (origin?.kind !== 'local') continue;
      // A key of both schemas is one type, claimed at the input schema's.
      if (root === 'outputSchema' && Object.hasOwn(inputDefinitions, key)) {
        if (!isDeepStrictEqual(inputDefinitions[key], definition)) differing.push(key);
      } else
        claims.push(
          claim(origin.typeName, formatPointer([root, 'definitions', key]), `the type of the definition "${key}"`),
        );
    }
  }
  return { claims, differing };
}

/** The generated names of a tool's declared errors: `<Pascal>Errors` (code → data type) and `<Pascal>Failure` (the failure union). */
export function failureTypeNames(names: ToolNames): { errors: string; failure: string } {
  return { errors: `${names.pascal}Errors`, failure: `${names.pascal}Failure` };
}

/** The names of one declared error's data: `RATE_LIMITED` → `<Pascal>RateLimitedData`, `validate<Pascal>RateLimitedData`. */
export function errorDataNames(names: ToolNames, code: string): { type: string; validator: string } {
  const type = `${names.pascal}${toPascalCase(code)}Data`;
  return { type, validator: `validate${type}` };
}

/** The type names a shared schema file declares. */
export function sharedIdentifierClaims(shared: SharedSchemaModel): IdentifierClaim[] {
  return Object.keys(shared.typeNames).map((pointer) => ({
    identifier: shared.typeNames[pointer]!,
    file: shared.source,
    pointer: pointer === '#' ? '' : pointer.slice(1),
    what:
      pointer === '#' ? `the type of the shared schema ${shared.relPath}` : `the type of ${shared.relPath} ${pointer}`,
  }));
}

/**
 * The claims that collide with a reserved name or an earlier claim. Two claims collide when they
 * name the same identifier from different places: generated names are never suffixed (`Foo1`), and
 * two different types are never merged into one.
 */
export function findIdentifierCollisions(claims: readonly IdentifierClaim[]): IdentifierCollision[] {
  const taken = new Map<string, IdentifierClaim>();
  const collisions: IdentifierCollision[] = [];
  for (const claim of claims) {
    const reserved = RESERVED_IDENTIFIERS.get(claim.identifier);
    const earlier = taken.get(claim.identifier);
    if (reserved !== undefined) collisions.push({ claim, takenBy: reserved });
    else if (earlier === undefined) taken.set(claim.identifier, claim);
    else if (earlier.file !== claim.file || earlier.pointer !== claim.pointer)
      collisions.push({ claim, takenBy: earlier });
  }
  return collisions;
}

/** A relative import specifier from one generated file to another path (both relative to one root). */
export function relativeImport(fromFile: string, toPath: string): string {
  const relative = path.posix.relative(path.posix.dirname(fromFile), toPath);
  return relative.startsWith('../') ? relative : `./${relative}`;
}

/**
 * Where `fromFile` (relative to the generated root) imports the runtime from: a bare specifier as
 * is; a relative one (given relative to the generated root) re-based onto the file's folder.
 */
export function runtimeSpecifier(fromFile: string, runtimeImport: string): string {
  if (!runtimeImport.startsWith('.')) return runtimeImport;
  const rebased = path.posix.join('../'.repeat(fromFile.split('/').length - 1), runtimeImport);
  return rebased.startsWith('../') ? rebased : `./${rebased}`;
}
