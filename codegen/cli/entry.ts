import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, type ParseError } from 'jsonc-parser';
import type { ITool, ToolOrchestrator, ToolOrchestratorOptions } from '../../src/index.js';

/**
 * Set to `true` on `globalThis` by `bin/toolsmith.js` once it has registered tsx's loader: the
 * process can then import a project's TypeScript (its generated registry, its entry module).
 */
const TYPESCRIPT_LOADER = Symbol.for('toolsmith.typescript-loader');

/** True when this process can import `.ts` files: tsx is registered, or the CLI itself runs as TypeScript (tsx, vitest). */
function canImportTypeScript(): boolean {
  return (globalThis as Record<symbol, unknown>)[TYPESCRIPT_LOADER] === true || import.meta.url.endsWith('.ts');
}

/** Where `tsc` writes a project's JavaScript: from its `tsconfig.json` (`rootDir`, `outDir`), else `dist/` for the project root. */
export interface BuildLayout {
  rootDir: string;
  outDir: string;
}

/**
 * Reads `outDir` and `rootDir` from the project's `tsconfig.json` (JSON with comments; `extends`
 * is not followed). Without a tsconfig, the layout `toolsmith init` writes: `.` → `dist/`. A
 * tsconfig without `outDir` emits beside the sources.
 */
export function readBuildLayout(root: string): BuildLayout {
  const file = path.join(root, 'tsconfig.json');
  if (!existsSync(file)) return { rootDir: root, outDir: path.join(root, 'dist') };
  const errors: ParseError[] = [];
  const parsed = parse(readFileSync(file, 'utf8'), errors, { allowTrailingComma: true }) as
    { compilerOptions?: { outDir?: unknown; rootDir?: unknown } } | undefined;
  // A value that is not an object (or a file with syntax errors) names neither folder.
  const options = (errors.length === 0 && parsed?.compilerOptions) || {};
  const rootDir = typeof options.rootDir === 'string' ? path.resolve(root, options.rootDir) : root;
  return { rootDir, outDir: typeof options.outDir === 'string' ? path.resolve(root, options.outDir) : rootDir };
}

/** The file `tsc` writes for a TypeScript source (`src/a.ts` → `dist/src/a.js`); `undefined` when the source is outside `rootDir`. */
export function builtFile(source: string, layout: BuildLayout): string | undefined {
  const relative = path.relative(layout.rootDir, source);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return path.join(layout.outDir, relative).replace(/\.(m?)ts$/, '.$1js');
}

/** The command that makes a CommonJS project's `.js`/`.ts` files ES modules, as toolsmith's generated code is. */
export const ESM_FIX = 'npm pkg set type=module';

/**
 * The package.json under which Node (and TypeScript's NodeNext) reads `file` as CommonJS, if any: a
 * `.js`/`.ts` file is an ES module only when the nearest package.json above it says `"type": "module"`
 * (npm 11's `npm init -y` writes `"commonjs"`). Generated code needs ES modules (`import.meta`,
 * top-level await): loaded as CommonJS it fails with `ERR_REQUIRE_CYCLE_MODULE` or TS1470.
 */
