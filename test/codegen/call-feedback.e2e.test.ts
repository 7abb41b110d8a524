import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * `toolsmith call` as a user runs it (a child process in this repository, its generated calculator):
 * stdout carries the result as JSON, stderr what a person reads — the feedback of a failed call and
 * the argument values converted to fit the schema.
 */

const root = path.resolve(import.meta.dirname, '../..');

function toolsmithCall(
  json: string,
  tool = 'calculator',
  extra: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin/toolsmith.js'), 'call', tool, json, ...extra],
      { cwd: root, env: { ...process.env, TOOLSMITH_FILES_ROOT: import.meta.dirname } },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

describe('toolsmith call tells a person what the model would be told', () => {
  it('prints the feedback of arguments that do not fit on stderr, the result on stdout', async () => {
    const { code, stdout, stderr } = await toolsmithCall('{"expression":"","precision":"3"}');
    expect(code).toBe(1);
    expect(JSON.parse(stdout).errorDetails.code).toBe('INVALID_ARGUMENTS');
    expect(stderr).toBe(
      [
        "INVALID_ARGUMENTS: The arguments for tool 'calculator' do not fit its input schema. Fix them and call again.",
        '{',
        '  "expression": "", // error: expected a string of at least 1 character',
        '  "precision": "3"',
        '}',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it('prints the values it converted to fit the schema on stderr', async () => {
    const { code, stdout, stderr } = await toolsmithCall('{"expression":"1+2","precision":"3"}');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      output: { expression: '1+2', result: 3 },
      coercions: [{ path: '/precision', from: '3', to: 3 }],
    });
    expect(stderr).toBe('toolsmith call: arguments converted to fit the schema:\n/precision: "3" was read as 3\n');
  }, 60_000);

  it('prints a declared failure: its code, what to do and its data; the result carries errorDetails.failure', async () => {
    const { code, stdout, stderr } = await toolsmithCall('{"path":"missing.txt"}', 'read_file', [
      '--capability',
      'capability:filesystem:read',
    ]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).errorDetails.failure).toMatchObject({ code: 'NOT_FOUND', data: { path: 'missing.txt' } });
    expect(stderr.split('\n').slice(1, 3)).toEqual([
      'NOT_FOUND (the same call will fail again): Nothing exists at the path under the root folder: list the folder with `list_directory` and call again with a path it shows.',
      'Data: {"path":"missing.txt"}',
    ]);
  }, 60_000);
});
