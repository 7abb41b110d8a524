import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isSpecType } from '@modelcontextprotocol/server';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { type ITool, ToolOrchestrator } from '../../../src/index.js';
import { startHttpServer } from '../../../src/mcp/http.js';
import { createMcpServer, type McpServerOptions } from '../../../src/mcp/server.js';
import { hasTaskCapableTool } from '../../../src/mcp/tasks.js';
import { MemoryTaskStore, TASKS_EXTENSION_ID, type TaskStore } from '../../../src/tasks/index.js';
import { jsonRpcAnswer, mcpRequest } from '../../helpers/mcp-request.js';
import { makeTool } from '../helpers.js';

/*
 * The 2025-11-25 task methods beyond get/result/cancel, through the real v1 client (1.32.2):
 * `tasks/list` (the caller's tasks only, in pages, offered only where callers are told apart) and
 * `notifications/tasks/status` (sent on a connection that outlives the request; never over HTTP).
 */

/** Works `ms` milliseconds or until its signal fires; answers its tag. */
const slow: ITool = makeTool('slow', {
  inputSchema: {
    type: 'object',
    required: ['ms', 'tag'],
    properties: { ms: { type: 'integer' }, tag: { type: 'string' } },
  },
  taskSupport: 'optional',
  async execute(args: { ms: number; tag: string }, context: { signal?: AbortSignal }) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, args.ms);
      context.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return { success: true, output: { tag: args.tag } };
  },
});

const stores: TaskStore[] = [];
const clients: ClientV1[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

function memoryStore(): MemoryTaskStore {
  const store = new MemoryTaskStore();
  stores.push(store);
  return store;
}

/** A v1 client (2025-11-25 handshake) connected in memory to a server of `orchestrator` with `options`. */
async function connect(
  orchestrator: ToolOrchestrator,
  options: McpServerOptions,
  capabilities: Record<string, unknown> = { tasks: {} },
  before?: (client: ClientV1) => void,
): Promise<ClientV1> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(orchestrator, options).connect(serverSide as never);
  const client = new ClientV1({ name: 'task-methods', version: '1' }, { capabilities });
  before?.(client);
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

/** `slow` called as a task (2025-11-25 `params.task`); the task id. */
async function startSlow(client: ClientV1, tag: string, ms = 10): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'slow', arguments: { ms, tag }, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  return created.task.taskId;
}

describe('hasTaskCapableTool', () => {
  it('follows the registry: a task-capable tool registered later counts, and stops counting once unregistered', async () => {
    const plain = makeTool('plain', { inputSchema: { type: 'object', properties: {} } });
    const orchestrator = new ToolOrchestrator({ tools: [plain] });
    expect(hasTaskCapableTool(orchestrator)).toBe(false);
    await orchestrator.registerTool(slow);
    expect(hasTaskCapableTool(orchestrator)).toBe(true);
    await orchestrator.unregisterTool('slow');
    expect(hasTaskCapableTool(orchestrator)).toBe(false);
  });
});

