/**
 * The plan of a run: which tools the output already holds as the last run left them, which must be
 * emitted, which stubs are missing, and whether the manifests can be spliced from the last run's files.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedOptions } from '../config/options.js';
import { patchManifests } from '../emit/manifests/index.js';
import type { EmitPlan } from '../emit/project.js';
import type { EmitSettings } from '../emit/settings.js';
import type { ProjectModel, ToolModel } from '../model.js';
import type { RunCache } from './cache.js';

/**
 * The plan of `project`'s run: a tool whose hash is the recorded one and whose files the output holds
 * as written is kept; every other one is emitted. The manifests are spliced (`patchManifests`: only the
 * emitted tools' parts are made again, inside the last run's bytes) while the last run's files are
 * untouched and the tools the same; otherwise they are assembled from every tool's part.
 */
export function planRun(
  project: ProjectModel,
  resolved: ResolvedOptions,
  settings: EmitSettings,
  cache: RunCache,
): EmitPlan {
  const reused = new Map<string, readonly string[]>();
  const fresh: ToolModel[] = [];
  for (const tool of project.tools) {
    const files = cache.reusable(tool);
    if (files === undefined) fresh.push(tool);
    else reused.set(tool.name, files);
  }
  const stubs = new Set(
    project.tools
      .filter((tool) => !existsSync(path.join(resolved.stubsDir, `${tool.names.kebab}.ts`)))
      .map((tool) => tool.name),
  );
  const { segments } = cache.previous;
  // Splicing is what keeps a one-tool regenerate short (P4): converting and counting every tool's part
  // again costs seconds at 1,000 tools (bench/README.md).
  const spliced =
    segments === undefined
      ? undefined
      : patchManifests(
          project,
          settings.ctx,
          settings.manifests,
          {
            segments,
            read: (file) => (cache.untouched(file) ? readFileSync(path.join(resolved.outDir, file)) : undefined),
          },
          fresh,
        );
  return { project, fresh, reused, stubs, ...(spliced !== undefined ? { spliced } : {}) };
}
