import { DESCRIPTION_FIELDS } from '../../src/lazy.js';
import { dictionary } from '../dictionary.js';
import type { EmitContext, GeneratedFile, ProjectModel, ToolModel } from '../model.js';
import { failureTypeNames, runtimeSpecifier } from '../naming.js';
import { banner } from './banner.js';
import { layoutList, quoted, typeKey } from './literal.js';

/*
 * The files that list every tool are written as the code they make, a line per tool where they list
 * the tools, and laid out here as prettier would (`preformatted`): prettier on them grows with the
 * tool count (~1 s at 1,000 tools, bench/README.md).
 */

/** `line` of every tool, each ending with a line break. */
function perTool(tools: readonly ToolModel[], line: (tool: ToolModel) => string): string {
  return tools.map((tool) => `${line(tool)}\n`).join('');
}

/** The banner of a file made from every tool, and the blank line under it. */
function listingBanner(tools: readonly ToolModel[], ctx: EmitContext): string {
  const sources = tools.map((tool) => tool.source.file);
  return `${banner(sources, ctx)}\n`;
}

/**
 * Emits `registry.ts` (imports every implementation; `createTools()`, the `ToolName` union, the
 * name-indexed `ToolInput<N>` / `ToolOutput<N>` types and a typed client) and `index.ts`
 * re-exporting every generated module.
 */
export function emitRegistry(project: ProjectModel, ctx: EmitContext): GeneratedFile[] {
  const tools = project.tools;
  const stubs = ctx.stubsFromGenerated.replace(/\/$/, '');
  const runtime = runtimeSpecifier('registry.ts', ctx.runtimeImport);
  const imports = perTool(tools, (tool) => {
    const types =
      tool.errors === undefined
        ? [tool.names.inputType, tool.names.outputType]
        : [failureTypeNames(tool.names).errors, tool.names.inputType, tool.names.outputType];
    // One name: prettier keeps the import on one line however long it is.
    const implementation = `import { ${tool.names.impl} } from ${quoted(`${stubs}/${tool.names.kebab}.js`)};`;
    return `${implementation}\n${layoutList(types, 'import type ', ` from ${quoted(`./types/${tool.names.kebab}.js`)};`, '', ['{ ', ' }'])}`;
  });
  const toolNames = layoutList(
    tools.map((tool) => quoted(tool.name)),
    'export const toolNames = ',
    ' as const;',
  );
  const toolTypes = perTool(tools, (tool) => {
    const errors = tool.errors === undefined ? '' : `; errors: ${failureTypeNames(tool.names).errors}`;
    return `  ${typeKey(tool.name)}: { input: ${tool.names.inputType}; output: ${tool.names.outputType}${errors} };`;
  });
  // One push per tool, not an array literal: TypeScript then checks each instance against ITool
  // instead of building the union of every class (TS2590 "too complex" from about 1,000 tools).
  const pushes = perTool(
    tools,
    (tool) => `  tools.push(makeTool(factories, ${quoted(tool.name)}, ${tool.names.impl}));`,
  );
  // One call per tool, no branch: an `if` per tool is too large for control flow analysis from about 1,500 tools (TS2563).
  const checks = perTool(
    tools,
    (tool) => `  noteMissingFactory(missing, factories, ${quoted(tool.name)}, ${tool.names.impl});`,
  );
  const registry = `${listingBanner(tools, ctx)}import { ToolClient, type ITool, type ToolCallDefaults, type ToolOrchestrator } from ${quoted(runtime)};
${imports}
/** Every tool name, sorted. */
${toolNames}

/** The name of a generated tool. */
export type ToolName = (typeof toolNames)[number];

/** Input and output types of every tool, by name. */
export interface ToolTypes {
${toolTypes}}

/** The input type of the tool named \`N\`. */
export type ToolInput<N extends ToolName> = ToolTypes[N]['input'];

/** The output type of the tool named \`N\`. */
export type ToolOutput<N extends ToolName> = ToolTypes[N]['output'];

${toolFactories(tools)}
/**
 * A new instance of every tool, in name order: made by its factory when \`factories\` has one, else
 * by \`new\` without arguments. A tool whose constructor takes arguments (an SMTP client, a database)
 * must have a factory: leaving it out does not compile.
 */
export function createTools(...[factories]: CreateToolsArguments): ITool[] {
  const tools: ITool[] = [];
${pushes}  return tools;
}

/**
 * The tools \`createTools(factories)\` would make with \`new\` and no arguments although their
 * constructor declares parameters (its \`length\`: a parameter without a default counts), in name
 * order. \`toolsmith call\` and \`serve\` refuse to start while any is left, naming them: the tool would
 * otherwise fail at its first call, on the dependency it never got.
 */
export function missingToolFactories(factories?: Partial<Record<string, () => ITool>>): string[] {
  const missing: string[] = [];
${checks}  return missing;
}

/** A client whose \`call(name, args)\` is typed by tool name: wrong arguments do not compile. */
export function createToolClient(orchestrator: ToolOrchestrator, defaults: ToolCallDefaults): ToolClient<ToolTypes> {
  return new ToolClient<ToolTypes>(orchestrator, defaults);
}
`;
  const exports = perTool(
    tools,
    (tool) =>
      `export type * from ${quoted(`./types/${tool.names.kebab}.js`)};\n` +
      `export * from ${quoted(`./validators/${tool.names.kebab}.js`)};\n` +
      `export * from ${quoted(`./tools/${tool.names.kebab}.base.js`)};`,
  );
  const sharedTypes = project.shared.map((shared) => `export type * from ${quoted(`./types/${shared.module}.js`)};\n`);
  return [
    { path: 'registry.ts', content: registry, kind: 'generated', preformatted: true },
    {
      path: 'index.ts',
      content: `${listingBanner(tools, ctx)}${sharedTypes.join('')}${exports}export * from './registry.js';\n`,
      kind: 'generated',
      preformatted: true,
    },
    ...emitLazyRegistry(tools, stubs, ctx),
  ];
}

