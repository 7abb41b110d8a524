import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGenerate } from '../../codegen/cli.js';
import { watchAndRun } from '../../codegen/watch.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

const definition = (description: string) => ({
  name: 'echo',
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
});

async function until(predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the watcher');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('generate --watch', () => {
  let project: TempProject | undefined;
  afterEach(() => project?.dispose());

  it('regenerates on change, prints errors without stopping, keeps the last good output and recovers', async () => {
    project = createTempProject();
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
    project.write('schemas/echo.tool.json', definition('first description'));
    let stdout = '';
    let stderr = '';
    const io = {
      cwd: project.root,
      stdout: (text: string) => (stdout += text),
      stderr: (text: string) => (stderr += text),
    };
    let runs = 0;
    const watcher = watchAndRun(
      [path.join(project.root, 'schemas')],
      async () => {
        await runGenerate({}, io);
        runs++;
      },
      { debounceMs: 50 },
    );
    try {
      await until(() => runs === 1);
      const base = path.join(project.root, 'generated/tools/echo.base.ts');
      expect(readFileSync(base, 'utf8')).toContain('first description');

      writeFileSync(
        path.join(project.root, 'schemas/echo.tool.json'),
        JSON.stringify(definition('second description')),
      );
      await until(() => readFileSync(base, 'utf8').includes('second description'));

      const good = project.snapshot('generated');
      const runsBefore = runs;
      writeFileSync(path.join(project.root, 'schemas/echo.tool.json'), '{ "name": "echo", ');
      await until(() => runs > runsBefore && stderr.includes('invalid JSON'));
      expect(stderr).toMatch(/schemas\/echo\.tool\.json:1:\d+: invalid JSON/);
      expect(project.snapshot('generated')).toEqual(good);

      writeFileSync(path.join(project.root, 'schemas/echo.tool.json'), JSON.stringify(definition('third description')));
      await until(() => readFileSync(base, 'utf8').includes('third description'));
      expect(stdout).toMatch(/toolsmith: 1 tools/);
    } finally {
      await watcher.close();
    }
  }, 60_000);

  it('coalesces a burst of changes into one run after the debounce', async () => {
    project = createTempProject();
    project.write('schemas/a.txt', 'x');
    let runs = 0;
    const watcher = watchAndRun(
      [path.join(project.root, 'schemas')],
      async () => {
        runs++;
      },
      { debounceMs: 200 },
    );
    try {
      await until(() => runs === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 10; i++) writeFileSync(path.join(project.root, 'schemas/a.txt'), `change ${i}`);
      await until(() => runs === 2);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(runs).toBe(2);
    } finally {
      await watcher.close();
    }
  }, 30_000);
});
