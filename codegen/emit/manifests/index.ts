import type { EmitContext, GeneratedFile, Problem, ProjectModel, ToolModel } from '../../model.js';
import { dictionary, ownValue } from '../../dictionary.js';
import { compareStrings } from '../../naming.js';
import { markdownBanner } from '../banner.js';
import { buildAnthropicManifest } from './anthropic.js';
import { buildGeminiManifest } from './gemini.js';
import { emitLossReport, LOSS_REPORT_LAYOUT, type LossReport, MANIFEST_TARGETS, type ManifestTarget, sortLossReport, toolLossText } from './loss-report.js';
import { assemble, type FileSegments, splice } from './splice.js';
import { buildMcpManifest } from './mcp.js';
import { buildOpenAiManifest } from './openai.js';
import { buildOpenAiStrictManifest } from './openai-strict.js';
import type { TargetBuild } from './schema-walk.js';

export { type LossEntry, type LossReport, MANIFEST_TARGETS, type ManifestTarget } from './loss-report.js';
export type { FileSegments } from './splice.js';
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
  /**
   * Where each tool's part lies in each file, by path (for `patchManifests` in a later run); absent
   * when some target cannot take some tool (such a run fails anyway).
   */
  segments?: Record<string, FileSegments>;
}

/** How each target's file wraps the list of tools: the root array, or an array under `key`. */
const BUILDERS: Record<ManifestTarget, { file: string; key?: string; build: (project: ProjectModel) => TargetBuild<unknown> }> = {
  openai: { file: 'manifests/openai.json', build: buildOpenAiManifest },
  'openai-strict': { file: 'manifests/openai-strict.json', build: buildOpenAiStrictManifest },
  anthropic: { file: 'manifests/anthropic.json', build: buildAnthropicManifest },
  gemini: { file: 'manifests/gemini.json', key: 'functionDeclarations', build: buildGeminiManifest },
  mcp: { file: 'manifests/mcp.json', key: 'tools', build: buildMcpManifest },
};

/**
 * A target file's layout as `JSON.stringify(content, null, 2)` prints it: head, one entry per tool
 * (indented for its place), separator, tail. Only for a non-empty list.
 */
function targetLayout(key: string | undefined): { head: string; indent: string; separator: string; tail: string } {
  if (key === undefined) return { head: '[\n', indent: '  ', separator: ',\n', tail: '\n]\n' };
  return { head: `{\n  ${JSON.stringify(key)}: [\n`, indent: '    ', separator: ',\n', tail: '\n  ]\n}\n' };
}

/** An entry of a target's list as text at its place in the file. */
function entryText(entry: unknown, indent: string): string {
  return `${indent}${JSON.stringify(entry, null, 2).replace(/\n/g, `\n${indent}`)}`;
}

/** The entries of a target build's content (its root array, or the array under `key`). */
function entriesOf(content: unknown, key: string | undefined): unknown[] {
  return (key === undefined ? content : (content as Record<string, unknown>)[key]) as unknown[];
}

/** JSON with two-space indent and a trailing newline (LF). */
function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, content: `${JSON.stringify(value, null, 2)}\n`, kind: 'generated' };
}

/** Records what a target's build says of `tools` in `emission`: problems, losses, unavailability, nullable optionals. */
function absorb(emission: ManifestEmission, target: ManifestTarget, result: TargetBuild<unknown>, tools: readonly ToolModel[]): void {
  emission.problems.push(...result.problems);
  // Keyed by tool names (`constructor`, `__proto__` are valid ones): own lookups, prototype-free maps.
  const nullable = 'nullableOptionals' in result ? (result.nullableOptionals as Record<string, string[]>) : undefined;
  for (const tool of tools) {
    const losses = (emission.losses[tool.name] = ownValue(emission.losses, tool.name) ?? {});
    losses[target] = ownValue(result.losses, tool.name) ?? [];
    const reason = ownValue(result.unavailable, tool.name);
    if (reason !== undefined) (emission.unavailable[tool.name] = ownValue(emission.unavailable, tool.name) ?? {})[target] = reason;
    const optionals = ownValue(nullable, tool.name);
    if (optionals !== undefined) emission.nullableOptionals[tool.name] = optionals;
  }
}

/** The enabled targets, in file order. */
function enabledTargets(options: ManifestOptions): ManifestTarget[] {
  return MANIFEST_TARGETS.filter((target) => (options.targets ?? MANIFEST_TARGETS).includes(target));
}

/**
 * Emits `manifests/<target>.json` for each enabled target and the loss report. A tool that a target cannot
 * take at all (name pattern, non-object root, recursion without `$ref`, size limits) is a problem, with the
 * hint to turn the target off.
 */
