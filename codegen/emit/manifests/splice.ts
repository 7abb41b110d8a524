/**
 * Files that list every tool — the manifests and the loss reports — are a head, one part per tool
 * (in tool-name order) joined by a separator, and a tail (laid out by `createManifestAssembler`).
 * Their byte ranges are recorded, so a run in which a few tools changed rewrites those parts inside
 * the previous file's bytes instead of converting and printing every tool again (files that grow with
 * the tool count).
 */
import type { EmitContext, FileSegments, GeneratedFile, ProjectModel } from '../../model.js';
import { compareStrings } from '../../../src/manifest-targets/build.js';
import { isDeferred } from '../../../src/manifest-targets/defer-loading.js';
import { MANIFEST_TARGET_TABLE } from '../../../src/manifest-targets/table.js';
import { chunksFile } from './assembled-file.js';
import { LOSS_REPORT_LAYOUT } from './loss-report.js';
import { addNamespaced, writesNamespaces } from './namespaced.js';
import { emptyEmission, enabledTargets, recordPart, splitCompact, targetLayout } from './part.js';
import {
  addTokenReport,
  lossReportTail,
  previousTokens,
  TOKEN_REPORT_PATH,
  tokenReport,
  toolTokens,
} from './token-report.js';
import { typedModule } from './typed-module.js';
import type { ManifestEmission, ManifestOptions, ToolManifests } from './types.js';

/**
 * The previous file's bytes (as pieces: views of `previous` and the new parts) with the parts of the
 * tools in `replacements` replaced (and the bytes after the last part by `tail`, when given: the loss
 * report's token totals), the new ranges, and whether any bytes changed; undefined
 * when the recorded ranges do not fit the bytes (the caller rebuilds the file).
 */
export function splice(
  previous: Buffer,
  segments: FileSegments,
  replacements: ReadonlyMap<string, string>,
  tail?: string,
): { chunks: Buffer[]; segments: FileSegments; changed: boolean } | undefined {
  const { tools, ranges } = segments;
  if (ranges.length !== tools.length * 2) return undefined;
  const chunks: Buffer[] = [];
  const next: FileSegments = { tools: [...tools], ranges: [] };
  let copied = 0;
  let shift = 0;
  let lastEnd = 0;
  let changed = false;
  for (let index = 0; index < tools.length; index++) {
    const start = ranges[index * 2]!;
    const end = ranges[index * 2 + 1]!;
    // In order, not overlapping, inside the file.
    if (!(start >= lastEnd && end >= start && end <= previous.length)) return undefined;
    lastEnd = end;
    const text = replacements.get(tools[index]!);
    if (text === undefined) {
      next.ranges.push(start + shift, end + shift);
      continue;
    }
    const bytes = Buffer.from(text, 'utf8');
    changed ||= !bytes.equals(previous.subarray(start, end));
    chunks.push(previous.subarray(copied, start), bytes);
    next.ranges.push(start + shift, start + shift + bytes.length);
    shift += bytes.length - (end - start);
    copied = end;
  }
  if (tail === undefined || tools.length === 0) chunks.push(previous.subarray(copied));
  else {
    const bytes = Buffer.from(tail, 'utf8');
    changed ||= !bytes.equals(previous.subarray(lastEnd));
    chunks.push(previous.subarray(copied, lastEnd), bytes);
  }
  // The pieces, not joined: the staging tree writes them one after the other.
  return { chunks, segments: next, changed };
}

/** The previous run's manifest files, as far as `patchManifests` needs them. */
export interface PreviousManifests {
  segments: Readonly<Record<string, FileSegments>>;
  /** The bytes of a previous file, untouched since that run wrote it; undefined when they cannot be trusted. */
  read(path: string): Buffer | undefined;
}

/**
 * The manifests and loss reports of `project` made from the previous run's files: the changed tools'
 * `parts` (made by the emission, with `options` as it made them) are spliced in, every other part is
 * kept as bytes, and only the changed tools are counted again (the others' counts are the last
 * report's). Only when the previous run had exactly the same tools (with their parts recorded) in the
 * same files; otherwise, or when a previous file cannot be read, undefined (the caller assembles them).
 * The emission's `losses` are empty: a part carries its loss text, not its losses.
 */
