/**
 * A `StoredTask` in each MCP era's words, for the server's task methods. Pure: no store, no I/O.
 *
 * - 2026-07-28, extension `io.modelcontextprotocol/tasks`: `tools/call` answers
 *   `{ resultType: 'task', ...Task }`; `tasks/get` answers the task with its `result` (completed) or
 *   `error` (failed) inline; `tasks/cancel` and `tasks/update` an empty `{ resultType: 'complete' }`.
 *   Fields `ttlMs`, `pollIntervalMs`.
 * - 2025-11-25: `tools/call` with `params.task` answers `{ task }`; `tasks/get` and `tasks/cancel`
 *   the task; `tasks/result` the stored `CallToolResult` with `_meta[related-task]` (or the failed
 *   task's JSON-RPC error). Fields `ttl`, `pollInterval`.
 */
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import { isTerminalTaskStatus, type StoredTask, TASK_INTERNAL_ERROR, type TaskError } from './task-store.js';

/** The 2026-07-28 extension's identifier, declared in `server/discover` capabilities and per request by clients. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** The 2026-07-28 `Task` fields of a stored task. */
function modernTask(task: StoredTask): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

/** 2026-07-28: the `CreateTaskResult` a `tools/call` answers in lieu of its `CallToolResult`. */
export function toCreateTaskResult(task: StoredTask): Record<string, unknown> {
  return { resultType: 'task', ...modernTask(task) };
}

/**
 * 2026-07-28: the `tasks/get` result, the `DetailedTask` with `result` or `error` inline, or the open
 * `inputRequests` of an `input_required` task.
 */
export function toGetTaskResult(task: StoredTask): Record<string, unknown> {
  return {
    resultType: 'complete',
    ...modernTask(task),
    ...(task.status === 'completed' && task.result !== undefined ? { result: task.result } : {}),
    ...(task.status === 'failed' && task.error !== undefined ? { error: task.error } : {}),
    ...(task.status === 'input_required' ? { inputRequests: task.inputRequests ?? {} } : {}),
  };
}

/** 2025-11-25: the `Task` object (`tasks/get`, `tasks/cancel`, and inside `CreateTaskResult`): `ttl`, `pollInterval`. */
export function toLegacyTask(task: StoredTask): Record<string, unknown> {
  const { ttlMs, pollIntervalMs, ...fields } = modernTask(task);
  return { ...fields, ttl: ttlMs, pollInterval: pollIntervalMs };
}

/** 2025-11-25: the `CreateTaskResult` of a task-augmented `tools/call`. */
export function toLegacyCreateTaskResult(task: StoredTask): Record<string, unknown> {
  return { task: toLegacyTask(task) };
}

/**
 * 2025-11-25: what `tasks/result` answers for a task that ended: the stored `CallToolResult` with
 * the related-task `_meta`, or the JSON-RPC error to answer with (a failed task; a cancelled one is
 * an error too). `undefined` while the task runs: the caller waits (`waitForTaskEnd`).
 */
export function toLegacyTaskPayload(
  task: StoredTask,
): { result: Record<string, unknown> } | { error: TaskError } | undefined {
  if (task.status === 'completed') {
    const result = task.result ?? {};
    const meta = (result._meta as Record<string, unknown> | undefined) ?? {};
    return { result: { ...result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: task.taskId } } } };
  }
  if (!isTerminalTaskStatus(task.status)) return undefined;
  const message = task.statusMessage ?? `Task '${task.taskId}' was ${task.status}.`;
  return { error: (task.status === 'failed' && task.error) || { code: TASK_INTERNAL_ERROR, message } };
}
