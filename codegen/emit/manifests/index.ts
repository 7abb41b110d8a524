/**
 * The manifests: `manifests/<target>.json` for each enabled target with its typed module, the loss
 * reports, the token report and the namespaced Responses file. Assembled here from every tool's part
 * (part.ts) as the parts come in, or spliced into the last run's files when a few tools changed (splice.ts).
 */
import type { EmitContext, FileSegments, GeneratedFile, Problem, ToolModel } from '../../model.js';
import { compareStrings } from '../../../src/manifest-targets/build.js';
import { markdownBanner } from '../banner.js';
import { AssembledFile, InNameOrder, memoryWriter, type OpenFile } from './assembled-file.js';
import { LOSS_REPORT_LAYOUT, sortLossReport } from './loss-report.js';
import { addNamespaced, namespacedSource } from './namespaced.js';
import { planManifests, toolManifests } from './part.js';
import { dictionary } from '../../dictionary.js';
import { spliceFiles, spliceParts, type PreviousManifests, type SpliceInput } from './splice.js';
import { countTokens, tokenTotalsMarkdown } from './token-report.js';
import { typedModule } from './typed-module.js';
import type { LossesByTarget, ManifestEmission, ManifestOptions, TokenReport, ToolManifests } from './types.js';

export type { LossReport, ManifestEmission, ManifestOptions, TokenReport, ToolManifests } from './types.js';
export { AssembledFile, InNameOrder, memoryWriter, type OpenFile } from './assembled-file.js';
export { TOKEN_REPORT_PATH, tokenTotalRows } from './token-report.js';
export { withNameCollisions } from './host-report.js';
export { toolManifests } from './part.js';
export type { PreviousManifests } from './splice.js';

/**
 * The assembler of the manifests of `tools` (every tool of the project, any order): the target files
 * and the two loss reports, from the tools' parts (`toolManifests`), given in any order. Each part is
 * laid out as bytes as soon as every tool before it (in name order) is in, so what waits as text is the
 * parts that arrived early; `finish` once every tool's part is in. Given the run's `output`, an
 * assembled file goes there as its bytes are made (`written`), else it is kept in memory (`files`).
 * Given the last run's files (`previous`), it holds the parts and splices them into those files at
 * `finish` (`spliceParts`), assembling only when they do not fit; either way one closing step writes
 * the tails, the typed modules and the reports.
 */
