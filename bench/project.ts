/**
 * Builds a throw-away toolsmith project for the benchmarks: a synthetic corpus, its generated SDK
 * (timed: this is the "full generate" of P3), trivial implementations that answer a valid output,
 * a snapshot of the runtime, and the whole project compiled to JavaScript with `tsc` so start-up
 * and memory (P2, P6) are measured on plain `node`, as a published package would run — no tsx
 * loader in the measured process.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../codegen/generate.js';
import type { ProjectModel } from '../codegen/model.js';
import { generateCorpus, type Corpus, type CorpusTool, type Json } from './corpus.js';

/** The repository root (bench/..). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the runtime snapshot lives inside a bench project, relative to its root. */
const RUNTIME_DIR = 'runtime';
const REGENERATE_COMMAND = 'npm run bench';

/** A built bench project. */
export interface BenchProject {
  root: string;
  corpus: Corpus;
  result: GeneratedProject;
  /** Milliseconds of `generate()` (load → normalize → emit → write). */
  generateMs: number;
  /** Milliseconds of the `tsc` compile to dist/ (not part of any ratio). */
  compileMs: number;
  /** Problems `tsc` reported (it still emits); a count, for the report. */
  typeErrors: number;
  /** Notes on work-arounds applied to the runtime snapshot. */
  notes: string[];
  /** The compiled registry, runtime and bundled-schemas file, as absolute paths. */
  distRegistry: string;
  distRuntime: string;
  bundledSchemas: string;
}

/** Options of {@link buildProject}. */
export interface BuildProjectOptions {
  root: string;
  count: number;
  seed?: number;
  /** Extra definition files to add (`relative path → definition`), e.g. the P1/P5 tools. */
  extraDefinitions?: Record<string, Json>;
  /** Compile to JavaScript (needed for the child-process measures). */
  compile?: boolean;
}

/** A project folder with its corpus, runtime snapshot and node_modules link, not generated yet. */
export interface PreparedProject {
  root: string;
  corpus: Corpus;
  notes: string[];
}

