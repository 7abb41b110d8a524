import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import {
  BUILD_PACKAGES,
  GENERATOR_PACKAGES,
  generatorVersionMismatches,
} from '../../codegen/cli/generator-packages.js';
import { initProject } from '../../codegen/cli/init.js';
import { createTempProject, REPO } from '../helpers/temp-project.js';

describe('toolsmith init', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'toolsmith-init-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

  it('writes the tsconfig a plain-node build needs, the build script, and the compiler and Node types as devDependencies', () => {
    writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({
        name: 'app',
        type: 'module',
        dependencies: { toolsmith: '0.1.0' },
        scripts: { test: 'vitest' },
      }),
    );
    const report = initProject(root);
    expect(report).toEqual({
      created: ['schemas/greet.tool.json', 'toolsmith.config.json', 'tsconfig.json'],
      scripts: ['generate', 'generate:check', 'build'],
      devDependencies: [...Object.keys(GENERATOR_PACKAGES), 'typescript', '@types/node'],
      kept: [],
      conflicts: [],
    });
    expect(read('tsconfig.json')).toBe(readFileSync(path.join(REPO, 'codegen/templates/init/tsconfig.json'), 'utf8'));
    expect(parse(read('tsconfig.json'))).toEqual({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        types: ['node'],
        skipLibCheck: true,
        outDir: 'dist',
        rootDir: '.',
      },
      include: ['src', 'generated'],
    });
    const manifest = JSON.parse(read('package.json'));
    expect(manifest.scripts).toEqual({
      test: 'vitest',
      generate: 'toolsmith generate',
      'generate:check': 'toolsmith check',
      build: 'tsc -p tsconfig.json && toolsmith copy-assets',
    });
    expect(manifest.devDependencies).toEqual({ ...GENERATOR_PACKAGES, ...BUILD_PACKAGES });
    expect(manifest.dependencies).toEqual({ toolsmith: '0.1.0' });
  });

  it('keeps an existing tsconfig.json byte for byte and says what the build needs in it', async () => {
    const own = '{ "compilerOptions": { "strict": true } }\n';
    writeFileSync(path.join(root, 'tsconfig.json'), own);
    let stdout = '';
    const code = await main(['init'], { cwd: root, stdout: (text) => (stdout += text), stderr: () => undefined });
    expect(code).toBe(0);
    expect(read('tsconfig.json')).toBe(own);
    expect(stdout).toContain('created schemas/greet.tool.json, toolsmith.config.json, package.json;');
    expect(stdout).toContain(
      'Kept your tsconfig.json: a build that runs with plain node runs `toolsmith copy-assets` after tsc, which reads "outDir" and "rootDir" of tsconfig.json',
    );
  });

  it('keeps a different build script, and refuses, writing nothing, when a different generate script exists', async () => {
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'app', scripts: { build: 'vite build' } }));
    let stdout = '';
    expect(await main(['init'], { cwd: root, stdout: (text) => (stdout += text), stderr: () => undefined })).toBe(0);
    expect(JSON.parse(read('package.json')).scripts).toEqual({
      build: 'vite build',
      generate: 'toolsmith generate',
      'generate:check': 'toolsmith check',
    });
    expect(stdout).toContain('added npm scripts generate, generate:check;');
    expect(stdout).toContain(
      'Kept your package.json scripts.build: a build that runs with plain node runs `toolsmith copy-assets` after tsc',
    );

    rmSync(root, { recursive: true, force: true });
    root = mkdtempSync(path.join(tmpdir(), 'toolsmith-init-'));
    const manifest = JSON.stringify({ name: 'app', scripts: { generate: 'my-codegen' } });
    writeFileSync(path.join(root, 'package.json'), manifest);
    const report = initProject(root);
    expect(report.conflicts).toEqual(['package.json scripts.generate']);
    expect(read('package.json')).toBe(manifest);
    expect(() => read('tsconfig.json')).toThrow(/ENOENT/);
  });

  it('makes a package.json without "type" ES modules when its only code is in node_modules or dot folders, and refuses one with code', () => {
    const manifest = JSON.stringify({ name: 'app', scripts: {} });
    writeFileSync(path.join(root, 'package.json'), manifest);
    for (const file of ['node_modules/dep/index.js', '.git/hooks/check.js', 'types/env.d.ts']) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), '');
    }
    expect(initProject(root).madeModule).toBe('package.json has no "type"');
    expect(JSON.parse(read('package.json')).type).toBe('module');

    rmSync(root, { recursive: true, force: true });
    root = mkdtempSync(path.join(tmpdir(), 'toolsmith-init-'));
    writeFileSync(path.join(root, 'package.json'), manifest);
    for (const file of ['lib/a.ts', 'lib/b.jsx', 'c.js', 'd.tsx', 'e.cjs']) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), '');
    }
    const report = initProject(root);
    expect(report.commonJsCode?.reason).toBe('package.json has no "type"');
    expect(report.commonJsCode?.files).toHaveLength(3);
    expect(report.created).toEqual([]);
    expect(read('package.json')).toBe(manifest);
  });
});

