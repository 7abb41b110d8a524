import type { EmitContext, GeneratedFile, ProjectModel } from '../model.js';
import { runtimeSpecifier } from '../naming.js';
import { banner } from './banner.js';
import { layoutList, quoted, stringLiteral } from './literal.js';

/**
 * Emits `registry.ts` (imports every implementation; `createTools()`, the `ToolName` union, the
 * name-indexed `ToolInput<N>` / `ToolOutput<N>` types and a typed client) and `index.ts`
 * re-exporting every generated module.
 */
export function emitRegistry(project: ProjectModel, ctx: EmitContext): GeneratedFile[] {
  const tools = project.tools;
  const stubs = ctx.stubsFromGenerated.replace(/\/$/, '');
  const runtime = runtimeSpecifier('registry.ts', ctx.runtimeImport);
  const lines: string[] = [banner(tools.map((tool) => tool.source.file), ctx)];
  lines.push(`import { ToolClient, type ITool, type ToolCallDefaults, type ToolOrchestrator } from ${quoted(runtime)};`);
  for (const tool of tools) {
    lines.push(layoutList([tool.names.impl], 'import ', ` from ${quoted(`${stubs}/${tool.names.kebab}.js`)};`, '', ['{ ', ' }']));
    lines.push(layoutList([tool.names.inputType, tool.names.outputType], 'import type ', ` from ${quoted(`./types/${tool.names.kebab}.js`)};`, '', ['{ ', ' }']));
  }
  lines.push('');
  lines.push('/** Every tool name, sorted. */');
  lines.push(layoutList(tools.map((tool) => quoted(tool.name)), 'export const toolNames = ', ' as const;'));
  lines.push('');
  lines.push('/** The name of a generated tool. */');
  lines.push('export type ToolName = (typeof toolNames)[number];');
  lines.push('');
  lines.push('/** Input and output types of every tool, by name. */');
  lines.push('export interface ToolTypes {');
  for (const tool of tools) lines.push(`  ${typeKey(tool.name)}: { input: ${tool.names.inputType}; output: ${tool.names.outputType} };`);
  lines.push('}');
  lines.push('');
  lines.push('/** The input type of the tool named `N`. */');
  lines.push("export type ToolInput<N extends ToolName> = ToolTypes[N]['input'];");
  lines.push('');
  lines.push('/** The output type of the tool named `N`. */');
  lines.push("export type ToolOutput<N extends ToolName> = ToolTypes[N]['output'];");
  lines.push('');
  lines.push('/** A new instance of every tool, in name order. */');
  lines.push('export function createTools(): ITool[] {');
  lines.push(layoutList(tools.map((tool) => `new ${tool.names.impl}()`), 'return ', ';', '  '));
  lines.push('}');
  lines.push('');
  lines.push('/** A client whose `call(name, args)` is typed by tool name: wrong arguments do not compile. */');
  lines.push('export function createToolClient(orchestrator: ToolOrchestrator, defaults: ToolCallDefaults): ToolClient<ToolTypes> {');
  lines.push('  return new ToolClient<ToolTypes>(orchestrator, defaults);');
  lines.push('}');
  const registry = `${lines.join('\n')}\n`;

  const index: string[] = [banner(tools.map((tool) => tool.source.file), ctx)];
  for (const shared of project.shared) index.push(`export type * from ${quoted(`./types/${shared.module}.js`)};`);
  for (const tool of tools) {
    index.push(`export type * from ${quoted(`./types/${tool.names.kebab}.js`)};`);
    index.push(`export * from ${quoted(`./validators/${tool.names.kebab}.js`)};`);
    index.push(`export * from ${quoted(`./tools/${tool.names.kebab}.base.js`)};`);
  }
  index.push(`export * from './registry.js';`);
  // Laid out here as prettier would (these files list every tool: prettier took ~1 s on them at 1,000 tools).
  return [
    { path: 'registry.ts', content: registry, kind: 'generated', preformatted: true },
    { path: 'index.ts', content: `${index.join('\n')}\n`, kind: 'generated', preformatted: true },
    ...emitLazyRegistry(project, ctx),
  ];
}

/** A key of the `ToolTypes` interface: bare when the tool name is an identifier. */
function typeKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quoted(name);
}

/**
 * Emits `catalog.ts` (every tool's metadata and bundled schemas as one JSON document, parsed once)
 * and `lazy-registry.ts` (`createLazyTools()`: each tool registered from its catalog entry and
 * imported on its first call). Neither imports an implementation, base class or validator.
 */
