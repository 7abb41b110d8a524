import path from 'node:path';
import type { ManifestTarget } from '../src/manifest-targets/table.js';
import type { DeferLoading, TokenBudgets } from './emit/manifests/index.js';
import type { ToolsmithConfig } from './config/config-type.js';
import { toPosix } from './load.js';
import type { EmitContext } from './model.js';
import { GENERATOR_VERSION } from './version.js';

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
  /** The manifest targets to emit (default all but gemini-legacy). */
  manifestTargets?: readonly string[];
  /** A tool a target cannot take: left out with a warning (`omit`, default) or a problem (`error`). */
  manifestPolicy?: 'omit' | 'error';
  /** Carry what a target drops into the descriptions (default true). */
  manifestDescribeLosses?: boolean;
  /** The most examples an Anthropic entry carries as `input_examples` (default 5; 0: none). */
  manifestInputExamples?: number;
  /** Deferred loading for the Anthropic and OpenAI Responses manifests (`manifests.deferLoading`). */
  manifestDeferLoading?: DeferLoading;
  /** Tell the examples in the descriptions of the targets without an examples field (`manifests.examplesInDescriptions`). */
  manifestExamplesInDescriptions?: boolean;
  /** Token budgets per target (`manifests.tokenBudget`): over budget is a warning, a problem with `strict`. */
  manifestTokenBudget?: TokenBudgets;
  /** Count the manifests' tokens into `manifests/token-report.json` (default true; `manifests.tokenReport`). */
  manifestTokenReport?: boolean;
  /** Format generated TypeScript with prettier (default true); `false` keeps the emitters' own layout, faster. */
  format?: boolean;
  /** Warnings block the run like errors (for CI): `--strict`, or `"strict": true` in the config. */
  strict?: boolean;
  /** Threads emitting tools, the main thread one of them (default `TOOLSMITH_WORKERS`, else one per core); 1 emits in process only. */
  workers?: number;
  /** The fewest tools to emit for which workers are started (default 200, or `TOOLSMITH_WORKER_THRESHOLD`). */
  workerThreshold?: number;
}

/** The config keys that are generator options of the same name (the others are renamed below, or belong to `call`/`serve`). */
const SAME_NAME_OPTIONS = [
  'schemas',
  'out',
  'stubs',
  'runtimeImport',
  'regenerateCommand',
  'templates',
  'format',
  'strict',
  'workers',
] as const satisfies readonly (keyof ToolsmithConfig & keyof GenerateOptions)[];

/**
 * The generator's options from a checked config, with the command-line flags (given as config keys:
 * `--out` is `out`) over it: the one place a config becomes `GenerateOptions`.
 */
export function optionsFromConfig(root: string, config: ToolsmithConfig, flags: ToolsmithConfig = {}): GenerateOptions {
  const options: GenerateOptions = { root };
  const set = options as unknown as Record<string, unknown>;
  for (const key of SAME_NAME_OPTIONS) {
    const value = flags[key] ?? config[key];
    if (value !== undefined) set[key] = value;
  }
  const manifests = config.manifests;
  if (manifests?.targets !== undefined) options.manifestTargets = manifests.targets;
  if (manifests?.unrepresentable !== undefined) options.manifestPolicy = manifests.unrepresentable;
  if (manifests?.describeLosses !== undefined) options.manifestDescribeLosses = manifests.describeLosses;
  if (manifests?.inputExamples !== undefined) options.manifestInputExamples = manifests.inputExamples;
  if (manifests?.deferLoading !== undefined) options.manifestDeferLoading = manifests.deferLoading;
  if (manifests?.examplesInDescriptions !== undefined)
    options.manifestExamplesInDescriptions = manifests.examplesInDescriptions;
  if (manifests?.tokenBudget !== undefined) options.manifestTokenBudget = manifests.tokenBudget as TokenBudgets;
  if (manifests?.tokenReport !== undefined) options.manifestTokenReport = manifests.tokenReport;
  return options;
}

/** Absolute folders and the emit context derived from the options. */
export interface ResolvedOptions {
  root: string;
  schemasDir: string;
  outDir: string;
  stubsDir: string;
  templatesDir?: string;
  manifestTargets?: readonly ManifestTarget[];
  manifestPolicy?: 'omit' | 'error';
  manifestDescribeLosses?: boolean;
  manifestTokenBudget?: TokenBudgets;
  manifestTokenReport?: boolean;
  manifestInputExamples?: number;
  manifestDeferLoading?: DeferLoading;
  manifestExamplesInDescriptions?: boolean;
  /** The token report relative to the root (where budget warnings are placed). */
  tokenReportFile: string;
  format: boolean;
  ctx: EmitContext;
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
    ...(options.manifestPolicy !== undefined ? { manifestPolicy: options.manifestPolicy } : {}),
    ...(options.manifestDescribeLosses !== undefined ? { manifestDescribeLosses: options.manifestDescribeLosses } : {}),
    ...(options.manifestTokenBudget !== undefined ? { manifestTokenBudget: options.manifestTokenBudget } : {}),
    ...(options.manifestTokenReport !== undefined ? { manifestTokenReport: options.manifestTokenReport } : {}),
    ...(options.manifestInputExamples !== undefined ? { manifestInputExamples: options.manifestInputExamples } : {}),
    ...(options.manifestDeferLoading !== undefined ? { manifestDeferLoading: options.manifestDeferLoading } : {}),
    ...(options.manifestExamplesInDescriptions !== undefined
      ? { manifestExamplesInDescriptions: options.manifestExamplesInDescriptions }
      : {}),
    tokenReportFile: toPosix(path.relative(root, path.join(outDir, 'manifests', 'token-report.json'))),
    format: options.format ?? true,
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
