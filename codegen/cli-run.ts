import type { CallReporter } from '../src/caller/call-reporting.js';
import { coercionText, feedbackText } from '../src/feedback/render.js';
import type { ToolOrchestrator } from '../src/orchestrator.js';
import type { TaskStore } from '../src/tasks/index.js';
import type { ToolsmithConfig } from './config/config.js';
import { defaultIo, EXIT, options, reportProblems, type CommonFlags, type Io } from './cli-io.js';
import { resolveOptions, type GenerateOptions } from './config/options.js';
import { runServeHttp, type ServeHttpFlags } from './serve-http.js';
import { GENERATOR_VERSION } from './version.js';

/*
 * The commands that run the project's tools (`call`, `serve`): its orchestrator loaded from the
 * entry module or the generated registry, then one call printed as JSON, or an MCP server over stdio
 * or Streamable HTTP (./serve-http.ts).
 */

/**
 * The project's orchestrator for `call` and `serve` (see `entry.ts`: the user's entry module, else
 * the generated registry; TypeScript through tsx, else the built JavaScript). `undefined` after
 * printing what to do when neither can be loaded. Without an entry module (whose orchestrator is the
 * user's decision) a call to a tool with side effects is answered APPROVAL_REJECTED, naming the
 * flag, unless `allowSideEffects` (`--allow-side-effects`): nothing that acts runs unasked.
 */
async function createProjectOrchestrator(
  generateOptions: GenerateOptions,
  entry: string | undefined,
  command: string,
  io: Io,
  allowSideEffects: boolean,
): Promise<import('../src/index.js').ToolOrchestrator | undefined> {
  const { EntryError, loadProjectOrchestrator } = await import('./entry.js');
  const started = command === 'serve' ? 'this server was started' : 'this call was made';
  const again = command === 'serve' ? 'restart it' : 'call again';
  const defaults = allowSideEffects
    ? { allowSideEffects: true }
    : {
        requireApproval: 'side-effects' as const,
        approvalGate: async ({ tool }: { tool: { name: string } }) => ({
          approved: false,
          reason:
            `'${tool.name}' has side effects, and ${started} without a decision about them; ${again} with ` +
            `--allow-side-effects (or an --entry module with an approval gate) to let such tools run.`,
        }),
      };
  try {
    const resolved = resolveOptions(generateOptions);
    return await loadProjectOrchestrator({
      root: resolved.root,
      outDir: resolved.outDir,
      ...(entry === undefined ? {} : { entry }),
      ...(defaults === undefined ? {} : { defaults }),
      allowSideEffects,
      warn: (message) => io.stderr(`toolsmith ${command}: ${message}\n`),
    });
  } catch (error) {
    if (!(error instanceof EntryError)) throw error;
    io.stderr(`toolsmith ${command}: ${error.message}\n`);
    return undefined;
  }
}

/**
 * `serve`: an MCP server over stdio for the project's tools, until the client disconnects or the
 * process gets SIGINT/SIGTERM. Stdout carries only protocol messages; problems go to stderr.
 */
