import path from 'node:path';
import { emitDocs, type DocTemplates } from './emit/docs.js';
import { emitManifests, MANIFEST_TARGETS, type ManifestTarget } from './emit/manifests/index.js';
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
import { sortProblems } from './problems.js';
import { loadTemplates } from './templates/index.js';

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
  /** A folder of handlebars templates overriding the default docs templates, file by file. */
  templates?: string;
  /** The manifest targets to emit (default all: openai, openai-strict, anthropic, gemini, mcp). */
  manifestTargets?: readonly string[];
}

/** Absolute folders and the emit context derived from the options. */
export interface ResolvedOptions {
  root: string;
  schemasDir: string;
  outDir: string;
  stubsDir: string;
  templatesDir?: string;
  manifestTargets?: readonly ManifestTarget[];
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
    ...(options.templates !== undefined ? { templatesDir: path.resolve(root, options.templates) } : {}),
    ...(options.manifestTargets !== undefined ? { manifestTargets: options.manifestTargets as ManifestTarget[] } : {}),
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
  const unknownTargets = (options.manifestTargets ?? []).filter((target) => !(MANIFEST_TARGETS as readonly string[]).includes(target));
  for (const target of unknownTargets) {
    problems.push({ file: 'toolsmith.config.json', line: 1, column: 1, pointer: '/manifests/targets', message: `unknown manifest target "${target}"`, hint: `the targets are: ${MANIFEST_TARGETS.join(', ')}` });
  }
  if (problems.length > 0) return { project, files: [], stubs: [], problems };
  const templates = loadTemplates(resolved.templatesDir);
  const emitted = await emitAll(project, resolved.ctx, { templates, ...(resolved.manifestTargets ? { manifestTargets: resolved.manifestTargets } : {}) });
  if (emitted.problems.length > 0) return { project, files: [], stubs: [], problems: sortProblems(emitted.problems) };
  return { project, files: emitted.files, stubs: emitted.stubs, problems: [] };
}

/** Every emitter over one model; `problems` are targets that cannot take a tool. */
export async function emitAll(
  project: ProjectModel,
  ctx: EmitContext,
  options: { templates: DocTemplates; manifestTargets?: readonly ManifestTarget[] },
): Promise<{ files: GeneratedFile[]; stubs: GeneratedFile[]; problems: Problem[] }> {
  const tsProject = createEmitProject();
  const manifests = emitManifests(project, ctx, options.manifestTargets ? { targets: options.manifestTargets } : {});
  const files = [
    ...(await emitTypes(project, ctx)),
    ...emitValidators(project, ctx),
    ...emitToolBases(project, ctx, tsProject),
    ...emitRegistry(project, ctx),
    ...manifests.files,
    ...emitDocs(project, ctx, { templates: options.templates, losses: manifests.losses, unavailable: manifests.unavailable }),
  ];
  const stubs = emitStubs(project, ctx, tsProject);
  const formatted = await formatFiles(files);
  const formattedStubs = await formatFiles(stubs);
  return {
    files: formatted.sort((a, b) => compareStrings(a.path, b.path)),
    stubs: formattedStubs.sort((a, b) => compareStrings(a.path, b.path)),
    problems: manifests.problems,
  };
}
