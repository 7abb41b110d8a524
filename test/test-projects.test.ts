import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/temp-project.js';

/** Whether a test file is in the fast project, by its name (vitest.config.ts). */
function isFast(file: string): boolean {
  return file.endsWith('.test.ts') && !/\.(e2e|slow|property)\.test\.ts$/.test(file);
}

/**
 * What keeps a file out of the fast project: a child process, a worker thread, a server on loopback
 * (`startHttpServer`), tsc (`typeCheck`), a module mock (the fast files share one module cache).
 */
const SLOW_SIGNS: readonly [string, RegExp][] = [
  ['a child process', /from 'node:child_process'/],
  ['a worker thread', /from 'node:worker_threads'/],
  ['an HTTP server', /\bstartHttpServer\(|\.listen\(/],
  ['tsc', /\btypeCheck(Folder)?\(/],
  ['a module mock', /\bvi\.(do)?mock\(/],
];

/** The slow signs found in a test file's text. */
function slowSigns(text: string): string[] {
  return SLOW_SIGNS.filter(([, sign]) => sign.test(text)).map(([what]) => what);
}

describe('test projects', () => {
  it('a fast file starts no process, thread, server or tsc and mocks no module (else it is *.slow.test.ts)', () => {
    const files = (readdirSync(path.join(REPO, 'test'), { recursive: true }) as string[])
      .map((name) => `test/${name.split(path.sep).join('/')}`)
      .filter((file) => !file.includes('/node_modules/') && isFast(file) && file !== 'test/test-projects.test.ts');
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) =>
      slowSigns(readFileSync(path.join(REPO, file), 'utf8')).map((what) => `${file}: ${what}`),
    );
    expect(offenders).toEqual([]);
  });

  it('reads a file’s project from its name, and the signs of a slow file from its text', () => {
    expect(['a.test.ts', 'a.slow.test.ts', 'a.e2e.test.ts', 'a.property.test.ts', 'a.ts'].map(isFast)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(slowSigns("import { spawn } from 'node:child_process';\nawait typeCheck(dir);")).toEqual([
      'a child process',
      'tsc',
    ]);
    expect(slowSigns("import { main } from '../codegen/cli/main.js';")).toEqual([]);
  });
});
