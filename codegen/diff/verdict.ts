import { mapSchema, type SchemaNode } from '../../src/schema/walk.js';
import { compareTool, toolChange, toolPosition, type ChangeVerdict, type ToolChange } from './compare.js';
import { errorChanges } from './compare-errors.js';
import { stable, type CompareOptions } from './compare-kit.js';
import type { DiffTool, LoadedSide } from './sources.js';
import { isBelow, suggestedVersion } from './versions.js';

/** The overall verdict of a diff or a tool. */
type Verdict = ChangeVerdict | 'unchanged';

/** The verdicts from least to most severe. */
const SEVERITY: readonly Verdict[] = ['unchanged', 'compatible', 'breaking'];

/** One tool's entry in the report. */
interface ToolReport {
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

/** The worst verdict among changes (or tools): breaking, else compatible, else unchanged. */
function worst(items: readonly { verdict: Verdict }[]): Verdict {
  const rank = (verdict: Verdict) => SEVERITY.indexOf(verdict);
  return items.reduce<Verdict>((most, { verdict }) => (rank(verdict) > rank(most) ? verdict : most), 'unchanged');
}

/** The entry of a tool added (no `before`), removed (no `after`) or renamed (both): its one tool-level change. */
function wholeTool(
  name: string,
  before: DiffTool | undefined,
  after: DiffTool | undefined,
  message: string,
): ToolReport {
  const change = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
  const item = toolChange(change === 'changed' ? '/name' : '', change !== 'added', message);
  return { name, change, verdict: item.verdict, changes: [item], before, after };
}

/** The entry of a tool on both sides: its changes, verdict and version check. */
function changedTool(name: string, a: DiffTool, b: DiffTool, options: CompareOptions): ToolReport {
  const changes = [...compareTool(a, b, options), ...errorChanges(a, b, options)];
  const metadataOnly = changes.every(
    (c) => c.side === 'tool' && (c.pointer === '/description' || c.pointer === '/title'),
  );
  // The worst of its changes: a new description or title is what the model reads, so compatible.
  const verdict = worst(changes);
  const change = changes.length === 0 ? 'unchanged' : 'changed';
  const report: ToolReport = { name, change, verdict, changes, before: a, after: b };
  const suggested = a.version === undefined ? undefined : suggestedVersion(verdict, metadataOnly, a.version);
  if (b.version !== undefined && suggested !== undefined) {
    report.suggestedVersion = suggested;
    if (isBelow(b.version, suggested)) {
      report.underBumped = true;
      const message = `version ${b.version} is not bumped enough: these changes call for ${suggested}`;
      changes.push(toolChange('/version', verdict === 'breaking', message));
    }
  }
  return report;
}

/** The annotation keywords a rename may change: two tools whose schemas differ only in these are a rename candidate. */
const PROSE: ReadonlySet<string> = new Set(['description', 'title', 'examples']);

/** A schema without its prose keywords at any depth; a property named `title` or `description` stays. */
function withoutProse(schema: unknown): unknown {
  return mapSchema(schema, '', (node: SchemaNode) =>
    Object.keys(node).some((key) => PROSE.has(key))
      ? withoutProse(Object.fromEntries(Object.entries(node).filter(([key]) => !PROSE.has(key))))
      : undefined,
  );
}

/** A key equal for two tools whose schemas are the same but for descriptions, titles and examples (a rename candidate). */
function schemasKey(tool: DiffTool): string {
  return stable([withoutProse(tool.inputSchema), withoutProse(tool.outputSchema ?? null)]);
}

/** Compares two loaded sides: every tool on either side, renames spotted by equal schemas. */
export function diffSides(before: LoadedSide, after: LoadedSide, options: CompareOptions = {}): DiffReport {
  const tools: ToolReport[] = [];
  const added = [...after.tools.keys()].filter((name) => !before.tools.has(name));
  const removed = [...before.tools.keys()].filter((name) => !after.tools.has(name));
  // A removed and an added tool with the same schemas: a rename (each schema pair keyed once, not compared pairwise).
  const removedBySchemas = new Map<string, string[]>();
  for (const name of removed) {
    const key = schemasKey(before.tools.get(name)!);
    removedBySchemas.set(key, [...(removedBySchemas.get(key) ?? []), name]);
  }
  const renamedFrom = new Map<string, string>();
  for (const name of added) {
    const from = removedBySchemas.get(schemasKey(after.tools.get(name)!))?.shift();
    if (from !== undefined) renamedFrom.set(name, from);
  }
  const renamedAway = new Set(renamedFrom.values());
  for (const name of [...new Set([...before.tools.keys(), ...after.tools.keys()])].sort()) {
    const a = before.tools.get(name);
    const b = after.tools.get(name);
    const from = renamedFrom.get(name);
    if (a !== undefined && b !== undefined) tools.push(changedTool(name, a, b, options));
    else if (from !== undefined) {
      const message = `renamed from ${from} (same schemas): calls to ${from} now fail`;
      tools.push({ ...wholeTool(name, before.tools.get(from), b, message), renamedFrom: from });
    } else if (b !== undefined) tools.push(wholeTool(name, undefined, b, 'tool added'));
    else if (!renamedAway.has(name)) tools.push(wholeTool(name, a, undefined, 'tool removed: calls to it now fail'));
  }
  // Each change not in a schema is placed at its pointer in the tool's versions.
  for (const { changes, before, after } of tools)
    for (const change of changes)
      change.positions ??= { before: toolPosition(before, change.pointer), after: toolPosition(after, change.pointer) };
  return { verdict: worst(tools), tools };
}

/** True when the report has something at or above `failOn` (its verdict is the worst of its changes). */
export function fails(report: DiffReport, failOn: 'breaking' | 'compatible' | 'none'): boolean {
  return failOn !== 'none' && SEVERITY.indexOf(report.verdict) >= SEVERITY.indexOf(failOn);
}
