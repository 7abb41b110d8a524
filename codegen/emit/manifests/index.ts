import type { EmitContext, FileSegments, GeneratedFile, Problem, ProjectModel, ToolModel } from '../../model.js';
import { dictionary, ownValue } from '../../dictionary.js';
import { compareStrings } from '../../../src/manifest-targets/build.js';
import { markdownBanner } from '../banner.js';
import type { LossEntry, TargetBuild } from '../../../src/manifest-targets/build.js';
import {
  buildManifestTarget,
  DEFAULT_MANIFEST_TARGETS,
  MANIFEST_TARGET_TABLE,
  MANIFEST_TARGETS,
  type ManifestTarget,
} from '../../../src/manifest-targets/table.js';
import { toolHostReport, withNameCollisions } from './host-report.js';
import { emitLossReport, LOSS_REPORT_LAYOUT, sortLossReport, toolLossText } from './loss-report.js';
import { chunksFile, splice, splicedEntryLookup } from './splice.js';
import { AssembledFile, InNameOrder, type ManifestWriter, type OpenManifestFile } from './assembled-file.js';
import { addNamespaced, NAMESPACED_RESPONSES_PATH, patchNamespaced, writesNamespaces } from './namespaced.js';
import { typedModule } from './typed-module.js';
import { DEFAULT_INPUT_EXAMPLES } from '../../../src/manifest-targets/input-examples.js';
import { isDeferred, toolSearchEntry } from '../../../src/manifest-targets/defer-loading.js';
import {
  previousTokens,
  TOKEN_REPORT_PATH,
  tokenReport,
  toolTokens,
  addTokenReport,
  BiggestEntries,
  lossReportTail,
} from './token-report.js';
import type { ManifestEmission, ManifestOptions, TokenReport, ToolManifests, ToolTokens } from './types.js';

export type { LossEntry } from '../../../src/manifest-targets/build.js';
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

/** The text after a target file's last tool: its tail, after the search tool entry when a listed tool is deferred. */
function targetTail(target: ManifestTarget, options: ManifestOptions, deferred: boolean): string {
  const layout = targetLayout(MANIFEST_TARGET_TABLE[target].key);
  const search =
    deferred && options.deferLoading !== undefined ? toolSearchEntry(target, options.deferLoading) : undefined;
  return search === undefined ? layout.tail : `${layout.separator}${entryText(search, layout.indent)}${layout.tail}`;
}

/** The reason the loss report gives for a tool its definition turned off for a target. */
const TURNED_OFF_REASON = 'turned off in its definition (`targets`)';

/** The tools of `tools` whose definitions do not turn `target` off. */
function includedTools(tools: readonly ToolModel[], target: ManifestTarget): readonly ToolModel[] {
  return tools.filter((tool) => !tool.excludedTargets?.includes(target));
}

/** Runs a target's builder on the tools that take part in it. */
function buildTarget(
  tools: readonly ToolModel[],
  target: ManifestTarget,
  options: ManifestOptions,
): TargetBuild<unknown> {
  return buildManifestTarget(target, {
    tools: includedTools(tools, target),
    describeLosses: options.describeLosses ?? true,
    inputExamples: options.inputExamples ?? DEFAULT_INPUT_EXAMPLES,
    ...(options.examplesInDescriptions === true ? { examplesInDescriptions: true } : {}),
    ...(options.describeErrors === true ? { describeErrors: true } : {}),
    ...(options.deferLoading !== undefined ? { deferLoading: options.deferLoading } : {}),
  });
}

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

/** A problem a target found in a tool, as the warning it is under the `omit` policy. */
function omittedWarning(problem: Problem, target: ManifestTarget): Problem {
  return {
    ...problem,
    severity: 'warning',
    message: `${problem.message} It is left out of manifests/${target}.json.`,
    hint: `see manifests/loss-report.md; to stop the warning, turn ${target} off for this tool (\`"targets": { "${target}": false }\` in its definition)`,
  };
}

