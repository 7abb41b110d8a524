/**
 * The changes of a tool's declared errors (its definition's `errors`), judged for callers that handle
 * failures by code, as an output is judged for callers that read it: a new code, or data that may now
 * hold what it could not, is breaking (such a caller meets a failure it does not know); a code removed,
 * or data narrowed, is compatible. Each breaking change has a witness: the failure now possible.
 */
import type { DeclaredError } from '../model.js';
import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import { compareSchema, type ToolChange, toolPosition, verdictOf } from './compare.js';
import type { CompareOptions } from './compare-kit.js';
import type { DiffTool } from './sources.js';
import { findWitness } from './witness.js';

/** The declared errors of one version by code (a snapshot carries none). */
function byCode(tool: DiffTool): Map<string, DeclaredError> {
  return new Map((tool.errors ?? []).map((error) => [error.code, error]));
}

/** The changes of the declared errors from `before` to `after`, each with both versions' positions. */
export function errorChanges(before: DiffTool, after: DiffTool, options: CompareOptions = {}): ToolChange[] {
  const changes: ToolChange[] = [];
  if (before.kind === 'snapshot' || after.kind === 'snapshot') return changes; // a tools/list entry lists no errors
  const was = byCode(before);
  const now = byCode(after);
  for (const [code, error] of now) {
    const pointer = `/errors/${escapePointerSegment(code)}`;
    const old = was.get(code);
    if (old === undefined) {
      const witness = { success: false, code };
      changes.push({
        side: 'errors',
        pointer,
        verdict: 'breaking',
        message: `error ${code} added: callers that handle failures by code meet one they do not know: e.g. the failure ${JSON.stringify(witness)} may now be returned`,
        witness,
      });
      continue;
    }
    dataChanges(code, old, error, options, changes);
    if ((old.retryable === true) !== (error.retryable === true))
      changes.push({
        side: 'errors',
        pointer: `${pointer}/retryable`,
        verdict: 'compatible',
        message: `error ${code} is ${error.retryable === true ? 'now' : 'no longer'} retryable: a retry policy ${error.retryable === true ? 'now tries' : 'no longer tries'} it again (read-only or idempotent tools only)`,
      });
  }
  for (const code of was.keys())
    if (!now.has(code))
      changes.push({
        side: 'errors',
        pointer: `/errors/${escapePointerSegment(code)}`,
        verdict: 'compatible',
        message: `error ${code} removed: the tool no longer fails with it`,
      });
  for (const change of changes)
    change.positions = { before: toolPosition(before, change.pointer), after: toolPosition(after, change.pointer) };
  return changes;
}

/** The changes of one error's `data`: judged as an output (what the tool may now send). */
function dataChanges(
  code: string,
  before: DeclaredError,
  after: DeclaredError,
  options: CompareOptions,
  changes: ToolChange[],
): void {
  const pointer = `/errors/${escapePointerSegment(code)}/data`;
  const a = before.data;
  const b = after.data;
  if (a === undefined && b === undefined) return;
  if (a === undefined || b === undefined) {
    changes.push({
      side: 'errors',
      pointer,
      verdict: a === undefined ? 'compatible' : 'breaking',
      message:
        a === undefined
          ? `error ${code} now carries data`
          : `error ${code} no longer carries data: callers that read it lose it`,
    });
    return;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const witnesses = findWitness(a, b, 'output');
  for (const change of compareSchema(a, b, { ...options, side: 'output' })) {
    if (change.direction === 'note') continue; // extra data properties are never sent unseen
    const verdict = verdictOf('output', change.direction);
    const item: ToolChange = {
      side: 'errors',
      pointer: `${pointer}${change.pointer}`,
      verdict,
      message: `error ${code} data: ${change.message}`,
    };
    const witness = verdict === 'breaking' ? witnesses.find(change) : undefined;
    if (witness !== undefined) {
      item.witness = { success: false, code, data: witness };
      item.message += `: e.g. the data ${JSON.stringify(witness)} may now be returned and was invalid before`;
    }
    changes.push(item);
  }
}
