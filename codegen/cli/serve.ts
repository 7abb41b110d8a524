/**
 * `serve`: the project's tools as an MCP server over stdio, or over Streamable HTTP (./serve-http.ts),
 * its orchestrator loaded as `call` loads it (./call.ts) and its task store opened when a tool needs one.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServeStdioOptions } from '../../src/mcp/stdio.js';
import type { McpToolEntry } from '../../src/mcp/tool.js';
import type { ToolOrchestrator } from '../../src/orchestrator.js';
import type { TaskStore } from '../../src/tasks/index.js';
import { GENERATOR_VERSION } from '../model.js';
import { openProject, type ProjectFlags } from './call.js';
import { defaultIo, EXIT, type Io } from './io.js';
import { runServeHttp, type ServedAs, type ServeHttpFlags } from './serve-http.js';

/**
 * `serve`: an MCP server over stdio for the project's tools, until the client disconnects or the
 * process gets SIGINT/SIGTERM. Stdout carries only protocol messages; problems go to stderr.
 */
export async function runServe(
  flags: ProjectFlags &
    ServeHttpFlags &
    Pick<ServeStdioOptions, 'maxMessageBytes' | 'pageSize'> & {
      capability?: string[];
      persona?: string;
      shutdownTimeout?: number;
      taskStore?: string;
      taskStoreAcceptEviction?: boolean;
      taskInputWait?: number;
      taskMaxInputWaiting?: number;
      http?: boolean;
      profile?: 'exact' | 'portable';
      toolFailureMeta?: boolean;
    },
  io: Io = defaultIo,
): Promise<number> {
  const project = await openProject(flags, 'serve', io);
  if (project === undefined) return EXIT.invalid;
  const { orchestrator, config } = project;
  const profile = flags.profile ?? config.manifests?.servedProfile ?? 'exact';
  const listedTools = profile === 'portable' ? portableTools(project.outDir) : undefined;
  if (typeof listedTools === 'string') {
    io.stderr(`toolsmith serve: ${listedTools}\n`);
    await orchestrator.shutdown();
    return EXIT.invalid;
  }
  const taskStore = await openServeTaskStore(orchestrator, flags, io);
  if (taskStore === null) {
    await orchestrator.shutdown();
    return EXIT.invalid;
  }
  const served: ServedAs = {
    name: 'toolsmith',
    version: GENERATOR_VERSION,
    capabilities: flags.capability ?? config.capabilities ?? [],
    personaId: flags.persona ?? 'mcp',
    pageSize: flags.pageSize,
    taskStore,
    listedTools,
    injectedArguments: config.injectedArguments,
    toolFailureMeta: flags.toolFailureMeta ?? config.toolFailureMeta ?? false,
  };
  try {
    return flags.http
      ? await runServeHttp(orchestrator, flags, served, io)
      : await serveOverStdio(orchestrator, flags, served, io);
  } finally {
    await taskStore?.close().catch(() => {});
  }
}

/**
 * The tool list of the portable profile, `<out>/manifests/mcp-portable.json`'s, served as it is; a
 * sentence saying what to do when it is missing.
 */
function portableTools(outDir: string): McpToolEntry[] | string {
  const file = path.join(outDir, 'manifests', 'mcp-portable.json');
  if (!existsSync(file))
    return `--profile portable serves ${file}, which is missing: set "manifests.servedProfile": "portable" in the config (or add mcp-portable to manifests.targets) and run toolsmith generate.`;
  return (JSON.parse(readFileSync(file, 'utf8')) as { tools: McpToolEntry[] }).tools;
}

/**
 * The task store of `serve`: opened when a tool has `taskSupport` (`--task-store`, else
 * `TOOLSMITH_TASK_STORE`, else `memory`), or when a store is named though no tool needs one — then it
 * is opened all the same, so a bad URL or an unreachable Redis shows at start, and a warning says the
 * server announces no tasks. `undefined` when neither; `null` (after the message) when it cannot open.
 */
async function openServeTaskStore(
  orchestrator: ToolOrchestrator,
  flags: Parameters<typeof runServe>[0],
  io: Io,
): Promise<TaskStore | undefined | null> {
  const { hasTaskCapableTool } = await import('../../src/mcp/tasks.js');
  const flag = flags.taskStore;
  const named = flag ?? process.env.TOOLSMITH_TASK_STORE;
  const needed = hasTaskCapableTool(orchestrator);
  if (named === undefined && !needed) return undefined;
  // Tasks of task-capable tools live in memory (one process) or in Redis (replicas).
  const { openTaskStore } = await import('../../src/tasks/index.js');
  let store: TaskStore;
  try {
    store = await openTaskStore(named ?? 'memory', {
      acceptEviction: flags.taskStoreAcceptEviction === true,
      inputWaitMs: flags.taskInputWait,
      maxInputWaiting: flags.taskMaxInputWaiting,
    });
  } catch (error) {
    io.stderr(`toolsmith serve: ${(error as Error).message}\n`);
    return null;
  }
  if (store.warning !== undefined) io.stderr(`toolsmith serve: warning: ${store.warning}\n`);
  if (!needed) {
    const source = flag === undefined ? 'TOOLSMITH_TASK_STORE' : '--task-store';
    io.stderr(
      `toolsmith serve: warning: ${source} names a task store (${store.location}), but no tool has taskSupport: ` +
        'the server announces no tasks. Set "taskSupport" in a tool\'s definition, or drop the store.\n',
    );
  }
  return store;
}

/** `serve` over stdio, once its orchestrator and task store are open. */
async function serveOverStdio(
  orchestrator: ToolOrchestrator,
  flags: Parameters<typeof runServe>[0],
  served: ServedAs,
  io: Io,
): Promise<number> {
  const { serveStdio } = await import('../../src/mcp/stdio.js');
  const { personaId, ...server } = served;
  const { shutdown } = await serveStdio(orchestrator, {
    ...server,
    persona: { personaId },
    onError: (error) => io.stderr(`toolsmith serve: ${error.message}\n`),
    maxMessageBytes: flags.maxMessageBytes,
    shutdownTimeoutMs: flags.shutdownTimeout,
  });
  for (const failure of shutdown.errors)
    io.stderr(`toolsmith serve: tool '${failure.toolName}' failed to shut down: ${failure.message}\n`);
  if (shutdown.errors.some((failure) => (failure.error as { code?: unknown } | undefined)?.code === 'TIMEOUT')) {
    // A tool left running past the deadline may hold the event loop open (a socket, a timer): the
    // client is gone and everything else is closed, so exit once this turn is over.
    setTimeout(() => process.exit(), 0).unref();
  }
  return EXIT.ok;
}
