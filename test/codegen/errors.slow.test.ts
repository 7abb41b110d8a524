import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { generate } from '../../codegen/generate.js';
import { createTempProject, REPO } from '../helpers/temp-project.js';
import { MANIFEST_TARGETS } from '../../src/manifest-targets/table.js';

const FIXTURES = path.join(REPO, 'test/fixtures/errors');
const cases = readdirSync(FIXTURES).sort();

describe('generate reports every problem with file:line:column, pointer and hint, and writes nothing', () => {
  it('has a fixture for each error the issue lists', () => {
    expect(cases).toEqual([
      'bad-default',
      'bad-name',
      'case-collision',
      'composed-step',
      'defs-both',
      'dialect-mix',
      'duplicate-name',
      'errors-and-warnings',
      'example-mismatch',
      'invalid-json',
      'meta-schema',
      'meta-schema-2020',
      'missing-field',
      'name-collision',
      'ref-file',
      'ref-pointer',
      'root-not-object',
      'typo-2020',
      'unknown-field',
      'unknown-format',
      'unknown-keyword',
      'unsupported-schema',
    ]);
  });

  it.each(cases)('%s', async (name) => {
    const project = createTempProject();
    try {
      cpSync(path.join(FIXTURES, name, 'schemas'), path.join(project.root, 'schemas'), { recursive: true });
      project.write('generated/index.ts', '// previous output\n');
      project.write('generated/types/keep.ts', 'export type Keep = 1;\n');
      project.write('src/tools/a.ts', '// hand-written implementation\n');
      const before = { generated: project.snapshot('generated'), tools: project.snapshot('src/tools') };
      let stderr = '';
      let stdout = '';
      const code = await main(['generate'], {
        cwd: project.root,
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
      });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(readFileSync(path.join(FIXTURES, name, 'expected-errors.txt'), 'utf8'));
      expect(stderr).toMatch(/^schemas\/[a-z/.-]+:\d+:\d+/m);
      expect({ generated: project.snapshot('generated'), tools: project.snapshot('src/tools') }).toEqual(before);
      expect(readdirSync(project.root).filter((entry) => entry.includes('toolsmith-'))).toEqual([]);
    } finally {
      project.dispose();
    }
  });
});

describe('problems found outside the definition checks are placed at real positions too', () => {
  async function generateIn(project: ReturnType<typeof createTempProject>): Promise<{ code: number; stderr: string }> {
    let stderr = '';
    const code = await main(['generate'], {
      cwd: project.root,
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    return { code, stderr };
  }

  it('an unknown manifest target in the config, at its array item, with "did you mean"', async () => {
    const project = createTempProject();
    try {
      project.write('schemas/a.tool.json', { name: 'a', description: 'A.', inputSchema: { type: 'object' } });
      project.write('toolsmith.config.json', '{\n  "manifests": { "targets": ["openai", "gemni"] }\n}\n');
      expect(await generateIn(project)).toEqual({
        code: 1,
        stderr:
          'toolsmith: 1 problem; nothing was written.\n' +
          'toolsmith.config.json:2:40 /manifests/targets/1: unknown manifest target "gemni"\n' +
          `    hint: did you mean \`gemini\`? the manifest targets are: ${MANIFEST_TARGETS.join(', ')}\n`,
      });
    } finally {
      project.dispose();
    }
  });

  it('an unknown manifest target given in code, as the config names it, and nothing is written', async () => {
    const project = createTempProject();
    try {
      project.write('schemas/a.tool.json', { name: 'a', description: 'A.', inputSchema: { type: 'object' } });
      const report = await generate({ root: project.root, manifests: { targets: ['openai', 'gemni' as 'gemini'] } });
      expect(report.problems).toEqual([
        {
          file: 'toolsmith.config.json',
          line: 1,
          column: 1,
          pointer: '/manifests/targets/1',
          message: 'unknown manifest target "gemni"',
          hint: `did you mean \`gemini\`? the manifest targets are: ${MANIFEST_TARGETS.join(', ')}`,
        },
      ]);
      expect(existsSync(path.join(project.root, 'generated'))).toBe(false);
    } finally {
      project.dispose();
    }
  });

  it('a schema a manifest target cannot take, at its pointer in the definition file', async () => {
    const project = createTempProject();
    try {
      project.write(
        'schemas/a.tool.json',
        '{\n  "name": "a",\n  "description": "A.",\n  "inputSchema": {\n    "type": "object",\n    "properties": { "list": { "type": "array" } }\n  }\n}\n',
      );
      const { code, stderr } = await generateIn(project);
      // Left out of that target (the default policy, \`omit\`): a warning at the keyword's position.
      expect(code).toBe(0);
      expect(stderr).toContain(
        "schemas/a.tool.json:6:21 /inputSchema/properties/list: warning: Tool 'a' cannot be sent to openai-strict",
      );
      expect(stderr).not.toMatch(/:1:1 /);
    } finally {
      project.dispose();
    }
  });
});
