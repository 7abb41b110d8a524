import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  SdkError,
  SdkErrorCode,
  type Server,
  type ServerContext,
  specTypeSchemas,
  type StandardSchemaV1,
  type TaskStatusNotification,
} from '@modelcontextprotocol/server';
import { ElicitationError, type Elicit, type Sample } from '../caller/elicitation.js';
import { asError, describeThrown } from '../errors.js';
import type { ToolOrchestrator } from '../orchestrator.js';
import {
  type CreateTaskInput,
  isTerminalTaskStatus,
  TASK_INTERNAL_ERROR,
  TASKS_EXTENSION_ID,
  type TaskStore,
  type TaskTransition,
  toCreateTaskResult,
  toGetTaskResult,
  toLegacyCreateTaskResult,
  toLegacyTask,
  toLegacyTaskPayload,
  waitForTaskEnd,
} from '../tasks/index.js';
import { checkedSample, clientCapabilities, declares, ELICIT, type QuestionKind, SAMPLE } from './asking.js';

/*
 * Long calls as MCP tasks, for tools whose definition says `taskSupport`: the client that asks (on
 * 2026-07-28 by declaring the tasks extension, on 2025-11-25 with `params.task`) gets a task handle
 * at once; the call runs on in the replica that took it, its result written once to the task store,
 * which every replica reads — so any task method (`tasks/update` with the client's answers too) may
 * reach any of them. A cancel from any replica fires the call's signal where it runs (the store's
 * pub/sub).
 *
 * Per era: 2025-11-25 has `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` and the
 * `notifications/tasks/status` notification; the 2026-07-28 extension has `tasks/get` and
 * `tasks/cancel` (`tasks/update` for input): the SDK's modern path answers `tasks/result` and
 * `tasks/list` -32601 before any handler, and leaves the legacy `tasks` capability out of
 * `server/discover`. The extension's status notifications ride on `subscriptions/listen`, which this
 * server does not serve: 2026-07-28 clients poll `tasks/get`.
 */

/** Each orchestrator's answer to `hasTaskCapableTool`, with the tools revision it was found at. */
const taskCapable = new WeakMap<ToolOrchestrator, { revision: number; answer: boolean }>();

/**
 * True when an enabled tool of `orchestrator` has `taskSupport`: only then does a server with a task
 * store announce tasks and answer the task methods. Asked for every HTTP request's server, so the
 * scan of the tools is kept until a tool is registered or unregistered (`toolsRevision`).
 */
