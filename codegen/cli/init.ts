import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILES } from '../config/config.js';
import { describeCommonJs, ESM_FIX } from './entry.js';
import { BUILD_PACKAGES, GENERATOR_PACKAGES } from './generator-packages.js';
import { EXIT, type Io } from './io.js';

/** What `toolsmith init` did, or why it refused. */
export interface InitReport {
  created: string[];
  /** package.json scripts added. */
  scripts: string[];
  /** Generator and build packages added to devDependencies (installed by the next `npm install`). */
  devDependencies: string[];
  /** What init would have written but left as it was: an existing `tsconfig.json`, a different `build` script. */
  kept: string[];
  /** Files that already exist: init refuses to overwrite any of them and writes nothing. */
  conflicts: string[];
  /** What made the project CommonJS (`package.json has "type": "commonjs"`) when init made it ES modules. */
  madeModule?: string;
  /**
   * The project's own `.js`/`.ts` files (the first few) when its package.json makes it CommonJS: init
   * refuses (`"type": "module"` would change how they load) and writes nothing.
   */
  commonJsCode?: { reason: string; files: string[] };
}

/** The parts of a project's package.json that init reads and writes. */
interface PackageJson {
  type?: string;
  scripts?: Record<string, string>;
  devDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * The folder of the files init scaffolds, copied as they are: the example definition and the config
 * (their `$schema` pointing at the installed schemas, for editor completion and checks), and the
 * project's tsconfig (strict, NodeNext, Node's types, `src/` and `generated/` compiled into `dist/`;
 * tsc does not emit the generated validators nor the JSON the lazy registry and the manifests read,
 * which the `build` script's `toolsmith copy-assets` copies).
 */
const SCAFFOLD_DIR = path.join(import.meta.dirname, '..', 'templates', 'init');

/** The scaffolded files, relative to the project (and to `SCAFFOLD_DIR`). */
const SCAFFOLD = ['schemas/greet.tool.json', 'toolsmith.config.json', 'tsconfig.json'];

/** The `build` script init adds: tsc, then the generated files tsc does not emit. */
const BUILD_SCRIPT = 'tsc -p tsconfig.json && toolsmith copy-assets';

/** What init says when it made a CommonJS project ES modules (`reason`: what made it CommonJS). */
function madeModuleNote(reason: string): string {
  return `Set "type": "module" in package.json (it ${reason.replace(/^package\.json has /, 'had ')}): toolsmith's generated code is ES modules.`;
}

/** Why init refuses a CommonJS project with code of its own, and the exact fix. */
function commonJsRefusal({ reason, files }: { reason: string; files: string[] }): string {
  return (
    `${reason} and code of its own (${files.join(', ')}${files.length >= NAMED_FILES ? ', …' : ''}), which "type": "module" ` +
    `would load as ES modules; toolsmith's generated code is ES modules (import.meta, top-level await). Make the ` +
    `project ES modules first: \`${ESM_FIX}\`, with that code using import/export (or renamed .cjs/.cts), then run ` +
    `init again. Nothing was written.`
  );
}

/** How many of a CommonJS project's own files init's refusal names. */
const NAMED_FILES = 3;

/**
 * The first few `.js`/`.jsx`/`.ts`/`.tsx` files of the project (not declarations), outside
 * `node_modules` and dot folders: code that `"type": "module"` would make ES modules.
 */
function moduleTypedCode(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (found.length >= NAMED_FILES) return;
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(relative);
      else if (entry.isFile() && /\.[jt]sx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(relative);
    }
  };
  walk('');
  return found;
}

/**
 * Scaffolds toolsmith in a project: `schemas/greet.tool.json` and `toolsmith.config.json` (their
 * `$schema` pointing at the installed schemas, for editor autocomplete), `tsconfig.json` (kept
 * when the project has one), the npm scripts `generate`, `generate:check` and `build`, and the
 * generator's packages, TypeScript and `@types/node` as devDependencies; a CommonJS project (its
 * package.json without `"type": "module"`) is made ES modules when it has no `.js`/`.ts` code of its
 * own. Refuses, writing nothing, when a scaffolded file or a different script of the same name exists,
 * or when a CommonJS project has code.
 */
