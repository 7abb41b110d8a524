import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TASKS_EXTENSION_ID } from '../../../src/tasks/index.js';
import { jsonRpcAnswer, mcpRequest } from '../../helpers/mcp-request.js';

/*
 * A `serve --http` replica in its own process, serving the task-capable tools of
 * test/fixtures/tasks/entry.ts from a task store, and the requests the task tests send it.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ENTRY = 'test/fixtures/tasks/entry.ts';

/** A running replica: its process, its MCP URL, and what it printed on stderr. */
export interface Replica {
  child: ChildProcess;
  url: string;
  exit: Promise<number | null>;
  stderr: () => string;
}

/**
 * Starts `serve --http --port 0 --entry <fixture> --task-store <store> ...args` and resolves once it
 * listens; rejects with its stderr when it exits first. `env` is added to this process's.
 */
export async function startReplica(store: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Replica> {
  const child = spawn(
    process.execPath,
    ['bin/toolsmith.js', 'serve', '--http', '--port', '0', '--entry', ENTRY, '--task-store', store, ...args],
    { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 30 s: ${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /MCP at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening: ${stderr}`));
    });
  });
  return { child, url, exit, stderr: () => stderr };
}

/** SIGTERM, then waits for the exit (nothing when it is not running). */
export async function stopReplica(replica: Replica | undefined): Promise<void> {
  if (replica === undefined || replica.child.exitCode !== null) return;
  replica.child.kill('SIGTERM');
  await replica.exit;
}

/**
 * One 2026-07-28 request (the tasks extension declared, with `capabilities`) or a 2025-11-25 one,
 * with a bearer `token` when given; its JSON-RPC answer.
 */
export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  era: '2026-07-28' | '2025-11-25' = '2026-07-28',
  capabilities: Record<string, unknown> = {},
  token?: string,
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const request = mcpRequest(method, params, {
    version: era,
    clientName: 'replicas',
    clientCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} }, ...capabilities },
    ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
  });
  const response = await fetch(url, { method: 'POST', ...request });
  return jsonRpcAnswer(await response.text());
}

/** Reads until `done` holds or `ms` passed; the last value read. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - started > ms) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