export function hasTaskCapableTool(orchestrator: ToolOrchestrator): boolean {
  const revision = orchestrator.toolsRevision;
  const known = taskCapable.get(orchestrator);
  if (known?.revision === revision) return known.answer;
  const answer = orchestrator
    .listTools()
    .some((definition) => orchestrator.getTool(definition.name)?.taskSupport !== undefined);
  taskCapable.set(orchestrator, { revision, answer });
  return answer;
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

/** A question a task's call asks its client (`TaskControls.ask`). */
interface TaskQuestion {
  /** What the task says meanwhile (its `statusMessage`). */
  waiting: string;
  /** 2026-07-28: the requests by key, which `tasks/get` shows on any replica and `tasks/update` answers. */
  inputRequests?: Record<string, unknown>;
  /** The `ElicitationError` code a refused question throws. */
  refusedAs: 'ELICITATION_UNAVAILABLE' | 'SAMPLING_UNAVAILABLE';
}

/** What a task's call may do to its own task: ask its client, and read the answers. */
interface TaskControls {
  readonly taskId: string;
  /** How long a question waits for its answer (the store's `inputWaitMs`). */
  readonly waitMs: number;
  /**
   * Asks the client: the task is `input_required` while `wait` runs. `wait` gets a signal that fires
   * when the task ends, or once the question has waited the store's `inputWaitMs`: the task then
   * fails saying so, and the call's signal fires. Refused with an `ElicitationError` when the task
   * ended or its subject has `maxInputWaiting` tasks waiting for input. Without `inputRequests`
   * (2025-11-25, tied to the task) the task is marked `working` again after; with them the client's
   * answer did that.
   */
  ask<T>(question: TaskQuestion, wait: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The client's answer to input request `key`, from any replica (`RunningTask.answer`). */
  answer(key: string, signal: AbortSignal): Promise<unknown>;
}

/**
 * Starts `run` (the call, answering the task's result) as a task of `store` owned by `subject`
 * (none: an unauthenticated caller) and answers the task handle in the request's era. The call gets
 * the task's signal; its answer (or the protocol error it rejects with) is written once; a store
 * that cannot take it is reported to the server's `onerror`. With `notify` (2025-11-25 on a lasting
 * connection), the client hears each change of the task's status (`notifications/tasks/status`):
 * `input_required` and back (`TaskControls.ask`), then its end — completed, failed, cancelled from
 * any replica, drained, its question unanswered — once.
 */
export async function startTask(
  store: TaskStore,
  ctx: ServerContext,
  input: CreateTaskInput,
  run: (signal: AbortSignal, task: TaskControls) => Promise<Record<string, unknown>>,
  server: Server,
  notify: boolean,
): Promise<Record<string, unknown>> {
  const running = await store.create(input);
  const failed = (error: unknown) => server.onerror?.(asError(error));
  let ended = false;
  const tell = (outcome: TaskTransition) => {
    if (ended || !outcome.ok) return outcome;
    ended = isTerminalTaskStatus(outcome.task.status);
    if (notify) {
      const params = toLegacyTask(outcome.task) as TaskStatusNotification['params'];
      void server.notification({ method: 'notifications/tasks/status', params }).catch(failed);
    }
    return outcome;
  };
  // Fires when a question waited too long: the task failed, the call is stopped.
  const unanswered = new AbortController();
  const signal = AbortSignal.any([running.signal, unanswered.signal]);
  const waitMs = store.timings.inputWaitMs;
  const controls: TaskControls = {
    taskId: running.task.taskId,
    waitMs,
    answer: (key, within) => running.answer(key, within),
    ask: async (question, wait) => {
      const asked = tell(await running.mark('input_required', question.waiting, question.inputRequests));
      if (!asked.ok) throw signal.aborted ? signal.reason : new ElicitationError(question.refusedAs, asked.message);
      const deadline = AbortSignal.timeout(waitMs);
      try {
        return await wait(AbortSignal.any([signal, deadline]));
      } catch (error) {
        const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
        if (signal.aborted || !(deadline.aborted || timedOut)) throw error;
        const message =
          `The client did not answer the task's question (${question.waiting}) within ${waitMs} ms, the longest ` +
          'a question waits (inputWaitMs, serve --task-input-wait); the task failed. Call the tool again.';
        tell(await running.fail({ code: TASK_INTERNAL_ERROR, message }, message));
        unanswered.abort(new Error(message));
        throw unanswered.signal.reason;
      } finally {
        // Refused when the task ended meanwhile; nothing to resume then.
        if (question.inputRequests === undefined && !signal.aborted)
          await running.mark('working').then(tell, () => undefined);
      }
    },
  };
  // Ended by someone else (a cancel, a drain, a lost lease): the store has the status it ended in.
  const endedElsewhere = async () => {
    const task = await store.get(running.task.taskId, input.subject);
    if (task !== undefined && isTerminalTaskStatus(task.status)) tell({ ok: true, task });
  };
  if (notify) running.signal.addEventListener('abort', () => void endedElsewhere().catch(failed), { once: true });
  void run(signal, controls)
    .then(
      (body) => running.complete(body),
      // The answer could not be made (a call that reached no tool): the task fails with its protocol error.
      (error: unknown) => {
        const code = error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;
        return running.fail({ code, message: describeThrown(error, 500) });
      },
    )
    .then(tell, failed);
  // The 2025 tools/call result check wants `content` beside `task`.
  return ctx.mcpReq.envelope === undefined
    ? { ...toLegacyCreateTaskResult(running.task), content: [] }
    : toCreateTaskResult(running.task);
}

/**
 * How a task's call reaches its client, for the questions the client declared it takes: on 2026-07-28
 * through the task's `inputRequests` (any replica takes the answer), on 2025-11-25 by requests
 * carrying the related task, only on a `lasting` connection. A model's answer reaches the tool only
 * when it is one (`checkedSample`).
 */
export function taskReporter(
  server: Server,
  task: TaskControls,
  ctx: ServerContext,
  lasting: boolean,
): { elicit?: Elicit; sample?: Sample } {
  const modern = ctx.mcpReq.envelope !== undefined;
  const reporter: { elicit?: Elicit; sample?: Sample } = {};
  if (!modern && !lasting) return reporter;
  const capabilities = clientCapabilities(ctx, server);
  if (declares(capabilities, 'elicitation')) reporter.elicit = taskAsker(server, task, modern, ELICIT);
  if (declares(capabilities, 'sampling')) reporter.sample = checkedSample(taskAsker(server, task, modern, SAMPLE));
  return reporter;
}

/**
 * How a task's call asks `kind` of question: on 2026-07-28 as one of the task's `inputRequests`
 * (`tasks/get` shows it on any replica, and the call waits for the answer `tasks/update` brings to
 * any of them); on 2025-11-25 as a request tied to the task (`_meta` related-task) on a lasting
 * connection, which a cancel of the task or a wait past `TaskControls.waitMs` ends (the SDK's own
 * timeout is set to the same).
 */
function taskAsker<Request, Answer>(
  server: Server,
  task: TaskControls,
  modern: boolean,
  kind: QuestionKind<Request, Answer>,
): (request: Request) => Promise<Answer> {
  let asked = 0;
  return async (request) => {
    const question = { waiting: kind.waiting(request), refusedAs: `${kind.code}_UNAVAILABLE` as const };
    const { method, params } = kind.request(request);
    if (!modern) {
      const tied = { method, params: { ...params, _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } } } };
      return (await task.ask(question, (signal) => server.request(tied, { signal, timeout: task.waitMs }))) as Answer;
    }
    const key = `${kind.prefix}-${asked++}`;
    return (await task.ask({ ...question, inputRequests: { [key]: { method, params } } }, async (signal) => {
      const answer = await task.answer(key, signal);
      if (answer === undefined)
        throw signal.reason ?? new Error(`Task '${task.taskId}' ended while it waited for '${key}'.`);
      return answer;
    })) as Answer;
  };
}