export function createManifestAssembler(
  tools: readonly ToolModel[],
  ctx: EmitContext,
  options: ManifestOptions = {},
  run: { previous?: PreviousManifests | undefined; output?: { open: OpenFile } } = {},
) {
  const { previous, output } = run;
  const names = tools.map((tool) => tool.name).sort(compareStrings);
  const plan = planManifests(tools, options);
  const emission: ManifestEmission = {
    files: [],
    written: [],
    problems: [],
    warnings: [],
    losses: dictionary(),
    unavailable: dictionary(),
  };
  const targets = plan.files.map((file) => file.target);
  // The assembled files kept in memory, by path: every one without an output; with it, the one a namespaced file is made from.
  const kept = new Map<string, GeneratedFile>();
  const open: OpenFile = (path) => {
    if (output === undefined || path === namespacedSource(options))
      return memoryWriter(path, (file) => kept.set(path, file));
    emission.written.push(path);
    return output.open(path);
  };
  const assemble = (path: string, layout: AssembledFile['layout']) => new AssembledFile(path, layout, open);
  // One per enabled target, in the targets' order (the tail is known at `finish`: whether a listed tool is deferred).
  const targetFiles = plan.files.map((file) => assemble(file.path, { ...file.layout, empty: file.empty }));
  const { json, markdown } = LOSS_REPORT_LAYOUT;
  const markdownHead = markdown.head(markdownBanner('the tool definitions', ctx).trimEnd());
  // With no tool the reports are still written: an empty object, and the Markdown's introduction alone.
  const reportFiles =
    targets.length === 0
      ? []
      : [
          assemble(json.path, { ...json, head: json.head(), empty: '{}\n' }),
          assemble(markdown.path, { ...markdown, head: markdownHead, empty: `${markdownHead.trimEnd()}\n` }),
        ];
  // Each tool's entries without indentation, as bytes (off the heap) until `finish` counts them.
  const compact = new Map<string, Buffer>();
  // Writes a part: its entry into each target's file, its loss text into the reports.
  const inOrder = new InNameOrder<[ToolManifests, LossesByTarget | undefined]>(names, ([part, losses]) => {
    part.entries.forEach((entry, index) => {
      if (entry !== null) targetFiles[index]!.append(part.name, entry);
    });
    if (part.lossText !== undefined) {
      reportFiles[0]!.append(part.name, part.lossText.json);
      reportFiles[1]!.append(part.name, part.lossText.markdown);
    }
    emission.losses[part.name] = losses ?? {};
  });
  // What a part says of its tool, recorded when it comes, not when it is written: a run that stops
  // before every part is in reports it.
  const take = (part: ToolManifests) => {
    emission.problems.push(...part.problems);
    emission.warnings.push(...part.warnings);
    if (Object.keys(part.unavailable).length > 0) emission.unavailable[part.name] = part.unavailable;
    if (part.compact !== undefined) compact.set(part.name, Buffer.from(part.compact, 'utf8'));
  };
  // While a splice may make the manifests: the parts given, and the tools whose parts are the last run's.
  const held: [ToolManifests, LossesByTarget | undefined][] = [];
  const reused: ToolModel[] = [];
  return {
    /** What the targets said of the tools added so far, in the order they were added (errors under `error`; warnings under `omit`). */
    problems: emission.problems as readonly Problem[],
    warnings: emission.warnings as readonly Problem[],
    add(part: ToolManifests, losses?: LossesByTarget): void {
      take(part);
      if (previous) held.push([part, losses]);
      else inOrder.add(part.name, [part, losses]);
    },
    /** A tool whose part is the last run's: made from its model only when the manifests are assembled. */
    reuse(tool: ToolModel): void {
      reused.push(tool);
    },
    /** Writes the tails, the typed modules and the reports; the emission, its files in memory as pieces of bytes. */
    finish(): ManifestEmission {
      // The fresh parts spliced into the last run's files, or else every tool's part assembled.
      const fresh = held.map(([part]) => part);
      const spliced = previous && spliceParts(previous, names, plan, fresh);
      if (spliced === undefined) assembleEveryPart();
      else if (emission.problems.length > 0) return emission;
      // Counted now that the emission is done (its workers stopped): the tokenizer's table is loaded once, on this thread.
      const tokens =
        targets.length > 0 && options.tokenReport !== false
          ? countTokens(targets, names, compact, options, spliced)
          : undefined;
      const tails = tailsOf(spliced, tokens?.report);
      const written = spliced ? spliceFiles(spliced, tails) : assembledFiles(tails);
      // Each target's file (when in memory) followed by its typed module, then the loss reports, the token report and the namespaced file.
      const inMemory = (...paths: string[]) => paths.flatMap((path) => written.files.get(path) ?? []);
      for (const file of plan.files)
        emission.files.push(...inMemory(file.path), typedModule(file.target, ctx, file.searches));
      emission.files.push(...inMemory(json.path, markdown.path));
      if (written.segments !== undefined) emission.segments = written.segments;
      if (tokens !== undefined) {
        emission.tokens = tokens.report;
        emission.files.push(tokens.file);
        emission.warnings.push(...tokens.warnings);
      }
      addNamespaced(emission, tools, options);
      emission.losses = sortLossReport(emission.losses);
      if (spliced) emission.spliced = true;
      return emission;
    },
  };

  /** Feeds every tool's part to the assembled files: the parts held for a splice, and the reused tools' made from their models. */
  function assembleEveryPart(): void {
    for (const [part, losses] of held) inOrder.add(part.name, [part, losses]);
    for (const tool of reused) {
      const part = toolManifests(tool, options).manifests;
      take(part);
      inOrder.add(part.name, [part, undefined]);
    }
    if (inOrder.missing !== undefined)
      throw new Error(`the manifests are missing the part of "${inOrder.missing}" (finish called too early)`);
  }

  /**
   * The bytes after each file's last part, by path: a target's file lists the search tool while a tool
   * it lists is deferred, and the loss report's Markdown ends with the token totals.
   */
  function tailsOf(spliced: SpliceInput | undefined, tokens: TokenReport | undefined): Map<string, string> {
    const tails = new Map<string, string>();
    plan.files.forEach((file, index) => {
      const listed = spliced?.files.get(file.path)!.segments.tools ?? targetFiles[index]!.segments.tools;
      tails.set(file.path, listed.some((tool) => plan.deferred.has(tool)) ? file.deferredTail : file.layout.tail);
    });
    tails.set(markdown.path, tokens === undefined ? markdown.tail : `\n\n${tokenTotalsMarkdown(tokens)}\n`);
    return tails;
  }

  /** The assembled files kept in memory by path (each closed with its tail, or its empty content when it lists no tool) and every file's ranges. */
  function assembledFiles(tails: ReadonlyMap<string, string>) {
    const segments: Record<string, FileSegments> = {};
    for (const file of [...targetFiles, ...reportFiles]) {
      file.close(tails.get(file.path));
      segments[file.path] = file.segments;
    }
    return { files: kept, ...(names.length > 0 ? { segments } : {}) };
  }
}
