import type { EmitContext, GeneratedFile, Problem, ProjectModel, ToolModel } from '../../model.js';
import { dictionary, ownValue } from '../../dictionary.js';
import { compareStrings, runtimeSpecifier } from '../../naming.js';
import { banner as codeBanner, markdownBanner } from '../banner.js';
import type { TargetBuild } from '../../../src/manifest-targets/build.js';
import { collectWhenGrown } from '../../collect-garbage.js';
import {
  buildManifestTarget,
  DEFAULT_MANIFEST_TARGETS,
  MANIFEST_TARGET_TABLE,
  MANIFEST_TARGETS,
  type ManifestTarget,
} from '../../../src/manifest-targets/table.js';
import { emitLossReport, LOSS_REPORT_LAYOUT, type LossReport, sortLossReport, toolLossText } from './loss-report.js';
import { assemble, type FileSegments, splice } from './splice.js';

export type { LossEntry } from '../../../src/manifest-targets/build.js';
export { OPENAI_STRICT_NULL_CONVENTION } from '../../../src/manifest-targets/openai-strict.js';
export {
  DEFAULT_MANIFEST_TARGETS,
  MANIFEST_TARGET_TABLE,
  MANIFEST_TARGETS,
  type ManifestTarget,
} from '../../../src/manifest-targets/table.js';
export type { LossReport } from './loss-report.js';
export type { FileSegments } from './splice.js';

/** What generate does with a tool a target cannot take (`manifests.unrepresentable` in toolsmith.config.json). */
export type UnrepresentablePolicy = 'omit' | 'error';

/** Options of `emitManifests`. */
export interface ManifestOptions {
  /** The targets to emit (default: `DEFAULT_MANIFEST_TARGETS`); `manifests.targets` in toolsmith.config.json. */
  targets?: readonly ManifestTarget[];
  /**
   * `omit` (default): the tool is left out of that target's manifest, with a warning and a line in the loss
   * report, and generate goes on; `error`: every such tool is a problem, reported at once, and nothing is written.
   */
  unrepresentable?: UnrepresentablePolicy;
  /**
   * Carry what a target drops (`default`, length limits, `pattern`, `format`, bounds, `oneOf` as `anyOf`, …)
   * into the property's `description` in short fixed sentences (default true; `manifests.describeLosses`).
   */
  describeLosses?: boolean;
}

/** What `emitManifests` returns: the files, the problems that make generate fail, and the losses (for docs). */
export interface ManifestEmission {
  files: GeneratedFile[];
  /** Errors: a tool a target cannot take under the `error` policy. */
  problems: Problem[];
  /** Warnings (`severity: 'warning'`): a tool left out of a target under the `omit` policy; they do not stop generate. */
  warnings: Problem[];
  /** tool → target → losses, sorted; every tool and enabled target present. */
  losses: LossReport;
  /** tool → target → why that target does not list the tool (it cannot take it, or the definition turned it off). */
  unavailable: Record<string, Partial<Record<ManifestTarget, string>>>;
  /** openai-strict only: tool → pointers of optional properties made nullable (`null` means omitted). */
  nullableOptionals: Record<string, string[]>;
  /** Where each tool's part lies in each file, by path (for `patchManifests` in a later run). */
  segments?: Record<string, FileSegments>;
}

/** The typed module beside a target's JSON (`manifests/<target>.ts`). */
function typedModulePath(target: ManifestTarget): string {
  return MANIFEST_TARGET_TABLE[target].file.replace(/\.json$/, '.ts');
}

/**
 * The typed module of a target (`manifests/<target>.ts`): the JSON as a constant typed with toolsmith's
 * entry type (assignable to the provider SDK's), so importing it keeps `type: "function"` a literal instead
 * of widening it to `string` as a JSON import does. It reads the JSON beside it (as the lazy registry reads catalog.json) into a
 * constant of the entry type. A few lines whatever the tool count, so neither generate nor a project's
 * tsc handles the manifest twice.
 */
function typedModule(target: ManifestTarget, ctx: EmitContext): GeneratedFile {
  const { name, type, element } = MANIFEST_TARGET_TABLE[target].typed;
  const file = typedModulePath(target);
  const json = MANIFEST_TARGET_TABLE[target].file.slice('manifests/'.length);
  const content = [
    codeBanner('the tool definitions', ctx).trimEnd(),
    "import { readFileSync } from 'node:fs';",
    `import type { ${element} } from '${runtimeSpecifier(file, ctx.runtimeImport)}';`,
    '',
    `/** The ${target} manifest (manifests/${json}), typed: a JSON import would widen \`type: "function"\` to \`string\`. */`,
    `export const ${name}: ${type} = JSON.parse(readFileSync(new URL('./${json}', import.meta.url), 'utf8'));`,
    '',
  ].join('\n');
  return { path: file, content, kind: 'generated', preformatted: true };
}

