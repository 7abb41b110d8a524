import { positionOf, type SourceFile } from '../load.js';
import type { DiffReport } from './verdict.js';

function where(source: SourceFile | undefined, pointer: string): string {
  if (source === undefined) return '-';
  const { line, column } = positionOf(source, pointer);
  return `${source.file}:${line}:${column}`;
}

/** The report as text: one line per change with both versions' `file:line:col`. */
export function formatText(report: DiffReport): string {
  const lines: string[] = [];
  for (const tool of report.tools) {
    if (tool.changes.length === 0) continue;
    const head = tool.renamedFrom ? `${tool.name} (renamed from ${tool.renamedFrom})` : tool.name;
    lines.push(
      `${head}: ${tool.change}, ${tool.verdict}${tool.suggestedVersion ? ` (suggested version ${tool.suggestedVersion})` : ''}`,
    );
    for (const change of tool.changes) {
      const witness = change.witness === undefined ? '' : `\n      witness: ${JSON.stringify(change.witness)}`;
      lines.push(
        `  ${change.verdict} ${change.side} ${change.pointer || '/'}: ${change.message}\n      before ${where(tool.before, change.pointer)}  after ${where(tool.after, change.pointer)}${witness}`,
      );
    }
  }
  lines.push(`verdict: ${report.verdict}`);
  return `${lines.join('\n')}\n`;
}

/** The report as the `--json` object. */
export function formatJson(report: DiffReport): string {
  return `${JSON.stringify(
    {
      verdict: report.verdict,
      tools: report.tools.map((t) => ({
        name: t.name,
        change: t.change,
        verdict: t.verdict,
        ...(t.renamedFrom ? { renamedFrom: t.renamedFrom } : {}),
        changes: t.changes,
        ...(t.suggestedVersion ? { suggestedVersion: t.suggestedVersion } : {}),
        ...(t.underBumped ? { underBumped: true } : {}),
      })),
    },
    null,
    2,
  )}\n`;
}