function commonJsPackage(file: string): { file: string; type: unknown } | undefined {
  if (!/\.[jt]sx?$/.test(file)) return undefined;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      let type: unknown;
      try {
        type = (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type;
      } catch {
        return undefined; // Node says what is wrong with it.
      }
      return type === 'module' ? undefined : { file: manifest, type };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** `package.json has "type": "commonjs"` / `has no "type"`: what makes the project CommonJS. */
export function describeCommonJs(manifest: { file: string; type: unknown }, root: string): string {
  const shown = path.relative(root, manifest.file) || manifest.file;
  return `${shown} has ${manifest.type === undefined ? 'no "type"' : `"type": ${JSON.stringify(manifest.type)}`}`;
}

/** Why `call`/`serve` cannot load the project's tools, said as what to do. */
export class EntryError extends Error {
  readonly code = 'ENTRY_UNAVAILABLE';
}

/**
 * The module to import for a project file: a JavaScript file as it is; a TypeScript file itself
 * when this process can import TypeScript, else what `tsc` built from it. Throws an `EntryError`
 * naming the command that fixes it when neither can run.
 */
function resolveModule(source: string, root: string, what: { missing: string }): string {
  const shown = (file: string) => path.relative(root, file) || file;
  if (!/\.m?ts$/.test(source)) {
    if (existsSync(source)) return source;
    throw new EntryError(`${shown(source)} does not exist. ${what.missing}`);
  }
  if (canImportTypeScript() && existsSync(source)) return source;
  const built = builtFile(source, readBuildLayout(root));
  if (built !== undefined && existsSync(built)) return built;
  const build = built === undefined ? 'build it with tsc' : `\`npm run build\` writes ${shown(built)}`;
  if (existsSync(source)) {
    throw new EntryError(
      `${shown(source)} is TypeScript, which node runs only with tsx, and it is not built. For production, ` +
        `build it (${build}); in development, install tsx (npm install --save-dev tsx).`,
    );
  }
  throw new EntryError(
    `neither ${shown(source)} nor ${built === undefined ? 'a build of it' : shown(built)} exists. ${what.missing}`,
  );
}

/**
 * Imports a project module. When it is built JavaScript whose import of a generated validator
 * fails because tsc does not emit those (`ERR_MODULE_NOT_FOUND …/dist/generated/validators/x.js`),
 * throws an `EntryError` that says to run `toolsmith copy-assets` instead of Node's trace.
 */
async function importProjectModule(file: string, options: ProjectEntryOptions): Promise<Record<string, unknown>> {
  const commonJs = commonJsPackage(file);
  if (commonJs !== undefined) {
    const where = path.dirname(commonJs.file) === options.root ? '' : ` in ${path.dirname(commonJs.file)}`;
    throw new EntryError(
      `${describeCommonJs(commonJs, options.root)}, so Node loads ${path.relative(options.root, file)} as CommonJS, ` +
        `but toolsmith's generated code is ES modules (import.meta, top-level await). Make the project ES modules: ` +
        `\`${ESM_FIX}\`${where} (code of your own that uses require() then needs import, or a .cjs name).`,
    );
  }
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const builtGenerated = builtFile(options.outDir, readBuildLayout(options.root));
    const message = (error as { message?: unknown }).message;
    if (
      builtGenerated === undefined ||
      builtGenerated === options.outDir ||
      (error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND' ||
      typeof message !== 'string' ||
      !message.includes(builtGenerated + path.sep)
    ) {
      throw error;
    }
    const missing = /Cannot find module '([^']+)'/.exec(message)?.[1] ?? builtGenerated;
    throw new EntryError(
      `${path.relative(options.root, missing)} is missing from the build: tsc does not emit the generated validators. ` +
        `Run \`npx --no toolsmith copy-assets\` after tsc (the \`build\` script toolsmith init writes does).`,
    );
  }
}

/**
 * Why `call`/`serve` will not start: tools whose constructor takes arguments would be made by the
 * registry's `createTools()` with none, and fail at their first call. Names them and the fix.
 */
function missingDependenciesMessage(tools: readonly string[], entry: string | undefined): string {
  const names = tools.map((name) => `'${name}'`).join(', ');
  const factories = tools.map(
    (name) => `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`}: () => new …(its dependencies)`,
  );
  const example = `\`export default { tools: createTools({ ${factories.join(', ')} }) }\``;
  const where =
    entry === undefined
      ? `no entry module gives them. Write one that makes them, e.g. src/toolsmith.ts with ${example}, ` +
        `and name it with \`"entry": "src/toolsmith.ts"\` in toolsmith.config.json or with --entry src/toolsmith.ts`
      : `the entry module ${entry} names no \`tools\`, so the generated registry's createTools() would ` +
        `make them with none. Export \`tools\` from it: ${example}`;
  return (
    `${tools.length === 1 ? 'tool' : 'tools'} ${names} ${tools.length === 1 ? 'needs' : 'need'} ` +
    `constructor dependencies (${tools.length === 1 ? 'its constructor takes' : 'their constructors take'} ` +
    `arguments), and ${where}. A parameter the tool can do without needs a default (\`= {}\`) to count as none.`
  );
}

