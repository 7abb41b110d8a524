import path from 'node:path';
import { emitRegistry } from './emit/registry.js';
import { emitStubs } from './emit/stubs.js';
import { createEmitProject, emitToolBases } from './emit/tool-bases.js';
import { emitTypes } from './emit/types.js';
import { emitValidators } from './emit/validators.js';
import { formatFiles } from './emit/format.js';
import { loadDefinitions, toPosix } from './load.js';
import type { EmitContext, GeneratedFile, Problem, ProjectModel } from './model.js';
import { compareStrings } from './naming.js';
import { GENERATOR_VERSION, normalize } from './normalize.js';

/** Where generate reads and writes; every path absolute or relative to `root`. */
export interface GenerateOptions {
  /** The project root: paths in messages and banners are relative to it. */
  root: string;
  /** The definitions folder (default `schemas`). */
  schemas?: string;
  /** The generated output folder (default `generated`). */
  out?: string;
  /** The implementation stubs folder (default `src/tools`). */
  stubs?: string;
  /**
   * Where generated code imports the runtime from: a package name (default `toolsmith`) or a path
   * relative to the root (e.g. `./src/index.js` inside this repository).
   */
  runtimeImport?: string;
  /** The command banners tell users to run (default `npx toolsmith generate`). */
  regenerateCommand?: string;
}

/** Absolute folders and the emit context derived from the options. */
export interface ResolvedOptions {
  root: string;
  schemasDir: string;
  outDir: string;
  stubsDir: string;
  ctx: EmitContext;
}

/** What a generate run produced, before anything is written. */
export interface GenerateResult {
  project: ProjectModel;
  /** Files under the output folder, sorted by path. */
  files: GeneratedFile[];
  /** Stubs (paths relative to the stubs folder), written only when absent. */
  stubs: GeneratedFile[];
  problems: Problem[];
}

/** Resolves folders and import paths. */
export function resolveOptions(options: GenerateOptions): ResolvedOptions {
  const root = path.resolve(options.root);
  const schemasDir = path.resolve(root, options.schemas ?? 'schemas');
  const outDir = path.resolve(root, options.out ?? 'generated');
  const stubsDir = path.resolve(root, options.stubs ?? 'src/tools');
  const runtime = options.runtimeImport ?? 'toolsmith';
  const relative = (from: string, to: string) => {
    const rel = toPosix(path.relative(from, to));
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  const runtimeFrom = (dir: string) => (runtime.startsWith('.') ? relative(dir, path.resolve(root, runtime)) : runtime);
  return {
    root,
    schemasDir,
    outDir,
    stubsDir,
    ctx: {
      runtimeImport: runtimeFrom(outDir),
      stubsRuntimeImport: runtimeFrom(stubsDir),
      stubsFromGenerated: relative(outDir, stubsDir),
      generatedFromStubs: relative(stubsDir, outDir),
      regenerateCommand: options.regenerateCommand ?? 'npx toolsmith generate',
      generatorVersion: GENERATOR_VERSION,
    },
  };
}

/**
 * Runs load → normalize → emit → format and returns every file, or the problems when any
 * definition is invalid (then no files). Pure apart from reading the definitions.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const resolved = resolveOptions(options);
  const loaded = loadDefinitions(resolved.schemasDir, resolved.root);
  const { project, problems } = normalize(loaded);
  if (problems.length > 0) return { project, files: [], stubs: [], problems };
  return { project, ...(await emitAll(project, resolved.ctx)), problems: [] };
}

/** Every emitter over one model. */
export async function emitAll(project: ProjectModel, ctx: EmitContext): Promise<{ files: GeneratedFile[]; stubs: GeneratedFile[] }> {
  const tsProject = createEmitProject();
  const files = [
    ...(await emitTypes(project, ctx)),
    ...emitValidators(project, ctx),
    ...emitToolBases(project, ctx, tsProject),
    ...emitRegistry(project, ctx),
  ];
  const stubs = emitStubs(project, ctx, tsProject);
  const formatted = await formatFiles(files);
  const formattedStubs = await formatFiles(stubs);
  return {
    files: formatted.sort((a, b) => compareStrings(a.path, b.path)),
    stubs: formattedStubs.sort((a, b) => compareStrings(a.path, b.path)),
  };
}
