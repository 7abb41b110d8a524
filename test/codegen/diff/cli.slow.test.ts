import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../codegen/cli/main.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tool(name: string, input: object, extra: object = {}): string {
  return `${JSON.stringify({ name, description: `The ${name} tool.`, inputSchema: input, ...extra }, null, 2)}\n`;
}

const LIMIT = (maximum: number) => ({
  type: 'object',
  additionalProperties: false,
  properties: { limit: { type: 'integer', minimum: 1, maximum } },
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolsmith-diff-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** A git repository at `root` with everything in it committed on `main`. */
function commitAll(root: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '.');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'one');
}

async function run(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(['diff', ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd });
  return { code, stdout, stderr };
}

describe('toolsmith diff (CLI)', () => {
  it('a lowered maximum is breaking: exit 1, the pointer, both positions and a witness', async () => {
    const root = tree({
      'a/search.tool.json': tool('search', LIMIT(100)),
      'b/search.tool.json': tool('search', LIMIT(50)),
    });
    const { code, stdout } = await run(['a', 'b'], root);
    expect(code).toBe(1);
    expect(stdout).toContain('breaking input /inputSchema/properties/limit/maximum: maximum 100 → 50');
    expect(stdout).toMatch(/before a\/search\.tool\.json:\d+:\d+ {2}after b\/search\.tool\.json:\d+:\d+/);
    expect(stdout).toContain('witness: {"limit":51}');
  });

  it('a declared error added is breaking with its witness and position; one removed is compatible', async () => {
    const errors = (codes: string[]) => ({
      errors: Object.fromEntries(codes.map((code) => [code, { description: `${code} happened.` }])),
    });
    const root = tree({
      'a/search.tool.json': tool('search', LIMIT(10), errors(['GONE'])),
      'b/search.tool.json': tool('search', LIMIT(10), errors(['RATE_LIMITED'])),
    });
    const { code, stdout } = await run(['a', 'b'], root);
    expect(code).toBe(1);
    expect(stdout).toContain('breaking errors /errors/RATE_LIMITED: error RATE_LIMITED added');
    expect(stdout).toMatch(
      /after b\/search\.tool\.json:\d+:\d+\n {6}witness: \{"success":false,"code":"RATE_LIMITED"\}/,
    );
    expect(stdout).toContain('compatible errors /errors/GONE: error GONE removed');
  });

  it('--json: the documented shape; --fail-on none exits 0, --fail-on compatible fails on a compatible change', async () => {
    const root = tree({
      'a/search.tool.json': tool('search', LIMIT(50)),
      'b/search.tool.json': tool('search', LIMIT(100)),
      'b/added.tool.json': tool('added', LIMIT(1)),
    });
    const json = await run(['a', 'b', '--json'], root);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.verdict).toBe('compatible');
    expect(report.tools.map((t: { name: string; change: string }) => [t.name, t.change])).toEqual([
      ['added', 'added'],
      ['search', 'changed'],
    ]);
    expect(report.tools[1].changes[0]).toMatchObject({
      side: 'input',
      pointer: '/inputSchema/properties/limit/maximum',
      verdict: 'compatible',
    });
    expect((await run(['a', 'b', '--fail-on', 'compatible'], root)).code).toBe(1);
    expect((await run(['a', 'b', '--fail-on', 'none'], root)).code).toBe(0);
    expect((await run(['a', 'b', '--fail-on', 'sometimes'], root)).code).toBe(2);
  });

  it('a removed tool is breaking; a removed and an added tool with the same schemas is a rename', async () => {
    const root = tree({
      'a/old.tool.json': tool('old_name', LIMIT(5)),
      'b/new.tool.json': tool('new_name', LIMIT(5)),
      'c/x.tool.json': tool('other', LIMIT(9)),
    });
    const renamed = JSON.parse((await run(['a', 'b', '--json'], root)).stdout);
    expect(renamed.tools).toEqual([
      expect.objectContaining({ name: 'new_name', renamedFrom: 'old_name', verdict: 'breaking' }),
    ]);
    const removed = JSON.parse((await run(['a', 'c', '--json'], root)).stdout);
    expect(removed.tools.find((t: { name: string }) => t.name === 'old_name')).toMatchObject({
      change: 'removed',
      verdict: 'breaking',
    });
  });

  it('a rename may differ in prose only: a changed property named `title` is no rename', async () => {
    const titled = (type: string, description: string) => ({
      type: 'object',
      description,
      properties: { title: { type, title: description }, description: { type: 'string' } },
    });
    const root = tree({
      'a/old.tool.json': tool('old_name', titled('string', 'One text.')),
      'b/new.tool.json': tool('new_name', titled('string', 'Another text.')),
      'c/new.tool.json': tool('new_name', titled('number', 'One text.')),
    });
    const renamed = JSON.parse((await run(['a', 'b', '--json'], root)).stdout);
    expect(renamed.tools).toEqual([expect.objectContaining({ name: 'new_name', renamedFrom: 'old_name' })]);
    const replaced = JSON.parse((await run(['a', 'c', '--json'], root)).stdout);
    expect(replaced.tools.map((t: { name: string; change: string }) => [t.name, t.change])).toEqual([
      ['new_name', 'added'],
      ['old_name', 'removed'],
    ]);
  });

  it('gaining side effects is breaking; a description or title change is compatible; an under-bumped version is flagged', async () => {
    const root = tree({
      'a/t.tool.json': tool('t', LIMIT(5), { version: '1.2.0' }),
      'b/t.tool.json': tool('t', LIMIT(5), { version: '1.2.0', hasSideEffects: true }),
      'c/t.tool.json': tool('t', LIMIT(5), { version: '1.2.0', description: 'Another text.' }),
      'd/t.tool.json': tool('t', LIMIT(5), { version: '1.2.1', displayName: 'Tee' }),
    });
    const effects = JSON.parse((await run(['a', 'b', '--json'], root)).stdout).tools[0];
    expect(effects.verdict).toBe('breaking');
    expect(effects.changes.map((c: { pointer: string }) => c.pointer)).toEqual(['/hasSideEffects', '/version']);
    expect(effects.suggestedVersion).toBe('2.0.0');
    // The verdict is the worst of the tool's changes: what the model reads changed, so compatible (a patch).
    const described = await run(['a', 'c', '--json', '--fail-on', 'breaking'], root);
    expect(described.code).toBe(0);
    const text = JSON.parse(described.stdout);
    expect(text.verdict).toBe('compatible');
    expect(text.tools[0]).toMatchObject({ verdict: 'compatible', suggestedVersion: '1.2.1' });
    expect(text.tools[0].changes[0]).toMatchObject({ pointer: '/description', verdict: 'compatible' });
    const titled = JSON.parse((await run(['a', 'd', '--json'], root)).stdout).tools[0];
    expect(titled).toMatchObject({ verdict: 'compatible', suggestedVersion: '1.2.1' });
    expect(titled.changes).toEqual([
      expect.objectContaining({
        pointer: '/title',
        verdict: 'compatible',
        message: expect.stringContaining('title changed'),
      }),
    ]);
  });

  it('a side that does not load: exit 2, file:line:col on stderr, { error, problems } with --json', async () => {
    const root = tree({
      'a/t.tool.json': tool('t', LIMIT(5)),
      'b/t.tool.json': '{ "name": "t", \n  "inputSchema": [ }',
    });
    const { code, stdout, stderr } = await run(['a', 'b', '--json'], root);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^b\/t\.tool\.json:\d+:\d+/m);
    const body = JSON.parse(stdout);
    expect(body.error).toBeTypeOf('string');
    expect(body.problems[0]).toMatchObject({
      file: 'b/t.tool.json',
      line: expect.any(Number),
      column: expect.any(Number),
    });
    expect(Object.keys(body.problems[0])).toEqual(['file', 'line', 'column', 'pointer', 'message']);
  });

  it('git:<ref> reads a commit of the schemas folder without checkout; one argument compares with the working tree', async () => {
    const root = tree({ 'schemas/search.tool.json': tool('search', LIMIT(100)) });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'one');
    writeFileSync(path.join(root, 'schemas/search.tool.json'), tool('search', LIMIT(10)));
    const { code, stdout } = await run(['git:main'], root);
    expect(code).toBe(1);
    expect(stdout).toContain('maximum 100 → 10');
    expect(stdout).toContain('before main:schemas/search.tool.json:');
    expect((await run(['git:nosuchref'], root)).code).toBe(2);
  });

  it('a ref is never an option to git: one starting with "-" is refused (the real CLI writes no file, exit 2)', async () => {
    const root = tree({ 'schemas/search.tool.json': tool('search', LIMIT(100)) });
    commitAll(root);
    const cli = path.resolve(import.meta.dirname, '../../../bin/toolsmith.js');
    for (const spec of [`git:--output=${root}/x:y.json`, `git:--output=${root}/z`]) {
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(process.execPath, [cli, 'diff', spec], { cwd: root }, (error, _stdout, stderr) =>
          resolve({ code: error === null ? 0 : (error.code as number), stderr }),
        );
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`the git ref "--output=${root}/`);
      expect(result.stderr).toContain('starts with "-"');
    }
    expect(readdirSync(root).sort()).toEqual(['.git', 'schemas']);
  });

  it('--config is honoured: its schemas folder is the working-tree side and the folder read at the ref', async () => {
    const root = tree({
      'defs/search.tool.json': tool('search', LIMIT(100)),
      'other.json': '{ "schemas": "defs" }\n',
    });
    commitAll(root);
    writeFileSync(path.join(root, 'defs/search.tool.json'), tool('search', LIMIT(10)));
    const honoured = await run(['git:main', '--config', 'other.json'], root);
    expect(honoured.code).toBe(1);
    expect(honoured.stdout).toContain('maximum 100 → 10');
    expect(honoured.stdout).toContain('before main:defs/search.tool.json:');
    expect(honoured.stdout).toContain('after defs/search.tool.json:');
    // Without it the default config names `schemas`, which this project does not have.
    const without = await run(['git:main'], root);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('no definitions under schemas at main');
  });

  it('a side larger than --max-bytes is refused before it is read: a folder, a snapshot, a git ref (exit 2)', async () => {
    const snapshot = `${JSON.stringify({ tools: [{ name: 'search', description: 'S.', inputSchema: LIMIT(5) }] })}\n`;
    const root = tree({
      'schemas/search.tool.json': tool('search', LIMIT(100)),
      'tools.json': snapshot,
    });
    commitAll(root);
    const bytes = Buffer.byteLength(tool('search', LIMIT(100)));
    for (const [args, label] of [
      [['schemas', 'tools.json'], 'schemas'],
      [['tools.json', 'schemas'], 'tools.json'],
      [['git:main', 'tools.json'], 'git:main'],
      [['git:main:tools.json', 'schemas'], 'git:main:tools.json'],
    ] as const) {
      const limit = Math.min(bytes, Buffer.byteLength(snapshot)) - 1;
      const { code, stderr } = await run([...args, '--max-bytes', String(limit)], root);
      expect(code, label).toBe(2);
      expect(stderr, label).toMatch(
        new RegExp(`^${label}:1:1: \\d+ bytes to read, over the limit of ${limit} bytes per side`, 'm'),
      );
      expect(stderr, label).toContain('--max-bytes');
    }
    expect((await run(['schemas', 'tools.json', '--max-bytes', String(bytes + 1000)], root)).code).toBe(1);
    expect((await run(['schemas', 'tools.json', '--max-bytes', '10MB'], root)).code).toBe(2);
  });

  it('git:<ref>:<file>.json reads a snapshot committed at that ref (what was last published)', async () => {
    const snapshot = (maximum: number) =>
      `${JSON.stringify({ tools: [{ name: 'search', description: 'The search tool.', inputSchema: LIMIT(maximum) }] }, null, 2)}\n`;
    const root = tree({
      'published/tools.json': snapshot(100),
      'schemas/search.tool.json': tool('search', LIMIT(100)),
    });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'one');
    writeFileSync(path.join(root, 'schemas/search.tool.json'), tool('search', LIMIT(10)));
    const { code, stdout } = await run(['git:main:published/tools.json'], root);
    expect(code).toBe(1);
    expect(stdout).toContain('maximum 100 → 10');
    expect(stdout).toContain('before main:published/tools.json:');
    const missing = await run(['git:main:published/nope.json'], root);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read published/nope.json at main');
  });
});