describe('tasks/list (2025-11-25)', () => {
  it("lists the caller's own tasks only, with tasks.list announced", async () => {
    const orchestrator = new ToolOrchestrator({ tools: [slow] });
    const store = memoryStore();
    const as = (userId: string) =>
      connect(orchestrator, { taskStore: store, taskListing: true, persona: { userContext: { userId } } });
    const [alice, bob] = await Promise.all([as('alice'), as('bob')]);
    expect(alice.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {} });
    const aliceTasks = [await startSlow(alice, 'a1'), await startSlow(alice, 'a2')];
    const bobTask = await startSlow(bob, 'b1');
    const listed = await alice.experimental.tasks.listTasks();
    expect(isSpecType.ListTasksResult(listed)).toBe(true);
    expect(listed.tasks.map((task) => task.taskId)).toEqual(aliceTasks);
    expect(listed.nextCursor).toBeUndefined();
    expect((await bob.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual([bobTask]);
    await expect(alice.experimental.tasks.listTasks('m-nonsense')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Task list cursor 'm-nonsense' is not one this task store handed out"),
    });
  });

  it('follows nextCursor across pages to every task, each once', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [slow] });
    const store = memoryStore();
    const client = await connect(orchestrator, { taskStore: store, taskListing: true });
    const made: string[] = [];
    for (let i = 0; i < 53; i++) made.push(await startSlow(client, `t${i}`, 1));
    const first = await client.experimental.tasks.listTasks();
    expect(first.tasks).toHaveLength(50);
    expect(first.nextCursor).toBeDefined();
    const second = await client.experimental.tasks.listTasks(first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    expect([...first.tasks, ...second.tasks].map((task) => task.taskId)).toEqual(made);
  });

  it('is refused -32601, and tasks.list not announced, where callers are not told apart', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [slow] });
    const client = await connect(orchestrator, { taskStore: memoryStore() });
    const tasks = client.getServerCapabilities()?.tasks as Record<string, unknown> | undefined;
    expect(tasks).toMatchObject({ cancel: {} });
    expect(tasks?.list).toBeUndefined();
    await expect(client.experimental.tasks.listTasks()).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining('tasks/list is not offered here: this server cannot tell its callers apart'),
    });
  });
});

