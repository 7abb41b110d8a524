import type { EmitContext, GeneratedFile, Problem, ProjectModel } from '../../model.js';
import { markdownBanner } from '../banner.js';
import { buildAnthropicManifest } from './anthropic.js';
import { buildGeminiManifest } from './gemini.js';
import { emitLossReport, type LossReport, MANIFEST_TARGETS, type ManifestTarget, sortLossReport } from './loss-report.js';
import { buildMcpManifest } from './mcp.js';
import { buildOpenAiManifest } from './openai.js';
import { buildOpenAiStrictManifest } from './openai-strict.js';
import type { TargetBuild } from './schema-walk.js';

export { type LossEntry, type LossReport, MANIFEST_TARGETS, type ManifestTarget } from './loss-report.js';
export { OPENAI_STRICT_NULL_CONVENTION } from './openai-strict.js';
export { toMcpToolFromModel } from './mcp.js';

/** Options of `emitManifests`. */
export interface ManifestOptions {
  /** The targets to emit (default: all); `manifests.targets` in toolsmith.config.json. */
  targets?: readonly ManifestTarget[];
}

/** What `emitManifests` returns: the files, the problems that make generate fail, and the losses (for docs). */
export interface ManifestEmission {
  files: GeneratedFile[];
  problems: Problem[];
  /** tool → target → losses, sorted; every tool and enabled target present. */
  losses: LossReport;
  /** tool → target → why that target cannot take the tool (each also a problem). */
  unavailable: Record<string, Partial<Record<ManifestTarget, string>>>;
  /** openai-strict only: tool → pointers of optional properties made nullable (`null` means omitted). */
  nullableOptionals: Record<string, string[]>;
}

const BUILDERS: Record<ManifestTarget, { file: string; build: (project: ProjectModel) => TargetBuild<unknown> }> = {
  openai: { file: 'manifests/openai.json', build: buildOpenAiManifest },
  'openai-strict': { file: 'manifests/openai-strict.json', build: buildOpenAiStrictManifest },
  anthropic: { file: 'manifests/anthropic.json', build: buildAnthropicManifest },
  gemini: { file: 'manifests/gemini.json', build: buildGeminiManifest },
  mcp: { file: 'manifests/mcp.json', build: buildMcpManifest },
};

/** JSON with two-space indent and a trailing newline (LF). */
function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, content: `${JSON.stringify(value, null, 2)}\n`, kind: 'generated' };
}

/**
 * Emits `manifests/<target>.json` for each enabled target and the loss report. A tool that a target cannot
 * take at all (name pattern, non-object root, recursion without `$ref`, size limits) is a problem, with the
 * hint to turn the target off.
 */
export function emitManifests(project: ProjectModel, ctx: EmitContext, options: ManifestOptions = {}): ManifestEmission {
  const targets = MANIFEST_TARGETS.filter((target) => (options.targets ?? MANIFEST_TARGETS).includes(target));
  const emission: ManifestEmission = { files: [], problems: [], losses: {}, unavailable: {}, nullableOptionals: {} };
  for (const tool of project.tools) emission.losses[tool.name] = {};
  for (const target of targets) {
    const { file, build } = BUILDERS[target];
    const result = build(project);
    emission.files.push(jsonFile(file, result.content));
    emission.problems.push(...result.problems);
    for (const tool of project.tools) {
      emission.losses[tool.name]![target] = result.losses[tool.name] ?? [];
      const reason = result.unavailable[tool.name];
      if (reason !== undefined) (emission.unavailable[tool.name] ??= {})[target] = reason;
    }
    if ('nullableOptionals' in result) emission.nullableOptionals = result.nullableOptionals as Record<string, string[]>;
  }
  emission.losses = sortLossReport(emission.losses);
  if (targets.length > 0) {
    emission.files.push(...emitLossReport(emission.losses, emission.unavailable, markdownBanner('the tool definitions', ctx).trimEnd()));
  }
  return emission;
}
