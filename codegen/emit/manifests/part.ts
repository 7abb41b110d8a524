/**
 * A tool's part of every manifest file (`ToolManifests`), built once per tool — by its emission
 * (emit/tool-files.ts, maybe on a worker), or from its model when a reused tool's part is assembled —
 * with everything the tool contributes: per enabled target its entry as text at its place in the file
 * and as compact JSON (what the token report counts), why a target does not list it, its losses, and
 * its parts of the loss reports with the host report. The assembler, the splice and the reports read
 * parts, never the targets. Also the run's plan of the manifest files (`planManifests`): each target
 * file's layout, its tail with the search tool, and the tools deferred loading defers, decided once.
 */
import type { Problem, ToolModel } from '../../model.js';
import { isDeferred, toolSearchEntry } from '../../../src/manifest-targets/defer-loading.js';
import { DEFAULT_INPUT_EXAMPLES } from '../../../src/manifest-targets/input-examples.js';
import {
  buildManifestTarget,
  DEFAULT_MANIFEST_TARGETS,
  MANIFEST_TARGET_TABLE,
  MANIFEST_TARGETS,
  type ManifestTarget,
} from '../../../src/manifest-targets/table.js';
import { toolHostReport } from './host-report.js';
import { sortLossReport, toolLossText } from './loss-report.js';
import type { LossesByTarget, ManifestOptions, ToolManifests } from './types.js';
import { ownValue } from '../../dictionary.js';

/** The reason the loss report gives for a tool its definition turned off for a target. */
const TURNED_OFF_REASON = 'turned off in its definition (`targets`)';

/** The enabled targets, in file order. */
function enabledTargets(options: ManifestOptions): ManifestTarget[] {
  const named = options.targets ?? DEFAULT_MANIFEST_TARGETS;
  // The portable profile is served from its file: written whenever it is the served one.
  return MANIFEST_TARGETS.filter(
    (target) => named.includes(target) || (target === 'mcp-portable' && options.servedProfile === 'portable'),
  );
}

/** What every tool's part is laid into (`planManifests`). */
export type ManifestPlan = ReturnType<typeof planManifests>;

/**
 * The manifests of `tools`: each enabled target's file (its layout, the tail that lists the search tool,
 * its empty content) and the names of the tools deferred loading defers — decided once here, read by the
 * assembler, the splice and the typed modules.
 */
export function planManifests(
  tools: readonly Pick<ToolModel, 'name' | 'category' | 'loaded'>[],
  options: ManifestOptions,
) {
  // Per enabled target, in file order, the file as the assembler and the splice lay the tools' parts into it.
  const files = enabledTargets(options).map((target) => {
    const { key, file } = MANIFEST_TARGET_TABLE[target];
    const indent = indentOf(target);
    const tail = key === undefined ? '\n]\n' : '\n  ]\n}\n';
    const search = options.deferLoading && toolSearchEntry(target, options.deferLoading);
    return {
      target,
      /** The JSON file, relative to the output folder. */
      path: file,
      /** As `JSON.stringify(content, null, 2)` prints a non-empty list; the tail that of a file listing no deferred tool. */
      layout: { head: key === undefined ? '[\n' : `{\n  ${JSON.stringify(key)}: [\n`, indent, separator: ',\n', tail },
      /** The tail while a tool the file lists is deferred: the search tool listed last (the plain tail without one). */
      deferredTail: search === undefined ? tail : `,\n${entryText(search, indent)}${tail}`,
      /** The file with no tool listed. */
      empty: `${JSON.stringify(key === undefined ? [] : { [key]: [] }, null, 2)}\n`,
      /** With deferred loading, the target lists a search tool (its typed module's entry type includes it). */
      searches: search !== undefined,
    };
  });
  // The names of the tools deferred loading defers.
  const deferred: ReadonlySet<string> = new Set(
    tools.filter((tool) => isDeferred(tool, options.deferLoading)).map((tool) => tool.name),
  );
  return { files, deferred };
}

/** How deep a target's list puts its entries. */
function indentOf(target: ManifestTarget): string {
  return MANIFEST_TARGET_TABLE[target].key === undefined ? '  ' : '    ';
}

/** An entry of a target's list as text at its place in the file. */
function entryText(entry: unknown, indent: string): string {
  return `${indent}${JSON.stringify(entry, null, 2).replace(/\n/g, `\n${indent}`)}`;
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

/**
 * A tool's part of every manifest file and its losses by target, sorted (its doc page lists them).
 * Each target is built for this tool alone: a target's entry for a tool depends on that tool only, so
 * the files assembled from these parts are the files built from every tool at once.
 */
export function toolManifests(
  tool: ToolModel,
  options: ManifestOptions,
): { manifests: ToolManifests; losses: LossesByTarget } {
  const targets = enabledTargets(options);
  const manifests: ToolManifests = { name: tool.name, entries: [], problems: [], warnings: [], unavailable: {} };
  const byTarget: LossesByTarget = {};
  // Each entry's JSON as an SDK sends it (no indentation): what the token report counts.
  const compact: string[] = [];
  for (const target of targets) {
    const turnedOff = tool.excludedTargets?.includes(target) === true;
    // The builders read the manifest options they share with the config by the same names.
    const result = buildManifestTarget(target, {
      ...options,
      tools: turnedOff ? [] : [tool],
      inputExamples: options.inputExamples ?? DEFAULT_INPUT_EXAMPLES,
    });
    if (options.unrepresentable === 'error') manifests.problems.push(...result.problems);
    else manifests.warnings.push(...result.problems.map((problem) => omittedWarning(problem, target)));
    // Keyed by tool names (`constructor`, `__proto__` are valid ones): own lookups.
    byTarget[target] = ownValue(result.losses, tool.name) ?? [];
    const reason = turnedOff ? TURNED_OFF_REASON : ownValue(result.unavailable, tool.name);
    if (reason !== undefined) manifests.unavailable[target] = reason;
    const { key } = MANIFEST_TARGET_TABLE[target];
    const [entry] = (key === undefined ? result.content : (result.content as Record<string, unknown>)[key]) as [
      unknown?,
    ];
    manifests.entries.push(entry === undefined ? null : entryText(entry, indentOf(target)));
    compact.push(entry === undefined ? '' : JSON.stringify(entry));
  }
  if (targets.length > 0 && options.tokenReport !== false) manifests.compact = compact.join('\n');
  const losses = ownValue(sortLossReport({ [tool.name]: byTarget }), tool.name)!;
  if (targets.length > 0) {
    const hosts = toolHostReport(tool, options);
    manifests.warnings.push(...hosts.warnings);
    manifests.lossText = toolLossText(tool.name, losses, manifests.unavailable, hosts);
  }
  return { manifests, losses };
}
