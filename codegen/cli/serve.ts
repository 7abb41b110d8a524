/**
 * `serve`: the project's tools as an MCP server over stdio, or over Streamable HTTP with `--http`, its
 * orchestrator loaded as `call` loads it (./call.ts) and its task store opened when a tool needs one.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BearerAuthOptions } from '../../src/mcp/auth.js';
import type { ServeHttpOptions } from '../../src/mcp/http.js';
import type { ServeStdioOptions } from '../../src/mcp/stdio.js';
import type { McpToolEntry } from '../../src/mcp/tool.js';
import type { ShutdownReport, ToolOrchestrator } from '../../src/orchestrator.js';
import type { TaskStore } from '../../src/tasks/index.js';
import { GENERATOR_VERSION } from '../model.js';
import { openProject, type ProjectFlags } from './call.js';
import { defaultIo, EXIT, plural, type Io } from './io.js';
import { wholeNumber, wholeNumberWanted } from './numbers.js';

/** The flags of `serve`; those of `--http` are also read from their `TOOLSMITH_*` environment variables (see the README). */
export interface ServeFlags extends ProjectFlags {
  profile?: 'exact' | 'portable';
  toolFailureMeta?: boolean;
  pageSize?: number;
  maxMessageBytes?: number;
  shutdownTimeout?: number;
  taskStore?: string;
  taskStoreAcceptEviction?: boolean;
  taskInputWait?: number;
  taskMaxInputWaiting?: number;
  http?: boolean;
  host?: string;
  port?: number;
  auth?: boolean;
  authIssuer?: string;
  authResource?: string;
  authJwks?: string;
  scopeMap?: string;
  requiredScope?: string[];
  allowedOrigin?: string[];
  maxBodyBytes?: number;
  requestTimeout?: number;
  drainTimeout?: number;
}

/**
 * `serve`: an MCP server for the project's tools, over stdio until the client disconnects or the
 * process gets SIGINT/SIGTERM, or over HTTP until SIGTERM/SIGINT. Stdout carries only protocol
 * messages; problems go to stderr.
 */
export async function runServe(flags: ServeFlags, io: Io = defaultIo): Promise<number> {
  const project = await openProject(flags, 'serve', io);
  if (project === undefined) return EXIT.invalid;
  const { orchestrator, config } = project;
  const profile = flags.profile ?? config.manifests?.servedProfile ?? 'exact';
  const listedTools = profile === 'portable' ? portableTools(project.outDir) : undefined;
  if (typeof listedTools === 'string') return refuse(listedTools, orchestrator, io);
  const taskStore = await openServeTaskStore(orchestrator, flags, io);
  if (typeof taskStore === 'string') return refuse(taskStore, orchestrator, io);
  const served = {
    version: GENERATOR_VERSION,
    capabilities: flags.capability ?? config.capabilities ?? [],
    pageSize: flags.pageSize,
    taskStore,
    listedTools,
    injectedArguments: config.injectedArguments,
    toolFailureMeta: flags.toolFailureMeta ?? config.toolFailureMeta ?? false,
    onError: (error: Error) => io.stderr(`toolsmith serve: ${error.message}\n`),
  };
  try {
    return flags.http
      ? await runServeHttp(orchestrator, flags, { ...served, personaId: flags.persona }, io)
      : await serveOverStdio(orchestrator, flags, { ...served, persona: { personaId: flags.persona } }, io);
  } finally {
    await taskStore?.close().catch(() => {});
  }
}

/** A server that cannot start: `message` on stderr, the orchestrator shut down, exit 1. */
async function refuse(message: string, orchestrator: ToolOrchestrator, io: Pick<Io, 'stderr'>) {
  io.stderr(`toolsmith serve: ${message}\n`);
  await orchestrator.shutdown();
  return EXIT.invalid;
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
 * server announces no tasks. `undefined` when neither; why, when it cannot open.
 */
async function openServeTaskStore(
  orchestrator: ToolOrchestrator,
  flags: ServeFlags,
  io: Io,
): Promise<TaskStore | undefined | string> {
  const { hasTaskCapableTool } = await import('../../src/mcp/tasks.js');
  const named = flags.taskStore ?? process.env.TOOLSMITH_TASK_STORE;
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
    return (error as Error).message;
  }
  if (store.warning !== undefined) io.stderr(`toolsmith serve: warning: ${store.warning}\n`);
  if (!needed) {
    const source = flags.taskStore === undefined ? 'TOOLSMITH_TASK_STORE' : '--task-store';
    io.stderr(
      `toolsmith serve: warning: ${source} names a task store (${store.location}), but no tool has taskSupport: ` +
        'the server announces no tasks. Set "taskSupport" in a tool\'s definition, or drop the store.\n',
    );
  }
  return store;
}

/** Says on stderr which tools failed to shut down, and why. */
function reportShutdown(shutdown: ShutdownReport, io: Pick<Io, 'stderr'>): void {
  for (const failure of shutdown.errors)
    io.stderr(`toolsmith serve: tool '${failure.toolName}' failed to shut down: ${failure.message}\n`);
}

/** `serve` over stdio, once its orchestrator and task store are open. */
async function serveOverStdio(
  orchestrator: ToolOrchestrator,
  flags: ServeFlags,
  served: ServeStdioOptions,
  io: Io,
): Promise<number> {
  const { serveStdio } = await import('../../src/mcp/stdio.js');
  const { shutdown } = await serveStdio(orchestrator, {
    ...served,
    maxMessageBytes: flags.maxMessageBytes,
    shutdownTimeoutMs: flags.shutdownTimeout,
  });
  reportShutdown(shutdown, io);
  if (shutdown.errors.some((failure) => (failure.error as { code?: unknown } | undefined)?.code === 'TIMEOUT')) {
    // A tool left running past the deadline may hold the event loop open (a socket, a timer): the
    // client is gone and everything else is closed, so exit once this turn is over.
    setTimeout(() => process.exit(), 0).unref();
  }
  return EXIT.ok;
}