export function patchManifests(
  project: ProjectModel,
  ctx: EmitContext,
  options: ManifestOptions,
  previous: PreviousManifests,
  parts: readonly ToolManifests[],
): ManifestEmission | undefined {
  const names = project.tools.map((tool) => tool.name).sort(compareStrings);
  const targets = enabledTargets(options);
  const reports: string[] = targets.length > 0 ? [LOSS_REPORT_LAYOUT.json.path, LOSS_REPORT_LAYOUT.markdown.path] : [];
  const paths = [...targets.map((target) => MANIFEST_TARGET_TABLE[target].file), ...reports];
  if (names.length === 0) return undefined;
  const present = new Set(names);
  const read = new Map<string, Buffer>();
  for (const path of paths) {
    const recorded = previous.segments[path];
    const bytes = previous.read(path);
    if (recorded === undefined || bytes === undefined) return undefined;
    // The loss reports list every tool; a target's file, those it took (a subset, in name order).
    const fits = reports.includes(path)
      ? recorded.tools.length === names.length && recorded.tools.every((name, index) => name === names[index])
      : recorded.tools.every(
          (name, index) => present.has(name) && (index === 0 || compareStrings(recorded.tools[index - 1]!, name) < 0),
        );
    if (!fits) return undefined;
    read.set(path, bytes);
  }
  const emission: ManifestEmission = { ...emptyEmission(), segments: {}, spliced: true };
  const replacements = new Map<string, Map<string, string>>(paths.map((path) => [path, new Map()]));
  const compact = new Map<string, string>();
  for (const manifests of parts) {
    const { name } = manifests;
    if (manifests.compact !== undefined) compact.set(name, manifests.compact);
    recordPart(emission, manifests);
    for (const [index, target] of targets.entries()) {
      const { file } = MANIFEST_TARGET_TABLE[target];
      const entry = manifests.entries[index]!;
      // A tool that joins or leaves a target's file changes its list: assembled instead.
      if ((entry !== null) !== previous.segments[file]!.tools.includes(name)) return undefined;
      if (entry !== null) replacements.get(file)!.set(name, entry);
    }
    if (manifests.lossText !== undefined) {
      replacements.get(LOSS_REPORT_LAYOUT.json.path)!.set(name, manifests.lossText.json);
      replacements.get(LOSS_REPORT_LAYOUT.markdown.path)!.set(name, manifests.lossText.markdown);
    }
  }
  // A target that cannot take a changed tool fails the run: nothing to splice.
  if (emission.problems.length > 0) return emission;
  // The bytes after each file's last part: the loss report's Markdown ends with the token totals, and a
  // target's file lists the search tool while a tool it lists is deferred.
  const tails = new Map<string, string>([[LOSS_REPORT_LAYOUT.markdown.path, LOSS_REPORT_LAYOUT.markdown.tail]]);
  if (targets.length > 0 && options.tokenReport !== false) {
    const tokens = previousTokens(previous.read(TOKEN_REPORT_PATH), targets, names);
    if (tokens === undefined) return undefined;
    for (const [tool, json] of compact) tokens.set(tool, toolTokens(targets, splitCompact(json), tokens.get(tool)));
    const report = tokenReport(targets, tokens);
    // A tool's entry for a budget warning: a changed tool's new part, another's part of the last run's bytes.
    addTokenReport(emission, report, options, (tool, target) => {
      const { file } = MANIFEST_TARGET_TABLE[target];
      const text = replacements.get(file)!.get(tool);
      if (text !== undefined) return JSON.parse(text);
      const { tools, ranges } = previous.segments[file]!;
      const index = tools.indexOf(tool);
      if (index < 0) return undefined;
      return JSON.parse(
        read
          .get(file)!
          .subarray(ranges[index * 2]!, ranges[index * 2 + 1]!)
          .toString('utf8'),
      );
    });
    tails.set(LOSS_REPORT_LAYOUT.markdown.path, lossReportTail(report));
  }
  const byName = new Map(project.tools.map((tool) => [tool.name, tool]));
  for (const target of targets) {
    const { file } = MANIFEST_TARGET_TABLE[target];
    const deferred = previous.segments[file]!.tools.some((name) => isDeferred(byName.get(name)!, options.deferLoading));
    tails.set(file, targetLayout(target, options, deferred).tail);
  }
  const files: GeneratedFile[] = [];
  for (const path of paths) {
    const spliced = splice(read.get(path)!, previous.segments[path]!, replacements.get(path)!, tails.get(path));
    if (spliced === undefined) return undefined;
    // Made from the bytes on disk: they differ exactly when a part changed (staging need not compare).
    files.push(chunksFile(path, spliced.chunks, spliced.changed ? 'differs' : 'same'));
    emission.segments![path] = spliced.segments;
    // Each target's typed module after its JSON, as the assembler lists them.
    const target = targets.find((candidate) => MANIFEST_TARGET_TABLE[candidate].file === path);
    if (target !== undefined) files.push(typedModule(target, ctx, options));
  }
  // In the assembler's order: before the token report.
  emission.files.unshift(...files);
  if (writesNamespaces(targets, options)) addNamespaced(emission, (tool) => byName.get(tool)?.category, options);
  return emission;
}