export function emitManifests(project: ProjectModel, ctx: EmitContext, options: ManifestOptions = {}): ManifestEmission {
  const targets = enabledTargets(options);
  const emission: ManifestEmission = { files: [], problems: [], losses: dictionary(), unavailable: dictionary(), nullableOptionals: dictionary() };
  const names = project.tools.map((tool) => tool.name).sort(compareStrings);
  const builds: [ManifestTarget, TargetBuild<unknown>][] = [];
  for (const tool of project.tools) emission.losses[tool.name] = {};
  for (const target of targets) {
    const result = BUILDERS[target].build(project);
    builds.push([target, result]);
    absorb(emission, target, result, project.tools);
  }
  emission.losses = sortLossReport(emission.losses);
  const banner = markdownBanner('the tool definitions', ctx).trimEnd();
  if (names.length === 0 || Object.keys(emission.unavailable).length > 0) {
    // No parts to keep track of: printed whole.
    for (const [target, result] of builds) emission.files.push(jsonFile(BUILDERS[target].file, result.content));
    if (targets.length > 0) emission.files.push(...emitLossReport(emission.losses, emission.unavailable, banner));
    return emission;
  }
  // Every tool has an entry in every target, in name order: laid out part by part, ranges recorded.
  emission.segments = {};
  const place = (path: string, layout: { head: string; separator: string; tail: string }, parts: [string, string][]) => {
    const { content, segments } = assemble(layout.head, parts, layout.separator, layout.tail);
    emission.files.push({ path, content, kind: 'generated' });
    emission.segments![path] = segments;
  };
  for (const [target, result] of builds) {
    const { file, key } = BUILDERS[target];
    const layout = targetLayout(key);
    place(file, layout, entriesOf(result.content, key).map((entry, index) => [names[index]!, entryText(entry, layout.indent)]));
  }
  if (targets.length > 0) {
    const texts = names.map((name) => [name, toolLossText(name, ownValue(emission.losses, name)!)] as const);
    const { json, markdown } = LOSS_REPORT_LAYOUT;
    place(json.path, { ...json, head: json.head() }, texts.map(([name, text]) => [name, text.json]));
    place(markdown.path, { ...markdown, head: markdown.head(banner) }, texts.map(([name, text]) => [name, text.markdown]));
  }
  return emission;
}

/** The previous run's manifest files, as far as `patchManifests` needs them. */
export interface PreviousManifests {
  segments: Readonly<Record<string, FileSegments>>;
  /** The bytes of a previous file, untouched since that run wrote it; undefined when they cannot be trusted. */
  read(path: string): Buffer | undefined;
}

/**
 * The manifests and loss reports of `project` made from the previous run's files: the parts of the
 * tools in `changed` are converted again and spliced in, every other part is kept as bytes. Only when
 * the previous run had exactly the same tools (with their parts recorded); otherwise, or when a
 * previous file cannot be read, undefined (the caller emits them whole). The emission's `losses` hold
 * the changed tools only.
 */
export function patchManifests(project: ProjectModel, ctx: EmitContext, options: ManifestOptions, previous: PreviousManifests, changed: readonly ToolModel[]): ManifestEmission | undefined {
  const targets = enabledTargets(options);
  const names = project.tools.map((tool) => tool.name).sort(compareStrings);
  const paths = [...targets.map((target) => BUILDERS[target].file), ...(targets.length > 0 ? [LOSS_REPORT_LAYOUT.json.path, LOSS_REPORT_LAYOUT.markdown.path] : [])];
  if (names.length === 0) return undefined;
  for (const path of paths) {
    const recorded = previous.segments[path];
    if (recorded === undefined || recorded.tools.length !== names.length || recorded.tools.some((name, index) => name !== names[index])) return undefined;
  }
  const emission: ManifestEmission = { files: [], problems: [], losses: dictionary(), unavailable: dictionary(), nullableOptionals: dictionary(), segments: {} };
  const replacements = new Map<string, Map<string, string>>(paths.map((path) => [path, new Map()]));
  for (const tool of changed) {
    const single: ProjectModel = { ...project, tools: [tool] };
    emission.losses[tool.name] = {};
    for (const target of targets) {
      const { file, key, build } = BUILDERS[target];
      const result = build(single);
      absorb(emission, target, result, single.tools);
      const [entry] = entriesOf(result.content, key);
      if (entry !== undefined) replacements.get(file)!.set(tool.name, entryText(entry, targetLayout(key).indent));
    }
    if (targets.length > 0) {
      const text = toolLossText(tool.name, ownValue(emission.losses, tool.name)!, ownValue(emission.unavailable, tool.name));
      replacements.get(LOSS_REPORT_LAYOUT.json.path)!.set(tool.name, text.json);
      replacements.get(LOSS_REPORT_LAYOUT.markdown.path)!.set(tool.name, text.markdown);
    }
  }
  emission.losses = sortLossReport(emission.losses);
  // A target that cannot take a changed tool fails the run: nothing to splice.
  if (emission.problems.length > 0) return emission;
  for (const path of paths) {
    const bytes = previous.read(path);
    if (bytes === undefined) return undefined;
    const spliced = splice(bytes, previous.segments[path]!, replacements.get(path)!);
    if (spliced === undefined) return undefined;
    emission.files.push(bytesFile(path, spliced.bytes));
    emission.segments![path] = spliced.segments;
  }
  return emission;
}

/** A generated file given as bytes; its text is decoded only if asked for. */
function bytesFile(path: string, bytes: Buffer): GeneratedFile {
  let content: string | undefined;
  return {
    path,
    kind: 'generated',
    bytes,
    get content(): string {
      return (content ??= bytes.toString('utf8'));
    },
  };
}