export function initProject(root: string): InitReport {
  const kept = existsSync(path.join(root, 'tsconfig.json')) ? ['tsconfig.json'] : [];
  const files = SCAFFOLD.filter((file) => !kept.includes(file));
  // A config of another kind (toolsmith.config.ts, …) is a conflict too: two configs are an error.
  const conflicts = [...new Set([...files, ...CONFIG_FILES])].filter((file) => existsSync(path.join(root, file)));
  const packageFile = path.join(root, 'package.json');
  const packageJson = existsSync(packageFile)
    ? (JSON.parse(readFileSync(packageFile, 'utf8')) as PackageJson)
    : undefined;
  const wanted: Record<string, string> = {
    generate: 'toolsmith generate',
    'generate:check': 'toolsmith check',
    build: BUILD_SCRIPT,
  };
  for (const [name, command] of Object.entries(wanted)) {
    const existing = packageJson?.scripts?.[name];
    if (existing === undefined || existing === command) continue;
    // A project's own build stays (it may already run tsc); the generate scripts must be toolsmith's.
    if (name === 'build') {
      kept.push('package.json scripts.build');
      delete wanted[name];
    } else conflicts.push(`package.json scripts.${name}`);
  }
  const refused = { created: [], scripts: [], devDependencies: [], kept: [] };
  if (conflicts.length > 0) return { ...refused, conflicts };
  // Generated code is ES modules: a CommonJS project without code of its own is made ESM, one with code refused.
  const reason =
    packageJson === undefined || packageJson.type === 'module'
      ? undefined
      : describeCommonJs({ file: packageFile, type: packageJson.type }, root);
  const code = reason === undefined ? [] : moduleTypedCode(root);
  if (reason !== undefined && code.length > 0) return { ...refused, conflicts, commonJsCode: { reason, files: code } };
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    copyFileSync(path.join(SCAFFOLD_DIR, file), path.join(root, file), constants.COPYFILE_EXCL);
  }
  const next: PackageJson = packageJson ?? { name: path.basename(root), private: true, type: 'module' };
  next.scripts = { ...next.scripts, ...wanted };
  if (reason !== undefined) next.type = 'module';
  // The generator's packages and the compiler are development tools: generated code and the runtime
  // never import them, so a production install (`npm ci --omit=dev`) leaves them out.
  const added = Object.entries({ ...GENERATOR_PACKAGES, ...BUILD_PACKAGES }).filter(
    ([name]) => next.devDependencies?.[name] === undefined && next.dependencies?.[name] === undefined,
  );
  if (added.length > 0) next.devDependencies = { ...next.devDependencies, ...Object.fromEntries(added) };
  writeFileSync(packageFile, `${JSON.stringify(next, null, 2)}\n`);
  return {
    created: [...files, ...(packageJson ? [] : ['package.json'])],
    scripts: Object.keys(wanted),
    devDependencies: added.map(([name]) => name),
    kept,
    conflicts: [],
    ...(reason === undefined ? {} : { madeModule: reason }),
  };
}

/** `toolsmith init` in `io.cwd`: what it created and what comes next on stdout, or why it refused on stderr. */
export function runInit(io: Io): number {
  const report = initProject(io.cwd);
  const refusal =
    report.conflicts.length > 0
      ? `refusing to overwrite ${report.conflicts.join(', ')}; nothing was written.`
      : report.commonJsCode && commonJsRefusal(report.commonJsCode);
  if (refusal) {
    io.stderr(`toolsmith init: ${refusal}\n`);
    return EXIT.invalid;
  }
  const devDependencies =
    report.devDependencies.length > 0 ? `; added devDependencies ${report.devDependencies.join(', ')}` : '';
  const kept =
    report.kept.length > 0
      ? `\nKept your ${report.kept.join(' and ')}: a build that runs with plain node runs ` +
        `\`toolsmith copy-assets\` after tsc, which reads "outDir" and "rootDir" of tsconfig.json (see the README).`
      : '';
  const madeModule = report.madeModule === undefined ? '' : `\n${madeModuleNote(report.madeModule)}`;
  io.stdout(
    `toolsmith init: created ${report.created.join(', ')}; added npm scripts ${report.scripts.join(', ')}` +
      `${devDependencies}.${kept}${madeModule}\nNext: npm install, npm run generate, implement src/tools/greet.ts, then npm run build.\n`,
  );
  return EXIT.ok;
}