describe('tasks/list over HTTP (2025-11-25, stateless)', () => {
  it("with auth: each token's subject lists its own tasks; without auth: refused", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-task-list-'));
    const pair = await generateKeyPair('ES256');
    const jwks = path.join(folder, 'jwks.json');
    writeFileSync(
      jwks,
      JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k', alg: 'ES256', use: 'sig' }] }),
    );
    const issuer = 'https://auth.test.example/';
    const resource = 'https://tools.test.example/mcp';
    const token = (sub: string) =>
      new SignJWT({ sub, scope: 'tools' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k' })
        .setIssuer(issuer)
        .setAudience(resource)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(pair.privateKey);
    const orchestrator = new ToolOrchestrator({ tools: [slow] });
    const store = memoryStore();
    const authed = await startHttpServer(orchestrator, {
      port: 0,
      taskStore: store,
      handleSignals: false,
      auth: { issuer, resource, jwks },
    });
    const open = await startHttpServer(new ToolOrchestrator({ tools: [slow] }), {
      port: 0,
      taskStore: store,
      handleSignals: false,
    });
    const as = async (url: string, sub?: string) => {
      const client = new ClientV1({ name: 'task-list-http', version: '1' }, { capabilities: { tasks: {} } });
      const headers = sub === undefined ? undefined : { Authorization: `Bearer ${await token(sub)}` };
      await client.connect(
        new HttpTransportV1(new URL(url), headers === undefined ? {} : { requestInit: { headers } }),
      );
      clients.push(client);
      return client;
    };
    try {
      const [alice, bob, anyone] = await Promise.all([as(authed.url, 'alice'), as(authed.url, 'bob'), as(open.url)]);
      expect(alice.getServerCapabilities()?.tasks).toMatchObject({ list: {} });
      expect(anyone.getServerCapabilities()?.tasks).toMatchObject({ cancel: {} });
      expect(anyone.getServerCapabilities()?.tasks).not.toHaveProperty('list');
      const aliceTask = await startSlow(alice, 'a');
      const bobTask = await startSlow(bob, 'b');
      expect((await alice.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual([aliceTask]);
      expect((await bob.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual([bobTask]);
      await expect(anyone.experimental.tasks.listTasks()).rejects.toMatchObject({ code: -32601 });
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await Promise.all([authed.close(), open.close()]);
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('notifications/tasks/status (2025-11-25)', () => {
  it('tells a client on a lasting connection when its task completes, and when one is cancelled', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [slow] });
    const client = await connect(orchestrator, { taskStore: memoryStore() });
    const heard: unknown[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => void heard.push(notification));
    const done = await startSlow(client, 'done', 20);
    const cancelled = await startSlow(client, 'cancelled', 10_000);
    await client.experimental.tasks.cancelTask(cancelled);
    const until = Date.now() + 5_000;
    while (heard.length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard.every((notification) => isSpecType.TaskStatusNotification(notification))).toBe(true);
    const statuses = (heard as { params: { taskId: string; status: string } }[]).map(({ params }) => [
      params.taskId,
      params.status,
    ]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        [done, 'completed'],
        [cancelled, 'cancelled'],
      ]),
    );
    expect(statuses).toHaveLength(2);
  });

  it('is not sent over stateless HTTP, whose request stream ended with the task handle', async () => {
    const errors: Error[] = [];
    const orchestrator = new ToolOrchestrator({ tools: [slow] });
    const store = memoryStore();
    const http = await startHttpServer(orchestrator, {
      port: 0,
      taskStore: store,
      handleSignals: false,
      onError: (error) => errors.push(error),
    });
    const client = new ClientV1({ name: 'task-http', version: '1' }, { capabilities: { tasks: {} } });
    try {
      await client.connect(new HttpTransportV1(new URL(http.url)));
      const heard: unknown[] = [];
      client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => void heard.push(notification));
      const taskId = await startSlow(client, 'http', 20);
      let status = 'working';
      const until = Date.now() + 5_000;
      while (status === 'working' && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await client.experimental.tasks.getTask(taskId)).status;
      }
      expect(status).toBe('completed');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
      await http.close();
    }
  });
});

/** Asks the user to pick a or b (when it can ask) and answers the pick, or 'nobody asked'. */
const picker: ITool = makeTool('picker', {
  inputSchema: { type: 'object', properties: {} },
  taskSupport: 'optional',
  async execute(
    _args: unknown,
    context: { elicit?: (request: unknown) => Promise<{ action: string; content?: { choice?: string } }> },
  ) {
    if (context.elicit === undefined) return { success: true, output: { picked: 'nobody asked' } };
    const answer = await context.elicit({
      message: 'Pick one',
      requestedSchema: {
        type: 'object',
        properties: { choice: { type: 'string', enum: ['a', 'b'] } },
        required: ['choice'],
      },
    });
    return { success: true, output: { picked: answer.action === 'accept' ? answer.content?.choice : answer.action } };
  },
});

/** Asks the client's model for a one-word summary (when it can sample) and answers it, or 'no model'. */
const summarizer: ITool = makeTool('summarizer', {
  inputSchema: { type: 'object', properties: {} },
  taskSupport: 'optional',
  async execute(
    _args: unknown,
    context: { sample?: (request: unknown) => Promise<{ content: { text?: string }; model: string }> },
  ) {
    if (context.sample === undefined) return { success: true, output: { summary: 'no model' } };
    const answer = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarize in one word.' } }],
      maxTokens: 5,
    });
    return { success: true, output: { summary: answer.content.text, model: answer.model } };
  },
});

/** `picker` called as a task; the task id. */
async function startPicker(client: ClientV1): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'picker', arguments: {}, task: {} } },
    CreateTaskResultSchema,
  );
  return created.task.taskId;
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a task that asks its user (2025-11-25, lasting connection): input_required', () => {
  it('goes input_required, asks with the related task, resumes working with the answer and completes', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [picker] });
    const heard: { status: string; statusMessage?: string }[] = [];
    const asked: Record<string, unknown>[] = [];
    let statusWhileAsked: string | undefined;
    let client!: ClientV1;
    client = await connect(orchestrator, { taskStore: memoryStore() }, { tasks: {}, elicitation: {} }, (early) => {
      early.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params as Record<string, unknown>);
        const taskId = (request.params._meta as Record<string, { taskId: string }>)[
          'io.modelcontextprotocol/related-task'
        ]!.taskId;
        statusWhileAsked = (await client.experimental.tasks.getTask(taskId)).status;
        return { action: 'accept', content: { choice: 'b' } };
      });
    });
    client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => void heard.push(notification.params));
    const taskId = await startPicker(client);
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.structuredContent ?? JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      picked: 'b',
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      message: 'Pick one',
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    expect(statusWhileAsked).toBe('input_required');
    await until(() => heard.length >= 3);
    expect(heard.map((each) => each.status)).toEqual(['input_required', 'working', 'completed']);
    expect(heard[0]?.statusMessage).toBe('Waiting for the user: Pick one');
  });

  it('a side-effect tool no gate decides asks its approval with elicitation/create on the related task', async () => {
    let runs = 0;
    const publish = makeTool('publish', {
      inputSchema: { type: 'object', properties: {} },
      taskSupport: 'optional',
      hasSideEffects: true,
      async execute() {
        runs++;
        return { success: true, output: { published: true } };
      },
    });
    const asked: string[] = [];
    let approve = true;
    const client = await connect(
      new ToolOrchestrator({ tools: [publish] }),
      { taskStore: memoryStore() },
      { tasks: {}, elicitation: {} },
      (early) => {
        early.setRequestHandler(ElicitRequestSchema, async (request) => {
          asked.push(request.params.message);
          return { action: 'accept', content: { approve } };
        });
      },
    );
    const run = async () => {
      const created = await client.request(
        { method: 'tools/call', params: { name: 'publish', arguments: {}, task: {} } },
        CreateTaskResultSchema,
      );
      return client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    };
    expect((await run()).isError).not.toBe(true);
    expect(runs).toBe(1);
    approve = false;
    const denied = await run();
    expect(denied.isError).toBe(true);
    expect((denied.content[0] as { text: string }).text).toMatch(/^APPROVAL_REJECTED/);
    expect(runs).toBe(1);
    expect(asked).toEqual([expect.stringMatching(/^Allow the tool 'publish' to run\?/), expect.any(String)]);
  });

  it('a task that asks for a model call sends sampling/createMessage with the related task', async () => {
    const asked: Record<string, unknown>[] = [];
    const client = await connect(
      new ToolOrchestrator({ tools: [summarizer] }),
      { taskStore: memoryStore() },
      { tasks: {}, sampling: {} },
      (early) => {
        early.setRequestHandler(CreateMessageRequestSchema, async (request) => {
          asked.push(request.params as Record<string, unknown>);
          return { role: 'assistant', content: { type: 'text', text: 'Brief' }, model: 'test-model' };
        });
      },
    );
    const created = await client.request(
      { method: 'tools/call', params: { name: 'summarizer', arguments: {}, task: {} } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.structuredContent ?? JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      summary: 'Brief',
      model: 'test-model',
    });
    expect(asked).toEqual([
      expect.objectContaining({ maxTokens: 5, _meta: { 'io.modelcontextprotocol/related-task': { taskId } } }),
    ]);
  });

  it('a cancel while the question is open stops the tool; the task reads cancelled', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [picker] });
    let questionOpen = false;
    const client = await connect(
      orchestrator,
      { taskStore: memoryStore() },
      { tasks: {}, elicitation: {} },
      (early) => {
        early.setRequestHandler(ElicitRequestSchema, async (_request, extra) => {
          questionOpen = true;
          // Never answered: the user walked away.
          await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
          return { action: 'cancel' };
        });
      },
    );
    const taskId = await startPicker(client);
    await until(() => questionOpen);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('input_required');
    await client.experimental.tasks.cancelTask(taskId);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
  });

  it('tasks/update, a 2026-07-28 method, is -32601 on 2025-11-25', async () => {
    const client = await connect(new ToolOrchestrator({ tools: [picker] }), { taskStore: memoryStore() });
    const taskId = await startPicker(client);
    await expect(
      client.request(
        { method: 'tasks/update', params: { taskId, inputResponses: { 'elicit-0': { action: 'accept' } } } } as never,
        CreateTaskResultSchema,
      ),
    ).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining('tasks/update is a method of the 2026-07-28'),
    });
  });

  it('a client that cannot elicit: the tool is not given elicit, and the task completes without asking', async () => {
    const orchestrator = new ToolOrchestrator({ tools: [picker] });
    const client = await connect(orchestrator, { taskStore: memoryStore() });
    const taskId = await startPicker(client);
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(JSON.parse((result.content.at(-1) as { text: string }).text)).toEqual({ picked: 'nobody asked' });
  });
});

