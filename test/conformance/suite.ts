/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against `toolsmith serve
 * --http --no-auth` serving this folder's project: every server scenario (`--suite all`), judged against
 * `baseline.yml`. Used by `conformance.e2e.test.ts` and by `npm run conformance` (this file run with tsx).
 *
 * The suite exits 0 when every failing scenario is in the baseline and no baseline scenario passes. A
 * scenario fails when one of its checks is a FAILURE or a WARNING (the suite's baseline rule).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** This folder: the project served (its toolsmith.config.json, schemas, tools, generated). */
export const PROJECT_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(PROJECT_DIR, '../..');
/** The expected failures, with one reason each. */
export const BASELINE = path.join(PROJECT_DIR, 'baseline.yml');
/** The suite's command (its package's `bin`). */
export const SUITE_BIN = path.join(REPO, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** The `--import` preload that lets the suite's bundle load on Node 20 (node20/hooks.mjs). */
export const NODE20_PRELOAD = path.join(PROJECT_DIR, 'node20/preload.mjs');
const TOOLSMITH_BIN = path.join(REPO, 'bin/toolsmith.js');

/** A check as the suite writes it in `checks.json`. */
export interface SuiteCheck {
  id: string;
  name: string;
  description: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: unknown;
}

/** One scenario's outcome, from its `checks.json`. */
export interface ScenarioOutcome {
  scenario: string;
  /** `passed`: no FAILURE or WARNING check; else `failed`. */
  outcome: 'passed' | 'failed';
  inBaseline: boolean;
  /** The FAILURE and WARNING checks. */
  problems: SuiteCheck[];
}

/** What a run gave. */
export interface SuiteRun {
  /** The suite's exit code: 0 when the outcomes match the baseline. */
  exitCode: number | null;
  /** The suite's stdout and stderr, colours removed. */
  output: string;
  /** Every scenario that wrote results, by name order. */
  scenarios: ScenarioOutcome[];
  resultsDir: string;
  /** From starting the server to the suite's exit. */
  durationMs: number;
  /** The server's stderr. */
  serverLog: string;
}

/** Node's arguments that run the suite's command on this Node (with the preload where fs lacks globSync). */
export function suiteCommand(args: readonly string[]): string[] {
  return ['--import', pathToFileURL(NODE20_PRELOAD).href, SUITE_BIN, ...args];
}

/** The scenario names of the baseline's `server:` list (its one-line reasons are comments). */
export function readBaseline(file = BASELINE): string[] {
  const names: string[] = [];
  let inServer = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\S/.test(line) && !line.startsWith('#')) inServer = /^server:\s*$/.test(line);
    const entry = /^\s+-\s+([\w-]+)\s*(?:#.*)?$/.exec(line);
    if (inServer && entry) names.push(entry[1]!);
  }
  return names;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The longest the suite may run (it takes seconds): then it is killed, and the run fails with its output so far. */
const SUITE_TIMEOUT_MS = 150_000;

/** Runs `node args…`, collecting its output; resolves to the exit code (null when killed) and the output. */
function runNode(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      output += `\n[killed: the suite ran longer than ${SUITE_TIMEOUT_MS / 1000} s]\n`;
      child.kill('SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.replace(ANSI, '') });
    });
  });
}

/** Starts `toolsmith serve --http --no-auth` on a free port in the project folder; resolves once it listens. */
function startServer(): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, [TOOLSMITH_BIN, 'serve', '--http', '--no-auth', '--port', '0'], {
    cwd: PROJECT_DIR,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`toolsmith serve --http printed no "MCP at" line within 30 s; stderr:\n${log}`));
    }, 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const match = /MCP at (http:\/\/\S+\/mcp)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, log: () => log });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`toolsmith serve --http exited ${code} before listening; stderr:\n${log}`));
    });
  });
}

/** Stops the server with SIGTERM (it drains and exits), SIGKILL after 10 s. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Reads `<resultsDir>/server-<scenario>-<timestamp>/checks.json` of every scenario. */
export function readOutcomes(resultsDir: string, baseline: readonly string[]): ScenarioOutcome[] {
  const outcomes: ScenarioOutcome[] = [];
  for (const entry of readdirSync(resultsDir).sort()) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
    if (!match) continue;
    const checks = JSON.parse(readFileSync(path.join(resultsDir, entry, 'checks.json'), 'utf8')) as SuiteCheck[];
    const problems = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    outcomes.push({
      scenario: match[1]!,
      outcome: problems.length === 0 ? 'passed' : 'failed',
      inBaseline: baseline.includes(match[1]!),
      problems,
    });
  }
  return outcomes;
}

/** One line per scenario: its outcome against the baseline, and the failing checks' messages. */
export function describeOutcomes(scenarios: readonly ScenarioOutcome[]): string {
  return scenarios
    .map((s) => {
      const verdict =
        s.outcome === 'passed'
          ? s.inBaseline
            ? 'PASSED but in baseline.yml (stale: remove it)'
            : 'passed'
          : s.inBaseline
            ? 'failed (expected, in baseline.yml)'
            : 'FAILED (not in baseline.yml)';
      const why = s.problems.map((p) => `${p.status} ${p.id}: ${p.errorMessage ?? p.description}`).join('; ');
      return `${s.scenario}: ${verdict}${why && s.outcome === 'failed' ? ` — ${why}` : ''}`;
    })
    .join('\n');
}

/** Serves the project, runs every server scenario against the baseline, stops the server. */
export async function runConformanceSuite(options: { resultsDir?: string; baseline?: string } = {}): Promise<SuiteRun> {
  const resultsDir = options.resultsDir ?? mkdtempSync(path.join(tmpdir(), 'toolsmith-conformance-'));
  const baselineFile = options.baseline ?? BASELINE;
  const started = performance.now();
  const server = await startServer();
  let run: { code: number | null; output: string };
  try {
    run = await runNode(
      suiteCommand([
        'server',
        '--url',
        server.url,
        '--suite',
        'all',
        '--expected-failures',
        baselineFile,
        '--output-dir',
        resultsDir,
      ]),
      PROJECT_DIR,
    );
  } finally {
    await stopServer(server.child);
  }
  return {
    exitCode: run.code,
    output: run.output,
    scenarios: readOutcomes(resultsDir, readBaseline(baselineFile)),
    resultsDir,
    durationMs: performance.now() - started,
    serverLog: server.log(),
  };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const run = await runConformanceSuite();
  process.stdout.write(`${run.output}\n${describeOutcomes(run.scenarios)}\n`);
  process.stdout.write(
    `\nconformance: ${run.scenarios.length} scenarios in ${(run.durationMs / 1000).toFixed(1)} s, suite exit ${run.exitCode}; results in ${run.resultsDir}\n`,
  );
  process.exitCode = run.exitCode ?? 1;
}
