/*
 * `manifests/token-report.json`: what each tool's entry costs in each enabled target, the hash of its
 * entries (a changed hash is a changed cached prompt prefix), the totals, and the budgets' warnings.
 * The counts are made with each tool's part of the manifests (`toolManifests`, on the thread that
 * emits it); a run that splices a few tools into the last run's files counts only those again and
 * takes the others' counts from the last report.
 */
import { createHash } from 'node:crypto';
import type { GeneratedFile, Problem } from '../../model.js';
import type { ManifestOptions, TokenBudgets, TokenReport } from './types.js';
import { dictionary, ownValue } from '../../dictionary.js';
import { textFile } from './assembled-file.js';
import { formatPointer } from '../../../src/schema/json-pointer.js';
import { compareStrings } from '../../../src/manifest-targets/build.js';
import { type ManifestTarget, MANIFEST_TARGET_TABLE } from '../../../src/manifest-targets/table.js';
import {
  countTargetTokens,
  entryCost,
  tokenizerOf,
  tokenizerDescription,
} from '../../../src/manifest-targets/tokens.js';

/** Where the report goes, relative to the output folder. */
export const TOKEN_REPORT_PATH = 'manifests/token-report.json';

/** How many of the biggest tools a budget warning names. */
const BUDGET_WARNING_TOOLS = 5;

/** A tool's row of the report: its entries' hash, its count in each target listing it, keys sorted. */
type ToolRow = TokenReport['tools'][string];

/**
 * A tool's row from its entries' JSON (`JSON.stringify(entry)`, per enabled target; null where the
 * target does not list it). The hash is sha256 over `<target>\n<json>\n` of each listed entry, in
 * file order: it changes exactly when one of the tool's entries does. `previous` (the tool's row in the
 * last report) is answered as it is when its hash is the same. `estimated: true` when an exact count
 * had a run too long to merge whole (`LONGEST_MERGED_RUN`).
 */
function toolTokens(
  targets: readonly ManifestTarget[],
  entries: readonly (string | null)[],
  previous?: ToolRow,
): ToolRow {
  const listed = targets.flatMap((target, index) => {
    const json = entries[index];
    return json === null || json === undefined ? [] : [[target, json] as const];
  });
  const sha256 = createHash('sha256');
  for (const [target, json] of listed) sha256.update(`${target}\n${json}\n`);
  const hash = sha256.digest('hex');
  // Entries unchanged (a definition change no manifest shows): the last counts, no tokenizer.
  if (previous?.hash === hash) return previous;
  const row: [string, number | string | boolean][] = [['hash', hash]];
  let estimated = false;
  for (const [target, json] of listed) {
    const count = countTargetTokens(json, target);
    row.push([target, count.tokens]);
    estimated ||= count.estimated;
  }
  if (estimated) row.push(['estimated', true]);
  return Object.fromEntries(row.sort(([a], [b]) => compareStrings(a, b)));
}

/** The report of `rows` (tool → row) for `targets`: every object's keys sorted. */
function tokenReport(targets: readonly ManifestTarget[], rows: ReadonlyMap<string, ToolRow>): TokenReport {
  const sortedTargets = [...targets].sort(compareStrings);
  const tokenizer = Object.fromEntries(sortedTargets.map((target) => [target, tokenizerDescription(target)]));
  const totals = Object.fromEntries(sortedTargets.map((target) => [target, 0]));
  const tools: TokenReport['tools'] = dictionary();
  for (const name of [...rows.keys()].sort(compareStrings)) {
    const row = rows.get(name)!;
    tools[name] = row;
    for (const target of targets) if (typeof row[target] === 'number') totals[target]! += row[target];
  }
  return { tokenizer, tools, totals };
}

/** The report as its file's text: keys sorted, two-space indentation, one line per value (byte-stable). */
function tokenReportText(report: TokenReport): string {
  const indent = (json: string, by: string) => json.replace(/\n/g, `\n${by}`);
  const names = Object.keys(report.tools);
  // Tool names may look like array indices, which an object would put first: each is printed in order.
  const tools =
    names.length === 0
      ? '{}'
      : `{\n${names
          .map((name) => `    ${JSON.stringify(name)}: ${indent(JSON.stringify(report.tools[name], null, 2), '    ')}`)
          .join(',\n')}\n  }`;
  return [
    '{',
    `  "tokenizer": ${indent(JSON.stringify(report.tokenizer, null, 2), '  ')},`,
    `  "tools": ${tools},`,
    `  "totals": ${indent(JSON.stringify(report.totals, null, 2), '  ')}`,
    '}',
    '',
  ].join('\n');
}