function emitLazyRegistry(project: ProjectModel, ctx: EmitContext): GeneratedFile[] {
  const tools = project.tools;
  const stubs = ctx.stubsFromGenerated.replace(/\/$/, '');
  const catalog: Record<string, unknown> = {};
  for (const tool of tools) {
    const entry: Record<string, unknown> = { id: tool.id, name: tool.name, displayName: tool.displayName, description: tool.description };
    entry.requiredCapabilities = tool.requiredCapabilities;
    if (tool.category !== undefined) entry.category = tool.category;
    if (tool.version !== undefined) entry.version = tool.version;
    entry.hasSideEffects = tool.hasSideEffects;
    if (tool.timeoutMs !== undefined) entry.timeoutMs = tool.timeoutMs;
    Object.defineProperty(catalog, tool.name, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  const catalogFile = [
    banner(tools.map((tool) => tool.source.file), ctx),
    `import type { LazyToolMetadata } from '${runtimeSpecifier('catalog.ts', ctx.runtimeImport)}';`,
    `import type { ToolName } from './registry.js';`,
    '',
    '/** Every tool\'s metadata by name (schemas are in schemas/*.json, read when first needed): one JSON document. */',
    `export const toolCatalog: Readonly<Record<ToolName, LazyToolMetadata>> = JSON.parse(${stringLiteral(JSON.stringify(catalog))});`,
    '',
  ].join('\n');
  const lines: string[] = [banner(tools.map((tool) => tool.source.file), ctx)];
  lines.push(`import { readFileSync } from 'node:fs';`);
  lines.push(`import { defineLazyTool, type ITool, type LazyToolSchemas } from ${quoted(runtimeSpecifier('lazy-registry.ts', ctx.runtimeImport))};`);
  lines.push(`import { toolCatalog } from './catalog.js';`);
  lines.push(`import type { ToolName } from './registry.js';`);
  lines.push('');
  lines.push('/** Every tool name and, at the same index, its schemas file under schemas/. */');
  lines.push(layoutList(tools.map((tool) => quoted(tool.name)), 'const names: readonly ToolName[] = ', ';'));
  lines.push(layoutList(tools.map((tool) => quoted(`${tool.names.kebab}.json`)), 'const schemaFiles: readonly string[] = ', ';'));
  lines.push('');
  lines.push('/** Imports one tool\'s implementation: one function, so loading this module creates no closure per tool. */');
  lines.push('async function load(name: ToolName): Promise<ITool> {');
  lines.push('  switch (name) {');
  for (const tool of tools) {
    lines.push(`    case ${quoted(tool.name)}:`);
    lines.push(`      return new (await import(${quoted(`${stubs}/${tool.names.kebab}.js`)})).${tool.names.impl}();`);
  }
  lines.push('  }');
  lines.push('  throw new Error(`unknown tool ${String(name)}`);');
  lines.push('}');
  lines.push('');
  lines.push('/** A tool\'s bundled schemas, read from schemas/<tool>.json the first time they are needed. */');
  lines.push('function readSchemas(file: string): () => LazyToolSchemas {');
  lines.push("  return () => JSON.parse(readFileSync(new URL(`./schemas/${file}`, import.meta.url), 'utf8')) as LazyToolSchemas;");
  lines.push('}');
  lines.push('');
  lines.push('/**');
  lines.push(' * Every tool, registered from its catalog entry and loaded on its first call: registering');
  lines.push(' * loads no implementation, base class or validator, so start-up does not grow with the tools.');
  lines.push(' */');
  lines.push('export function createLazyTools(): ITool[] {');
  lines.push('  return names.map((name, index) =>');
  lines.push('    defineLazyTool(toolCatalog[name], () => load(name), readSchemas(schemaFiles[index]!)),');
  lines.push('  );');
  lines.push('}');
  const schemaFiles: GeneratedFile[] = tools.map((tool) => ({
    path: `schemas/${tool.names.kebab}.json`,
    content: `${JSON.stringify(tool.outputSchema ? { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema } : { inputSchema: tool.inputSchema }, null, 2)}\n`,
    kind: 'generated',
  }));
  return [
    ...schemaFiles,
    // One long line of JSON: prettier would only spend time on it.
    { path: 'catalog.ts', content: catalogFile, kind: 'generated', preformatted: true },
    { path: 'lazy-registry.ts', content: `${lines.join('\n')}\n`, kind: 'generated', preformatted: true },
  ];
}