describe('a task that asks its user (2026-07-28): inputRequests and tasks/update, over stateless HTTP', () => {
  /** One 2026-07-28 request with the tasks extension and the client capabilities `can` (default: elicitation). */
  async function rpc(
    url: string,
    method: string,
    params: Record<string, unknown>,
    can: Record<string, unknown> = { elicitation: {} },
  ): Promise<{ result?: Record<string, any>; error?: { code: number; message: string } }> {
    const request = mcpRequest(method, params, {
      clientCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} }, ...can },
    });
    return jsonRpcAnswer(await (await fetch(url, { method: 'POST', ...request })).text());
  }

  /** `serve --http` in this process with `tools`, on a memory task store. */
  const serveTasks = (tools: ITool[]) =>
    startHttpServer(new ToolOrchestrator({ tools }), { port: 0, taskStore: memoryStore(), handleSignals: false });

  async function pollUntil(url: string, taskId: string, statuses: string[]): Promise<Record<string, any>> {
    const end = Date.now() + 5_000;
    for (;;) {
      const got = (await rpc(url, 'tasks/get', { taskId })).result!;
      if (statuses.includes(got.status) || Date.now() > end) return got;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('the task shows its question in tasks/get; tasks/update answers it; the tool resumes and completes', async () => {
    const http = await serveTasks([picker]);
    try {
      const created = await rpc(http.url, 'tools/call', { name: 'picker', arguments: {} });
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created.result!.taskId as string;
      const waiting = await pollUntil(http.url, taskId, ['input_required']);
      expect(waiting).toMatchObject({
        status: 'input_required',
        statusMessage: 'Waiting for the user: Pick one',
        inputRequests: {
          'elicit-0': {
            method: 'elicitation/create',
            params: { message: 'Pick one', requestedSchema: { properties: { choice: { enum: ['a', 'b'] } } } },
          },
        },
      });
      const wrong = await rpc(http.url, 'tasks/update', {
        taskId,
        inputResponses: { 'elicit-7': { action: 'accept' } },
      });
      expect(wrong.error).toMatchObject({ code: -32602 });
      expect(wrong.error?.message).toContain("asks no 'elicit-7'; its open input requests: elicit-0");
      const updated = await rpc(http.url, 'tasks/update', {
        taskId,
        inputResponses: { 'elicit-0': { action: 'accept', content: { choice: 'a' } } },
      });
      expect(updated.result).toMatchObject({ resultType: 'complete' });
      const done = await pollUntil(http.url, taskId, ['completed', 'failed', 'cancelled']);
      expect(done.status).toBe('completed');
      expect(JSON.parse(done.result.content.at(-1).text)).toEqual({ picked: 'a' });
      const malformed = await rpc(http.url, 'tasks/update', { taskId });
      expect(malformed.error?.code).toBe(-32602);
    } finally {
      await http.close();
    }
  });

  it('an answer outside the form is refused to the tool, which fails; a client that cannot elicit is not asked', async () => {
    const http = await serveTasks([picker]);
    try {
      const created = await rpc(http.url, 'tools/call', { name: 'picker', arguments: {} });
      const taskId = created.result!.taskId as string;
      await pollUntil(http.url, taskId, ['input_required']);
      await rpc(http.url, 'tasks/update', {
        taskId,
        inputResponses: { 'elicit-0': { action: 'accept', content: { choice: 'z' } } },
      });
      const done = await pollUntil(http.url, taskId, ['completed', 'failed', 'cancelled']);
      expect(done.result?.isError).toBe(true);
      expect(done.result?.content[0].text).toMatch(/choice/);
      const plain = await rpc(http.url, 'tools/call', { name: 'picker', arguments: {} }, {});
      const ended = await pollUntil(http.url, plain.result!.taskId as string, ['completed']);
      expect(JSON.parse(ended.result.content.at(-1).text)).toEqual({ picked: 'nobody asked' });
    } finally {
      await http.close();
    }
  });

  it('a side-effect tool no gate decides asks its approval through the task: approved it runs, denied it never does', async () => {
    let runs = 0;
    const publish = makeTool('publish', {
      inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
      taskSupport: 'optional',
      hasSideEffects: true,
      async execute() {
        runs++;
        return { success: true, output: { published: true } };
      },
    });
    const http = await serveTasks([publish]);
    try {
      const answered = async (approve: boolean) => {
        const created = await rpc(http.url, 'tools/call', { name: 'publish', arguments: { title: 'Q3' } });
        const taskId = created.result!.taskId as string;
        const waiting = await pollUntil(http.url, taskId, ['input_required', 'completed', 'failed']);
        expect(waiting.status).toBe('input_required');
        const [key, question] = Object.entries(waiting.inputRequests as Record<string, any>)[0]!;
        expect(question.params.message).toMatch(
          /^Allow the tool 'publish' to run\? It has side effects .*"title":"Q3"/,
        );
        expect(runs).toBe(approve ? 0 : 1);
        await rpc(http.url, 'tasks/update', {
          taskId,
          inputResponses: { [key]: { action: 'accept', content: { approve } } },
        });
        return pollUntil(http.url, taskId, ['completed', 'failed', 'cancelled']);
      };
      const approved = await answered(true);
      expect(approved.status).toBe('completed');
      expect(approved.result.isError).not.toBe(true);
      expect(runs).toBe(1);
      const denied = await answered(false);
      expect(denied.result.isError).toBe(true);
      expect(denied.result.content[0].text).toMatch(/^APPROVAL_REJECTED: .*did not approve/);
      expect(runs).toBe(1);
      // A client that cannot ask: refused at once, never input_required, never run.
      const mute = await rpc(http.url, 'tools/call', { name: 'publish', arguments: {} }, {});
      const ended = await pollUntil(http.url, mute.result!.taskId as string, ['completed', 'failed', 'cancelled']);
      expect(ended.result.isError).toBe(true);
      expect(ended.result.content[0].text).toMatch(/^APPROVAL_/);
      expect(runs).toBe(1);
    } finally {
      await http.close();
    }
  });

  it('a model call is one of its inputRequests; tasks/update answers it; an answer that is no CreateMessageResult fails the tool', async () => {
    const http = await serveTasks([summarizer]);
    const run = async (answer: Record<string, unknown>) => {
      const created = await rpc(http.url, 'tools/call', { name: 'summarizer', arguments: {} }, { sampling: {} });
      const taskId = created.result!.taskId as string;
      const waiting = await pollUntil(http.url, taskId, ['input_required', 'completed', 'failed']);
      expect(waiting).toMatchObject({
        status: 'input_required',
        inputRequests: { 'sample-0': { method: 'sampling/createMessage', params: { maxTokens: 5 } } },
      });
      const updated = await rpc(
        http.url,
        'tasks/update',
        { taskId, inputResponses: { 'sample-0': answer } },
        { sampling: {} },
      );
      expect(updated.result).toMatchObject({ resultType: 'complete' });
      return pollUntil(http.url, taskId, ['completed', 'failed', 'cancelled']);
    };
    try {
      const done = await run({ role: 'assistant', content: { type: 'text', text: 'Brief' }, model: 'm-1' });
      expect(JSON.parse(done.result.content.at(-1).text)).toEqual({ summary: 'Brief', model: 'm-1' });
      const bad = await run({ role: 'assistant', text: 'no content, no model' });
      expect(bad.result.isError).toBe(true);
      expect(bad.result.content[0].text).toMatch(/answer to a model call is not a CreateMessageResult/);
    } finally {
      await http.close();
    }
  });
});
