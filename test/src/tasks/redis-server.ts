import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer, type Server, Socket } from 'node:net';

/** How to get `redis-server` when it is missing (the tests fail with this, they never skip). */
export const REDIS_INSTALL_HINT =
  'redis-server is not installed: the Redis task store tests need a real one. Install it with `apt-get update && apt-get install -y redis-server` (Debian/Ubuntu; `brew install redis` on macOS), then run the tests again.';

/** The path of `redis-server`, or an error saying how to install it. */
export function findRedisServer(env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync('/bin/sh', ['-c', 'command -v redis-server'], { encoding: 'utf8', env }).trim();
  } catch {
    throw new Error(REDIS_INSTALL_HINT);
  }
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** A `redis-server` this test file started on its own port, without persistence. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills it (SIGKILL, like a crash) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts a fresh one on the same port (after `kill`). */
  restart(): Promise<void>;
  /** Kills it for good. */
  stop(): Promise<void>;
}

/**
 * Starts `redis-server --port P --save '' --appendonly no` (and `args`, e.g. `--maxmemory 2mb`) on a
 * free port and waits until it answers.
 */
export async function startRedisServer(args: string[] = []): Promise<RedisServer> {
  const binary = findRedisServer();
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    const output: string[] = [];
    const started = spawn(
      binary,
      [
        ...[
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--protected-mode',
          'yes',
        ],
        ...args,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    started.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (started.exitCode !== null || Date.now() > deadline) {
        started.kill('SIGKILL');
        throw new Error(`redis-server did not start on port ${port}:\n${output.join('')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: launch,
    stop: kill,
  };
}

/** True when something on the port answers `PING` with `+PONG`. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (value: boolean) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** A TCP proxy on loopback to a port, whose traffic a test can cut and restore. */
export interface TcpProxy {
  readonly port: number;
  /** `redis://127.0.0.1:<proxy port>`. */
  readonly url: string;
  /** Drops every connection, and each new one at once, until `restore`: the network is gone. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Starts a proxy from a free loopback port to `targetPort`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = new Socket();
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    upstream.connect(targetPort, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const cut = () => {
    open = false;
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    cut,
    restore: () => {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
