import type { EmitContext, GeneratedFile, ProjectModel, ToolModel } from '../model.js';
import { failureTypeNames, runtimeSpecifier } from '../naming.js';
import { banner } from './banner.js';
import { layoutList, quoted, typeKey } from './literal.js';

/**
 * Emits `registry.ts` (imports every implementation; `createTools()`, the `ToolName` union, the
 * name-indexed `ToolInput<N>` / `ToolOutput<N>` types and a typed client) and `index.ts`
 * re-exporting every generated module.
 */
export function emitRegistry(project: ProjectModel, ctx: EmitContext): GeneratedFile[] {
  const tools = project.tools;
  const stubs = ctx.stubsFromGenerated.replace(/\/$/, '');
  const runtime = runtimeSpecifier('registry.ts', ctx.runtimeImport);
  const lines: string[] = [
    banner(
      tools.map((tool) => tool.source.file),
      ctx,
    ),
  ];
  lines.push(
    `import { ToolClient, type ITool, type ToolCallDefaults, type ToolOrchestrator } from ${quoted(runtime)};`,
  );
  for (const tool of tools) {
    // One name: prettier keeps the import on one line however long it is.
    lines.push(`import { ${tool.names.impl} } from ${quoted(`${stubs}/${tool.names.kebab}.js`)};`);
    lines.push(
      layoutList(
        tool.errors === undefined
          ? [tool.names.inputType, tool.names.outputType]
          : [failureTypeNames(tool.names).errors, tool.names.inputType, tool.names.outputType],
        'import type ',
        ` from ${quoted(`./types/${tool.names.kebab}.js`)};`,
        '',
        ['{ ', ' }'],
      ),
    );
  }
  lines.push('');
  lines.push('/** Every tool name, sorted. */');
  lines.push(
    layoutList(
      tools.map((tool) => quoted(tool.name)),
      'export const toolNames = ',
      ' as const;',
    ),
  );
  lines.push('');
  lines.push('/** The name of a generated tool. */');
  lines.push('export type ToolName = (typeof toolNames)[number];');
  lines.push('');
  lines.push('/** Input and output types of every tool, by name. */');
  lines.push('export interface ToolTypes {');
  for (const tool of tools) {
    const errors = tool.errors === undefined ? '' : `; errors: ${failureTypeNames(tool.names).errors}`;
    lines.push(
      `  ${typeKey(tool.name)}: { input: ${tool.names.inputType}; output: ${tool.names.outputType}${errors} };`,
    );
  }
  lines.push('}');
  lines.push('');
  lines.push('/** The input type of the tool named `N`. */');
  lines.push("export type ToolInput<N extends ToolName> = ToolTypes[N]['input'];");
  lines.push('');
  lines.push('/** The output type of the tool named `N`. */');
  lines.push("export type ToolOutput<N extends ToolName> = ToolTypes[N]['output'];");
  lines.push('');
  lines.push(...emitToolFactories(tools));
  lines.push('/**');
  lines.push(' * A new instance of every tool, in name order: made by its factory when `factories` has one, else');
  lines.push(' * by `new` without arguments. A tool whose constructor takes arguments (an SMTP client, a database)');
  lines.push(' * must have a factory: leaving it out does not compile.');
  lines.push(' */');
  lines.push('export function createTools(...[factories]: CreateToolsArguments): ITool[] {');
  // One push per tool, not an array literal: TypeScript then checks each instance against ITool
  // instead of building the union of every class (TS2590 "too complex" from about 1,000 tools).
  lines.push('  const tools: ITool[] = [];');
  for (const tool of tools) lines.push(`  tools.push(makeTool(factories, ${quoted(tool.name)}, ${tool.names.impl}));`);
  lines.push('  return tools;');
  lines.push('}');
  lines.push('');
  lines.push('/**');
  lines.push(' * The tools `createTools(factories)` would make with `new` and no arguments although their');
  lines.push(' * constructor declares parameters (its `length`: a parameter without a default counts), in name');
  lines.push(' * order. `toolsmith call` and `serve` refuse to start while any is left, naming them: the tool would');
  lines.push(' * otherwise fail at its first call, on the dependency it never got.');
  lines.push(' */');
  lines.push('export function missingToolFactories(factories?: Partial<Record<string, () => ITool>>): string[] {');
  lines.push('  const missing: string[] = [];');
  // One call per tool, no branch: an `if` per tool is too large for control flow analysis from about 1,500 tools (TS2563).
  for (const tool of tools)
    lines.push(`  noteMissingFactory(missing, factories, ${quoted(tool.name)}, ${tool.names.impl});`);
  lines.push('  return missing;');
  lines.push('}');
  lines.push('');
  lines.push('/** A client whose `call(name, args)` is typed by tool name: wrong arguments do not compile. */');
  lines.push(
    'export function createToolClient(orchestrator: ToolOrchestrator, defaults: ToolCallDefaults): ToolClient<ToolTypes> {',
  );
  lines.push('  return new ToolClient<ToolTypes>(orchestrator, defaults);');
  lines.push('}');
  const registry = `${lines.join('\n')}\n`;

  const index: string[] = [
    banner(
      tools.map((tool) => tool.source.file),
      ctx,
    ),
  ];
  for (const shared of project.shared) index.push(`export type * from ${quoted(`./types/${shared.module}.js`)};`);
  for (const tool of tools) {
    index.push(`export type * from ${quoted(`./types/${tool.names.kebab}.js`)};`);
    index.push(`export * from ${quoted(`./validators/${tool.names.kebab}.js`)};`);
    index.push(`export * from ${quoted(`./tools/${tool.names.kebab}.base.js`)};`);
  }
  index.push(`export * from './registry.js';`);
  // Laid out here as prettier would: these files list every tool, and prettier on them grows with the tool count.
  return [
    { path: 'registry.ts', content: registry, kind: 'generated', preformatted: true },
    { path: 'index.ts', content: `${index.join('\n')}\n`, kind: 'generated', preformatted: true },
    ...emitLazyRegistry(project, ctx),
  ];
}

