/**
 * The manifests: `manifests/<target>.json` for each enabled target with its typed module, the loss
 * reports, the token report and the namespaced Responses file. Assembled here from every tool's part
 * (part.ts) as the parts come in, or spliced into the last run's files when a few tools changed (splice.ts).
 */
import type { EmitContext, Problem, ProjectModel, ToolModel } from '../../model.js';
import { compareStrings } from '../../../src/manifest-targets/build.js';
import { MANIFEST_TARGET_TABLE } from '../../../src/manifest-targets/table.js';
import { markdownBanner } from '../banner.js';
import { AssembledFile, InNameOrder, textFile } from './assembled-file.js';
import { withNameCollisions } from './host-report.js';
import { emitLossReport, LOSS_REPORT_LAYOUT, sortLossReport } from './loss-report.js';
import { addNamespaced, writesNamespaces } from './namespaced.js';
import { patchManifests, type PreviousManifests } from './splice.js';
import {
  buildTarget,
  emptyEmission,
  enabledTargets,
  recordPart,
  splitCompact,
  targetLayout,
  toolManifests,
} from './part.js';
import { addTokenReport, lossReportTail, tokenReport, toolTokens } from './token-report.js';
import { typedModule } from './typed-module.js';
import type { LossesByTarget, ManifestEmission, ManifestOptions, ToolManifests } from './types.js';

export {
  DEFAULT_MANIFEST_TARGETS,
  MANIFEST_TARGET_TABLE,
  MANIFEST_TARGETS,
  type ManifestTarget,
} from '../../../src/manifest-targets/table.js';
export type {
  LossReport,
  ManifestEmission,
  ManifestOptions,
  TokenBudgets,
  TokenReport,
  ToolManifests,
} from './types.js';
export { AssembledFile, InNameOrder } from './assembled-file.js';
export { TOKEN_REPORT_PATH, tokenTotalRows } from './token-report.js';
export { withNameCollisions } from './host-report.js';
export { toolManifests } from './part.js';
export type { PreviousManifests } from './splice.js';

/**
 * Assembles the manifests and loss reports from the tools' parts (`toolManifests`), given in any order:
 * each part is laid out as bytes as soon as every tool before it (in name order) is in, so what waits
 * as text is the parts that arrived early. `finish` once every tool's part is in. Given the last run's
 * files, it holds the parts and splices them into those files at `finish` (`patchManifests`), assembling
 * only when they do not fit.
 */
export interface ManifestAssembler {
  add(part: ToolManifests, losses?: LossesByTarget): void;
  /** A tool whose part is the last run's: made from its model only when the manifests are assembled. */
  reuse(tool: ToolModel): void;
  /** What the targets said of the tools added so far, in the order they were added (errors under `error`; warnings under `omit`). */
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  /** Writes the tails, the typed modules and the reports; the emission, its files as pieces of bytes. */
  finish(): ManifestEmission;
}

/**
 * The assembler of the manifests of the tools named `names` (any order): the target files and the two
 * loss reports, fed in name order; with `last` (the project and the last run's files), a splice first.
 */