/** The enabled targets, in file order. */
function enabledTargets(options: ManifestOptions): ManifestTarget[] {
  const named = options.targets ?? DEFAULT_MANIFEST_TARGETS;
  // The portable profile is served from its file: written whenever it is the served one.
  return MANIFEST_TARGETS.filter(
    (target) => named.includes(target) || (target === 'mcp-portable' && options.servedProfile === 'portable'),
  );
}

/** A manifest emission with nothing in it yet. */
function emptyEmission(): ManifestEmission {
  return {
    files: [],
    problems: [],
    warnings: [],
    losses: dictionary(),
    unavailable: dictionary(),
    nullableOptionals: dictionary(),
  };
}

/**
 * A tool's part of every manifest file (`ToolManifests`) and its losses by target, sorted (its doc page
 * lists them). Each target is built for this tool alone: a target's entry for a tool depends on that
 * tool only, so the files assembled from these parts are the files built from every tool at once.
 */
export function toolManifests(
  tool: ToolModel,
  options: ManifestOptions,
): { manifests: ToolManifests; losses: Partial<Record<ManifestTarget, LossEntry[]>> } {
  const targets = enabledTargets(options);
  const policy = options.unrepresentable ?? 'omit';
  const manifests: ToolManifests = { name: tool.name, entries: [], problems: [], warnings: [], unavailable: {} };
  const byTarget: Partial<Record<ManifestTarget, LossEntry[]>> = {};
  // Each entry's JSON as an SDK sends it (no indentation): what the token report counts.
  const compact: (string | null)[] = [];
  for (const target of targets) {
    const { key } = MANIFEST_TARGET_TABLE[target];
    const result = buildTarget([tool], target, options);
    if (policy === 'error') manifests.problems.push(...result.problems);
    else manifests.warnings.push(...result.problems.map((problem) => omittedWarning(problem, target)));
    // Keyed by tool names (`constructor`, `__proto__` are valid ones): own lookups.
    byTarget[target] = ownValue(result.losses, tool.name) ?? [];
    const reason = tool.excludedTargets?.includes(target) ? TURNED_OFF_REASON : ownValue(result.unavailable, tool.name);
    if (reason !== undefined) manifests.unavailable[target] = reason;
    const nullable = 'nullableOptionals' in result ? (result.nullableOptionals as Record<string, string[]>) : undefined;
    const optionals = ownValue(nullable, tool.name);
    if (optionals !== undefined) manifests.nullableOptionals = optionals;
    const [entry] = entriesOf(result.content, key);
    manifests.entries.push(entry === undefined ? null : entryText(entry, targetLayout(key).indent));
    compact.push(entry === undefined ? null : JSON.stringify(entry));
  }
  // Wanted by the token report, and by the namespaced Responses manifest (made from the flat entries).
  if (targets.length > 0 && (counts(options) || writesNamespaces(targets, options)))
    manifests.compact = compact.map((json) => json ?? '').join('\n');
  if (isDeferred(tool, options.deferLoading)) manifests.deferred = true;
  if (tool.category !== undefined && options.deferLoading?.namespaces === true) manifests.category = tool.category;
  const losses = ownValue(sortLossReport({ [tool.name]: byTarget }), tool.name)!;
  if (targets.length > 0) {
    const hosts = toolHostReport(tool, options);
    manifests.warnings.push(...hosts.warnings);
    manifests.lossText = toolLossText(tool.name, losses, manifests.unavailable, hosts);
  }
  return { manifests, losses };
}

/** True unless the token report is turned off (`manifests.tokenReport: false`). */
function counts(options: ManifestOptions): boolean {
  return options.tokenReport !== false;
}

/** True when the run writes a token report: a target is enabled and the report is not turned off. */
function countsAny(targets: readonly ManifestTarget[], options: ManifestOptions): boolean {
  return targets.length > 0 && counts(options);
}