/**
 * The typed factories of `createTools(factories)`: `ToolClasses` (every implementation class by
 * name), `ToolsWithDependencies` (the names whose constructor needs arguments, decided by the
 * compiler from the user's class, not by the generator) and `ToolFactories`, where those names are
 * required and the others optional; plus `makeTool`, which reads a factory only when it is the
 * object's own property (a tool may be named `constructor`).
 */
function emitToolFactories(tools: readonly ToolModel[]): string[] {
  const lines: string[] = [];
  lines.push("/** Every tool's implementation class, by name. */");
  lines.push('export interface ToolClasses {');
  for (const tool of tools) lines.push(`  ${typeKey(tool.name)}: typeof ${tool.names.impl};`);
  lines.push('}');
  lines.push('');
  lines.push('/** Makes one instance of the tool named `N` (called once per `createTools()`). */');
  lines.push('export type ToolFactory<N extends ToolName> = () => InstanceType<ToolClasses[N]>;');
  lines.push('');
  lines.push('/** The tools whose constructor takes arguments: `createTools` needs a factory for each. */');
  lines.push(
    'export type ToolsWithDependencies = { [N in ToolName]: ToolClasses[N] extends new () => ITool ? never : N }[ToolName];',
  );
  lines.push('');
  lines.push('/** A factory per tool: required for the tools with dependencies, optional for the others. */');
  lines.push(
    'export type ToolFactories = { [N in ToolsWithDependencies]: ToolFactory<N> } & { [N in Exclude<ToolName, ToolsWithDependencies>]?: ToolFactory<N> };',
  );
  lines.push('');
  lines.push("/** `createTools`' arguments: the factories may be left out only when no tool needs one. */");
  lines.push(
    'export type CreateToolsArguments = [ToolsWithDependencies] extends [never] ? [factories?: ToolFactories] : [factories: ToolFactories];',
  );
  lines.push('');
  // Keyed by string, not ToolName: with no tools ToolName is `never`, and a factory looked up by it could not be called.
  lines.push(
    'function makeTool(factories: Partial<Record<string, () => ITool>> | undefined, name: string, ' +
      'implementation: abstract new (...args: never[]) => ITool): ITool {',
  );
  lines.push(
    '  const factory = factories !== undefined && Object.hasOwn(factories, name) ? factories[name] : undefined;',
  );
  lines.push(
    '  // Without a factory the constructor takes no arguments: `CreateToolsArguments` requires one otherwise.',
  );
  lines.push('  return factory !== undefined ? factory() : new (implementation as new () => ITool)();');
  lines.push('}');
  lines.push('');
  lines.push(
    'function noteMissingFactory(missing: string[], factories: Partial<Record<string, () => ITool>> | undefined, ' +
      'name: string, implementation: abstract new (...args: never[]) => ITool): void {',
  );
  lines.push(
    '  if (implementation.length > 0 && (factories === undefined || !Object.hasOwn(factories, name) || factories[name] === undefined)) missing.push(name);',
  );
  lines.push('}');
  lines.push('');
  return lines;
}

