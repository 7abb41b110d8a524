/**
 * P8: MCP over Streamable HTTP — calls per second and p99 latency of toolsmith's `startHttpServer`
 * (what `serve --http` runs) against the official SDK serving the same tool, each in its own process
 * on loopback, loaded in turns by autocannon from a third process (bounded: a fixed number of
 * connections for a fixed time). P8 sends 2025-11-25 requests and compares with the v1 SDK's
 * `McpServer` (stateless, JSON responses); P8b sends 2026-07-28 requests and compares with the v2
 * SDK's `McpServer` behind its own `createMcpHandler`. P8c times process start → the first
 * `tools/list` answer with 1,000 tools on each side.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { runChild } from './measure.js';
import { mcpRequest } from '../test/helpers/mcp-request.js';
import { REPO_ROOT } from './project.js';

/** What one load round reported. */
interface LoadRound {
  total: number;
  seconds: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
}

export interface HttpBenchPlan {
  rounds: number;
  seconds: number;
  connections: number;
}

export interface HttpBenchResult {
  toolsmith: { callsPerSecond: number; p99Ms: number; p50Ms: number; rounds: LoadRound[] };
  sdk: { callsPerSecond: number; p99Ms: number; p50Ms: number; rounds: LoadRound[] };
  throughputRatio: number;
  p99Ratio: number;
  connections: number;
  secondsPerRound: number;
  method: string;
}