/**
 * The counts a splice starts from: the last report's, by tool (only the changed tools are counted
 * again); none when the run writes no report; undefined when the last report cannot be read as such.
 */
function splicedCounts(
  previous: PreviousManifests,
  targets: readonly ManifestTarget[],
  names: readonly string[],
  options: ManifestOptions,
): Map<string, ToolTokens> | undefined {
  if (!countsAny(targets, options)) return new Map();
  return previousTokens(previous.read(TOKEN_REPORT_PATH), targets, names);
}

/** Records in `emission` what a tool's part says of the tool: problems, warnings, unavailability, nullable optionals. */
function recordPart(emission: ManifestEmission, part: ToolManifests): void {
  emission.problems.push(...part.problems);
  emission.warnings.push(...part.warnings);
  if (Object.keys(part.unavailable).length > 0) emission.unavailable[part.name] = part.unavailable;
  if (part.nullableOptionals !== undefined) emission.nullableOptionals[part.name] = part.nullableOptionals;
}

type LossesByTarget = Partial<Record<ManifestTarget, LossEntry[]>>;

/**
 * Assembles the manifests and loss reports from the tools' parts (`toolManifests`), given in any order:
 * each part is laid out as bytes as soon as every tool before it (in name order) is in, so what waits
 * as text is the parts that arrived early. `finish` once every tool's part is in.
 */
export interface ManifestAssembler {
  add(part: ToolManifests, losses?: LossesByTarget): void;
  /** What the targets said of the tools added so far, in the order they were added (errors under `error`; warnings under `omit`). */
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  /** Writes the tails and the typed modules; the emission, its files as pieces of bytes. */
  finish(): ManifestEmission;
  /** Closes what is open without finishing (a run that stops). */
  abandon(): void;
}

/** The assembler of the manifests of the tools named `names` (any order). */
export function createManifestAssembler(
  names: readonly string[],
  ctx: EmitContext,
  options: ManifestOptions = {},
): ManifestAssembler {
  return new ManifestAssembly(names, ctx, options);
}

/** `ManifestAssembler`: the target files and the two loss reports, fed in name order. */
class ManifestAssembly implements ManifestAssembler {
  private readonly targets: readonly ManifestTarget[];
  private readonly emission = emptyEmission();
  private readonly open: OpenManifestFile = (path) => memoryWriter(path, this.emission.files);
  private readonly banner: string;
  /** One per enabled target, in the targets' order. */
  private readonly targetFiles: AssembledFile[];
  /** The loss report's JSON and Markdown files (none without targets or tools). */
  private readonly reportFiles: AssembledFile[];
  private readonly inOrder: InNameOrder<[ToolManifests, LossesByTarget | undefined]>;
  /** Each tool's entries without indentation, as bytes (off the heap) until `finish` counts them. */
  private readonly compact = new Map<string, Buffer>();
  private readonly categories = new Map<string, string>();
  /** Where `openai-responses` is among the targets when the namespaced file is written, else -1. */
  private readonly responsesIndex: number;

  constructor(
    names: readonly string[],
    private readonly ctx: EmitContext,
    private readonly options: ManifestOptions,
  ) {
    this.targets = enabledTargets(options);
    this.banner = markdownBanner('the tool definitions', ctx).trimEnd();
    this.targetFiles = this.targets.map(
      (target) =>
        new AssembledFile(MANIFEST_TARGET_TABLE[target].file, targetLayout(MANIFEST_TARGET_TABLE[target].key)),
    );
    const { json, markdown } = LOSS_REPORT_LAYOUT;
    this.reportFiles =
      this.targets.length === 0 || names.length === 0
        ? []
        : [
            new AssembledFile(json.path, { ...json, head: json.head() }),
            new AssembledFile(markdown.path, { ...markdown, head: markdown.head(this.banner) }),
          ];
    this.inOrder = new InNameOrder(names, ([part, losses]) => this.take(part, losses));
    this.responsesIndex = writesNamespaces(this.targets, options) ? this.targets.indexOf('openai-responses') : -1;
  }