/**
 * The rows of the last run's report, by tool, when it lists exactly `names`; undefined when it cannot
 * be read as such (the caller counts every tool again).
 */
function previousTokens(bytes: Buffer, names: readonly string[]): Map<string, ToolRow> | undefined {
  let tools: TokenReport['tools'] | undefined;
  try {
    tools = (JSON.parse(bytes.toString('utf8')) as Partial<TokenReport> | null)?.tools;
  } catch {
    return undefined;
  }
  if (typeof tools !== 'object' || tools === null || Object.keys(tools).length !== names.length) return undefined;
  const rows = new Map<string, ToolRow>();
  for (const name of names) {
    const row = ownValue(tools, name);
    if (row === undefined || typeof row.hash !== 'string') return undefined;
    rows.set(name, row);
  }
  return rows;
}

/** The totals as a Markdown section (the loss report's last one; the docs index has the same table). */
export function tokenTotalsMarkdown(report: TokenReport): string {
  return [
    '## What each manifest costs',
    '',
    `The tokens of every tool's entry (its JSON without indentation), summed per target; ` +
      "[token-report.json](token-report.json) has each tool's count and a hash of its entries.",
    '',
    '| Target | Tokens | Counted by |',
    '| --- | --- | --- |',
    ...tokenTotalRows(report).map((row) => `| ${row.target} | ${row.tokens} | ${row.countedBy} |`),
  ].join('\n');
}

/** The totals as rows: target, tokens, and how they are counted. */
export function tokenTotalRows(report: TokenReport): { target: string; tokens: number; countedBy: string }[] {
  const estimated = Object.values(report.tools).filter((row) => row.estimated === true).length;
  const exact =
    estimated === 0 ? 'exact' : `exact but for ${estimated} estimated ${estimated === 1 ? 'tool' : 'tools'}`;
  return Object.keys(report.totals).map((target) => ({
    target,
    tokens: report.totals[target]!,
    countedBy:
      tokenizerOf(target as ManifestTarget) === 'o200k_base'
        ? `o200k_base (${exact})`
        : `estimate (characters / ${String(report.tokenizer[target]?.charsPerToken)})`,
  }));
}

/** A tool's entry for a target (its JSON value), when it can be had; for a budget warning's breakdown. */
export type EntryLookup = (tool: string, target: ManifestTarget) => unknown;

/** The tools of `report` by their count in `target`, biggest first (ties by name). */
function biggest(report: TokenReport, target: ManifestTarget): { name: string; tokens: number }[] {
  return Object.keys(report.tools)
    .flatMap((name) => {
      const tokens = report.tools[name]![target];
      return typeof tokens === 'number' ? [{ name, tokens }] : [];
    })
    .sort((a, b) => b.tokens - a.tokens || compareStrings(a.name, b.name));
}

/** "name (812 tokens: descriptions 300, enums 20, nested schemas 410)", the parts biggest first. */
function describeTool(name: string, tokens: number, target: ManifestTarget, lookup: EntryLookup): string {
  const entry = lookup(name, target);
  if (entry === undefined) return `${name} (${tokens})`;
  const cost = entryCost(entry, target);
  const parts = (
    [
      ['descriptions', cost.descriptions],
      ['enums', cost.enums],
      ['nested schemas', cost.nestedSchemas],
    ] as const
  )
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
  return `${name} (${tokens}${parts.length > 0 ? `: ${parts.map(([part, count]) => `${part} ${count}`).join(', ')}` : ''})`;
}

/**
 * The warnings of the budgets `report` exceeds: per target, the whole manifest over `total`, and the
 * tools over `perTool`, each naming the biggest tools and what in them costs most. Placed in the report
 * (`reportFile`, relative to the project root; `text`, its text) at the count that is over.
 */
