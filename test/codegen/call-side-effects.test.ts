import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';

const root = path.resolve(import.meta.dirname, '../..');
let dataDir = '';
let previous: string | undefined;

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'toolsmith-call-side-effects-'));
  previous = process.env.TOOLSMITH_DATA_DIR;
  process.env.TOOLSMITH_DATA_DIR = dataDir;
});
afterAll(() => {
  if (previous === undefined) delete process.env.TOOLSMITH_DATA_DIR;
  else process.env.TOOLSMITH_DATA_DIR = previous;
  rmSync(dataDir, { recursive: true, force: true });
});

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { cwd: root, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('toolsmith call and a tool with side effects', () => {
  const args = ['call', 'memory_write', '{"key":"k","value":"v"}', '--capability', 'capability:memory:write'];

  it('refuses it APPROVAL_REJECTED, naming the flag, and writes nothing', async () => {
    const refused = await cli(args);
    expect(refused.code).toBe(1);
    const result = JSON.parse(refused.stdout);
    expect(result.errorDetails.code).toBe('APPROVAL_REJECTED');
    expect(result.errorDetails.message).toContain(
      'this call was made without a decision about them; call again with --allow-side-effects',
    );
    expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
  }, 60_000);

  it('runs it with --allow-side-effects', async () => {
    const allowed = await cli([...args, '--allow-side-effects']);
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout).output).not.toBeNull();
    expect(JSON.parse(allowed.stdout)).toMatchObject({ isError: false });
    expect(readdirSync(dataDir).length).toBeGreaterThan(0);
  }, 60_000);
});
