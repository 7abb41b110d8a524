import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isSpecType } from '@modelcontextprotocol/server';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateTaskResultSchema, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { type ITool, ToolOrchestrator } from '../../../src/index.js';
import { startHttpServer } from '../../../src/mcp/http.js';
import { createMcpServer, type McpServerOptions } from '../../../src/mcp/server.js';
import { MemoryTaskStore, type TaskStore } from '../../../src/tasks/index.js';
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
async function connect(orchestrator: ToolOrchestrator, options: McpServerOptions): Promise<ClientV1> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(orchestrator, options).connect(serverSide as never);
  const client = new ClientV1({ name: 'task-methods', version: '1' }, { capabilities: { tasks: {} } });
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