/** The reason the loss report gives for a tool its definition turned off for a target. */
export const TURNED_OFF_REASON = 'turned off in its definition (`targets`)';

/** The tools of `project` whose definitions do not turn `target` off. */
function includedTools(project: ProjectModel, target: ManifestTarget): readonly ToolModel[] {
  return project.tools.filter((tool) => !tool.excludedTargets?.includes(target));
}

/** Runs a target's builder on the tools that take part in it. */
function buildTarget(project: ProjectModel, target: ManifestTarget, options: ManifestOptions): TargetBuild<unknown> {
  return buildManifestTarget(target, {
    tools: includedTools(project, target),
    describeLosses: options.describeLosses ?? true,
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

/** JSON with two-space indent and a trailing newline (LF). */
function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, content: `${JSON.stringify(value, null, 2)}\n`, kind: 'generated' };
}

/**
 * Records what a target's build says of `tools` in `emission`: problems (errors or, under `omit`,
 * warnings), losses, unavailability (also for a tool whose definition turns the target off), nullable optionals.
 */
function absorb(
  emission: ManifestEmission,
  target: ManifestTarget,
  result: TargetBuild<unknown>,
  tools: readonly ToolModel[],
  policy: UnrepresentablePolicy,
): void {
  if (policy === 'error') emission.problems.push(...result.problems);
  else {
    for (const problem of result.problems) {
      emission.warnings.push({
        ...problem,
        severity: 'warning',
        message: `${problem.message} It is left out of manifests/${target}.json.`,
        hint: `see manifests/loss-report.md; to stop the warning, turn ${target} off for this tool (\`"targets": { "${target}": false }\` in its definition)`,
      });
    }
  }
  // Keyed by tool names (`constructor`, `__proto__` are valid ones): own lookups, prototype-free maps.
  const nullable = 'nullableOptionals' in result ? (result.nullableOptionals as Record<string, string[]>) : undefined;
  for (const tool of tools) {
    const losses = (emission.losses[tool.name] = ownValue(emission.losses, tool.name) ?? {});
    losses[target] = ownValue(result.losses, tool.name) ?? [];
    const reason = tool.excludedTargets?.includes(target) ? TURNED_OFF_REASON : ownValue(result.unavailable, tool.name);
    if (reason !== undefined)
      (emission.unavailable[tool.name] = ownValue(emission.unavailable, tool.name) ?? {})[target] = reason;
    const optionals = ownValue(nullable, tool.name);
    if (optionals !== undefined) emission.nullableOptionals[tool.name] = optionals;
  }
}

/** The enabled targets, in file order. */
function enabledTargets(options: ManifestOptions): ManifestTarget[] {
  return MANIFEST_TARGETS.filter((target) => (options.targets ?? DEFAULT_MANIFEST_TARGETS).includes(target));
}

/** The names of the tools that have an entry in a target's file (in name order). */
function entryNames(
  names: readonly string[],
  unavailable: ManifestEmission['unavailable'],
  target: ManifestTarget,
): string[] {
  return names.filter((name) => unavailable[name]?.[target] === undefined);
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
 * Emits `manifests/<target>.json` for each enabled target and the loss report. A tool that a target cannot
 * take at all (name pattern, non-object root, recursion without `$ref`, size limits) is left out of that
 * target with a warning (`omit`, the default) or is a problem (`error`); a tool whose definition turns a
 * target off is left out of it silently. Either way the loss report says so.
 */
export function emitManifests(
  project: ProjectModel,
  ctx: EmitContext,
  options: ManifestOptions = {},
): ManifestEmission {
  const targets = enabledTargets(options);
  const policy = options.unrepresentable ?? 'omit';
  const emission = emptyEmission();
  const names = project.tools.map((tool) => tool.name).sort(compareStrings);
  for (const tool of project.tools) emission.losses[tool.name] = {};
  // Each target's tools in name order: laid out part by part, ranges recorded. One target at a time,
  // its converted schemas let go before the next is built (four sets of them were the run's peak).
  if (names.length > 0) emission.segments = {};
  const place = (
    path: string,
    layout: { head: string; separator: string; tail: string },
    parts: [string, string][],
  ) => {
    const { content, segments } = assemble(layout.head, parts, layout.separator, layout.tail);
    // Held as bytes from here on: tens of MB at 1,000 tools, otherwise alive twice (text, and its bytes when staged).
    emission.files.push(bytesFile(path, Buffer.from(content, 'utf8')));
    emission.segments![path] = segments;
  };
  for (const target of targets) {
    const result = buildTarget(project, target, options);
    absorb(emission, target, result, project.tools, policy);
    const { file, key } = MANIFEST_TARGET_TABLE[target];
    const entries = names.length === 0 ? [] : entriesOf(result.content, key);
    if (entries.length === 0) {
      emission.files.push(jsonFile(file, result.content));
      // No parts to keep track of: printed whole.
      if (names.length > 0) emission.segments![file] = { tools: [], ranges: [] };
    } else {
      const layout = targetLayout(key);
      const listed = entryNames(names, emission.unavailable, target);
      place(
        file,
        layout,
        entries.map((entry, index) => [listed[index]!, entryText(entry, layout.indent)]),
      );
    }
    emission.files.push(typedModule(target, ctx));
    collectWhenGrown();
  }
  emission.losses = sortLossReport(emission.losses);
  const banner = markdownBanner('the tool definitions', ctx).trimEnd();
  if (names.length === 0) {
    if (targets.length > 0) emission.files.push(...emitLossReport(emission.losses, emission.unavailable, banner));
    return emission;
  }
  if (targets.length > 0) {
    const texts = names.map(
      (name) =>
        [name, toolLossText(name, ownValue(emission.losses, name)!, ownValue(emission.unavailable, name))] as const,
    );
    const { json, markdown } = LOSS_REPORT_LAYOUT;
    place(
      json.path,
      { ...json, head: json.head() },
      texts.map(([name, text]) => [name, text.json]),
    );
    place(
      markdown.path,
      { ...markdown, head: markdown.head(banner) },
      texts.map(([name, text]) => [name, text.markdown]),
    );
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
export function patchManifests(
  project: ProjectModel,
  ctx: EmitContext,
  options: ManifestOptions,
  previous: PreviousManifests,
  changed: readonly ToolModel[],
): ManifestEmission | undefined {
  const targets = enabledTargets(options);
  const policy = options.unrepresentable ?? 'omit';
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
  const emission: ManifestEmission = { ...emptyEmission(), segments: {} };
  const replacements = new Map<string, Map<string, string>>(paths.map((path) => [path, new Map()]));
  for (const tool of changed) {
    const single: ProjectModel = { ...project, tools: [tool] };
    emission.losses[tool.name] = {};
    for (const target of targets) {
      const { file, key } = MANIFEST_TARGET_TABLE[target];
      const result = buildTarget(single, target, options);
      absorb(emission, target, result, single.tools, policy);
      const [entry] = entriesOf(result.content, key);
      // A tool that joins or leaves a target's file changes its list: printed whole instead.
      if ((entry !== undefined) !== previous.segments[file]!.tools.includes(tool.name)) return undefined;
      if (entry !== undefined) replacements.get(file)!.set(tool.name, entryText(entry, targetLayout(key).indent));
    }
    if (targets.length > 0) {
      const text = toolLossText(
        tool.name,
        ownValue(emission.losses, tool.name)!,
        ownValue(emission.unavailable, tool.name),
      );
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
    emission.files.push(chunksFile(path, spliced.chunks));
    emission.segments![path] = spliced.segments;
    // Each target's typed module after its JSON, as `emitManifests` lists them.
    const target = targets.find((candidate) => MANIFEST_TARGET_TABLE[candidate].file === path);
    if (target !== undefined) emission.files.push(typedModule(target, ctx));
  }
  return emission;
}

/** A generated file given as pieces of bytes (a spliced manifest); its text is decoded only if asked for. */
function chunksFile(path: string, chunks: readonly Buffer[]): GeneratedFile {
  let content: string | undefined;
  return {
    path,
    kind: 'generated',
    preformatted: true,
    chunks,
    get content(): string {
      return (content ??= Buffer.concat(chunks).toString('utf8'));
    },
  };
}

/** A generated file given as bytes; its text is decoded only if asked for. */
function bytesFile(path: string, bytes: Buffer): GeneratedFile {
  let content: string | undefined;
  return {
    path,
    kind: 'generated',
    preformatted: true,
    bytes,
    get content(): string {
      return (content ??= bytes.toString('utf8'));
    },
  };
}
