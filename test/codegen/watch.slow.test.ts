import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGenerate } from '../../codegen/cli/generate.js';
import { watchAndRun } from '../../codegen/cli/watch.js';
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

  it('coalesces a burst of changes: a run starts only after a quiet debounce, never once per event', async () => {
    project = createTempProject();
    project.write('schemas/probe.txt', 'x');
    const debounceMs = 200;
    const events: number[] = [];
    const runs: { at: number; changed: string[] }[] = [];
    const watcher = watchAndRun(
      [path.join(project.root, 'schemas')],
      async (changed) => {
        runs.push({ at: Date.now(), changed });
      },
      { debounceMs, onEvent: () => events.push(Date.now()) },
    );
    try {
      await until(() => runs.length === 1);
      // The watcher is live once a write reaches a run (its initial scan may still be going on a loaded machine).
      for (let i = 0; !runs.some((run) => run.changed.some((file) => file.endsWith('probe.txt'))); i++) {
        writeFileSync(path.join(project.root, 'schemas/probe.txt'), `probe ${i}`);
        await until(() => runs.length > 1, 2_000).catch(() => undefined);
      }
      await watcher.idle();
      const quietSince = Date.now();
      await until(() => Date.now() - (events.at(-1) ?? 0) > debounceMs * 2 && Date.now() - quietSince > debounceMs * 2);
      await watcher.idle();
      events.length = 0;
      const before = runs.length;

      const burst = Array.from({ length: 10 }, (_, i) => path.join(project!.root, `schemas/burst-${i}.txt`));
      for (const file of burst) writeFileSync(file, 'change');
      const delivered = () => new Set(runs.slice(before).flatMap((run) => run.changed));
      await until(() => burst.every((file) => delivered().has(file)));
      await until(() => Date.now() - (events.at(-1) ?? 0) > debounceMs * 3);
      await watcher.idle();

      const after = runs.slice(before);
      // Each run starts a full debounce after the last event before it.
      for (const run of after) {
        const lastEvent = Math.max(...events.filter((at) => at <= run.at));
        expect(run.at - lastEvent).toBeGreaterThanOrEqual(debounceMs - 1);
      }
      // No more runs than quiet gaps in the events observed (one run for a burst that arrived without one).
      const quietGaps = events.slice(1).filter((at, i) => at - events[i]! >= debounceMs - 1).length;
      expect(events.length).toBeGreaterThanOrEqual(burst.length);
      expect(after.length).toBeGreaterThanOrEqual(1);
      expect(after.length).toBeLessThanOrEqual(1 + quietGaps);
      expect([...delivered()].filter((file) => file.includes('burst-')).sort()).toEqual([...burst].sort());
    } finally {
      await watcher.close();
    }
  }, 60_000);
});
