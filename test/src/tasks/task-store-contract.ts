import { afterEach, describe, expect, it } from 'vitest';
import {
  TaskAbortedError,
  type TaskStore,
  TaskStoreError,
  type TaskStoreTimings,
  type TaskTransition,
} from '../../../src/tasks/index.js';

/** Opens a store of the kind under test with these timings (each test closes what it opened). */
export type OpenTaskStore = (timings?: TaskStoreTimings) => Promise<TaskStore>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` is true, polling, or fails after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(5);
  }
  return Date.now() - started;
}

function refused(outcome: TaskTransition): Extract<TaskTransition, { ok: false }> {
  if (outcome.ok) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.task)}`);
  return outcome;
}

/**
 * The contract every `TaskStore` keeps, run against `MemoryTaskStore` and `RedisTaskStore` alike:
 * each test fails when its rule is broken (a second ending overwrites, a cancel does not fire the
 * signal, a result outlives its retention, a drain leaves a task working).
 */
export function describeTaskStoreContract(name: string, open: OpenTaskStore, kind: { leases: boolean }): void {
  describe(`${name}: the task store contract`, () => {
    const opened: TaskStore[] = [];
    const store = async (timings?: TaskStoreTimings) => {
      const created = await open(timings);
      opened.push(created);
      return created;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((each) => each.close()));
    });

    it('claims a key once, for every store that shares it, until its time is over', async () => {
      const tasks = await store();
      const key = `answer-${Math.random().toString(36).slice(2)}`;
      expect(await tasks.claimOnce(key, 60_000)).toBe(true);
      expect(await tasks.claimOnce(key, 60_000)).toBe(false);
      expect(await tasks.claimOnce(`${key}-other`, 60_000)).toBe(true);
      // Another replica on the same store (a second connection; the memory store is its own only).
      if (kind.leases) expect(await (await store()).claimOnce(key, 60_000)).toBe(false);
      expect(await tasks.claimOnce(`${key}-short`, 30)).toBe(true);
      await eventually(() => tasks.claimOnce(`${key}-short`, 60_000));
    });

    it('creates a working task that get finds, with the wire fields filled', async () => {
      const tasks = await store({ retentionMs: 60_000, pollIntervalMs: 250 });
      const running = await tasks.create({ toolName: 'slow_report' });
      expect(running.task).toMatchObject({ status: 'working', toolName: 'slow_report', pollIntervalMs: 250 });
      expect(running.task.replicaId).toBe(tasks.replicaId);
      expect(running.task.ttlMs).toBeGreaterThanOrEqual(60_000);
      expect(Date.parse(running.task.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(running.signal.aborted).toBe(false);
      const read = await tasks.get(running.task.taskId);
      expect(read).toMatchObject({ taskId: running.task.taskId, status: 'working', toolName: 'slow_report' });
      expect(await tasks.get('no-such-task')).toBeUndefined();
    });

    it('writes a result once: a second completion or a failure after it is refused and changes nothing', async () => {
      const tasks = await store();
      const running = await tasks.create({ toolName: 't' });
      const first = await running.complete({ content: [{ type: 'text', text: 'first' }], isError: false });
      expect(first.ok).toBe(true);
      const second = refused(await running.complete({ content: [{ type: 'text', text: 'second' }] }));
      expect(second.reason).toBe('terminal');
      expect(second.message).toMatch(/already completed.*cannot become completed/);
      expect(refused(await tasks.complete(running.task.taskId, { overwritten: true })).reason).toBe('terminal');
      expect(refused(await tasks.fail(running.task.taskId, { code: -32603, message: 'late' })).reason).toBe('terminal');
      const read = await tasks.get(running.task.taskId);
      expect(read?.status).toBe('completed');
      expect(read?.result).toEqual({ content: [{ type: 'text', text: 'first' }], isError: false });
      expect(read?.error).toBeUndefined();
    });

    it('of 20 concurrent endings exactly one wins, and its result is the one kept', async () => {
      const tasks = await store();
      const running = await tasks.create({ toolName: 't' });
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          index % 2 === 0
            ? running.complete({ winner: index })
            : tasks.complete(running.task.taskId, { winner: index }),
        ),
      );
      const winners = outcomes.filter((outcome) => outcome.ok);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!.task.result;
      expect((await tasks.get(running.task.taskId))?.result).toEqual(winner);
    });

    it('a running task goes input_required and back to working, which get reads; once ended it cannot', async () => {
      const tasks = await store();
      const running = await tasks.create({ toolName: 't', subject: 'alice' });
      const waiting = await running.mark('input_required', 'Waiting for the user: Which file?');
      expect(waiting.ok).toBe(true);
      expect(await tasks.get(running.task.taskId, 'alice')).toMatchObject({
        status: 'input_required',
        statusMessage: 'Waiting for the user: Which file?',
      });
      expect((await running.mark('working')).ok).toBe(true);
      const working = await tasks.get(running.task.taskId, 'alice');
      expect(working?.status).toBe('working');
      expect(working?.statusMessage).toBeUndefined();
      expect(running.signal.aborted).toBe(false);
      await running.complete({ content: [] });
      expect(refused(await running.mark('input_required')).reason).toBe('terminal');
      expect((await tasks.get(running.task.taskId, 'alice'))?.status).toBe('completed');
    });

    it("respond answers a waiting task's open requests from any caller of its subject, once, then it works on", async () => {
      const tasks = await store();
      const running = await tasks.create({ toolName: 't', subject: 'alice' });
      const { taskId } = running.task;
      const question = {
        method: 'elicitation/create',
        params: { message: 'Pick', requestedSchema: { type: 'object', properties: {}, required: [] } },
      };
      expect(refused(await tasks.respond(taskId, 'alice', { 'elicit-0': { action: 'accept' } })).reason).toBe(
        'not-waiting',
      );
      await running.mark('input_required', 'Waiting for the user: Pick', { 'elicit-0': question });
      await running.mark('input_required', 'Waiting for the user: Pick', { 'elicit-1': question });
      const waiting = await tasks.get(taskId, 'alice');
      expect(waiting?.inputRequests).toEqual({ 'elicit-0': question, 'elicit-1': question });
      expect(refused(await tasks.respond(taskId, 'bob', { 'elicit-0': { action: 'accept' } })).reason).toBe(
        'not-found',
      );
      const wrong = refused(await tasks.respond(taskId, 'alice', { 'elicit-9': { action: 'accept' } }));
      expect(wrong.reason).toBe('not-waiting');
      expect(wrong.message).toContain("asks no 'elicit-9'; its open input requests: elicit-0, elicit-1");
      const answer = { action: 'accept', content: { tags: [] } };
      const first = await tasks.respond(taskId, 'alice', { 'elicit-0': answer });
      expect(first.ok && first.task.status).toBe('input_required');
      expect(first.ok && first.task.inputRequests).toEqual({ 'elicit-1': question });
      expect(refused(await tasks.respond(taskId, 'alice', { 'elicit-0': answer })).reason).toBe('not-waiting');
      const second = await tasks.respond(taskId, 'alice', { 'elicit-1': { action: 'decline' } });
      expect(second.ok && second.task.status).toBe('working');
      const read = await tasks.get(taskId, 'alice');
      expect(read?.inputRequests).toBeUndefined();
      expect(read?.statusMessage).toBeUndefined();
      expect(read?.inputResponses).toEqual({ 'elicit-0': answer, 'elicit-1': { action: 'decline' } });
      await running.complete({ content: [] });
      expect(refused(await tasks.respond(taskId, 'alice', { 'elicit-1': answer })).reason).toBe('terminal');
    });

    it('fails a task with a JSON-RPC error and a status message', async () => {
      const tasks = await store();
      const running = await tasks.create({ toolName: 't' });
      const outcome = await running.fail({ code: -32603, message: 'upstream down' }, 'The upstream API is down.');
      expect(outcome.ok).toBe(true);
      expect(await tasks.get(running.task.taskId)).toMatchObject({
        status: 'failed',
        statusMessage: 'The upstream API is down.',
        error: { code: -32603, message: 'upstream down' },
      });
    });

    it('cancel marks the task cancelled, fires its signal, and refuses a later result', async () => {
      const tasks = await store();
      const running = await tasks.create({ toolName: 't' });
      const outcome = await tasks.cancel(running.task.taskId, undefined, 'The user pressed stop.');
      expect(outcome.ok && outcome.task.status).toBe('cancelled');
      await eventually(() => running.signal.aborted, 2_000);
      expect(running.signal.reason).toBeInstanceOf(TaskAbortedError);
      expect((running.signal.reason as TaskAbortedError).kind).toBe('cancelled');
      expect((running.signal.reason as TaskAbortedError).message).toBe('The user pressed stop.');
      expect(refused(await running.complete({ late: true })).reason).toBe('terminal');
      expect(refused(await tasks.cancel(running.task.taskId)).message).toMatch(/already cancelled/);
      expect(refused(await tasks.cancel('no-such-task')).reason).toBe('not-found');
      expect((await tasks.get(running.task.taskId))?.result).toBeUndefined();
    });

    it('an ending written by id fires the running signal as ended-elsewhere', async () => {
      const tasks = await store();
      const running = await tasks.create({ toolName: 't' });
      expect((await tasks.complete(running.task.taskId, { by: 'id' })).ok).toBe(true);
      await eventually(() => running.signal.aborted, 2_000);
      expect((running.signal.reason as TaskAbortedError).kind).toBe('ended-elsewhere');
    });

    it('a task created by one subject is not found, completed or cancelled by another', async () => {
      const tasks = await store();
      const running = await tasks.create({ toolName: 't', subject: 'alice' });
      expect(await tasks.get(running.task.taskId, 'bob')).toBeUndefined();
      expect(await tasks.get(running.task.taskId)).toBeUndefined();
      expect(refused(await tasks.cancel(running.task.taskId, 'bob')).reason).toBe('not-found');
      expect(running.signal.aborted).toBe(false);
      expect((await tasks.get(running.task.taskId, 'alice'))?.subject).toBe('alice');
      expect((await tasks.cancel(running.task.taskId, 'alice')).ok).toBe(true);
      // The task's own ending needs no subject: it is the store's.
      const owned = await tasks.create({ toolName: 't', subject: 'alice' });
      expect((await owned.complete({ content: [] })).ok).toBe(true);
      expect((await tasks.get(owned.task.taskId, 'alice'))?.status).toBe('completed');
    });

    it("keeps an unauthenticated caller's tasks apart from every subject's, 'mcp' included", async () => {
      const tasks = await store();
      const anonymous = await tasks.create({ toolName: 't' });
      const { taskId } = anonymous.task;
      expect(await tasks.get(taskId, 'mcp')).toBeUndefined();
      expect(await tasks.get(taskId, '')).toBeUndefined();
      expect(refused(await tasks.cancel(taskId, 'mcp')).reason).toBe('not-found');
      await anonymous.mark('input_required', 'Waiting', { 'elicit-0': { method: 'elicitation/create' } });
      expect(refused(await tasks.respond(taskId, 'mcp', { 'elicit-0': { action: 'accept' } })).reason).toBe(
        'not-found',
      );
      expect((await tasks.list('mcp')).tasks.map((task) => task.taskId)).not.toContain(taskId);
      expect((await tasks.list(undefined, { limit: 1000 })).tasks.map((task) => task.taskId)).toContain(taskId);
      expect((await tasks.get(taskId))?.subject).toBeUndefined();
      const owned = await tasks.create({ toolName: 't', subject: 'mcp' });
      expect(await tasks.get(owned.task.taskId)).toBeUndefined();
      expect((await tasks.get(owned.task.taskId, 'mcp'))?.subject).toBe('mcp');
    });

    it('says why a task is not found, naming what it cannot tell apart', async () => {
      const tasks = await store({ retentionMs: 5_000, maxRetentionMs: 9_000 });
      expect(tasks.missing('gone')).toMatch(
        /^Task 'gone' not found: it never existed, it belongs to another caller, or it ended longer ago than it is kept \(5000 ms after its end, or the TTL its client asked for, up to 9000 ms\).*The store keeps no record of a task once it is gone\.$/,
      );
      expect(refused(await tasks.cancel('gone')).message).toBe(tasks.missing('gone'));
    });

    it('answer resolves with the answer to its key once it comes, and undefined once the task ended', async () => {
      const tasks = await store();
      const running = await tasks.create({ toolName: 't', subject: 'alice' });
      const { taskId } = running.task;
      await running.mark('input_required', 'Pick', { 'elicit-0': { method: 'elicitation/create' } });
      let answered: unknown = 'not yet';
      const waiting = running.answer('elicit-0').then((answer) => (answered = answer));
      await sleep(50);
      expect(answered).toBe('not yet');
      await tasks.respond(taskId, 'alice', { 'elicit-0': { action: 'accept', content: { pick: 'b' } } });
      await waiting;
      expect(answered).toEqual({ action: 'accept', content: { pick: 'b' } });
      await running.mark('input_required', 'Pick again', { 'elicit-1': { method: 'elicitation/create' } });
      const ended = running.answer('elicit-1');
      await tasks.cancel(taskId, 'alice');
      await expect(ended).resolves.toBeUndefined();
      const other = await tasks.create({ toolName: 't' });
      await other.mark('input_required', 'Pick', { 'elicit-0': { method: 'elicitation/create' } });
      const stop = new AbortController();
      const stopped = other.answer('elicit-0', stop.signal);
      stop.abort(new Error('no longer wanted'));
      await expect(stopped).rejects.toThrow('no longer wanted');
    });

    it('refuses a question while its subject has maxInputWaiting tasks waiting, counting each subject apart', async () => {
      const tasks = await store({ maxInputWaiting: 2 });
      const alice = `alice-${Math.random()}`;
      const [first, second, third] = await Promise.all(
        [1, 2, 3].map(() => tasks.create({ toolName: 't', subject: alice })),
      );
      expect((await first!.mark('input_required', 'One')).ok).toBe(true);
      expect((await second!.mark('input_required', 'Two')).ok).toBe(true);
      // A second question of a task already waiting is no new waiting task.
      expect((await second!.mark('input_required', 'Two, again', { 'elicit-1': {} })).ok).toBe(true);
      const refusal = refused(await third!.mark('input_required', 'Three'));
      expect(refusal.reason).toBe('too-many-waiting');
      expect(refusal.message).toBe(
        `Task '${third!.task.taskId}' cannot ask its client: subject '${alice}' has 2 tasks waiting for input, the most this server allows (maxInputWaiting, serve --task-max-input-waiting). Answer or cancel one of them (tasks/update, tasks/cancel), then call the tool again.`,
      );
      expect((await tasks.get(third!.task.taskId, alice))?.status).toBe('working');
      // Another subject, and the unauthenticated callers, have caps of their own.
      const bob = await tasks.create({ toolName: 't', subject: `bob-${Math.random()}` });
      expect((await bob.mark('input_required', 'Bob')).ok).toBe(true);
      // One back to working, one ended: two places free.
      expect((await first!.mark('working')).ok).toBe(true);
      await second!.complete({ content: [] });
      expect((await third!.mark('input_required', 'Three')).ok).toBe(true);
      const fourth = await tasks.create({ toolName: 't', subject: alice });
      expect((await fourth.mark('input_required', 'Four')).ok).toBe(true);
    });

    it("lists only the subject's tasks, oldest first, ended ones too, in pages joined by cursors", async () => {
      const tasks = await store();
      // Subjects of this run only: a shared Redis keeps other runs' tasks.
      const [a, b] = [`alice-${Math.random()}`, `bob-${Math.random()}`];
      const alice: string[] = [];
      for (let i = 0; i < 5; i++) {
        alice.push((await tasks.create({ toolName: `a${i}`, subject: a })).task.taskId);
        await tasks.create({ toolName: `b${i}`, subject: b });
      }
      await tasks.cancel(alice[1]!, a);
      const first = await tasks.list(a, { limit: 2 });
      expect(first.tasks.map((task) => task.taskId)).toEqual(alice.slice(0, 2));
      expect(first.tasks[1]?.status).toBe('cancelled');
      const second = await tasks.list(a, { limit: 2, cursor: first.nextCursor! });
      expect(second.tasks.map((task) => task.taskId)).toEqual(alice.slice(2, 4));
      const third = await tasks.list(a, { limit: 2, cursor: second.nextCursor! });
      expect(third.tasks.map((task) => task.taskId)).toEqual(alice.slice(4));
      expect(third.nextCursor).toBeUndefined();
      expect((await tasks.list(a)).tasks.map((task) => task.taskId)).toEqual(alice);
      expect((await tasks.list(b)).tasks.map((task) => task.toolName)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
      expect((await tasks.list(`carol-${Math.random()}`)).tasks).toEqual([]);
      await expect(tasks.list(a, { cursor: 'not-a-cursor' })).rejects.toThrow(
        "Task list cursor 'not-a-cursor' is not one this task store handed out; list again without a cursor.",
      );
    });

    it('lists no task whose retention is over', async () => {
      const tasks = await store({ retentionMs: 300, leaseMs: 600 });
      const a = `alice-${Math.random()}`;
      const ended = await tasks.create({ toolName: 'old', subject: a });
      await ended.complete({ content: [] });
      await sleep(450);
      const kept = await tasks.create({ toolName: 'new', subject: a });
      expect((await tasks.list(a)).tasks.map((task) => task.taskId)).toEqual([kept.task.taskId]);
    });

    it('keeps a result for the retention after it was written, then it is gone', async () => {
      const tasks = await store({ retentionMs: 400, leaseMs: 600 });
      const running = await tasks.create({ toolName: 't' });
      // A task that runs longer than its retention (and its lease and retention together, for a
      // store with leases, whose renewals must push the expiry on) is not dropped while it runs.
      await sleep(kind.leases ? 1_300 : 600);
      expect((await tasks.get(running.task.taskId))?.status).toBe('working');
      const done = await running.complete({ ok: 1 });
      expect(done.ok).toBe(true);
      const ended = Date.now();
      expect(done.ok && Date.parse(done.task.createdAt) + done.task.ttlMs).toBeGreaterThanOrEqual(ended + 300);
      expect((await tasks.get(running.task.taskId))?.result).toEqual({ ok: 1 });
      await eventually(async () => (await tasks.get(running.task.taskId)) === undefined, 3_000);
      expect(Date.now() - ended).toBeGreaterThanOrEqual(350);
      expect(refused(await tasks.complete(running.task.taskId, { again: 1 })).reason).toBe('not-found');
    });

    it("takes the client's TTL, clamped to the maximum retention", async () => {
      const tasks = await store({ retentionMs: 10_000, maxRetentionMs: 20_000, leaseMs: 1_000 });
      const short = await tasks.create({ toolName: 't', ttlMs: 5_000 });
      const long = await tasks.create({ toolName: 't', ttlMs: 10_000_000 });
      const shortDone = await short.complete({});
      const longDone = await long.complete({});
      const kept = (outcome: TaskTransition) =>
        outcome.ok
          ? Date.parse(outcome.task.createdAt) + outcome.task.ttlMs - Date.parse(outcome.task.lastUpdatedAt)
          : 0;
      expect(kept(shortDone)).toBe(5_000);
      expect(kept(longDone)).toBe(20_000);
    });

    it('drain finishes what ends in time, fails the rest with the reason, and creates nothing after', async () => {
      const tasks = await store();
      const quick = await tasks.create({ toolName: 'quick' });
      const stuck = await tasks.create({ toolName: 'stuck' });
      setTimeout(() => void quick.complete({ done: true }), 50);
      const report = await tasks.drain({ deadlineMs: 400, reason: 'SIGTERM' });
      expect(report).toEqual({ finished: 1, failed: 1 });
      expect((await tasks.get(quick.task.taskId))?.status).toBe('completed');
      const failed = await tasks.get(stuck.task.taskId);
      expect(failed?.status).toBe('failed');
      expect(failed?.statusMessage).toMatch(/shut down before the task finished \(SIGTERM\)/);
      expect(failed?.error?.code).toBe(-32603);
      expect(stuck.signal.aborted).toBe(true);
      expect((stuck.signal.reason as TaskAbortedError).kind).toBe('drained');
      expect(refused(await stuck.complete({ late: true })).reason).toBe('terminal');
      const error = await tasks.create({ toolName: 't' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TaskStoreError);
      expect((error as TaskStoreError).code).toBe('TASK_STORE_CLOSED');
      expect((error as Error).message).toMatch(/draining or closed.*another replica/);
    });
  });
}