/** Creates the project folder: corpus, extra definitions, runtime snapshot, package.json, node_modules link, corpus.json. */
export function prepareProject(options: BuildProjectOptions): PreparedProject {
  const root = options.root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const corpus = generateCorpus({
    dir: path.join(root, 'schemas'),
    count: options.count,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  });
  for (const [file, definition] of Object.entries(options.extraDefinitions ?? {})) {
    mkdirSync(path.dirname(path.join(root, 'schemas', file)), { recursive: true });
    writeFileSync(path.join(root, 'schemas', file), `${JSON.stringify(definition, null, 2)}\n`);
  }
  const notes = copyRuntime(root);
  writeFileSync(
    path.join(root, 'package.json'),
    `${JSON.stringify({ name: 'toolsmith-bench-project', private: true, type: 'module' }, null, 2)}\n`,
  );
  writeFileSync(path.join(root, 'corpus.json'), JSON.stringify(corpus));
  const config = {
    schemas: 'schemas',
    out: 'generated',
    stubs: 'src/tools',
    runtimeImport: `./${RUNTIME_DIR}/index.js`,
    regenerateCommand: REGENERATE_COMMAND,
  };
  writeFileSync(path.join(root, 'toolsmith.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  // A folder of links rather than one link: the generator keeps its cache in node_modules/.cache,
  // which must stay inside the scratch project.
  mkdirSync(path.join(root, 'node_modules'));
  for (const entry of readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (entry !== '.cache')
      symlinkSync(path.join(REPO_ROOT, 'node_modules', entry), path.join(root, 'node_modules', entry), 'dir');
  }
  return { root, corpus, notes };
}

/** Paths of a project's compiled registry, runtime and bundled schemas. */
export function projectPaths(root: string): Pick<BenchProject, 'distRegistry' | 'distRuntime' | 'bundledSchemas'> {
  return {
    distRegistry: path.join(root, 'dist', 'generated', 'lazy-registry.js'),
    distRuntime: path.join(root, 'dist', RUNTIME_DIR, 'index.js'),
    bundledSchemas: path.join(root, 'bundled-schemas.json'),
  };
}

/** Prepares, generates (in this process), implements and compiles a project: for the small P1/P5 project. */
export async function buildProject(options: BuildProjectOptions): Promise<BenchProject> {
  const { root, corpus, notes } = prepareProject(options);
  const { result, generateMs } = await generateProject(root);
  finishGenerated(root, result, corpus.tools);
  let compileMs = 0;
  let typeErrors = 0;
  if (options.compile !== false) ({ compileMs, typeErrors } = compileProject(root));
  return { root, corpus, result, generateMs, compileMs, typeErrors, notes, ...projectPaths(root) };
}

/** After a generate: fails on problems, writes trivial implementations and the bundled schemas for the Ajv baseline. */
export function finishGenerated(root: string, result: GeneratedProject, tools: readonly CorpusTool[]): void {
  if (result.problems.length > 0) {
    throw new Error(
      `generate reported ${result.problems.length} problems on the synthetic corpus, e.g. ${JSON.stringify(result.problems.slice(0, 3))}`,
    );
  }
  writeImplementations(root, result, tools);
  writeFileSync(
    projectPaths(root).bundledSchemas,
    JSON.stringify(
      result.project.tools.map((tool) => ({
        name: tool.name,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema ?? null,
      })),
    ),
  );
}

/** What `finishGenerated` reads of a generate: the project's models, or the problems that stopped it. */
export interface GeneratedProject {
  project: ProjectModel;
  problems: readonly unknown[];
}

/** One timed `generate()` of a project, as `toolsmith generate` runs it. */
async function generateProject(root: string): Promise<{ result: GeneratedProject; generateMs: number }> {
  const started = performance.now();
  const report = await generate({
    root,
    runtimeImport: `./${RUNTIME_DIR}/index.js`,
    regenerateCommand: REGENERATE_COMMAND,
  });
  const result = { project: report.project ?? { tools: [], shared: [] }, problems: report.problems };
  return { result, generateMs: performance.now() - started };
}

/**
 * Copies the runtime (`src/*.ts`, not the example tools) into the project: a consistent snapshot
 * while other work edits `src/`, compiled together with the generated code.
 */
function copyRuntime(root: string): string[] {
  const notes: string[] = [];
  const target = path.join(root, RUNTIME_DIR);
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(path.join(REPO_ROOT, 'src'), { withFileTypes: true })) {
    const from = path.join(REPO_ROOT, 'src', entry.name);
    // Subfolders of the runtime (the call pipeline) too; the example tools and the framework adapters are not the runtime.
    if (entry.isDirectory() && entry.name !== 'tools' && entry.name !== 'adapters')
      cpSync(from, path.join(target, entry.name), { recursive: true });
    else if (entry.isFile() && entry.name.endsWith('.ts')) copyFileSync(from, path.join(target, entry.name));
  }
  const index = readFileSync(path.join(target, 'index.ts'), 'utf8');
  // The generated registry imports ToolClient from the runtime; src/index.ts may not export it yet.
  if (!/\bToolClient\b/.test(index) && existsSync(path.join(target, 'client.ts'))) {
    writeFileSync(
      path.join(target, 'index.ts'),
      `${index}\nexport { ToolClient, type ToolCallDefaults, type TypedToolCallResult } from './client.js';\n`,
    );
    notes.push(
      'src/index.ts does not export ToolClient (imported by generated/registry.ts); the bench snapshot adds the export',
    );
  }
  return notes;
}

/** Replaces every stub with a one-line implementation answering the corpus's valid sample output. */
function writeImplementations(
  root: string,
  result: Pick<GeneratedProject, 'project'>,
  tools: readonly CorpusTool[],
): void {
  const samples = new Map(tools.map((tool) => [tool.name, tool.sampleOutput]));
  for (const tool of result.project.tools) {
    if (tool.steps !== undefined) continue;
    const { names } = tool;
    const output =
      tool.name === 'add_numbers' ? '{ sum: args.a + args.b }' : JSON.stringify(samples.get(tool.name) ?? { ok: true });
    const source = [
      `import type { ToolExecutionContext, ToolExecutionResult } from '../../${RUNTIME_DIR}/index.js';`,
      `import { ${names.base} } from '../../generated/tools/${names.kebab}.base.js';`,
      `import type { ${names.inputType}, ${names.outputType} } from '../../generated/types/${names.kebab}.js';`,
      ``,
      `export class ${names.impl} extends ${names.base} {`,
      `  async execute(args: ${names.inputType}, _context: ToolExecutionContext): Promise<ToolExecutionResult<${names.outputType}>> {`,
      `    void args;`,
      `    return { success: true, output: ${output} as unknown as ${names.outputType} };`,
      `  }`,
      `}`,
      ``,
    ].join('\n');
    writeFileSync(path.join(root, 'src', 'tools', `${names.kebab}.ts`), source);
  }
}

/** Compiles the project with `tsc` (TypeScript 7: fast); emits even when it reports type errors. */
export function compileProject(root: string): { compileMs: number; typeErrors: number } {
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: true,
          isolatedModules: true,
          verbatimModuleSyntax: true,
          resolveJsonModule: true,
          types: ['node'],
          rootDir: '.',
          outDir: 'dist',
          noEmitOnError: false,
        },
        include: [RUNTIME_DIR, 'generated', 'src'],
      },
      null,
      2,
    )}\n`,
  );
  const started = performance.now();
  let typeErrors = 0;
  try {
    execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], {
      cwd: root,
      stdio: 'pipe',
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (error) {
    const output = String((error as { stdout?: Buffer }).stdout ?? '');
    typeErrors = (output.match(/error TS\d+/g) ?? []).length;
    if (!existsSync(path.join(root, 'dist', 'generated', 'lazy-registry.js')))
      throw new Error(`tsc emitted nothing:\n${output.slice(0, 2000)}`);
  }
  // The runtime as the package ships it: one bundled module (scripts/bundle-runtime.mjs, run by `npm run build`).
  execFileSync(
    process.execPath,
    [path.join(REPO_ROOT, 'scripts', 'bundle-runtime.mjs'), path.join(root, 'dist', RUNTIME_DIR, 'index.js')],
    { cwd: root, stdio: 'pipe' },
  );
  // The standalone validators are JavaScript already (with .d.ts beside them): copy them over, the
  // shared module (validators/shared/) with them.
  const validators = path.join(root, 'generated', 'validators');
  const target = path.join(root, 'dist', 'generated', 'validators');
  mkdirSync(target, { recursive: true });
  cpSync(validators, target, { recursive: true, filter: (source) => !source.endsWith('.d.ts') });
  // The lazy registry reads catalog.json and each tool's generated/schemas/*.json when first needed.
  copyFileSync(path.join(root, 'generated', 'catalog.json'), path.join(root, 'dist', 'generated', 'catalog.json'));
  const schemas = path.join(root, 'generated', 'schemas');
  if (existsSync(schemas)) {
    mkdirSync(path.join(root, 'dist', 'generated', 'schemas'), { recursive: true });
    for (const file of readdirSync(schemas))
      copyFileSync(path.join(schemas, file), path.join(root, 'dist', 'generated', 'schemas', file));
  }
  return { compileMs: performance.now() - started, typeErrors };
}