/**
 * The typed factories of `createTools(factories)`: `ToolClasses` (every implementation class by
 * name), `ToolsWithDependencies` (the names whose constructor needs arguments, decided by the
 * compiler from the user's class, not by the generator) and `ToolFactories`, where those names are
 * required and the others optional; plus `makeTool`, which reads a factory only when it is the
 * object's own property (a tool may be named `constructor`). `makeTool` takes the name as a string,
 * not a ToolName: with no tools ToolName is `never`, and a factory looked up by it could not be called.
 */
function toolFactories(tools: readonly ToolModel[]): string {
  return `/** Every tool's implementation class, by name. */
export interface ToolClasses {
${perTool(tools, (tool) => `  ${typeKey(tool.name)}: typeof ${tool.names.impl};`)}}

/** Makes one instance of the tool named \`N\` (called once per \`createTools()\`). */
export type ToolFactory<N extends ToolName> = () => InstanceType<ToolClasses[N]>;

/** The tools whose constructor takes arguments: \`createTools\` needs a factory for each. */
export type ToolsWithDependencies = { [N in ToolName]: ToolClasses[N] extends new () => ITool ? never : N }[ToolName];

/** A factory per tool: required for the tools with dependencies, optional for the others. */
export type ToolFactories = { [N in ToolsWithDependencies]: ToolFactory<N> } & { [N in Exclude<ToolName, ToolsWithDependencies>]?: ToolFactory<N> };

/** \`createTools\`' arguments: the factories may be left out only when no tool needs one. */
export type CreateToolsArguments = [ToolsWithDependencies] extends [never] ? [factories?: ToolFactories] : [factories: ToolFactories];

function makeTool(factories: Partial<Record<string, () => ITool>> | undefined, name: string, implementation: abstract new (...args: never[]) => ITool): ITool {
  const factory = factories !== undefined && Object.hasOwn(factories, name) ? factories[name] : undefined;
  // Without a factory the constructor takes no arguments: \`CreateToolsArguments\` requires one otherwise.
  return factory !== undefined ? factory() : new (implementation as new () => ITool)();
}

function noteMissingFactory(missing: string[], factories: Partial<Record<string, () => ITool>> | undefined, name: string, implementation: abstract new (...args: never[]) => ITool): void {
  if (implementation.length > 0 && (factories === undefined || !Object.hasOwn(factories, name) || factories[name] === undefined)) missing.push(name);
}
`;
}
/** `schemas/<tool>.json`: a tool's bundled schemas, which the lazy registry reads when first needed (depends on that tool only). */
export function emitToolSchemaFile(tool: ToolModel): GeneratedFile {
  // JSON leaves out an undefined outputSchema.
  const schemas = { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema };
  return {
    path: `schemas/${tool.names.kebab}.json`,
    content: `${JSON.stringify(schemas, null, 2)}\n`,
    kind: 'generated',
  };
}

/**
 * What `catalog.json` holds of each tool: its description but the name (the entry's key) and the
 * schemas (`schemas/<tool>.json`), in a generated tool's order; an unset field is left out.
 */
const CATALOG_FIELDS = DESCRIPTION_FIELDS.filter(
  (field) => field !== 'name' && field !== 'inputSchema' && field !== 'outputSchema',
);

