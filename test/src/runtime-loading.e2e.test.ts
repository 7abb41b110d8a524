import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/temp-project.js';

const exec = promisify(execFile);
const script = path.join(REPO, 'test/fixtures/runtime-loading/check.ts');

async function load(args: string[] = []): Promise<{ output: unknown; loaded: string[] }> {
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', script, ...args], { cwd: REPO });
  return JSON.parse(stdout);
}

const compiler = (files: string[]) =>
  files.filter((file) => file.startsWith('ajv/') && !file.startsWith('ajv/dist/runtime/'));

describe('the runtime loads Ajv only when a tool needs it', () => {
  it('runs generated tools without ever loading Ajv’s compiler', async () => {
    const { output, loaded } = await load();
    expect(output).toEqual({ expression: '1+1', result: 2 });
    expect(loaded.some((file) => file.startsWith('ajv/dist/runtime/'))).toBe(true);
    expect(compiler(loaded)).toEqual([]);
  }, 30_000);

  it('loads it for a hand-written tool whose schema is compiled at registration', async () => {
    const { output, loaded } = await load(['--hand-written']);
    expect(output).toEqual({ n: 3 });
    expect(compiler(loaded)).toContain('ajv/dist/ajv.js');
  }, 30_000);
});