const CHILDREN = path.join(REPO_ROOT, 'bench', 'children');
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'add_numbers', arguments: { a: 2, b: 3 } },
});
const HEADERS_2025 = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};
const MODERN = '2026-07-28';
/** A 2026-07-28 request: the envelope in `_meta`, the standard headers. */
function modernRequest(
  method: string,
  params: Record<string, unknown>,
): { body: string; headers: Record<string, string> } {
  return mcpRequest(method, params, { version: MODERN, clientName: 'bench' });
}
/** What a P8 variant sends and to which baseline. */
interface Variant {
  id: 'P8' | 'P8b';
  body: string;
  headers: Record<string, string>;
  baseline: { script: string; args: string[] };
}
const VARIANTS: Record<'legacy' | 'modern', Variant> = {
  legacy: { id: 'P8', body: CALL, headers: HEADERS_2025, baseline: { script: 'http-sdk.ts', args: [] } },
  modern: {
    id: 'P8b',
    ...modernRequest('tools/call', { name: 'add_numbers', arguments: { a: 2, b: 3 } }),
    baseline: { script: 'http-sdk-v2.ts', args: ['one'] },
  },
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Starts a server child and waits for its `LISTENING <url>` line. */
function startServer(script: string, args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(CHILDREN, script), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`P8: ${script} did not listen within 30 s: ${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /LISTENING (\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`P8: ${script} exited ${code}: ${stderr}`)));
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** The answer of one call, checked: `{ sum: 5 }` as structured content. Its text is what every loaded answer must equal. */
async function verifiedAnswer(url: string, side: string, variant: Variant): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: variant.headers, body: variant.body });
  const text = await response.text();
  const parsed = JSON.parse(text) as { result?: { structuredContent?: unknown; isError?: boolean } };
  if (
    response.status !== 200 ||
    parsed.result?.isError ||
    JSON.stringify(parsed.result?.structuredContent) !== '{"sum":5}'
  )
    throw new Error(`P8: the ${side} server answered ${response.status} ${text.slice(0, 500)}`);
  return text;
}

async function load(
  url: string,
  expectBody: string,
  connections: number,
  seconds: number,
  side: string,
  variant: Variant,
): Promise<LoadRound> {
  const { report } = await runChild(
    [
      path.join(CHILDREN, 'http-load.mjs'),
      JSON.stringify({
        url,
        body: variant.body,
        headers: variant.headers,
        expectBody,
        connections,
        duration: seconds,
      }),
    ],
    REPO_ROOT,
    (seconds + 60) * 1000,
  );
  const round = report as unknown as LoadRound;
  if (round.non2xx + round.errors + round.timeouts + round.mismatches > 0 || round.total === 0)
    throw new Error(`P8: the ${side} server failed under load: ${JSON.stringify(round)}`);
  return round;
}

/** Runs P8: a warm-up per side, then `rounds` interleaved rounds per side; medians. */
export async function measureHttp(
  plan: HttpBenchPlan,
  log: (text: string) => void,
  era: 'legacy' | 'modern' = 'legacy',
): Promise<HttpBenchResult> {
  const variant = VARIANTS[era];
  const started = await Promise.allSettled([
    startServer('http-toolsmith.ts'),
    startServer(variant.baseline.script, variant.baseline.args),
  ]);
  const servers = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  try {
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
    const [toolsmith, sdk] = servers as [(typeof servers)[number], (typeof servers)[number]];
    const sides = [
      {
        name: 'toolsmith',
        url: toolsmith.url,
        expect: await verifiedAnswer(toolsmith.url, 'toolsmith', variant),
        rounds: [] as LoadRound[],
      },
      { name: 'sdk', url: sdk.url, expect: await verifiedAnswer(sdk.url, 'sdk', variant), rounds: [] as LoadRound[] },
    ];
    for (const side of sides) await load(side.url, side.expect, plan.connections, 1, side.name, variant);
    for (let round = 0; round < plan.rounds; round++) {
      // Alternate which side goes first, so neither always runs on a machine warmed by the other.
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const result = await load(side.url, side.expect, plan.connections, plan.seconds, side.name, variant);
        side.rounds.push(result);
        log(`  round ${round + 1} ${side.name}: ${result.callsPerSecond.toFixed(0)} calls/s, p99 ${result.p99Ms} ms`);
      }
    }
    const summary = (rounds: LoadRound[]) => ({
      callsPerSecond: median(rounds.map((r) => r.callsPerSecond)),
      p99Ms: median(rounds.map((r) => r.p99Ms)),
      p50Ms: median(rounds.map((r) => r.p50Ms)),
      rounds,
    });
    const ts = summary(sides[0]!.rounds);
    const base = summary(sides[1]!.rounds);
    return {
      toolsmith: ts,
      sdk: base,
      throughputRatio: ts.callsPerSecond / base.callsPerSecond,
      p99Ratio: ts.p99Ms / base.p99Ms,
      connections: plan.connections,
      secondsPerRound: plan.seconds,
      method: `autocannon (separate process) POSTs ${era === 'modern' ? '2026-07-28' : '2025-11-25'} tools/call add_numbers to each server in turn, ${plan.connections} connections × ${plan.seconds} s per round, ${plan.rounds} interleaved rounds, median; every answer compared with the verified one`,
    };
  } finally {
    await Promise.all(servers.map(({ child }) => stopServer(child)));
  }
}

/** What P8c measured: process start → the first tools/list answer, per side, median of the rounds. */
export interface ListStartupResult {
  tools: number;
  toolsmithMs: number;
  sdkMs: number;
  ratio: number;
  rounds: { toolsmithMs: number; sdkMs: number }[];
  method: string;
}

/** One spawn → first tools/list (2026-07-28) answer, in ms, checking that all `tools` were listed. */
async function timeFirstList(script: string, args: string[], tools: number): Promise<number> {
  const begun = performance.now();
  const { child, url } = await startServer(script, args);
  try {
    const request = modernRequest('tools/list', {});
    const response = await fetch(url, { method: 'POST', headers: request.headers, body: request.body });
    const answer = (await response.json()) as { result?: { tools?: unknown[] } };
    const elapsed = performance.now() - begun;
    if (answer.result?.tools?.length !== tools)
      throw new Error(`P8c: ${script} listed ${answer.result?.tools?.length} tools, not ${tools}`);
    return elapsed;
  } finally {
    await stopServer(child);
  }
}

/** P8c: interleaved rounds of toolsmith and the v2 SDK, each a fresh process with `tools` tools. */
export async function measureListStartup(
  tools: number,
  rounds: number,
  log: (text: string) => void,
): Promise<ListStartupResult> {
  const measured: { toolsmithMs: number; sdkMs: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const toolsmithMs = await timeFirstList('list-toolsmith.ts', [String(tools)], tools);
    const sdkMs = await timeFirstList('http-sdk-v2.ts', ['many', String(tools)], tools);
    measured.push({ toolsmithMs, sdkMs });
    log(`  round ${round + 1}: toolsmith ${toolsmithMs.toFixed(0)} ms, sdk ${sdkMs.toFixed(0)} ms`);
  }
  const toolsmithMs = median(measured.map((round) => round.toolsmithMs));
  const sdkMs = median(measured.map((round) => round.sdkMs));
  return {
    tools,
    toolsmithMs,
    sdkMs,
    ratio: toolsmithMs / sdkMs,
    rounds: measured,
    method: `spawn (node --import tsx) → LISTENING → one 2026-07-28 tools/list answered with all ${tools} tools, wall time in the harness; ${rounds} interleaved rounds, median`,
  };
}
