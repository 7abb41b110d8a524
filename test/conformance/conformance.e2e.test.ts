import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BASELINE,
  describeOutcomes,
  PROJECT_DIR,
  readBaseline,
  runConformanceSuite,
  SUITE_BIN,
  suiteCommand,
} from './suite.js';

/*
 * The official MCP conformance suite against `toolsmith serve --http --no-auth` serving this folder's
 * project, through every server scenario, judged by baseline.yml (suite.ts). `npm run conformance` runs
 * the same by hand.
 */

const run = promisify(execFile);
const node = (args: string[]) => run(process.execPath, args, { cwd: PROJECT_DIR });
const results: string[] = [];

afterAll(() => {
  for (const dir of results) rmSync(dir, { recursive: true, force: true });
});

/** The server scenarios the suite knows (`conformance list --server`). */
async function serverScenarios(): Promise<string[]> {
  const { stdout } = await node(suiteCommand(['list', '--server']));
  return [...stdout.matchAll(/^\s+-\s+(\S+)/gm)].map((match) => match[1]!);
}

describe('the conformance project', () => {
  it('has its generated/ up to date with its definitions (toolsmith check)', async () => {
    const { stdout, stderr } = await node([path.resolve(PROJECT_DIR, '../../bin/toolsmith.js'), 'check']);
    expect(`${stdout}${stderr}`).toMatch(/toolsmith check: 14 tools, \d+ files up to date/);
  });
});

describe('the Node 20 preload (node20/)', () => {
  it('gives the suite every export of node:fs plus a globSync that says it is not available', async () => {
    const shim = (await import(pathToFileURL(path.join(PROJECT_DIR, 'node20/fs-with-glob-sync.mjs')).href)) as Record<
      string,
      unknown
    >;
    for (const name of Object.keys(fs)) if (name !== 'globSync') expect(shim[name], name).toBe((fs as any)[name]);
    expect(shim.default).toBe((fs as any).default);
    expect(() => (shim.globSync as () => void)()).toThrow('fs.globSync is not available on Node 20');
  });

  it.runIf(typeof (fs as { globSync?: unknown }).globSync !== 'function')(
    'is what lets the suite start on a Node without fs.globSync',
    async () => {
      await expect(node([SUITE_BIN, 'list', '--server'])).rejects.toThrow(
        "The requested module 'fs' does not provide an export named 'globSync'",
      );
      expect(await serverScenarios()).toContain('tools-call-simple-text');
    },
  );
});

describe('baseline.yml', () => {
  it('lists only server scenarios the suite has, once each, with a one-line reason, and not dns-rebinding-protection', async () => {
    const scenarios = await serverScenarios();
    const baseline = readBaseline();
    expect(baseline.length).toBeGreaterThan(0);
    expect(baseline.filter((name) => !scenarios.includes(name))).toEqual([]);
    expect(new Set(baseline).size).toBe(baseline.length);
    const entries = readFileSync(BASELINE, 'utf8')
      .split('\n')
      .filter((line) => /^\s+-\s/.test(line));
    expect(entries.filter((line) => !/^\s+-\s+[\w-]+\s+#\s*\S/.test(line))).toEqual([]);
    expect(baseline).not.toContain('dns-rebinding-protection');
  });
});

describe('the MCP conformance suite against toolsmith serve --http --no-auth', () => {
  it('passes every server scenario not in baseline.yml, and fails every one in it', async () => {
    const resultsDir = mkdtempSync(path.join(tmpdir(), 'toolsmith-conformance-'));
    results.push(resultsDir);
    const suite = await runConformanceSuite({ resultsDir });
    const summary = suite.output.slice(Math.max(0, suite.output.indexOf('=== SUMMARY ===')));
    const report = `per scenario:\n${describeOutcomes(suite.scenarios)}\n\nthe suite's summary:\n${summary}\nserver stderr:\n${suite.serverLog}`;
    // Every scenario ran and wrote its checks.
    expect(suite.scenarios.map((s) => s.scenario).sort(), report).toEqual((await serverScenarios()).sort());
    expect(
      suite.scenarios.filter((s) => (s.outcome === 'failed') !== s.inBaseline).map((s) => s.scenario),
      report,
    ).toEqual([]);
    expect(suite.exitCode, report).toBe(0);
    // The scenarios toolsmith passes today, so that a change that loses one shows here by name.
    expect(
      suite.scenarios.filter((s) => s.outcome === 'passed').map((s) => s.scenario),
      report,
    ).toEqual(
      expect.arrayContaining([
        'json-schema-2020-12',
        'ping',
        'server-initialize',
        'tools-call-error',
        'tools-call-simple-text',
        'tools-list',
      ]),
    );
    expect(suite.durationMs).toBeLessThan(120_000);
  }, 200_000);
});
