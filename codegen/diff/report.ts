import { positionOf } from '../load.js';
import type { Position, ToolChange } from './compare.js';
import type { DiffReport } from './verdict.js';

function where(position: Position | undefined): string {
  if (position === undefined) return '-';
  const { line, column } = positionOf(position.source, position.pointer);
  return `${position.source.file}:${line}:${column}`;
}

/** A change as `--json` shows it: positions are for the text output (keys left undefined are not written). */
function jsonChange({ side, file, pointer, via, verdict, message, witness }: ToolChange): object {
  return { side, file, pointer, via, verdict, message, witness };
}

/** The report as text: one line per change with both versions' `file:line:col`. */
export function formatText(report: DiffReport): string {
  const lines: string[] = [];
  for (const tool of report.tools) {
    if (tool.changes.length === 0) continue;
    const head = tool.renamedFrom ? `${tool.name} (renamed from ${tool.renamedFrom})` : tool.name;
    const suggested = tool.suggestedVersion ? ` (suggested version ${tool.suggestedVersion})` : '';
    lines.push(`${head}: ${tool.change}, ${tool.verdict}${suggested}`);
    for (const change of tool.changes) {
      const at =
        change.file === undefined ? change.pointer || '/' : `${change.file}#${change.pointer} (via ${change.via})`;
      const witness = change.witness === undefined ? '' : `\n      witness: ${JSON.stringify(change.witness)}`;
      lines.push(`  ${change.verdict} ${change.side} ${at}: ${change.message}`);
      lines.push(`      before ${where(change.positions?.before)}  after ${where(change.positions?.after)}${witness}`);
    }
  }
  lines.push(`verdict: ${report.verdict}`);
  return `${lines.join('\n')}\n`;
}

/** The report as the `--json` object (keys left undefined are not written). */
export function formatJson(report: DiffReport): string {
  const tools = report.tools.map(({ name, change, verdict, renamedFrom, changes, suggestedVersion, underBumped }) => ({
    name,
    change,
    verdict,
    renamedFrom,
    changes: changes.map(jsonChange),
    suggestedVersion,
    underBumped,
  }));
  return `${JSON.stringify({ verdict: report.verdict, tools }, null, 2)}\n`;
}