export async function runServe(
  flags: Pick<CommonFlags, 'config' | 'out'> & {
    capability?: string[];
    persona?: string;
    maxMessageBytes?: number;
    shutdownTimeout?: number;
    pageSize?: number;
    taskStore?: string;
    taskStoreAcceptEviction?: boolean;
    taskInputWait?: number;
    taskMaxInputWaiting?: number;
    entry?: string;
    http?: boolean;
    allowSideEffects?: boolean;
  } & ServeHttpFlags,
  io: Io = defaultIo,
): Promise<number> {
  const { options: generateOptions, config, problems } = await options(flags, io);
  if (problems.length > 0) {
    reportProblems(problems, io);
    return EXIT.invalid;
  }
  const { maxMessageBytes, shutdownTimeout: shutdownTimeoutMs, pageSize } = flags;
  const orchestrator = await createProjectOrchestrator(
    generateOptions,
    flags.entry ?? config.entry,
    'serve',
    io,
    flags.allowSideEffects === true,
  );
  if (orchestrator === undefined) return EXIT.invalid;
  const opened = await openServeTaskStore(orchestrator, flags, io);
  if (opened === null) {
    await orchestrator.shutdown();
    return EXIT.invalid;
  }
  try {
    return await serveWith(orchestrator, opened, flags, config, io, {
      pageSize,
      maxMessageBytes,
      shutdownTimeoutMs,
    });
  } finally {
    await opened?.close().catch(() => {});
  }
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
  const { hasTaskCapableTool } = await import('../src/mcp/tasks.js');
  const flag = flags.taskStore;
  const named = flag ?? process.env.TOOLSMITH_TASK_STORE;
  const needed = hasTaskCapableTool(orchestrator);
  if (named === undefined && !needed) return undefined;
  // Tasks of task-capable tools live in memory (one process) or in Redis (replicas).
  const { openTaskStore } = await import('../src/tasks/index.js');
  let store: TaskStore;
  try {
    store = await openTaskStore(named ?? 'memory', {
      acceptEviction: flags.taskStoreAcceptEviction === true,
      ...(flags.taskInputWait === undefined ? {} : { inputWaitMs: flags.taskInputWait }),
      ...(flags.taskMaxInputWaiting === undefined ? {} : { maxInputWaiting: flags.taskMaxInputWaiting }),
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

/** `serve` once its orchestrator and task store are open: over HTTP or stdio. */
async function serveWith(
  orchestrator: ToolOrchestrator,
  taskStore: TaskStore | undefined,
  flags: Parameters<typeof runServe>[0],
  config: ToolsmithConfig,
  io: Io,
  limits: { pageSize: number | undefined; maxMessageBytes: number | undefined; shutdownTimeoutMs: number | undefined },
): Promise<number> {
  const { pageSize, maxMessageBytes, shutdownTimeoutMs } = limits;
  if (flags.http) {
    const settings = {
      ...(taskStore === undefined ? {} : { taskStore }),
      capabilities: flags.capability ?? config.capabilities ?? [],
      personaId: flags.persona ?? 'mcp',
      name: 'toolsmith',
      version: GENERATOR_VERSION,
      ...(pageSize === undefined ? {} : { pageSize }),
    };
    return runServeHttp(orchestrator, flags, settings, io);
  }
  const { serveStdio } = await import('../src/mcp/stdio.js');
  const { shutdown } = await serveStdio(orchestrator, {
    name: 'toolsmith',
    version: GENERATOR_VERSION,
    capabilities: flags.capability ?? config.capabilities ?? [],
    persona: { personaId: flags.persona ?? 'mcp' },
    onError: (error) => io.stderr(`toolsmith serve: ${error.message}\n`),
    ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
    ...(shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs }),
    ...(pageSize === undefined ? {} : { pageSize }),
    ...(taskStore === undefined ? {} : { taskStore }),
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

/** `call`: one tool call through the orchestrator, printed as JSON. */
export async function runCall(
  tool: string,
  json: string | undefined,
  flags: CommonFlags & { capability?: string[]; persona?: string; entry?: string; allowSideEffects?: boolean },
  io: Io = defaultIo,
): Promise<number> {
  const { options: generateOptions, config, problems } = await options(flags, io);
  if (problems.length > 0) {
    reportProblems(problems, io);
    return EXIT.invalid;
  }
  const orchestrator = await createProjectOrchestrator(
    generateOptions,
    flags.entry ?? config.entry,
    'call',
    io,
    flags.allowSideEffects === true,
  );
  if (orchestrator === undefined) return EXIT.invalid;
  // The tool's log messages go to stderr (stdout carries the result); its progress too, on a terminal.
  let progressShown = false;
  const reporter: CallReporter = {
    log: (level, data) => {
      if (progressShown) io.stderr('\n');
      progressShown = false;
      io.stderr(`${tool} ${level}: ${typeof data === 'string' ? data : JSON.stringify(data)}\n`);
    },
  };
  if (io.stderrIsTTY === true)
    reporter.progress = ({ progress, total, message }) => {
      progressShown = true;
      const amount = total === undefined ? String(progress) : `${progress}/${total}`;
      io.stderr(`\r\x1b[2K${tool}: ${amount}${message === undefined ? '' : ` ${message}`}`);
    };
  const result = await orchestrator.processToolCall({
    toolCallRequest: { id: 'cli-call', name: tool, arguments: json ?? '{}' },
    gmiId: 'cli',
    personaId: flags.persona ?? 'cli',
    personaCapabilities: flags.capability ?? config.capabilities ?? [],
    userContext: { userId: 'cli' },
    reporter,
  });
  if (progressShown) io.stderr('\n');
  await orchestrator.shutdown();
  const coerced = coercionText(result);
  if (coerced !== '') io.stderr(`toolsmith call: arguments converted to fit the schema:\n${coerced}\n`);
  if (result.isError) io.stderr(`${feedbackText(result, { maxLength: orchestrator.maxFeedbackLength })}\n`);
  io.stdout(`${JSON.stringify(result, null, 2)}\n`);
  return result.isError ? EXIT.invalid : EXIT.ok;
}