/** `{ taskId: string }`, as a Standard Schema for the SDK's custom-method handlers. */
const TASK_ID_PARAMS: StandardSchemaV1<{ taskId: string }> = {
  '~standard': {
    version: 1 as const,
    vendor: 'toolsmith',
    validate: (value: unknown) =>
      value !== null && typeof value === 'object' && typeof (value as { taskId?: unknown }).taskId === 'string'
        ? { value: value as { taskId: string } }
        : { issues: [{ message: 'params.taskId must be the task id (a string).' }] },
  },
};

/** How the task methods answer: from which store, for whom, and whether `tasks/list` is answered. */
interface TaskMethodsOptions {
  store: TaskStore;
  /** The caller's authenticated subject; none for an unauthenticated caller, whose tasks are no subject's. */
  subject: string | undefined;
  /** Answer `tasks/list` (2025-11-25); refused -32601 otherwise. */
  list: boolean;
}

/**
 * Announces tasks on `server` (before it connects) in both eras, and registers `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel`, answering `subject`'s tasks from `store`, each in
 * the request's era (`tasks/result` and `tasks/list` reach only 2025-11-25 requests).
 */
export function handleTaskMethods(server: Server, options: TaskMethodsOptions): void {
  const { store, subject } = options;
  server.registerCapabilities({
    extensions: { [TASKS_EXTENSION_ID]: {} },
    // 2025-11-25 `tasks.list` only when `tasks/list` is answered.
    tasks: { ...(options.list ? { list: {} } : {}), requests: { tools: { call: {} } }, cancel: {} },
  });
  const legacy = (ctx: ServerContext) => ctx.mcpReq.envelope === undefined;
  server.setRequestHandler('tasks/get', { params: TASK_ID_PARAMS }, async ({ taskId }, ctx) => {
    const task = await store.get(taskId, subject);
    if (task === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, store.missing(taskId));
    return legacy(ctx) ? toLegacyTask(task) : toGetTaskResult(task);
  });
  server.setRequestHandler('tasks/cancel', { params: TASK_ID_PARAMS }, async ({ taskId }, ctx) => {
    const outcome = await store.cancel(taskId, subject, 'Cancelled by the client.');
    if (!outcome.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.message);
    return legacy(ctx) ? toLegacyTask(outcome.task) : { resultType: 'complete' };
  });
  // The SDK lifts `inputResponses` out of a 2026-07-28 request's params (bare results only) into the context.
  server.setRequestHandler('tasks/update', { params: TASK_ID_PARAMS }, async ({ taskId }, ctx) => {
    if (legacy(ctx))
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `tasks/update is a method of the 2026-07-28 tasks extension (${TASKS_EXTENSION_ID}); on 2025-11-25 a task's question comes as elicitation/create.`,
      );
    const inputResponses = (ctx.mcpReq.inputResponses ?? {}) as Record<string, unknown>;
    if (Object.keys(inputResponses).length === 0)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        "tasks/update needs params.inputResponses: the answers (each the bare result, e.g. an ElicitResult) by the keys of the task's inputRequests.",
      );
    const outcome = await store.respond(taskId, subject, inputResponses);
    if (!outcome.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.message);
    return { resultType: 'complete' };
  });
  server.setRequestHandler('tasks/result', { params: TASK_ID_PARAMS }, async ({ taskId }, ctx) => {
    const task = await waitForTaskEnd(store, taskId, { signal: ctx.mcpReq.signal, subject });
    const payload = task === undefined ? undefined : toLegacyTaskPayload(task);
    if (payload === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, store.missing(taskId));
    if ('error' in payload) throw new ProtocolError(payload.error.code, payload.error.message);
    return payload.result;
  });
  server.setRequestHandler('tasks/list', { params: specTypeSchemas.PaginatedRequestParams }, async ({ cursor }) => {
    if (!options.list)
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        "tasks/list is not offered here: this server cannot tell its callers apart (no authenticated subject), so a list would show other callers' tasks. Keep the task ids tools/call answered.",
      );
    // A cursor the store did not hand out is the caller's mistake: Invalid params.
    const page = await store.list(subject, typeof cursor === 'string' ? { cursor } : {}).catch((error: unknown) => {
      throw error instanceof RangeError ? new ProtocolError(ProtocolErrorCode.InvalidParams, error.message) : error;
    });
    return { tasks: page.tasks.map(toLegacyTask), nextCursor: page.nextCursor };
  });
}
