import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli.js';
import { BUILD_PACKAGES, GENERATOR_PACKAGES } from '../../codegen/generator-packages.js';
import { initProject, TSCONFIG } from '../../codegen/init.js';

describe('toolsmith init', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'toolsmith-init-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

  it('writes the tsconfig a plain-node build needs, the build script, and the compiler and Node types as devDependencies', () => {
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'app', type: 'module', dependencies: { toolsmith: '0.1.0' }, scripts: { test: 'vitest' } }));
    const report = initProject(root);
    expect(report).toEqual({
      created: ['schemas/greet.tool.json', 'toolsmith.config.json', 'tsconfig.json'],
      scripts: ['generate', 'generate:check', 'build'],
      devDependencies: [...Object.keys(GENERATOR_PACKAGES), 'typescript', '@types/node'],
      kept: [],
      conflicts: [],
    });
    expect(read('tsconfig.json')).toBe(TSCONFIG);
    expect(parse(TSCONFIG)).toEqual({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        types: ['node'],
        skipLibCheck: true,
        allowJs: true,
        resolveJsonModule: true,
        outDir: 'dist',
        rootDir: '.',
      },
      include: ['src', 'generated', 'generated/**/*.json'],
    });
    const manifest = JSON.parse(read('package.json'));
    expect(manifest.scripts).toEqual({ test: 'vitest', generate: 'toolsmith generate', 'generate:check': 'toolsmith check', build: 'tsc -p tsconfig.json' });
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
    expect(stdout).toContain('Kept your tsconfig.json: a build that runs with plain node needs tsc with "allowJs": true, "resolveJsonModule": true and "generated/**/*.json" in "include"');
  });

  it('keeps a different build script, and refuses, writing nothing, when a different generate script exists', async () => {
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'app', scripts: { build: 'vite build' } }));
    let stdout = '';
    expect(await main(['init'], { cwd: root, stdout: (text) => (stdout += text), stderr: () => undefined })).toBe(0);
    expect(JSON.parse(read('package.json')).scripts).toEqual({ build: 'vite build', generate: 'toolsmith generate', 'generate:check': 'toolsmith check' });
    expect(stdout).toContain('added npm scripts generate, generate:check;');
    expect(stdout).toContain('Kept your package.json scripts.build: a build that runs with plain node needs tsc with "allowJs": true');

    rmSync(root, { recursive: true, force: true });
    root = mkdtempSync(path.join(tmpdir(), 'toolsmith-init-'));
    const manifest = JSON.stringify({ name: 'app', scripts: { generate: 'my-codegen' } });
    writeFileSync(path.join(root, 'package.json'), manifest);
    const report = initProject(root);
    expect(report.conflicts).toEqual(['package.json scripts.generate']);
    expect(read('package.json')).toBe(manifest);
    expect(() => read('tsconfig.json')).toThrow(/ENOENT/);
  });
});
