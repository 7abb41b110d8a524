import { cpSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { createTempProject, REPO } from '../helpers/temp-project.js';

const FIXTURES = path.join(REPO, 'test/fixtures/warnings');
const cases = readdirSync(FIXTURES).sort();

/**
 * Valid schemas that say something JSON Schema ignores: generate succeeds (exit 0, files written)
 * and prints exactly `expected-warnings.txt`; with `--strict` the same run fails and writes nothing.
 */
describe('warnings: printed with file:line:column, pointer and hint; the run succeeds unless --strict', () => {
  it('has the fixtures', () => {
    expect(cases).toEqual(['ignored-defaults', 'ignored-keywords', 'unsatisfiable-required']);
  });

  it.each(cases)('%s', async (name) => {
    const project = createTempProject();
    try {
      cpSync(path.join(FIXTURES, name, 'schemas'), path.join(project.root, 'schemas'), { recursive: true });
      project.write('toolsmith.config.json', {
        runtimeImport: project.runtimeImport,
        manifests: { targets: ['openai', 'anthropic', 'mcp'] },
      });
      const expected = readFileSync(path.join(FIXTURES, name, 'expected-warnings.txt'), 'utf8');
      const io = () => {
        const out = { stdout: '', stderr: '' };
        return {
          out,
          io: {
            cwd: project.root,
            stdout: (text: string) => (out.stdout += text),
            stderr: (text: string) => (out.stderr += text),
          },
        };
      };

      const strict = io();
      expect(await main(['generate', '--strict'], strict.io)).toBe(1);
      expect(strict.out.stdout).toBe('');
      const count = expected.split('\n').filter((line) => /^schemas\/.*: warning: /.test(line)).length;
      expect(strict.out.stderr).toBe(
        expected.replace(
          /^toolsmith: .*\n/,
          `toolsmith: ${count} problems (${count} of them warnings, errors under --strict); nothing was written.\n`,
        ),
      );
      expect(project.snapshot('generated')).toEqual({});
      expect(project.snapshot('src/tools')).toEqual({});

      const lenient = io();
      expect(await main(['generate'], lenient.io)).toBe(0);
      expect(lenient.out.stderr).toBe(expected);
      expect(lenient.out.stdout).toMatch(/^toolsmith: 1 tools \(0 unchanged, skipped\), \d+ files written/);
      expect(Object.keys(project.snapshot('generated'))).toContain('validators/a.js');
    } finally {
      project.dispose();
    }
  });
});
