import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { describeThrown } from '../errors.js';
import type { ToolCallResult, ToolOrchestrator } from '../orchestrator.js';
import {
  type StoredTask,
  TASKS_EXTENSION_ID,
  type TaskStore,
  taskNotFoundError,
  toCreateTaskResult,
  toGetTaskResult,
  toLegacyCreateTaskResult,
  toLegacyTask,
  toLegacyTaskPayload,
  waitForTaskEnd,
} from '../tasks/index.js';

/*
 * Long calls as MCP tasks, for tools whose definition says `taskSupport`: the client that asks (on
 * 2026-07-28 by declaring the tasks extension, on 2025-11-25 with `params.task`) gets a task handle
 * at once; the call runs on in the replica that took it, its result written once to the task store,
 * which every replica reads — so `tasks/get`, `tasks/result` and `tasks/cancel` may reach any of
 * them. A cancel from any replica fires the call's signal where it runs (the store's pub/sub).
 */

/** The server capabilities that announce tasks, in both eras. */
export const TASK_CAPABILITIES = {
  extensions: { [TASKS_EXTENSION_ID]: {} },
  tasks: { requests: { tools: { call: {} } }, cancel: {} },
};

/**
 * True when an enabled tool of `orchestrator` has `taskSupport`: only then does a server with a task
 * store announce tasks and answer the task methods.
 */
export function hasTaskCapableTool(orchestrator: ToolOrchestrator): boolean {
  for (const definition of orchestrator.listTools()) {
    if (orchestrator.getTool(definition.name)?.taskSupport !== undefined) return true;
  }
  return false;
}

/**
 * Whether this `tools/call` asks for a task: on 2026-07-28 its client declares the tasks extension
 * (`capabilities`, from the request's `_meta`), on 2025-11-25 the request carries `params.task`.
 */
export function asksForTask(
  ctx: ServerContext,
  capabilities: { extensions?: Record<string, unknown> } | undefined,
  params: unknown,
): { ttlMs?: number } | undefined {
  if (ctx.mcpReq.envelope !== undefined)
    return capabilities?.extensions?.[TASKS_EXTENSION_ID] === undefined ? undefined : {};
  const task = (params as { task?: { ttl?: unknown } } | undefined)?.task;
  if (task === undefined || task === null || typeof task !== 'object') return undefined;
  return typeof task.ttl === 'number' && Number.isFinite(task.ttl) && task.ttl > 0 ? { ttlMs: task.ttl } : {};
}

/**
 * Starts `run` (the call) as a task of `store` owned by `subject` and answers the task handle in the
 * request's era. The call gets the task's signal; its answer (`answer`, or a protocol error it
 * throws) is written once; a store that cannot take it is reported to `onError`.
 */
export async function startTask(
  store: TaskStore,
  ctx: ServerContext,
  input: { toolName: string; subject: string; ttlMs?: number },
  run: (signal: AbortSignal) => Promise<ToolCallResult>,
  answer: (result: ToolCallResult) => Record<string, unknown>,
  onError: ((error: Error) => void) | undefined,
): Promise<Record<string, unknown>> {
  const running = await store.create({
    toolName: input.toolName,
    subject: input.subject,
    ...(input.ttlMs === undefined ? {} : { ttlMs: input.ttlMs }),
  });
  void run(running.signal)
    .then(async (result) => {
      let body: Record<string, unknown>;
      try {
        body = answer(result);
      } catch (error) {
        const code = error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;
        await running.fail({ code, message: describeThrown(error, 500) });
        return;
      }
      await running.complete(body);
    })
    .catch((error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error))));
  // The 2025 tools/call result check wants `content` beside `task`.
  return ctx.mcpReq.envelope === undefined
    ? { ...toLegacyCreateTaskResult(running.task), content: [] }
    : toCreateTaskResult(running.task);
}

/** `{ taskId: string }`, as a Standard Schema for the SDK's custom-method handlers. */
const TASK_ID_PARAMS = {
  '~standard': {
    version: 1 as const,
    vendor: 'toolsmith',
    validate: (value: unknown) =>
      value !== null && typeof value === 'object' && typeof (value as { taskId?: unknown }).taskId === 'string'
        ? { value: value as { taskId: string } }
        : { issues: [{ message: 'params.taskId must be the task id (a string).' }] },
  },
};

function notFound(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, taskNotFoundError(taskId).message);
}

/** Registers `tasks/get`, `tasks/result` and `tasks/cancel` on `server`, answering `subject`'s tasks from `store`. */
export function handleTaskMethods(server: Server, store: TaskStore, subject: string): void {
  const register = server.setRequestHandler.bind(server) as unknown as (
    method: string,
    schemas: { params: typeof TASK_ID_PARAMS },
    handler: (params: { taskId: string }, ctx: ServerContext) => Promise<unknown>,
  ) => void;
  const legacy = (ctx: ServerContext) => ctx.mcpReq.envelope === undefined;
  register('tasks/get', { params: TASK_ID_PARAMS }, async ({ taskId }, ctx) => {
    const task = await store.get(taskId, subject);
    if (task === undefined) throw notFound(taskId);
    return legacy(ctx) ? toLegacyTask(task) : toGetTaskResult(task);
  });
  register('tasks/cancel', { params: TASK_ID_PARAMS }, async ({ taskId }, ctx) => {
    const outcome = await store.cancel(taskId, subject, 'Cancelled by the client.');
    if (!outcome.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.message);
    return legacy(ctx) ? toLegacyTask(outcome.task) : { resultType: 'complete' };
  });
  register('tasks/result', { params: TASK_ID_PARAMS }, async ({ taskId }, ctx) => {
    const task: StoredTask | undefined = await waitForTaskEnd(store, taskId, { signal: ctx.mcpReq.signal, subject });
    const payload = task === undefined ? undefined : toLegacyTaskPayload(task);
    if (payload === undefined) throw notFound(taskId);
    if ('error' in payload) throw new ProtocolError(payload.error.code, payload.error.message);
    return payload.result;
  });
}
