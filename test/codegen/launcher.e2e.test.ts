import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchedByNpm } from '../../codegen/cli/launcher.js';

/*
 * `npx --no toolsmith serve --http` stopped by a signal to the npx process, as a process manager stops
 * what it started: npm runs the command under `sh -c`, so the signal stops npm and the shell; the
 * server must notice, drain and exit instead of serving on with ppid 1.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let cache: string;

beforeAll(() => {
  cache = mkdtempSync(path.join(tmpdir(), 'toolsmith-npx-cache-'));
});
afterAll(() => {
  rmSync(cache, { recursive: true, force: true });
});

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

describe('signals through npx', () => {
  it('knows when npm launched it', () => {
    expect(launchedByNpm({ npm_lifecycle_event: 'npx' })).toBe(true);
    expect(launchedByNpm({ npm_lifecycle_event: 'serve' })).toBe(true);
    expect(launchedByNpm({})).toBe(false);
  });

  it('SIGTERM to npx stops the server it launched (drained, exited), not only npx', async () => {
    const npx = launch(['serve', '--http', '--no-auth', '--port', '0']);
    const url = `${(await npx.waitFor(/MCP at (http:\/\/\S+)\/mcp/, 'stderr'))[1]}/healthz`;
    expect(await answers(url)).toBe(true);
    await npx.terminate();
    let serving = true;
    for (let i = 0; i < 40 && serving; i++) {
      await sleep(250);
      serving = await answers(url);
    }
    expect(serving, `still serving ${url} 10 s after SIGTERM to npx`).toBe(false);
  }, 90_000);

  it.runIf(existsSync('/proc/self/cmdline'))(
    'SIGTERM to npx stops the generate --watch it launched',
    async () => {
      const project = mkdtempSync(path.join(tmpdir(), 'toolsmith-npx-watch-'));
      try {
        mkdirSync(path.join(project, 'schemas'));
        copyFileSync(
          path.join(repoRoot, 'schemas/utility/calculator.tool.json'),
          path.join(project, 'schemas/calculator.tool.json'),
        );
        const out = path.join(project, 'generated');
        const npx = launch(['generate', '--watch', '--schemas', path.join(project, 'schemas'), '--out', out]);
        await npx.waitFor(/files written/, 'stdout');
        expect(processesMentioning(out).length).toBeGreaterThan(0);
        await npx.terminate();
        let left = processesMentioning(out);
        for (let i = 0; i < 40 && left.length > 0; i++) {
          await sleep(250);
          left = processesMentioning(out);
        }
        expect(left, 'processes still watching 10 s after SIGTERM to npx').toEqual([]);
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    },
    90_000,
  );
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The pids whose command line mentions `marker` (Linux /proc), this test's own excepted. */
function processesMentioning(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** `npx --no toolsmith <args>` in the repository, with an npm cache of its own. */
function launch(args: string[]) {
  const npx: ChildProcess = spawn('npx', ['--no', 'toolsmith', ...args], {
    cwd: repoRoot,
    env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  const exited = new Promise((resolve) => npx.once('exit', resolve));
  return {
    waitFor(pattern: RegExp, stream: 'stdout' | 'stderr'): Promise<RegExpExecArray> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${pattern} within 60 s; ${JSON.stringify(output)}`)),
          60_000,
        );
        const check = () => {
          const match = pattern.exec(output[stream]);
          if (match) {
            clearTimeout(timer);
            resolve(match);
          }
        };
        for (const name of ['stdout', 'stderr'] as const)
          npx[name]!.on('data', (chunk: Buffer) => {
            output[name] += chunk.toString('utf8');
            check();
          });
        void exited.then(() => reject(new Error(`npx exited first; ${JSON.stringify(output)}`)));
      });
    },
    async terminate(): Promise<void> {
      npx.kill('SIGTERM');
      await exited;
    },
  };
}