/** Where the CLI finds a project's tools: the generated registry, and optionally the user's entry module. */
export interface ProjectEntryOptions {
  root: string;
  /** The generated output folder (absolute). */
  outDir: string;
  /** The entry module (relative to the root or absolute), from `--entry` or the config's `entry`. */
  entry?: string;
  /** Options of the orchestrator made when there is no entry module (e.g. serve's refusal of side effects without a decision). */
  defaults?: Omit<ToolOrchestratorOptions, 'tools'>;
  /**
   * `--allow-side-effects` with an entry module: set on the options it gives (or its function returns)
   * when they have no approval gate of their own; otherwise `warn` is told why it was not used.
   */
  allowSideEffects?: boolean;
  /** Told what the CLI should print on stderr (a flag that was not used, and why). */
  warn?: (message: string) => void;
}

/**
 * The orchestrator `call` and `serve` use. With an entry module, what it exports: a
 * `ToolOrchestrator`, its options (the registry's `createTools()` when they name no `tools`), or a
 * function (possibly async) returning either — so the approval gate, hooks, the tools' dependencies
 * and limits are the user's (`allowSideEffects` applies to its options when they give no gate).
 * Without one, every tool of the generated registry with `defaults`.
 */
export async function loadProjectOrchestrator(options: ProjectEntryOptions): Promise<ToolOrchestrator> {
  const runtime = await import('../../src/index.js');
  const registryTools = async (): Promise<ITool[]> => {
    const registry = resolveModule(path.join(options.outDir, 'registry.ts'), options.root, {
      missing: 'Run `npx --no toolsmith generate` first (and `npm run build` for a production install).',
    });
    const module = (await importProjectModule(registry, options)) as {
      createTools?: () => ITool[];
      missingToolFactories?: () => string[];
    };
    if (typeof module.createTools !== 'function')
      throw new EntryError(
        `${path.relative(options.root, registry)} exports no createTools(); regenerate it with \`npx --no toolsmith generate\`.`,
      );
    // A registry generated before `missingToolFactories` existed is not checked (regenerating adds it).
    const missing = typeof module.missingToolFactories === 'function' ? module.missingToolFactories() : [];
    if (missing.length > 0) throw new EntryError(missingDependenciesMessage(missing, options.entry));
    return module.createTools();
  };
  if (options.entry === undefined)
    return new runtime.ToolOrchestrator({ ...options.defaults, tools: await registryTools() });
  const source = path.resolve(options.root, options.entry);
  const shown = path.relative(options.root, source) || source;
  const file = resolveModule(source, options.root, { missing: 'Check `entry` in the config or --entry.' });
  const module = (await importProjectModule(file, options)) as { default?: unknown; orchestrator?: unknown };
  let value = module.default ?? module.orchestrator;
  if (typeof value === 'function') value = await (value as () => unknown)();
  const unused = (why: string) => {
    if (options.allowSideEffects === true) options.warn?.(`--allow-side-effects was not used: ${shown} ${why}.`);
  };
  if (typeof (value as { processToolCall?: unknown } | undefined)?.processToolCall === 'function') {
    unused(
      'exports a built ToolOrchestrator, whose allowSideEffects is fixed when it is made; set it there, or export ' +
        'its options (or a function returning them) for the flag to apply',
    );
    return value as ToolOrchestrator;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const given = value as ToolOrchestratorOptions;
    if (given.approvalGate !== undefined)
      unused('gives an approval gate, which decides every call that needs approval');
    const allow = options.allowSideEffects === true && given.approvalGate === undefined;
    return new runtime.ToolOrchestrator({
      ...given,
      ...(allow && { allowSideEffects: true }),
      tools: given.tools ?? (await registryTools()),
    });
  }
  throw new EntryError(
    `${shown} must export (as default or as \`orchestrator\`) a ToolOrchestrator, ToolOrchestratorOptions, ` +
      `or a function returning either; it exports ${value === undefined ? 'neither' : typeof value}.`,
  );
}
