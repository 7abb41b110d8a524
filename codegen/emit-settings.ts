/**
 * The emission settings: everything besides the tools that shapes a generated file, as one object
 * made once from the resolved options and handed as it is to every emitter — in process and, as
 * the pool's set-up, on the worker threads — and hashed whole into the cache key. A setting added
 * here reaches all of them, and the cache, with no other edit.
 */
import type { ManifestOptions } from './emit/manifests/index.js';
import type { WorkerOptions } from './emit-pool.js';
import type { EmitContext } from './model.js';
import type { GenerateOptions, ResolvedOptions } from './options.js';
import type { DocTemplates } from './templates/names.js';

/** What every tool's emission and the project-wide files of one run share. */
export interface EmitSettings {
  ctx: EmitContext;
  templates: DocTemplates;
  /** Format with prettier; `false` keeps the emitters' own layout. */
  format: boolean;
  /** Targets and policy of the manifests (each tool's emission makes its part of them). */
  manifests: ManifestOptions;
}

/** The emission settings of a run: the resolved options' part that shapes the output, and its templates. */
export function emitSettings(resolved: ResolvedOptions, templates: DocTemplates): EmitSettings {
  return { ctx: resolved.ctx, templates, format: resolved.format, manifests: manifestOptions(resolved) };
}

/** The manifests' options from the resolved ones. */
export function manifestOptions(resolved: ResolvedOptions): ManifestOptions {
  return {
    ...(resolved.manifestTargets ? { targets: resolved.manifestTargets } : {}),
    ...(resolved.manifestPolicy ? { unrepresentable: resolved.manifestPolicy } : {}),
    ...(resolved.manifestDescribeLosses !== undefined ? { describeLosses: resolved.manifestDescribeLosses } : {}),
    ...(resolved.manifestTokenBudget !== undefined ? { tokenBudget: resolved.manifestTokenBudget } : {}),
    ...(resolved.manifestTokenReport !== undefined ? { tokenReport: resolved.manifestTokenReport } : {}),
    ...(resolved.manifestInputExamples !== undefined ? { inputExamples: resolved.manifestInputExamples } : {}),
    ...(resolved.manifestDeferLoading !== undefined ? { deferLoading: resolved.manifestDeferLoading } : {}),
    ...(resolved.manifestExamplesInDescriptions !== undefined
      ? { examplesInDescriptions: resolved.manifestExamplesInDescriptions }
      : {}),
    tokenReportFile: resolved.tokenReportFile,
  };
}

/** The worker options given in the generate options (how the tools are emitted, not what: no part of the cache key). */
export function workerOptions(options: Pick<GenerateOptions, 'workers' | 'workerThreshold'>): WorkerOptions {
  return {
    ...(options.workers !== undefined ? { count: options.workers } : {}),
    ...(options.workerThreshold !== undefined ? { threshold: options.workerThreshold } : {}),
  };
}