  get problems(): readonly Problem[] {
    return this.emission.problems;
  }

  get warnings(): readonly Problem[] {
    return this.emission.warnings;
  }

  add(part: ToolManifests, losses?: LossesByTarget): void {
    // Known at once, not when the part is written: a run that stops before every part is in reports them.
    recordPart(this.emission, part);
    this.inOrder.add(part.name, [part, losses]);
  }

  finish(): ManifestEmission {
    const missing = this.inOrder.missing;
    if (missing !== undefined)
      throw new Error(`the manifests are missing the part of "${missing}" (finish called too early)`);
    const { emission, targets } = this;
    if (this.inOrder.size > 0) emission.segments = {};
    this.finishTargets();
    if (targets.length > 0 && this.inOrder.size === 0)
      for (const file of emitLossReport(emission.losses, emission.unavailable, this.banner))
        this.whole(file.path, file.content);
    const { tokens, biggest, responses } = this.countEntries();
    const report = countsAny(targets, this.options) ? tokenReport(targets, tokens) : undefined;
    if (report !== undefined && this.reportFiles.length > 0) this.reportFiles[1]!.layout.tail = lossReportTail(report);
    for (const file of this.reportFiles) this.closeFile(file);
    if (report !== undefined)
      addTokenReport(
        emission,
        report,
        this.options,
        (text) => this.whole(TOKEN_REPORT_PATH, text),
        (tool, target) => biggest?.[targets.indexOf(target)]?.entry(tool),
      );
    if (this.responsesIndex >= 0) this.finishNamespaced(responses);
    emission.losses = sortLossReport(emission.losses);
    return emission;
  }

  abandon(): void {
    for (const file of [...this.targetFiles, ...this.reportFiles]) file.abandon();
  }

  /** Writes a part: its entry into each target's file, its loss text into the reports. */
  private take(part: ToolManifests, losses: LossesByTarget | undefined): void {
    part.entries.forEach((entry, index) => {
      if (entry === null) return;
      const file = this.targetFiles[index]!;
      file.append(this.open, part.name, entry);
      if (part.deferred) file.deferred = true;
    });
    if (part.compact !== undefined) this.compact.set(part.name, Buffer.from(part.compact, 'utf8'));
    if (part.category !== undefined) this.categories.set(part.name, part.category);
    if (part.lossText !== undefined && this.reportFiles.length > 0) {
      this.reportFiles[0]!.append(this.open, part.name, part.lossText.json);
      this.reportFiles[1]!.append(this.open, part.name, part.lossText.markdown);
    }
    this.emission.losses[part.name] = losses ?? {};
  }

  /** Each target's file closed with its tail (or, with no tool listed, its empty content), and its typed module. */
  private finishTargets(): void {
    this.targets.forEach((target, index) => {
      const file = this.targetFiles[index]!;
      file.layout.tail = targetTail(target, this.options, file.deferred);
      if (file.opened) this.closeFile(file);
      else {
        this.whole(file.path, `${JSON.stringify(buildTarget([], target, this.options).content, null, 2)}\n`);
        if (this.inOrder.size > 0) this.emission.segments![file.path] = { tools: [], ranges: [] };
      }
      const typed = typedModule(target, this.ctx, this.options);
      this.whole(typed.path, typed.content);
    });
  }

