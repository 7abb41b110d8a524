/**
 * The emission settings: everything besides the tools that shapes a generated file, as one object
 * made once from the resolved options and handed as it is to every emitter — in process and, as
 * the pool's set-up, on the worker threads — and hashed whole into the cache key. A key declared in
 * `config/config-schema.ts` reaches all of them, and the cache, with no other edit.
 */
import path from 'node:path';
import type { GeneratorSettings, ResolvedOptions } from '../config/options.js';
import { toPosix } from '../load.js';
import type { EmitContext, Problem } from '../model.js';
import { unplacedProblem } from '../problems.js';
import { loadTemplates, TemplateReadError } from '../templates/index.js';
import type { DocTemplates } from '../templates/names.js';
import type { ManifestOptions } from './manifests/index.js';

/** The generator keys that do not shape a generated file (folders are resolved into `ctx`; `strict` and `workers` change how a run goes, not what it writes). */
type NotEmissionKey =
  'schemas' | 'out' | 'stubs' | 'templates' | 'runtimeImport' | 'regenerateCommand' | 'strict' | 'workers';

/**
 * What every tool's emission and the project-wide files of one run share: every generator setting but
 * those (`format`, …, defaults filled), the emit context, the templates and the manifests' options.
 * A key declared in `config-schema.ts` is here, hashed into the cache key and on the workers, unless it
 * is named in `NotEmissionKey`.
 */
export type EmitSettings = Omit<GeneratorSettings, NotEmissionKey | 'manifests'> & {
  ctx: EmitContext;
  templates: DocTemplates;
  /** Targets and policy of the manifests (each tool's emission makes its part of them). */
  manifests: ManifestOptions;
};

/** The emission settings of a run: the resolved options' part that shapes the output, and its templates. */
export function emitSettings(resolved: ResolvedOptions, templates: DocTemplates): EmitSettings {
  const {
    schemas: _schemas,
    out: _out,
    stubs: _stubs,
    templates: _templates,
    runtimeImport: _runtimeImport,
    regenerateCommand: _regenerateCommand,
    strict: _strict,
    workers: _workers,
    manifests,
    ...emission
  } = resolved.settings satisfies Pick<GeneratorSettings, NotEmissionKey | 'manifests'>;
  return {
    ...emission,
    ctx: resolved.ctx,
    templates,
    manifests: { ...manifests, tokenReportFile: resolved.tokenReportFile },
  };
}

/**
 * The emission settings of a run with its templates read from their folder, or the problem that stops
 * it before anything is read: a template that cannot be read.
 */
export function readSettings(resolved: ResolvedOptions): { settings: EmitSettings } | { problems: Problem[] } {
  try {
    return { settings: emitSettings(resolved, loadTemplates(resolved.templatesDir)) };
  } catch (error) {
    if (!(error instanceof TemplateReadError)) throw error;
    const file = toPosix(path.relative(resolved.root, error.file));
    return { problems: [unplacedProblem(file, '', error.message, error.hint)] };
  }
}
