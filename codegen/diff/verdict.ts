import type { SourceFile } from '../load.js';
import type { ToolModel } from '../model.js';
import { compareTool, sameSchemas, type CompareOptions, type ToolChange } from './compare.js';
import type { LoadedSide } from './sources.js';
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
  /** The definition files of each side (for positions). */
  before?: SourceFile;
  after?: SourceFile;
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
function changedTool(
  name: string,
  a: ToolModel,
  b: ToolModel,
  before: LoadedSide,
  after: LoadedSide,
  options: CompareOptions,
): ToolReport {
  const changes = compareTool(a, b, options);
  const metadataOnly = changes.every((c) => c.side === 'tool' && c.pointer === '/description');
  const verdict = metadataOnly ? 'unchanged' : worst(changes);
  const report: ToolReport = {
    name,
    change: changes.length === 0 ? 'unchanged' : 'changed',
    verdict,
    changes,
    before: before.sources.get(name),
    after: after.sources.get(name),
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
      tools.push(changedTool(name, a, b, before, after, options));
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
                },
              ],
              before: before.sources.get(from),
              after: after.sources.get(name),
            }
          : {
              name,
              change: 'added',
              verdict: 'compatible',
              changes: [{ side: 'tool', pointer: '', verdict: 'compatible', message: 'tool added' }],
              after: after.sources.get(name),
            },
      );
    } else if (!renames.has(name)) {
      tools.push({
        name,
        change: 'removed',
        verdict: 'breaking',
        changes: [{ side: 'tool', pointer: '', verdict: 'breaking', message: 'tool removed: calls to it now fail' }],
        before: before.sources.get(name),
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