function budgetWarnings(
  report: TokenReport,
  text: string,
  budgets: TokenBudgets | undefined,
  lookup: EntryLookup,
  reportFile: string,
): Problem[] {
  if (budgets === undefined) return [];
  const warnings: Problem[] = [];
  /** A warning at `line` of the report (its value's column), `pointer` the value over the budget. */
  const warn = (line: number, pointer: string, message: string, hint: string) =>
    warnings.push({ file: reportFile, line, column: 5, pointer, severity: 'warning', message, hint });
  // The line of the text after `needle`'s leading newline.
  const lineOf = (needle: string) => {
    const at = text.indexOf(needle);
    return at < 0 ? 1 : text.slice(0, at).split('\n').length + 1;
  };
  const counted = (target: ManifestTarget) =>
    tokenizerOf(target) === 'o200k_base' ? 'o200k_base tokens' : 'estimated tokens';
  // In the report's order: sorted.
  const targets = Object.keys(report.totals) as ManifestTarget[];
  for (const target of targets) {
    const budget = budgets[target];
    if (budget === undefined) continue;
    const file = MANIFEST_TARGET_TABLE[target].file;
    const tools = biggest(report, target);
    const named = (list: { name: string; tokens: number }[]) =>
      list
        .slice(0, BUDGET_WARNING_TOOLS)
        .map((tool) => describeTool(tool.name, tool.tokens, target, lookup))
        .join(', ');
    const total = report.totals[target]!;
    if (budget.total !== undefined && total > budget.total)
      warn(
        lineOf(`\n  "totals": {`) + 1 + targets.indexOf(target),
        `/totals/${target}`,
        `${file} costs ${total} ${counted(target)}, over its budget of ${budget.total} ` +
          `(manifests.tokenBudget.${target}.total). The biggest tools: ${named(tools)}.`,
        "shorten what the biggest tools' parts say (descriptions, enums), flatten nested schemas, " +
          `turn ${target} off for tools its callers do not need (\`"targets": { "${target}": false }\` in the definition), ` +
          `or raise \`manifests.tokenBudget.${target}.total\` in the config`,
      );
    const over = budget.perTool === undefined ? [] : tools.filter((tool) => tool.tokens > budget.perTool!);
    if (over.length > 0) {
      const more = over.length > BUDGET_WARNING_TOOLS ? `, and ${over.length - BUDGET_WARNING_TOOLS} more` : '';
      warn(
        lineOf(`\n    ${JSON.stringify(over[0]!.name)}: {`),
        formatPointer(['tools', over[0]!.name, target]),
        `${over.length} ${over.length === 1 ? 'tool costs' : 'tools cost'} more than the per-tool budget of ` +
          `${budget.perTool} ${counted(target)} in ${file} (manifests.tokenBudget.${target}.perTool): ${named(over)}${more}.`,
        'shorten the parts that cost most in those tools (descriptions, enums), flatten nested schemas, ' +
          `or raise \`manifests.tokenBudget.${target}.perTool\` in the config`,
      );
    }
  }
  return warnings;
}

/**
 * The token report of a run, its file and the budgets' warnings. The tools whose `compacts` are given
 * (a part's `compact`, by tool, as bytes) are counted. With `last` (a splice), every other tool's counts
 * are the last run's report when it lists exactly `names`, else counted from its entry in the last run's
 * files (`last.entry`), where a budget warning's breakdown reads it too.
 */
export function countTokens(
  targets: readonly ManifestTarget[],
  names: readonly string[],
  compacts: ReadonlyMap<string, Buffer>,
  options: ManifestOptions,
  last?: { tokenReport: Buffer | undefined; entry: EntryLookup },
): { report: TokenReport; file: GeneratedFile; warnings: Problem[] } {
  // A tool's entries as JSON text, null where a target does not list it: its part's, else the last run's.
  const entries = (tool: string): (string | null)[] => {
    const compact = compacts.get(tool)?.toString('utf8').split('\n');
    if (compact !== undefined) return compact.map((json) => (json === '' ? null : json));
    return targets.map((target) => {
      const entry = last?.entry(tool, target);
      return entry === undefined ? null : JSON.stringify(entry);
    });
  };
  const lookup: EntryLookup = (tool, target) => {
    const json = entries(tool)[targets.indexOf(target)];
    return json === null || json === undefined ? undefined : JSON.parse(json);
  };
  const previous = last?.tokenReport && previousTokens(last.tokenReport, names);
  const rows = previous ?? new Map<string, ToolRow>();
  // A given part is counted (its last row kept while its entries' hash is the same); another tool's row is the last report's.
  for (const name of names)
    if (compacts.has(name) || !rows.has(name)) rows.set(name, toolTokens(targets, entries(name), rows.get(name)));
  const report = tokenReport(targets, rows);
  const text = tokenReportText(report);
  return {
    report,
    file: textFile(TOKEN_REPORT_PATH, text),
    warnings: budgetWarnings(report, text, options.tokenBudget, lookup, options.tokenReportFile ?? TOKEN_REPORT_PATH),
  };
}