describe('toolsmith copy-assets', () => {
  const cli = async (argv: string[], cwd: string) => {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, { cwd, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    return { code, stdout, stderr };
  };

  it('copies the validators, their declarations and the JSON (not the TypeScript, not the docs) to where tsc writes the generated folder', async () => {
    const project = createTempProject();
    try {
      expect(await cli(['copy-assets'], project.root)).toEqual({
        code: 1,
        stdout: '',
        stderr: 'toolsmith copy-assets: generated/ has no registry.ts; run `npx --no toolsmith generate` first.\n',
      });
      const files: Record<string, string> = {
        'registry.ts': 'export {};\n',
        'validators/a.js': 'export const v = 1;\n',
        'validators/a.d.ts': 'export declare const v: number;\n',
        'catalog.json': '{"a":{}}\n',
        'schemas/a.json': '{}\n',
        'manifests/openai.json': '[]\n',
        'manifests/openai.ts': 'export {};\n',
        'docs/index.md': '# a\n',
      };
      for (const [file, content] of Object.entries(files)) project.write(`sdk/${file}`, content);
      project.write('toolsmith.config.json', { out: 'sdk' });
      project.write(
        'tsconfig.json',
        '{\n  // built elsewhere\n  "compilerOptions": { "outDir": "build", "rootDir": "." }\n}\n',
      );
      expect(await cli(['copy-assets'], project.root)).toEqual({
        code: 0,
        stdout: 'toolsmith copy-assets: 5 files copied to build/sdk/\n',
        stderr: '',
      });
      expect(project.snapshot('build/sdk')).toEqual({
        'catalog.json': files['catalog.json'],
        'manifests/openai.json': files['manifests/openai.json'],
        'schemas/a.json': files['schemas/a.json'],
        'validators/a.d.ts': files['validators/a.d.ts'],
        'validators/a.js': files['validators/a.js'],
      });
      project.write('tsconfig.json', '{ "compilerOptions": { "outDir": "build", "rootDir": "src" } }');
      expect((await cli(['copy-assets'], project.root)).stderr).toBe(
        "toolsmith copy-assets: sdk/ is outside the tsconfig's rootDir src/; move it inside, or set rootDir.\n",
      );
    } finally {
      project.dispose();
    }
  });
});

describe('generator package versions', () => {
  it('names a package installed at another major than toolsmith tests with, found as Node resolves it (nearest node_modules up the tree)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'toolsmith-versions-'));
    try {
      const install = (dir: string, name: string, version: string) => {
        mkdirSync(path.join(root, dir, 'node_modules', name), { recursive: true });
        writeFileSync(path.join(root, dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
      };
      install('.', 'json-schema-to-typescript', '15.0.4');
      install('.', 'prettier', GENERATOR_PACKAGES.prettier!.replace(/\.\d+$/, '.99'));
      install('app', 'json-schema-to-typescript', GENERATOR_PACKAGES['json-schema-to-typescript']!);
      install('.', 'handlebars', '5.0.0');
      mkdirSync(path.join(root, 'app/node_modules/toolsmith-sdk/dist'), { recursive: true });
      expect(generatorVersionMismatches(path.join(root, 'app/node_modules/toolsmith-sdk/dist'))).toEqual([
        { name: 'handlebars', installed: '5.0.0', tested: GENERATOR_PACKAGES.handlebars },
      ]);
      expect(generatorVersionMismatches(root, ['prettier', 'json-schema-to-typescript'])).toEqual([
        {
          name: 'json-schema-to-typescript',
          installed: '15.0.4',
          tested: GENERATOR_PACKAGES['json-schema-to-typescript'],
        },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
