/**
 * The plan of a run: which tool units and listings the output already holds, which tools must be
 * emitted, and how the manifests are made (spliced, built whole, or assembled).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ownValue } from '../dictionary.js';
import type { ManifestEmission } from '../emit/manifests/index.js';
import type { ProjectListing, ProjectModel, ToolModel } from '../model.js';
import { SHARED_VALIDATORS_FILE } from '../naming.js';
import type { RunInputs } from './run.js';
import { unchangedFile, unchangedFiles, untouchedSinceSnapshot } from './snapshot.js';
import { sha256 } from './store.js';

/**
 * Whether the last run's shared validator module can be kept: the shared schemas are the same (the
 * generator and options are, or the cache would not have been read) and the file is as written.
 * Why: it is the one project-wide file that costs an Ajv compile, and a regenerate of one tool
 * (P4) would otherwise compile every shared schema again.
 */
export function sharedModuleUnchanged(run: RunInputs, untouched: Set<string>): boolean {
  const last = run.previous.project;
  const recorded = last?.shared === run.sharedHash ? ownValue(last.files, SHARED_VALIDATORS_FILE) : undefined;
  return (
    recorded !== undefined &&
    unchangedFile(SHARED_VALIDATORS_FILE, recorded, run.resolved.outDir, run.previous.snapshot, untouched)
  );
}

/** The hash the files that list every tool are cached under: every tool's hash and every shared schema. */
export function projectHash(project: ProjectListing): string {
  return sha256(
    JSON.stringify({
      tools: project.tools.map((tool) => [tool.name, tool.hash]),
      shared: project.shared.map((entry) => [entry.relPath, entry.schema]),
    }),
  );
}

/** Which tool units and listings the output already holds, and which tools must be emitted. */
export interface ReusePlan {
  /** Tool name → its unchanged files. */
  units: Map<string, string[]>;
  /** The models of the reused tools (their model-cache lines, their stubs when removed). */
  reused: ToolModel[];
  /** The tools to emit. */
  fresh: ToolModel[];
  /** The unchanged files that list every tool, when the whole model is unchanged. */
  listings?: string[];
  /** The reused files whose stat is the one the last snapshot recorded (kept by a hard link, it stays so). */
  untouched: Set<string>;
}

export function planReuse(run: RunInputs, project: ProjectModel, hash: string): ReusePlan {
  const { previous } = run;
  const { outDir } = run.resolved;
  const plan: ReusePlan = { units: new Map(), reused: [], fresh: [], untouched: new Set() };
  if (run.options.check) return { ...plan, fresh: [...project.tools] };
  for (const tool of project.tools) {
    const entry = ownValue(previous.tools, tool.name);
    const files = unchangedFiles(entry, tool.hash, outDir, previous.snapshot, plan.untouched);
    if (files === undefined) plan.fresh.push(tool);
    else {
      plan.units.set(tool.name, files);
      plan.reused.push(tool);
    }
  }
  const listings = unchangedFiles(previous.project, hash, outDir, previous.snapshot, plan.untouched);
  return listings === undefined ? plan : { ...plan, listings };
}

/**
 * How a run's manifests are made: the last run's files with the fresh tools' parts spliced in
 * (`spliced`), built whole on the main thread before the emission (`whole`), or assembled from the
 * tools' parts as their emission makes them (`assembled`: on the emitting threads, nothing held).
 */
export type RunManifests = { made: 'spliced' | 'whole'; emission: ManifestEmission } | { made: 'assembled' };

/**
 * The manifests of a run that emits anything: spliced while the last run's files are untouched since
 * (`patchManifests`); else, when every tool is emitted, assembled; else built whole.
 */
export function buildManifests(run: RunInputs, project: ProjectModel, plan: ReusePlan): RunManifests {
  const { emitManifests, patchManifests } = run.modules.manifests;
  const options = run.settings.manifests;
  const { previous } = run;
  const { outDir } = run.resolved;
  const segments = previous.project?.segments;
  const patched =
    segments === undefined || run.options.check
      ? undefined
      : patchManifests(
          project,
          run.resolved.ctx,
          options,
          {
            segments,
            read: (file) =>
              untouchedSinceSnapshot(previous.snapshot, outDir, file)
                ? readFileSync(path.join(outDir, file))
                : undefined,
          },
          plan.fresh,
        );
  if (patched !== undefined) return { made: 'spliced', emission: patched };
  if (plan.listings === undefined && plan.fresh.length === project.tools.length) return { made: 'assembled' };
  return { made: 'whole', emission: emitManifests(project, run.resolved.ctx, options) };
}

/**
 * A run that emits enough tools for the main thread's heap to matter: it collects its garbage at
 * two points (see `collectGarbage`) where a full collection costs little beside the emission.
 */
export function largeEmission(run: RunInputs, plan: ReusePlan): boolean {
  return plan.fresh.length >= run.modules.emitPool.DEFAULT_WORKER_THRESHOLD;
}
