import { compareTool, sameSchemas, toolPosition, type CompareOptions, type ToolChange } from './compare.js';
import type { DiffTool, LoadedSide } from './sources.js';
import { actualBump, bumped, enough, neededBump } from './versions.js';

/** The overall verdict of a diff or a tool. */
export type Verdict = 'breaking' | 'compatible' | 'unchanged';

/** One tool's entry in the report. */
export interface ToolReport {
  name: string;
  change: 'added' | 'removed' | 'changed' | 'unchanged';
  verdict: Verdict;
  changes: ToolChange[];
  renamedFrom?: string;
  suggestedVersion?: string;
  /** The after side's version is lower than its changes call for. */
  underBumped?: boolean;
  /** The tool on each side (for positions). */
  before?: DiffTool;
  after?: DiffTool;
}

/** The whole diff. */
export interface DiffReport {
  verdict: Verdict;
  tools: ToolReport[];
}

function worst(changes: readonly { verdict: 'breaking' | 'compatible' }[]): Verdict {
  if (changes.some((c) => c.verdict === 'breaking')) return 'breaking';
  return changes.length > 0 ? 'compatible' : 'unchanged';
}

/** The entry of a tool on both sides: its changes, verdict and version check. */
function changedTool(name: string, a: DiffTool, b: DiffTool, options: CompareOptions): ToolReport {
  const changes = compareTool(a, b, options);
  const metadataOnly = changes.every((c) => c.side === 'tool' && c.pointer === '/description');
  const verdict = metadataOnly ? 'unchanged' : worst(changes);
  const report: ToolReport = {
    name,
    change: changes.length === 0 ? 'unchanged' : 'changed',
    verdict,
    changes,
    before: a,
    after: b,
  };
  if (b.version !== undefined && a.version !== undefined) {
    const need = neededBump(
      verdict === 'unchanged' && changes.length > 0 ? 'compatible' : verdict,
      metadataOnly,
      a.version,
    );
    if (need !== 'none') {
      report.suggestedVersion = bumped(a.version, need);
      if (!enough(actualBump(a.version, b.version), need)) {
        report.underBumped = true;
        changes.push({
          side: 'tool',
          pointer: '/version',
          verdict: need === 'patch' ? 'compatible' : verdict === 'breaking' ? 'breaking' : 'compatible',
          message: `version ${b.version} is not bumped enough: these changes call for ${report.suggestedVersion}`,
          positions: { before: toolPosition(a, '/version'), after: toolPosition(b, '/version') },
        });
      }
    }
  }
  return report;
}

/** Compares two loaded sides: every tool on either side, renames spotted by equal schemas. */
export function diffSides(before: LoadedSide, after: LoadedSide, options: CompareOptions = {}): DiffReport {
  const tools: ToolReport[] = [];
  const added = [...after.tools.keys()].filter((name) => !before.tools.has(name));
  const removed = [...before.tools.keys()].filter((name) => !after.tools.has(name));
  const renames = new Map<string, string>();
  for (const name of added) {
    const from = removed.find(
      (old) => !renames.has(old) && sameSchemas(before.tools.get(old)!, after.tools.get(name)!),
    );
    if (from !== undefined) renames.set(from, name);
  }
  const renamedTo = new Map([...renames].map(([from, to]) => [to, from]));
  for (const name of [...new Set([...before.tools.keys(), ...after.tools.keys()])].sort()) {
    const a = before.tools.get(name);
    const b = after.tools.get(name);
    if (a !== undefined && b !== undefined) {
      tools.push(changedTool(name, a, b, options));
    } else if (b !== undefined) {
      const from = renamedTo.get(name);
      tools.push(
        from !== undefined
          ? {
              name,
              change: 'changed',
              verdict: 'breaking',
              renamedFrom: from,
              changes: [
                {
                  side: 'tool',
                  pointer: '/name',
                  verdict: 'breaking',
                  message: `renamed from ${from} (same schemas): calls to ${from} now fail`,
                  positions: { before: toolPosition(before.tools.get(from), '/name'), after: toolPosition(b, '/name') },
                },
              ],
              before: before.tools.get(from),
              after: b,
            }
          : {
              name,
              change: 'added',
              verdict: 'compatible',
              changes: [
                {
                  side: 'tool',
                  pointer: '',
                  verdict: 'compatible',
                  message: 'tool added',
                  positions: { after: toolPosition(b, '') },
                },
              ],
              after: b,
            },
      );
    } else if (!renames.has(name)) {
      tools.push({
        name,
        change: 'removed',
        verdict: 'breaking',
        changes: [
          {
            side: 'tool',
            pointer: '',
            verdict: 'breaking',
            message: 'tool removed: calls to it now fail',
            positions: { before: toolPosition(a, '') },
          },
        ],
        before: a,
      });
    }
  }
  const verdict: Verdict = tools.some((t) => t.verdict === 'breaking')
    ? 'breaking'
    : tools.some((t) => t.verdict === 'compatible')
      ? 'compatible'
      : 'unchanged';
  return { verdict, tools };
}

/** True when the report has something at or above `failOn`. */
export function fails(report: DiffReport, failOn: 'breaking' | 'compatible' | 'none'): boolean {
  if (failOn === 'none') return false;
  const all = report.tools.flatMap((t) => t.changes);
  return failOn === 'breaking' ? all.some((c) => c.verdict === 'breaking') : all.length > 0;
}
