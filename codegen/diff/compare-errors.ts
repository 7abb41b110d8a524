/**
 * The changes of a tool's declared errors (its definition's `errors`), judged for callers that handle
 * failures by code, as an output is judged for callers that read it: a new code, or data that may now
 * hold what it could not, is breaking (such a caller meets a failure it does not know); a code removed,
 * or data narrowed, is compatible. Each breaking change has a witness: the failure now possible.
 */
import type { DeclaredError } from '../model.js';
import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import { compareSchema, toolChange, verdictOf, type ToolChange } from './compare.js';
import type { CompareOptions } from './compare-kit.js';
import type { DiffTool } from './sources.js';
import { findWitness } from './witness.js';

/** The changes of the declared errors from `before` to `after` (a snapshot lists none). */
export function errorChanges(before: DiffTool, after: DiffTool, options: CompareOptions = {}): ToolChange[] {
  const changes: ToolChange[] = [];
  if (before.kind === 'snapshot' || after.kind === 'snapshot') return changes;
  const was = new Map((before.errors ?? []).map((error) => [error.code, error]));
  const now = new Map((after.errors ?? []).map((error) => [error.code, error]));
  for (const [code, error] of now) {
    const pointer = `/errors/${escapePointerSegment(code)}`;
    const old = was.get(code);
    if (old === undefined) {
      const witness = { success: false, code };
      const message = `error ${code} added: callers that handle failures by code meet one they do not know: e.g. the failure ${JSON.stringify(witness)} may now be returned`;
      changes.push({ ...toolChange(pointer, true, message, 'errors'), witness });
      continue;
    }
    dataChanges(code, old, error, options, changes);
    const retryable = error.retryable === true;
    if ((old.retryable === true) !== retryable) {
      const message = `error ${code} is ${retryable ? 'now' : 'no longer'} retryable: a retry policy ${retryable ? 'now tries' : 'no longer tries'} it again (read-only or idempotent tools only)`;
      changes.push(toolChange(`${pointer}/retryable`, false, message, 'errors'));
    }
  }
  for (const code of was.keys()) {
    const message = `error ${code} removed: the tool no longer fails with it`;
    if (!now.has(code)) changes.push(toolChange(`/errors/${escapePointerSegment(code)}`, false, message, 'errors'));
  }
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
    const message =
      a === undefined
        ? `error ${code} now carries data`
        : `error ${code} no longer carries data: callers that read it lose it`;
    changes.push(toolChange(pointer, a !== undefined, message, 'errors'));
    return;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const witnessOf = findWitness(a, b, 'output');
  for (const change of compareSchema(a, b, { ...options, side: 'output' })) {
    if (change.direction === 'note') continue; // extra data properties are never sent unseen
    const breaking = verdictOf('output', change.direction) === 'breaking';
    const item = toolChange(`${pointer}${change.pointer}`, breaking, `error ${code} data: ${change.message}`, 'errors');
    const witness = breaking ? witnessOf(change) : undefined;
    if (witness !== undefined) {
      item.witness = { success: false, code, data: witness };
      item.message += `: e.g. the data ${JSON.stringify(witness)} may now be returned and was invalid before`;
    }
    changes.push(item);
  }
}