/** `schemas/<tool>.json`: a tool's bundled schemas, which the lazy registry reads when first needed (depends on that tool only). */
export function emitToolSchemaFile(tool: ToolModel): GeneratedFile {
  const schemas = tool.outputSchema
    ? { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema }
    : { inputSchema: tool.inputSchema };
  return {
    path: `schemas/${tool.names.kebab}.json`,
    content: `${JSON.stringify(schemas, null, 2)}\n`,
    kind: 'generated',
  };
}

/**
 * Emits `catalog.json` (every tool's metadata by name, read the first time any tool's metadata is
 * asked for) and `lazy-registry.ts` (`createLazyTools()`: each tool registered by its name alone
 * and imported on its first call). Loading the lazy registry reads one short string per tool and
 * no implementation, base class, validator, schema or catalog.
 */
function emitLazyRegistry(project: ProjectModel, ctx: EmitContext): GeneratedFile[] {
  const tools = project.tools;
  const stubs = ctx.stubsFromGenerated.replace(/\/$/, '');
  const catalog: Record<string, unknown> = {};
  for (const tool of tools) {
    const entry: Record<string, unknown> = {
      id: tool.id,
      displayName: tool.displayName,
      description: tool.description,
    };
    entry.requiredCapabilities = tool.requiredCapabilities;
    if (tool.category !== undefined) entry.category = tool.category;
    if (tool.version !== undefined) entry.version = tool.version;
    entry.hasSideEffects = tool.hasSideEffects;
    if (tool.annotations !== undefined) entry.annotations = tool.annotations;
    if (tool.timeoutMs !== undefined) entry.timeoutMs = tool.timeoutMs;
    if (tool.contentTypes !== undefined) entry.contentTypes = tool.contentTypes;
    if (tool.taskSupport !== undefined) entry.taskSupport = tool.taskSupport;
    Object.defineProperty(catalog, tool.name, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  // Tool names are [A-Za-z0-9_-], file stems kebab-case and class names identifiers: none holds `|` or a newline.
  const table = tools.map((tool) => `${tool.name}|${tool.names.kebab}|${tool.names.impl}`).join('\n');
  const lines: string[] = [
    banner(
      tools.map((tool) => tool.source.file),
      ctx,
    ),
  ];
  lines.push(`import { readFileSync } from 'node:fs';`);
  lines.push(
    `import { defineLazyTools, type ITool, type LazyToolMetadata, type LazyToolSchemas, type LazyToolSet } ` +
      `from ${quoted(runtimeSpecifier('lazy-registry.ts', ctx.runtimeImport))};`,
  );
  lines.push("import type { ToolClasses, ToolName, ToolsWithDependencies } from './registry.js';");
  lines.push('');
  lines.push('/**');
  lines.push(' * Every tool, one per line: its name, its file stem (the implementation is');
  lines.push(` * \`${stubs}/<stem>.js\`, the schemas \`schemas/<stem>.json\`) and its implementation class.`);
  lines.push(' * One string, so loading this module costs little however many tools there are.');
  lines.push(' */');
  lines.push(`const TOOLS = ${quoted(table)};`);
  lines.push('');
  lines.push('type Entry = readonly [name: string, stem: string, implementation: string];');
  lines.push("type Catalog = Record<string, Omit<LazyToolMetadata, 'name'>>;");
  lines.push('let catalog: Catalog | undefined;');
  lines.push('');
  lines.push('/**');
  lines.push(" * Imports a tool's implementation module. The specifier is computed, so a bundler does not follow it:");
  lines.push(' * bundle `registry.ts` (`createTools()`, static imports) instead; Node, tsx and vitest load it as is.');
  lines.push(' */');
  lines.push('function importTool(stem: string): Promise<Record<string, new () => ITool>> {');
  lines.push(`  const specifier = \`${stubs}/\${stem}.js\`;`);
  lines.push('  return import(specifier) as Promise<Record<string, new () => ITool>>;');
  lines.push('}');
  lines.push('');
  lines.push(
    '/** How a tool not loaded yet reaches its metadata (catalog.json, read once when first needed), implementation and schemas. */',
  );
  lines.push('const source: LazyToolSet<Entry> = {');
  lines.push('  metadata([name]) {');
  lines.push(
    "    catalog ??= JSON.parse(readFileSync(new URL('./catalog.json', import.meta.url), 'utf8')) as Catalog;",
  );
  lines.push('    return catalog[name]!;');
  lines.push('  },');
  lines.push('  async load([, stem, implementation]) {');
  lines.push('    return new (await importTool(stem))[implementation]!();');
  lines.push('  },');
  lines.push('  schemas([, stem]) {');
  lines.push(
    "    return JSON.parse(readFileSync(new URL(`./schemas/${stem}.json`, import.meta.url), 'utf8')) as LazyToolSchemas;",
  );
  lines.push('  },');
  lines.push('};');
  lines.push('');
  lines.push(
    '/** Makes the tool named `N` on its first call; it may import the implementation itself, to stay lazy. */',
  );
  lines.push(
    'export type LazyToolFactory<N extends ToolName> = () => InstanceType<ToolClasses[N]> | Promise<InstanceType<ToolClasses[N]>>;',
  );
  lines.push('');
  lines.push(
    '/** A factory per tool: required for the tools whose constructor takes arguments, optional for the others. */',
  );
  lines.push(
    'export type LazyToolFactories = { [N in ToolsWithDependencies]: LazyToolFactory<N> } & ' +
      '{ [N in Exclude<ToolName, ToolsWithDependencies>]?: LazyToolFactory<N> };',
  );
  lines.push('');
  lines.push("/** `createLazyTools`' arguments: the factories may be left out only when no tool needs one. */");
  lines.push(
    'export type CreateLazyToolsArguments = [ToolsWithDependencies] extends [never] ? [factories?: LazyToolFactories] : [factories: LazyToolFactories];',
  );
  lines.push('');
  lines.push('/**');
  lines.push(' * Every tool, registered by its name and loaded on its first call: registering loads no');
  lines.push(' * implementation, base class, validator, schema or catalog, so start-up barely grows with the tools.');
  lines.push(
    " * A tool's factory, when `factories` has one, is called instead of its constructor, on that first call.",
  );
  lines.push(' */');
  lines.push('export function createLazyTools(...[factories]: CreateLazyToolsArguments): ITool[] {');
  lines.push(
    "  const entries = TOOLS.split('\\n').filter((line) => line !== '').map((line) => line.split('|') as unknown as Entry);",
  );
  lines.push('  if (factories === undefined) return defineLazyTools(entries, source);');
  lines.push('  const made = factories as Partial<Record<string, () => ITool | Promise<ITool>>>;');
  lines.push('  return defineLazyTools(entries, {');
  lines.push('    ...source,');
  lines.push('    async load(entry) {');
  lines.push('      const factory = Object.hasOwn(made, entry[0]) ? made[entry[0]] : undefined;');
  lines.push('      return factory !== undefined ? await factory() : source.load(entry);');
  lines.push('    },');
  lines.push('  });');
  lines.push('}');
  return [
    { path: 'catalog.json', content: `${JSON.stringify(catalog, null, 2)}\n`, kind: 'generated' },
    // Laid out here (prettier would break the one-line table string, which must stay one literal).
    { path: 'lazy-registry.ts', content: `${lines.join('\n')}\n`, kind: 'generated', preformatted: true },
  ];
}
