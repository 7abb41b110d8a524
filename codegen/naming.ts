import type { ToolNames } from './model.js';

/** The pattern a tool name must match (the definition format's rule, before any target's own). */
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** Splits a name into lower-case words: `webSearch`, `web_search`, `Web-Search` → [web, search]. */
export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** `web_search` → `WebSearch`; a leading digit gets an underscore so the result is an identifier. */
export function toPascalCase(name: string): string {
  const pascal = splitWords(name)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
  if (pascal === '') return '_';
  return /^[0-9]/.test(pascal) ? `_${pascal}` : pascal;
}

/** `web_search` → `webSearch`. */
export function toCamelCase(name: string): string {
  const pascal = toPascalCase(name);
  return pascal.startsWith('_') ? pascal : pascal[0]!.toLowerCase() + pascal.slice(1);
}

/** `WebSearch` → `web-search`. */
export function toKebabCase(name: string): string {
  return splitWords(name).join('-') || '_';
}

/** `web_search` → `Web Search`. */
export function toDisplayName(name: string): string {
  return splitWords(name)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * Every generated identifier and file stem of one tool; `typeName` (the definition's optional
 * field) replaces the name they are derived from, for two tools whose names differ only in case
 * or separators.
 */
export function toolNames(toolName: string, typeName?: string): ToolNames {
  if (typeName !== undefined) {
    const names = toolNames(typeName);
    return { ...names, pascal: typeName, camel: typeName[0]!.toLowerCase() + typeName.slice(1), inputType: `${typeName}Input`, outputType: `${typeName}Output`, inputValidator: `validate${typeName}Input`, outputValidator: `validate${typeName}Output`, base: `${typeName}ToolBase`, impl: `${typeName}Tool` };
  }
  const pascal = toPascalCase(toolName);
  return {
    pascal,
    camel: toCamelCase(toolName),
    kebab: toKebabCase(toolName),
    inputType: `${pascal}Input`,
    outputType: `${pascal}Output`,
    inputValidator: `validate${pascal}Input`,
    outputValidator: `validate${pascal}Output`,
    base: `${pascal}ToolBase`,
    impl: `${pascal}Tool`,
  };
}

/** Type name of a shared schema file: `shared/geo-point.schema.json` → `GeoPoint`. */
export function sharedRootTypeName(relPath: string): string {
  const base = relPath.split('/').pop()!.replace(/\.schema\.json$/, '');
  return toPascalCase(base);
}

/** Module stem of a shared schema file: `shared/geo-point.schema.json` → `shared/geo-point`. */
export function sharedModuleStem(relPath: string): string {
  const parts = relPath.replace(/\.schema\.json$/, '').split('/');
  return parts.map((part) => toKebabCase(part)).join('/');
}

/** Type name of a definition: shared ones keep their own name, a tool's own get the tool's prefix. */
export function definitionTypeName(key: string, toolPascal?: string): string {
  const own = toPascalCase(key);
  if (toolPascal === undefined || own.startsWith(toolPascal)) return own;
  return `${toolPascal}${own}`;
}

/** Plain code-unit comparison, for byte-stable ordering (never `localeCompare`). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A relative import specifier from one generated file to another path (both relative to one root). */
export function relativeImport(fromFile: string, toPath: string): string {
  const fromParts = fromFile.split('/').slice(0, -1);
  const toParts = toPath.split('/');
  let common = 0;
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++;
  const up = fromParts.length - common;
  const rest = toParts.slice(common).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

/**
 * Where `fromFile` (relative to the generated root) imports the runtime from: a bare specifier as
 * is; a relative one (given relative to the generated root) re-based onto the file's folder.
 */
export function runtimeSpecifier(fromFile: string, runtimeImport: string): string {
  if (!runtimeImport.startsWith('.')) return runtimeImport;
  const depth = fromFile.split('/').length - 1;
  const trimmed = runtimeImport.replace(/^\.\//, '');
  if (depth > 0) return `${'../'.repeat(depth)}${trimmed}`;
  return trimmed.startsWith('../') ? trimmed : `./${trimmed}`;
}