  /**
   * The tools' token counts (when counted), the biggest entries of each target (with budgets: a
   * warning names them and what in them costs most), and the flat `openai-responses` entries.
   * Counted now that the emission is done (its workers stopped): the tokenizer's table is loaded
   * once, on this thread.
   */
  private countEntries(): {
    tokens: Map<string, ToolTokens>;
    biggest: BiggestEntries[] | undefined;
    responses: Record<string, unknown>[];
  } {
    const { targets, options } = this;
    const counting = counts(options);
    const biggest =
      options.tokenBudget === undefined || !counting ? undefined : targets.map(() => new BiggestEntries());
    const tokens = new Map<string, ToolTokens>();
    const responses: Record<string, unknown>[] = [];
    for (const [name, bytes] of this.compact) {
      const entries = splitCompact(bytes.toString('utf8'));
      if (counting) {
        const row = toolTokens(targets, entries);
        tokens.set(name, row);
        row.counts.forEach((count, index) => {
          if (count !== null) biggest?.[index]!.offer(name, count, entries[index]!);
        });
      }
      if (this.responsesIndex >= 0 && entries[this.responsesIndex] !== null)
        responses.push(JSON.parse(entries[this.responsesIndex]!));
    }
    this.compact.clear();
    return { tokens, biggest, responses };
  }

  /** The namespaced Responses file: the flat file's list, then the search tool when one is deferred. */
  private finishNamespaced(responses: Record<string, unknown>[]): void {
    if (this.targetFiles[this.responsesIndex]!.deferred)
      responses.push({ ...toolSearchEntry('openai-responses', this.options.deferLoading!) });
    addNamespaced(
      this.emission,
      responses,
      (tool) => this.categories.get(tool),
      this.options,
      (text) => this.whole(NAMESPACED_RESPONSES_PATH, text),
    );
  }

  private closeFile(file: AssembledFile): void {
    file.close();
    this.emission.segments![file.path] = file.segments;
  }

  /** A file written whole. */
  private whole(path: string, text: string): void {
    const writer = this.open(path);
    writer.write(Buffer.from(text, 'utf8'));
    writer.close();
  }
}

/** A part's `compact` as one JSON text or null per target. */
function splitCompact(text: string): (string | null)[] {
  return text.split('\n').map((json) => (json === '' ? null : json));
}