/**
 * `serve --http`: serves `orchestrator` over stateless MCP Streamable HTTP until SIGTERM/SIGINT,
 * then drains; resolves to the exit code (0 after a drain, 1 for a setup mistake, printed).
 * Auth is on unless `--no-auth`; its settings come from the flags or the environment.
 */
async function runServeHttp(
  orchestrator: ToolOrchestrator,
  flags: ServeFlags,
  { capabilities, ...served }: ServeHttpOptions,
  io: Pick<Io, 'stderr' | 'cwd'>,
): Promise<number> {
  const env = process.env;
  const port = chosenPort(flags.port, env);
  if (typeof port === 'string') return refuse(port, orchestrator, io);
  const auth = flags.auth === false ? undefined : bearerAuth(flags, env, io.cwd);
  if (typeof auth === 'string') return refuse(auth, orchestrator, io);
  const { startHttpServer } = await import('../../src/mcp/http.js');
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    server = await startHttpServer(orchestrator, {
      ...served,
      // With auth, the capabilities of a call come from its token's scopes.
      ...(auth === undefined ? { capabilities } : { auth }),
      host: flags.host ?? env.TOOLSMITH_HOST ?? '127.0.0.1',
      port,
      allowedOrigins: flags.allowedOrigin ?? [],
      requestStateKey: env.TOOLSMITH_REQUEST_STATE_KEY,
      maxBodyBytes: flags.maxBodyBytes,
      requestTimeoutMs: flags.requestTimeout,
      drainTimeoutMs: flags.drainTimeout,
    });
  } catch (error) {
    return refuse((error as Error).message, orchestrator, io);
  }
  const how = auth === undefined ? 'no auth: loopback only' : `bearer tokens from ${auth.issuer}`;
  io.stderr(`toolsmith serve: MCP at ${server.url} (stateless Streamable HTTP, ${how}); health at /healthz\n`);
  const result = await server.done;
  io.stderr(
    `toolsmith serve: ${result.reason}: drained ${plural(result.completed, 'request')} ` +
      `in flight, ${result.abandoned} aborted at the deadline.\n`,
  );
  reportShutdown(result.shutdown, io);
  return EXIT.ok;
}
/** The bearer-token auth of `serve --http` from its flags, else the environment; what is missing, as a sentence. */
function bearerAuth(flags: ServeFlags, env: NodeJS.ProcessEnv, cwd: string): BearerAuthOptions | string {
  const issuer = flags.authIssuer ?? env.TOOLSMITH_AUTH_ISSUER;
  const resource = flags.authResource ?? env.TOOLSMITH_AUTH_RESOURCE;
  const jwks = flags.authJwks ?? env.TOOLSMITH_AUTH_JWKS;
  if (issuer === undefined || resource === undefined || jwks === undefined) {
    const missing = Object.entries({ '--auth-issuer': issuer, '--auth-resource': resource, '--auth-jwks': jwks })
      .filter(([, value]) => value === undefined)
      .map(([flag]) => flag);
    return (
      `--http needs bearer-token auth: give ${missing.join(', ')} (or TOOLSMITH_AUTH_ISSUER, TOOLSMITH_AUTH_RESOURCE, ` +
      `TOOLSMITH_AUTH_JWKS), or --no-auth to serve on loopback only.`
    );
  }
  const scopeMapFile = flags.scopeMap ?? env.TOOLSMITH_AUTH_SCOPE_MAP;
  const scopeCapabilities = scopeMapFile === undefined ? new Map() : readScopeMap(path.resolve(cwd, scopeMapFile));
  if (typeof scopeCapabilities === 'string') return scopeCapabilities;
  return {
    issuer,
    resource,
    jwks: /^https?:\/\//i.test(jwks) ? jwks : path.resolve(cwd, jwks),
    scopeCapabilities,
    requiredScopes:
      flags.requiredScope ?? env.TOOLSMITH_AUTH_REQUIRED_SCOPES?.split(/[\s,]+/).filter((scope) => scope !== '') ?? [],
  };
}

/** A scope map file: `{ "scope": ["capability", …], … }`; what is wrong with it, as a sentence. */
function readScopeMap(file: string): Map<string, string[]> | string {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return `the scope map ${file} could not be read as JSON (${(error as Error).message}).`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `the scope map ${file} must be an object { "scope": ["capability", …] }.`;
  const map = new Map<string, string[]>();
  for (const [scope, capabilities] of Object.entries(value)) {
    if (!Array.isArray(capabilities) || !capabilities.every((item) => typeof item === 'string')) {
      return `the scope map ${file}: "${scope}" must be an array of capability strings.`;
    }
    map.set(scope, capabilities);
  }
  return map;
}

/** The port: `--port`, else TOOLSMITH_PORT, else PORT; what is wrong when the variable is not a port. */
function chosenPort(flag: number | undefined, env: NodeJS.ProcessEnv): number | undefined | string {
  if (flag !== undefined) return flag;
  const name = env.TOOLSMITH_PORT !== undefined ? 'TOOLSMITH_PORT' : env.PORT !== undefined ? 'PORT' : undefined;
  if (name === undefined) return undefined;
  return wholeNumber(env[name]!) ?? `${name} must be a port, ${wholeNumberWanted(0)}; got '${env[name]}'.`;
}