/**
 * Emits `catalog.json` (every tool's metadata by name, read the first time any tool's metadata is
 * asked for) and `lazy-registry.ts` (`createLazyTools()`: each tool registered by its name alone
 * and imported on its first call, from the `stubs` folder as the generated code sees it). Loading
 * the lazy registry reads one short string per tool and no implementation, base class, validator,
 * schema or catalog.
 */
function emitLazyRegistry(tools: readonly ToolModel[], stubs: string, ctx: EmitContext): GeneratedFile[] {
  const catalog = dictionary<unknown>();
  for (const tool of tools)
    catalog[tool.name] = Object.fromEntries(CATALOG_FIELDS.map((field) => [field, tool[field]]));
  // Tool names are [A-Za-z0-9_-], file stems kebab-case and class names identifiers: none holds `|` or a newline.
  const table = tools.map((tool) => `${tool.name}|${tool.names.kebab}|${tool.names.impl}`).join('\n');
  const runtime = quoted(runtimeSpecifier('lazy-registry.ts', ctx.runtimeImport));
  // Laid out here: prettier would break the one-line table string, which must stay one literal.
  const lazyRegistry = `${listingBanner(tools, ctx)}import { readFileSync } from 'node:fs';
import { defineLazyTools, type ITool, type LazyToolMetadata, type LazyToolSchemas, type LazyToolSet } from ${runtime};
import type { ToolClasses, ToolName, ToolsWithDependencies } from './registry.js';

/**
 * Every tool, one per line: its name, its file stem (the implementation is
 * \`${stubs}/<stem>.js\`, the schemas \`schemas/<stem>.json\`) and its implementation class.
 * One string, so loading this module costs little however many tools there are.
 */
const TOOLS = ${quoted(table)};

type Entry = readonly [name: string, stem: string, implementation: string];
type Catalog = Record<string, Omit<LazyToolMetadata, 'name'>>;
let catalog: Catalog | undefined;

/**
 * Imports a tool's implementation module. The specifier is computed, so a bundler does not follow it:
 * bundle \`registry.ts\` (\`createTools()\`, static imports) instead; Node, tsx and vitest load it as is.
 */
function importTool(stem: string): Promise<Record<string, new () => ITool>> {
  const specifier = \`${stubs}/\${stem}.js\`;
  return import(specifier) as Promise<Record<string, new () => ITool>>;
}

/** How a tool not loaded yet reaches its metadata (catalog.json, read once when first needed), implementation and schemas. */
const source: LazyToolSet<Entry> = {
  metadata([name]) {
    catalog ??= JSON.parse(readFileSync(new URL('./catalog.json', import.meta.url), 'utf8')) as Catalog;
    return catalog[name]!;
  },
  async load([, stem, implementation]) {
    return new (await importTool(stem))[implementation]!();
  },
  schemas([, stem]) {
    return JSON.parse(readFileSync(new URL(\`./schemas/\${stem}.json\`, import.meta.url), 'utf8')) as LazyToolSchemas;
  },
};

/** Makes the tool named \`N\` on its first call; it may import the implementation itself, to stay lazy. */
export type LazyToolFactory<N extends ToolName> = () => InstanceType<ToolClasses[N]> | Promise<InstanceType<ToolClasses[N]>>;

/** A factory per tool: required for the tools whose constructor takes arguments, optional for the others. */
export type LazyToolFactories = { [N in ToolsWithDependencies]: LazyToolFactory<N> } & { [N in Exclude<ToolName, ToolsWithDependencies>]?: LazyToolFactory<N> };

/** \`createLazyTools\`' arguments: the factories may be left out only when no tool needs one. */
export type CreateLazyToolsArguments = [ToolsWithDependencies] extends [never] ? [factories?: LazyToolFactories] : [factories: LazyToolFactories];

/**
 * Every tool, registered by its name and loaded on its first call: registering loads no
 * implementation, base class, validator, schema or catalog, so start-up barely grows with the tools.
 * A tool's factory, when \`factories\` has one, is called instead of its constructor, on that first call.
 */
export function createLazyTools(...[factories]: CreateLazyToolsArguments): ITool[] {
  const entries = TOOLS.split('\\n').filter((line) => line !== '').map((line) => line.split('|') as unknown as Entry);
  if (factories === undefined) return defineLazyTools(entries, source);
  const made = factories as Partial<Record<string, () => ITool | Promise<ITool>>>;
  return defineLazyTools(entries, {
    ...source,
    async load(entry) {
      const factory = Object.hasOwn(made, entry[0]) ? made[entry[0]] : undefined;
      return factory !== undefined ? await factory() : source.load(entry);
    },
  });
}
`;
  return [
    { path: 'catalog.json', content: `${JSON.stringify(catalog, null, 2)}\n`, kind: 'generated' },
    { path: 'lazy-registry.ts', content: lazyRegistry, kind: 'generated', preformatted: true },
  ];
}
