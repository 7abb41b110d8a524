import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BearerAuthOptions } from '../../src/mcp/auth.js';
import type { ServeHttpOptions } from '../../src/mcp/http.js';
import type { ToolOrchestrator } from '../../src/orchestrator.js';
import type { Io } from './io.js';
import { wholeNumber, wholeNumberWanted } from './numbers.js';

/** The flags of `serve --http` (each also read from its `TOOLSMITH_*` environment variable, see the README). */
export type ServeHttpFlags = Pick<ServeHttpOptions, 'host' | 'port' | 'maxBodyBytes'> & {
  auth?: boolean;
  authIssuer?: string;
  authResource?: string;
  authJwks?: string;
  scopeMap?: string;
  requiredScope?: string[];
  allowedOrigin?: string[];
  requestTimeout?: number;
  drainTimeout?: number;
};

/**
 * What `serve` serves as, over either transport: the server's name and version, the persona and its
 * capabilities, the tool list of its profile and the host-injected arguments it takes out of calls.
 */
export type ServedAs = Pick<
  ServeHttpOptions,
  | 'name'
  | 'version'
  | 'personaId'
  | 'capabilities'
  | 'pageSize'
  | 'taskStore'
  | 'listedTools'
  | 'injectedArguments'
  | 'toolFailureMeta'
>;

/**
 * `serve --http`: serves `orchestrator` over stateless MCP Streamable HTTP until SIGTERM/SIGINT,
 * then drains; resolves to the exit code (0 after a drain, 1 for a setup mistake, printed).
 * Auth is on unless `--no-auth`; its settings come from the flags or the environment.
 */
export async function runServeHttp(
  orchestrator: ToolOrchestrator,
  flags: ServeHttpFlags,
  { capabilities, ...served }: ServedAs,
  io: Pick<Io, 'stderr' | 'cwd'>,
): Promise<number> {
  const fail = async (message: string) => {
    io.stderr(`toolsmith serve: ${message}\n`);
    await orchestrator.shutdown();
    return 1;
  };
  const env = process.env;
  const port = chosenPort(flags.port, env);
  if (typeof port === 'object') return fail(port.error);
  const auth = flags.auth === false ? undefined : bearerAuth(flags, env, io.cwd);
  if (typeof auth === 'string') return fail(auth);
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
      onError: (error) => io.stderr(`toolsmith serve: ${error.message}\n`),
    });
  } catch (error) {
    return fail((error as Error).message);
  }
  const how = auth === undefined ? 'no auth: loopback only' : `bearer tokens from ${auth.issuer}`;
  io.stderr(`toolsmith serve: MCP at ${server.url} (stateless Streamable HTTP, ${how}); health at /healthz\n`);
  const result = await server.done;
  io.stderr(
    `toolsmith serve: ${result.reason}: drained ${result.completed} request${result.completed === 1 ? '' : 's'} ` +
      `in flight, ${result.abandoned} aborted at the deadline.\n`,
  );
  for (const failure of result.shutdown.errors)
    io.stderr(`toolsmith serve: tool '${failure.toolName}' failed to shut down: ${failure.message}\n`);
  return 0;
}

/** The bearer-token auth of `serve --http` from its flags, else the environment; what is missing, as a sentence. */
function bearerAuth(flags: ServeHttpFlags, env: NodeJS.ProcessEnv, cwd: string): BearerAuthOptions | string {
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
  if (scopeCapabilities instanceof Error) return scopeCapabilities.message;
  return {
    issuer,
    resource,
    jwks: /^https?:\/\//i.test(jwks) ? jwks : path.resolve(cwd, jwks),
    scopeCapabilities,
    requiredScopes:
      flags.requiredScope ?? env.TOOLSMITH_AUTH_REQUIRED_SCOPES?.split(/[\s,]+/).filter((scope) => scope !== '') ?? [],
  };
}

/** A scope map file: `{ "scope": ["capability", …], … }`. */
function readScopeMap(file: string): Map<string, string[]> | Error {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return new Error(`the scope map ${file} could not be read as JSON (${(error as Error).message}).`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return new Error(`the scope map ${file} must be an object { "scope": ["capability", …] }.`);
  const map = new Map<string, string[]>();
  for (const [scope, capabilities] of Object.entries(value)) {
    if (!Array.isArray(capabilities) || !capabilities.every((item) => typeof item === 'string')) {
      return new Error(`the scope map ${file}: "${scope}" must be an array of capability strings.`);
    }
    map.set(scope, capabilities);
  }
  return map;
}

/** The port: `--port`, else TOOLSMITH_PORT, else PORT; what is wrong when the variable is not a port. */
function chosenPort(flag: number | undefined, env: NodeJS.ProcessEnv): number | undefined | { error: string } {
  if (flag !== undefined) return flag;
  const name = env.TOOLSMITH_PORT !== undefined ? 'TOOLSMITH_PORT' : env.PORT !== undefined ? 'PORT' : undefined;
  if (name === undefined) return undefined;
  return wholeNumber(env[name]!) ?? { error: `${name} must be a port, ${wholeNumberWanted(0)}; got '${env[name]}'.` };
}
