import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli.js';
import { generate } from '../../codegen/generate.js';
import { createTempProject } from '../helpers/temp-project.js';

const quiet = (cwd: string) => ({ cwd, stdout: () => undefined, stderr: () => undefined });

describe('incremental generation', () => {
  it('skips unchanged tools, re-emits a changed one and everything that lists it, and never trusts tampered files', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      expect(await main(['generate'], quiet(project.root))).toBe(0);
      const options = { root: project.root, runtimeImport: project.runtimeImport };
      const full = project.snapshot('generated');

      const unchanged = await generate(options);
      expect(unchanged.reused).toBe(7);
      expect(Object.fromEntries(unchanged.files.map((file) => [file.path, file.content]))).toEqual(full);

      const file = path.join(project.root, 'schemas/utility/calculator.tool.json');
      const definition = JSON.parse(readFileSync(file, 'utf8'));
      definition.description = 'A changed description.';
      writeFileSync(file, JSON.stringify(definition));
      const changed = await generate(options);
      expect(changed.reused).toBe(6);
      const byPath = Object.fromEntries(changed.files.map((entry) => [entry.path, entry.content]));
      expect(byPath['tools/calculator.base.ts']).toContain('A changed description.');
      expect(byPath['manifests/openai.json']).toContain('A changed description.');
      expect(byPath['docs/tools/calculator.md']).toContain('A changed description.');
      expect(byPath['tools/memory-read.base.ts']).toBe(full['tools/memory-read.base.ts']);

      // What incremental generation produces equals a full run from scratch.
      expect(byPath).toEqual(Object.fromEntries((await generate({ ...options, incremental: false })).files.map((entry) => [entry.path, entry.content])));

      expect(await main(['generate'], quiet(project.root))).toBe(0);
      project.write('generated/tools/read-file.base.ts', '// tampered\n');
      const repaired = await generate(options);
      expect(repaired.reused).toBe(6);
      expect(repaired.files.find((entry) => entry.path === 'tools/read-file.base.ts')?.content).toBe(full['tools/read-file.base.ts']);
    } finally {
      project.dispose();
    }
  }, 120_000);
});