export function createManifestAssembler(
  names: readonly string[],
  ctx: EmitContext,
  options: ManifestOptions = {},
  last?: { project: ProjectModel; previous: PreviousManifests },
): ManifestAssembler {
  const targets = enabledTargets(options);
  const emission = emptyEmission();
  const banner = markdownBanner('the tool definitions', ctx).trimEnd();
  // One per enabled target, in the targets' order (the tail is known at `finish`: whether a listed tool is deferred).
  const targetFiles = targets.map(
    (target) => new AssembledFile(MANIFEST_TARGET_TABLE[target].file, targetLayout(target, options)),
  );
  const { json, markdown } = LOSS_REPORT_LAYOUT;
  const reportFiles =
    targets.length === 0 || names.length === 0
      ? []
      : [
          new AssembledFile(json.path, { ...json, head: json.head() }),
          new AssembledFile(markdown.path, { ...markdown, head: markdown.head(banner) }),
        ];
  // Each tool's entries without indentation, as bytes (off the heap) until `finish` counts them.
  const compact = new Map<string, Buffer>();
  const categories = new Map<string, string>();
  // Writes a part: its entry into each target's file, its loss text into the reports.
  const inOrder = new InNameOrder<[ToolManifests, LossesByTarget | undefined]>(names, ([part, losses]) => {
    part.entries.forEach((entry, index) => {
      if (entry === null) return;
      targetFiles[index]!.append(part.name, entry);
      if (part.deferred) targetFiles[index]!.deferred = true;
    });
    if (part.compact !== undefined) compact.set(part.name, Buffer.from(part.compact, 'utf8'));
    if (part.category !== undefined) categories.set(part.name, part.category);
    if (part.lossText !== undefined && reportFiles.length > 0) {
      reportFiles[0]!.append(part.name, part.lossText.json);
      reportFiles[1]!.append(part.name, part.lossText.markdown);
    }
    emission.losses[part.name] = losses ?? {};
  });
  const closeFile = (file: AssembledFile) => {
    emission.files.push(file.close());
    emission.segments![file.path] = file.segments;
  };
  // While a splice may make the manifests: the parts given, and the tools whose parts are the last run's.
  const held: [ToolManifests, LossesByTarget | undefined][] = [];
  const reused: ToolModel[] = [];
  const assembler: ManifestAssembler = {
    problems: emission.problems,
    warnings: emission.warnings,
    add(part, losses) {
      // Known at once, not when the part is written: a run that stops before every part is in reports them.
      recordPart(emission, part);
      if (last) held.push([part, losses]);
      else inOrder.add(part.name, [part, losses]);
    },
    reuse(tool) {
      if (last) reused.push(tool);
      else assembler.add(toolManifests(tool, options).manifests);
    },
    finish() {
      if (last) {
        const parts = held.map(([part]) => part);
        const spliced = patchManifests(last.project, ctx, options, last.previous, parts);
        if (spliced !== undefined) return spliced;
        // The last run's files do not fit: every part assembled, the reused tools' made from their models.
        for (const [part, losses] of held) inOrder.add(part.name, [part, losses]);
        for (const tool of reused) {
          const part = toolManifests(tool, options).manifests;
          recordPart(emission, part);
          inOrder.add(part.name, [part, undefined]);
        }
      }
      if (inOrder.missing !== undefined)
        throw new Error(`the manifests are missing the part of "${inOrder.missing}" (finish called too early)`);
      if (inOrder.size > 0) emission.segments = {};
      // Each target's file closed with its tail (or, with no tool listed, its empty content), and its typed module.
      targets.forEach((target, index) => {
        const file = targetFiles[index]!;
        file.layout.tail = targetLayout(target, options, file.deferred).tail;
        if (file.opened) closeFile(file);
        else {
          const empty = buildTarget([], target, options).content;
          emission.files.push(textFile(file.path, `${JSON.stringify(empty, null, 2)}\n`));
          if (inOrder.size > 0) emission.segments![file.path] = { tools: [], ranges: [] };
        }
        emission.files.push(typedModule(target, ctx, options));
      });
      if (targets.length > 0 && inOrder.size === 0)
        emission.files.push(...emitLossReport(emission.losses, emission.unavailable, banner));
      // Counted now that the emission is done (its workers stopped): the tokenizer's table is loaded once, on this thread.
      const entries = (tool: string) => splitCompact(compact.get(tool)!.toString('utf8'));
      const report =
        targets.length > 0 && options.tokenReport !== false
          ? tokenReport(targets, new Map([...compact.keys()].map((tool) => [tool, toolTokens(targets, entries(tool))])))
          : undefined;
      if (report !== undefined && reportFiles.length > 0) reportFiles[1]!.layout.tail = lossReportTail(report);
      for (const file of reportFiles) closeFile(file);
      if (report !== undefined)
        addTokenReport(emission, report, options, (tool, target) => {
          const json = entries(tool)[targets.indexOf(target)];
          return json === null || json === undefined ? undefined : JSON.parse(json);
        });
      if (writesNamespaces(targets, options)) addNamespaced(emission, (tool) => categories.get(tool), options);
      emission.losses = sortLossReport(emission.losses);
      return emission;
    },
  };
  return assembler;
}

/**
 * Emits `manifests/<target>.json` for each enabled target and the loss report. A tool that a target cannot
 * take at all (name pattern, non-object root, recursion without `$ref`, size limits) is left out of that
 * target with a warning (`omit`, the default) or is a problem (`error`); a tool whose definition turns a
 * target off is left out of it silently. Either way the loss report says so. The files are assembled from
 * every tool's part (`toolManifests`), in memory, as a run's emission assembles them into its staging tree.
 */
export function emitManifests(
  project: ProjectModel,
  ctx: EmitContext,
  runOptions: ManifestOptions = {},
): ManifestEmission {
  const names = project.tools.map((tool) => tool.name);
  const options = withNameCollisions(runOptions, names);
  const assembler = createManifestAssembler(names, ctx, options);
  for (const tool of [...project.tools].sort((a, b) => compareStrings(a.name, b.name))) {
    const { manifests, losses } = toolManifests(tool, options);
    assembler.add(manifests, losses);
  }
  return assembler.finish();
}
