import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { shouldColor } from '../../codegen/cli/io.js';
import { clockTime, formatDiagnostic, type CommandReport } from '../../codegen/cli/reporter.js';
import { watchAndRun } from '../../codegen/cli/watch.js';
import { createTempProject, REPO, type TempProject } from '../helpers/temp-project.js';

const echo = (description: string) => ({
  name: 'echo',
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
});
const broken = { name: 'broken', description: 'Broken.', inputSchema: { type: 'object' }, categroy: 'x' };

async function cli(argv: string[], cwd: string, extra: { color?: boolean } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    cwd,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    ...extra,
  });
  return { code, stdout, stderr };
}

async function until(predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the CLI in CI and at a terminal', () => {
  let project: TempProject | undefined;
  afterEach(() => project?.dispose());

  function newProject(): TempProject {
    project = createTempProject();
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
    project.write('schemas/echo.tool.json', echo('Echoes.'));
    return project;
  }

  it('--json prints one JSON summary on stdout and nothing on stderr, for a first and an unchanged run', async () => {
    const { root } = newProject();
    const first = await cli(['generate', '--json'], root);
    expect([first.code, first.stderr]).toEqual([0, '']);
    const report = JSON.parse(first.stdout) as CommandReport;
    expect(report).toMatchObject({
      command: 'generate',
      ok: true,
      exitCode: 0,
      diagnostics: [],
      messages: [],
      summary: { tools: 1, unchanged: 0, removed: 0, stubsCreated: 1 },
    });
    expect(report.summary.written).toBeGreaterThan(5);
    const again = JSON.parse((await cli(['generate', '--json'], root)).stdout) as CommandReport;
    expect(again.summary).toMatchObject({ tools: 1, unchanged: 1, written: 0 });
  }, 60_000);

  it('--json gives every problem as a diagnostic with file, line, column, pointer and hint, exit 1', async () => {
    const { root } = newProject();
    project!.write('schemas/broken.tool.json', broken);
    const result = await cli(['generate', '--json'], root);
    expect([result.code, result.stderr]).toEqual([1, '']);
    const report = JSON.parse(result.stdout) as CommandReport;
    expect(report).toMatchObject({
      command: 'generate',
      ok: false,
      exitCode: 1,
      messages: ['toolsmith: 1 problem; nothing was written.'],
    });
    expect(report.diagnostics).toEqual([
      {
        severity: 'error',
        file: 'schemas/broken.tool.json',
        line: 7,
        column: 3,
        pointer: '/categroy',
        message: 'unknown field "categroy" in a tool definition',
        hint: 'did you mean `category`?',
      },
    ]);
  }, 60_000);

  it('check --json lists the drift; exit 1', async () => {
    const { root } = newProject();
    expect((await cli(['generate', '--silent'], root)).code).toBe(0);
    project!.write('generated/tools/echo.base.ts', '// edited\n');
    const result = await cli(['check', '--json'], root);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as CommandReport;
    expect(report).toMatchObject({
      command: 'check',
      ok: false,
      exitCode: 1,
      summary: {
        tools: 1,
        drift: { stale: ['generated/tools/echo.base.ts'], missing: [], extra: [], missingStubs: [] },
      },
    });
  }, 60_000);

  it('a failed check names the exact command that regenerates: npm run generate, else npx --no toolsmith generate with the same folders', async () => {
    const { root } = newProject();
    expect((await cli(['generate', '--silent'], root)).code).toBe(0);
    project!.write('generated/tools/echo.base.ts', '// edited\n');
    const bare = await cli(['check'], root);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toBe(
      'toolsmith check: generated/ does not match the definitions; run `npx --no toolsmith generate` and commit the result.\n  stale:   generated/tools/echo.base.ts\n',
    );
    const flagged = await cli(['check', '--out', 'generated', '--config', 'toolsmith.config.json'], root);
    expect(flagged.stderr.split('\n')[0]).toBe(
      'toolsmith check: generated/ does not match the definitions; run `npx --no toolsmith generate --config toolsmith.config.json --out generated` and commit the result.',
    );
    project!.write('package.json', {
      name: 'p',
      private: true,
      type: 'module',
      scripts: { generate: 'toolsmith generate' },
    });
    expect((await cli(['check'], root)).stderr.split('\n')[0]).toBe(
      'toolsmith check: generated/ does not match the definitions; run `npm run generate` and commit the result.',
    );
  }, 60_000);

  it('the top-level --help says serve speaks stdio and Streamable HTTP (--http)', async () => {
    const { root } = newProject();
    const help = await cli(['--help'], root);
    expect(help.code).toBe(0);
    // Commander wraps the description: read it with the line breaks folded.
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'serve [options] serve the tools as an MCP server over stdio until the client disconnects, or over Streamable HTTP with --http',
    );
  });

  it('--silent prints nothing on success and only the errors on failure', async () => {
    const { root } = newProject();
    expect(await cli(['generate', '--silent'], root)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await cli(['check', '--silent'], root)).toEqual({ code: 0, stdout: '', stderr: '' });
    project!.write('schemas/broken.tool.json', broken);
    const failed = await cli(['generate', '--silent'], root);
    expect([failed.code, failed.stdout]).toEqual([1, '']);
    expect(failed.stderr).toBe(
      'toolsmith: 1 problem; nothing was written.\nschemas/broken.tool.json:7:3 /categroy: unknown field "categroy" in a tool definition\n    hint: did you mean `category`?\n',
    );
  }, 60_000);

  it('colours diagnostics only when colour is on; piped output has no escape codes', async () => {
    const { root } = newProject();
    project!.write('schemas/broken.tool.json', broken);
    const plain = await cli(['generate'], root, { color: false });
    expect(plain.stderr).not.toContain('\x1b[');
    const coloured = await cli(['generate'], root, { color: true });
    expect(coloured.stderr).toContain('\x1b[1mschemas/broken.tool.json:7:3\x1b[0m');
    expect(coloured.stderr).toContain('\x1b[31mtoolsmith: 1 problem; nothing was written.\x1b[0m');
    expect(coloured.stderr.replace(/\x1b\[\d+m/g, '')).toBe(plain.stderr);
    // --json is never coloured.
    expect((await cli(['generate', '--json'], root, { color: true })).stdout).not.toContain('\x1b[');
  }, 60_000);

  it('decides colour from the terminal, NO_COLOR and FORCE_COLOR', () => {
    expect(shouldColor({ isTTY: true }, {})).toBe(true);
    expect(shouldColor({ isTTY: false }, {})).toBe(false);
    expect(shouldColor({}, {})).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(shouldColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    const problem = { file: 'a.json', line: 1, column: 2, pointer: '/x', message: 'bad' };
    const warning = { ...problem, severity: 'warning' as const };
    expect(formatDiagnostic(warning, false)).toBe('a.json:1:2 /x: warning: bad');
    expect(formatDiagnostic(warning, true)).toBe(
      '\x1b[1ma.json:1:2\x1b[0m \x1b[2m/x\x1b[0m: \x1b[33mwarning:\x1b[0m bad',
    );
    expect(formatDiagnostic(problem, true)).toBe('\x1b[1ma.json:1:2\x1b[0m \x1b[2m/x\x1b[0m: \x1b[31mbad\x1b[0m');
    // Text from a definition stays on one line with colour on too: a control character is written as its escape.
    const hostile = { ...problem, file: 'a\x1b[2J.json', pointer: '/x\ny', message: 'bad\rworse', hint: 'h\u2028i' };
    expect(formatDiagnostic(hostile, true)).toBe(
      '\x1b[1ma\\u001b[2J.json:1:2\x1b[0m \x1b[2m/x\\ny\x1b[0m: \x1b[31mbad\\rworse\x1b[0m\n    \x1b[36mhint:\x1b[0m h\\u2028i',
    );
    expect(clockTime(new Date(2026, 0, 2, 3, 4, 5))).toBe('03:04:05');
  });

  it('watchAndRun passes the files changed since the previous run', async () => {
    const { root } = newProject();
    const runs: string[][] = [];
    const watcher = watchAndRun([path.join(root, 'schemas')], async (changed) => void runs.push(changed), {
      debounceMs: 100,
    });
    try {
      await until(() => runs.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeFileSync(path.join(root, 'schemas/echo.tool.json'), JSON.stringify(echo('Second.')));
      writeFileSync(path.join(root, 'schemas/other.tool.json'), JSON.stringify({ ...echo('Other.'), name: 'other' }));
      await until(() => runs.length === 2);
      expect(runs).toEqual([
        [],
        [path.join(root, 'schemas/echo.tool.json'), path.join(root, 'schemas/other.tool.json')],
      ]);
    } finally {
      await watcher.close();
    }
  }, 30_000);

  it('generate --watch prints a timestamp and the changed files per run (child process)', async () => {
    const { root } = newProject();
    const child = spawn(process.execPath, [path.join(REPO, 'bin/toolsmith.js'), 'generate', '--watch'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await until(() => /toolsmith: 1 tools/.test(stdout), 30_000);
      expect(stdout).toMatch(
        /^toolsmith: watching schemas \(Ctrl-C to stop\)\n\[\d\d:\d\d:\d\d\] first run\ntoolsmith: 1 tools/,
      );
      writeFileSync(path.join(root, 'schemas/echo.tool.json'), JSON.stringify(echo('Changed.')));
      await until(() => /changed: schemas\/echo\.tool\.json\ntoolsmith: 1 tools/.test(stdout), 30_000);
      expect(stdout).toMatch(/\n\[\d\d:\d\d:\d\d\] changed: schemas\/echo\.tool\.json\n/);
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  }, 60_000);
});