/** A writer that keeps the file in memory, as its pieces, in `files` once closed. */
function memoryWriter(path: string, files: GeneratedFile[]): ManifestWriter {
  const chunks: Buffer[] = [];
  return {
    write: (bytes) => void chunks.push(bytes),
    close: () => void files.push(chunksFile(path, chunks)),
  };
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
export function patchManifests(
  project: ProjectModel,
  ctx: EmitContext,
  options: ManifestOptions,
  previous: PreviousManifests,
  changed: readonly ToolModel[],
): ManifestEmission | undefined {
  const targets = enabledTargets(options);
  const names = project.tools.map((tool) => tool.name).sort(compareStrings);
  const reports: string[] = targets.length > 0 ? [LOSS_REPORT_LAYOUT.json.path, LOSS_REPORT_LAYOUT.markdown.path] : [];
  const paths = [...targets.map((target) => MANIFEST_TARGET_TABLE[target].file), ...reports];
  if (names.length === 0) return undefined;
  const present = new Set(names);
  for (const path of paths) {
    const recorded = previous.segments[path];
    if (recorded === undefined) return undefined;
    // The loss reports list every tool; a target's file, those it took (a subset, in name order).
    if (
      reports.includes(path) &&
      (recorded.tools.length !== names.length || recorded.tools.some((name, index) => name !== names[index]))
    )
      return undefined;
    if (
      !reports.includes(path) &&
      recorded.tools.some(
        (name, index) => !present.has(name) || (index > 0 && compareStrings(recorded.tools[index - 1]!, name) >= 0),
      )
    )
      return undefined;
  }
  // The unchanged tools' counts from the last report: only the changed tools are counted again.
  const counting = countsAny(targets, options);
  const tokens = splicedCounts(previous, targets, names, options);
  if (tokens === undefined) return undefined;
  const emission: ManifestEmission = { ...emptyEmission(), segments: {} };
  const replacements = new Map<string, Map<string, string>>(paths.map((path) => [path, new Map()]));
  // The same names as the last run's (checked above): the names the hosts fold together are the same too.
  const named = withNameCollisions(options, names);
  for (const tool of changed) {
    const { manifests, losses } = toolManifests(tool, named);
    if (manifests.compact !== undefined && counting)
      tokens.set(tool.name, toolTokens(targets, splitCompact(manifests.compact), tokens.get(tool.name)));
    emission.losses[tool.name] = losses;
    recordPart(emission, manifests);
    for (const [index, target] of targets.entries()) {
      const { file } = MANIFEST_TARGET_TABLE[target];
      const entry = manifests.entries[index]!;
      // A tool that joins or leaves a target's file changes its list: printed whole instead.
      if ((entry !== null) !== previous.segments[file]!.tools.includes(tool.name)) return undefined;
      if (entry !== null) replacements.get(file)!.set(tool.name, entry);
    }
    if (manifests.lossText !== undefined) {
      replacements.get(LOSS_REPORT_LAYOUT.json.path)!.set(tool.name, manifests.lossText.json);
      replacements.get(LOSS_REPORT_LAYOUT.markdown.path)!.set(tool.name, manifests.lossText.markdown);
    }
  }
  emission.losses = sortLossReport(emission.losses);
  // A target that cannot take a changed tool fails the run: nothing to splice.
  if (emission.problems.length > 0) return emission;
  const report = counting ? tokenReport(targets, tokens) : undefined;
  const read = new Map<string, Buffer>();
  const tails = splicedTails(project, targets, options, previous.segments, report);
  for (const path of paths) {
    const bytes = previous.read(path);
    if (bytes === undefined) return undefined;
    read.set(path, bytes);
    const spliced = splice(bytes, previous.segments[path]!, replacements.get(path)!, tails.get(path));
    if (spliced === undefined) return undefined;
    // Made from the bytes on disk: they differ exactly when a part changed (staging need not compare).
    emission.files.push(chunksFile(path, spliced.chunks, spliced.changed ? 'differs' : 'same'));
    emission.segments![path] = spliced.segments;
    // Each target's typed module after its JSON, as `emitManifests` lists them.
    const target = targets.find((candidate) => MANIFEST_TARGET_TABLE[candidate].file === path);
    if (target !== undefined) emission.files.push(typedModule(target, ctx, options));
  }
  if (report !== undefined)
    addTokenReport(
      emission,
      report,
      options,
      (content) => emission.files.push({ path: TOKEN_REPORT_PATH, content, kind: 'generated', preformatted: true }),
      splicedEntryLookup(previous.segments, replacements, read),
    );
  if (writesNamespaces(targets, options)) patchNamespaced(emission, project, options);
  return emission;
}

/**
 * The tails a splice writes after each file's last part: the loss report's Markdown ends with the
 * token totals; with deferred loading, a target's file lists the search tool while a tool it lists is deferred.
 */
function splicedTails(
  project: ProjectModel,
  targets: readonly ManifestTarget[],
  options: ManifestOptions,
  segments: Readonly<Record<string, FileSegments>>,
  report: TokenReport | undefined,
): Map<string, string> {
  const tails = new Map<string, string>();
  // Without a report, the layout's own tail: no totals, whatever the last run ended the file with.
  tails.set(
    LOSS_REPORT_LAYOUT.markdown.path,
    report === undefined ? LOSS_REPORT_LAYOUT.markdown.tail : lossReportTail(report),
  );
  if (options.deferLoading === undefined) return tails;
  const byName = new Map(project.tools.map((tool) => [tool.name, tool]));
  for (const target of targets) {
    const { file } = MANIFEST_TARGET_TABLE[target];
    const deferred = segments[file]!.tools.some((name) => isDeferred(byName.get(name)!, options.deferLoading));
    tails.set(file, targetTail(target, options, deferred));
  }
  return tails;
}
