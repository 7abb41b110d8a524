import { dictionary, ownValue } from '../../dictionary.js';
import { compareStrings } from '../../../src/manifest-targets/build.js';
import type { LossEntry } from '../../../src/manifest-targets/build.js';
import type { ManifestTarget } from '../../../src/manifest-targets/table.js';
import type { ToolHostReport } from './host-report.js';
import type { LossReport, ToolLossText } from './types.js';

/** Sorts a loss report: tools and targets by name, entries by pointer then keyword (code-unit order). */
export function sortLossReport(report: LossReport): LossReport {
  // Keyed by tool names (`constructor`, `__proto__` are valid ones): a prototype-free map.
  const sorted: LossReport = dictionary();
  for (const tool of Object.keys(report).sort(compareStrings)) {
    const byTarget = ownValue(report, tool)!;
    const targets: Partial<Record<ManifestTarget, LossEntry[]>> = {};
    for (const target of (Object.keys(byTarget) as ManifestTarget[]).sort(compareStrings)) {
      targets[target] = [...byTarget[target]!].sort(compareLossEntries);
    }
    sorted[tool] = targets;
  }
  return sorted;
}

function compareLossEntries(a: LossEntry, b: LossEntry): number {
  return (
    compareStrings(a.pointer, b.pointer) || compareStrings(a.keyword, b.keyword) || compareStrings(a.action, b.action)
  );
}

/** The Markdown report's opening lines (under the banner). */
const REPORT_INTRO = [
  '# What each manifest loses',
  '',
  'Each provider format accepts a subset of JSON Schema. This report lists, for every tool and target,',
  'the keywords its manifest dropped or rewrote. The runtime still validates every call against the full',
  'definition; what is listed here is only what the model is no longer told. Rewrites that keep the',
  'meaning (for example `definitions` renamed `$defs`, `$ref`s inlined) are not listed. What a short',
  'sentence can say (a default, a length limit, a pattern, a format, a bound, "exactly one of") is told in',
  "the property's description instead; an entry says so, and the rest is really lost. A tool a target",
  'cannot take at all is listed as not available there.',
  '',
];

/** A tool's part of the loss reports: its losses by target (sorted, `sortLossReport`) and the targets that cannot take it. */
export function toolLossText(
  tool: string,
  byTarget: Partial<Record<ManifestTarget, LossEntry[]>>,
  unavailable: Readonly<Partial<Record<ManifestTarget, string>>> = {},
  hosts?: Pick<ToolHostReport, 'json' | 'markdown'>,
): ToolLossText {
  const lines: string[] = [`## ${tool}`, ''];
  const json: Partial<Record<ManifestTarget, LossEntry[]>> = {};
  for (const target of Object.keys(byTarget) as ManifestTarget[]) {
    const entries = byTarget[target]!;
    const reason = unavailable[target];
    // In the JSON a target that does not list the tool has one `omitted` entry with the reason.
    json[target] =
      reason === undefined ? entries : [{ pointer: '', keyword: '', action: 'omitted', value: null, message: reason }];
    if (reason !== undefined) {
      lines.push(`- **${target}**: not available — ${reason}`);
    } else if (entries.length === 0) {
      lines.push(`- **${target}**: nothing lost`);
    } else {
      const told = entries.filter((entry) => entry.carried !== undefined).length;
      const summary = told === 0 ? '' : ` (${told} told in descriptions, ${entries.length - told} lost)`;
      lines.push(`- **${target}**${summary}:`);
      for (const entry of entries) lines.push(`  - ${entry.message}`);
    }
  }
  if (hosts !== undefined) lines.push(hosts.markdown);
  const value = hosts === undefined ? json : { ...json, hosts: hosts.json };
  return {
    json: `  ${JSON.stringify(tool)}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}`,
    markdown: lines.join('\n'),
  };
}

/** The loss reports' files laid out around the tools' parts (in tool-name order): head, parts, separator, tail. */
export const LOSS_REPORT_LAYOUT = {
  json: { path: 'manifests/loss-report.json', head: () => '{\n', separator: ',\n', tail: '\n}\n' },
  markdown: {
    path: 'manifests/loss-report.md',
    head: (banner: string) => `${[banner, '', ...REPORT_INTRO].join('\n')}\n`,
    separator: '\n\n',
    tail: '\n',
  },
} as const;
