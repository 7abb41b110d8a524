/**
 * The plan of a run: which tools the output already holds as the last run left them, which must be
 * emitted, which stubs are missing, and the last run's manifest files (the emit stage splices into them).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedOptions } from '../config/options.js';
import type { EmitPlan } from '../emit/project.js';
import type { ProjectModel, ToolModel } from '../model.js';
import type { RunCache } from './cache.js';

/**
 * The plan of `project`'s run: a tool whose hash is the recorded one and whose files the output holds
 * as written is kept; every other one is emitted. The last run's manifest files are handed over while
 * their parts were recorded, each file readable only while untouched since that run wrote it.
 */
export function planRun(project: ProjectModel, resolved: ResolvedOptions, cache: RunCache): EmitPlan {
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
  const read = (file: string) => (cache.untouched(file) ? readFileSync(path.join(resolved.outDir, file)) : undefined);
  return { project, fresh, reused, stubs, ...(segments !== undefined ? { previous: { segments, read } } : {}) };
}
