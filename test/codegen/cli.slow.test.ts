import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { GENERATOR_VERSION } from '../../codegen/model.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILD_PACKAGES, GENERATOR_PACKAGES } from '../../codegen/cli/generator-packages.js';
import { createTempProject, REPO, typeCheck } from '../helpers/temp-project.js';

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { cwd, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('the CLI', () => {
  it('lists the generator packages at the versions toolsmith tests with, none of them a peer (npm would keep it under --omit=dev)', () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    // The optional peers: the agent frameworks of the adapters (src/adapters) and redis for the Redis task store (src/tasks), which a program imports at run time.
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['@langchain/core', '@openai/agents', 'ai', 'redis']);
    for (const [name, version] of Object.entries({ ...GENERATOR_PACKAGES, ...BUILD_PACKAGES })) {
      expect(manifest.devDependencies[name]).toBe(version);
      expect(manifest.dependencies[name]).toBeUndefined();
    }
  });

  it('exits 2 on usage errors and prints help for each command with every option', async () => {
    const project = createTempProject();
    try {
      expect((await cli(['generate', '--nope'], project.root)).code).toBe(2);
      expect((await cli(['frobnicate'], project.root)).code).toBe(2);
      const help = await cli(['generate', '--help'], project.root);
      expect(help.code).toBe(0);
      for (const option of ['--check', '--watch', '--schemas', '--out', '--stubs', '--templates', '--config'])
        expect(help.stdout).toContain(option);
      const callHelp = await cli(['call', '--help'], project.root);
      expect(callHelp.stdout).toContain('--capability');
      const version = await cli(['--version'], project.root);
      expect(version.stdout.trim()).toBe(GENERATOR_VERSION);
    } finally {
      project.dispose();
    }
  });

  it('rejects unknown config keys with a hint, and flags override the config file', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { schemas: 'schemas', outt: 'x' });
      const bad = await cli(['generate'], project.root);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('toolsmith.config.json:3:3 /outt: unknown config key "outt"');
      expect(bad.stderr).toContain('did you mean `out`?');

      project.write('toolsmith.config.json', {
        schemas: 'missing-folder',
        runtimeImport: project.runtimeImport,
        manifests: { targets: ['openai', 'mcp'] },
      });
      expect((await cli(['generate'], project.root)).stderr).toContain('the schemas folder does not exist');
      const ok = await cli(['generate', '--schemas', 'schemas', '--out', 'sdk'], project.root);
      expect(ok.code).toBe(0);
      const files = Object.keys(project.snapshot('sdk'));
      expect(files.filter((file) => file.startsWith('manifests/')).sort()).toEqual([
        'manifests/loss-report.json',
        'manifests/loss-report.md',
        'manifests/mcp.json',
        'manifests/mcp.ts',
        'manifests/openai.json',
        'manifests/openai.ts',
        'manifests/token-report.json',
      ]);
      expect(ok.stdout).toMatch(/^toolsmith: 7 tools \(0 unchanged, skipped\), \d+ files written/);
      expect(ok.stderr).toBe('');
    } finally {
      project.dispose();
    }
  }, 60_000);

  it('format: false in the config skips prettier; the output still type-checks', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport, format: false });
      expect((await cli(['generate', '--out', 'raw'], project.root)).code).toBe(0);
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      expect((await cli(['generate', '--out', 'pretty'], project.root)).code).toBe(0);
      const raw = project.snapshot('raw');
      const pretty = project.snapshot('pretty');
      expect(Object.keys(raw)).toEqual(Object.keys(pretty));
      expect(raw['types/calculator.ts']).not.toEqual(pretty['types/calculator.ts']);
      expect(raw['validators/calculator.js']).toEqual(pretty['validators/calculator.js']);
      // The stubs were scaffolded by the first run, so they import from raw/.
      expect(await typeCheck(project, ['raw', 'src'])).toEqual({ code: 0, output: '' });
    } finally {
      project.dispose();
    }
  }, 60_000);

  it('check exits 1 listing stale, missing and extra files, and 0 when up to date', async () => {
    const project = createTempProject({ schemas: 'schemas' });
    try {
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      expect((await cli(['generate'], project.root)).code).toBe(0);
      expect((await cli(['check'], project.root)).code).toBe(0);
      project.write('generated/types/calculator.ts', '// edited\n');
      project.write('generated/stray.ts', '// not generated\n');
      const stale = await cli(['generate', '--check'], project.root);
      expect(stale.code).toBe(1);
      expect(stale.stderr).toContain('stale:   generated/types/calculator.ts');
      expect(stale.stderr).toContain('extra:   generated/stray.ts');
      expect(project.read('generated/types/calculator.ts')).toBe('// edited\n');
    } finally {
      project.dispose();
    }
  }, 60_000);
});
