import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTER_CONSUMER } from './helpers/adapter-consumer.js';
import { REPO } from './helpers/temp-project.js';

const exec = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/**
 * The path a user takes: pack, install the tarball into a fresh project (from npm's cache — no
 * network beyond what `npm ci` fetched), init, generate, implement the stub in one line, type-check
 * (strict, NodeNext) and call the tool through the orchestrator.
 */
describe('toolsmith as an installed package', () => {
  let dir: string;
  let project: string;
  const run = async (command: string, args: string[]) => {
    const { stdout, stderr } = await exec(command, args, { cwd: project, env: { ...process.env, npm_config_update_notifier: 'false' }, maxBuffer: 16 * 1024 * 1024 });
    return { stdout, stderr };
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'toolsmith-package-'));
    project = path.join(dir, 'project');
    mkdirSync(project);
    await exec(npm, ['pack', '--pack-destination', dir], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }, null, 2));
    const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8'));
    const pinned = (name: string) => `${name}@${lock.packages[`node_modules/${name}`].version}`;
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, tarball), pinned('typescript'), pinned('@types/node')]);
  }, 240_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has a clean exports map (@arethetypeswrong/cli, ESM-only profile)', async () => {
    const { stdout } = await exec(npx, ['attw', '--pack', '.', '--profile', 'esm-only', '--format', 'ascii'], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).toContain('"toolsmith/codegen"');
    expect(stdout).not.toMatch(/^(node16 \(from ESM\)|bundler): (?!🟢)/m);
  }, 240_000);

  it('ships only what users need', () => {
    const installed = path.join(project, 'node_modules/toolsmith');
    expect(readdirSync(installed).sort()).toEqual(['ARCHITECTURE.md', 'README.md', 'bin', 'dist', 'package.json', 'tool-definition.schema.json']);
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    for (const condition of Object.values(manifest.exports) as Array<string | Record<string, string>>) {
      if (typeof condition === 'object') expect(Object.keys(condition)[0]).toBe('types');
    }
    expect(manifest.sideEffects).toBe(false);
  });

  it('a runtime-only install has no generator packages, and generate says how to add them', async () => {
    const installed = readdirSync(path.join(project, 'node_modules'));
    for (const name of ['ts-morph', 'json-schema-to-typescript', 'prettier', 'handlebars']) expect(installed).not.toContain(name);
    expect(installed).toEqual(expect.arrayContaining(['ajv', 'ajv-formats', 'toolsmith']));
    mkdirSync(path.join(project, 'schemas'));
    const failed = await run(npx, ['toolsmith', 'generate']).catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("the generator's packages are not installed");
    expect(failed.stderr).toMatch(/hint: npm install --save-dev --save-exact json-schema-to-typescript@16\.0\.0 ts-morph@28\.0\.0/);
    rmSync(path.join(project, 'schemas'), { recursive: true });
  });

  it('init scaffolds, refuses to overwrite, and generate + tsc + a typed call work', async () => {
    const init = await run(npx, ['toolsmith', 'init']);
    expect(init.stdout).toContain('created schemas/greet.tool.json, toolsmith.config.json');
    expect(init.stdout).toContain('added devDependencies json-schema-to-typescript, ts-morph, prettier, handlebars, chokidar, tsx');
    const definition = JSON.parse(readFileSync(path.join(project, 'schemas/greet.tool.json'), 'utf8'));
    expect(definition.$schema).toBe('../node_modules/toolsmith/tool-definition.schema.json');
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
    expect(manifest.scripts).toEqual({ generate: 'toolsmith generate', 'generate:check': 'toolsmith check' });
    expect(manifest.devDependencies['ts-morph']).toBe('28.0.0');
    await expect(run(npx, ['toolsmith', 'init'])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('refusing to overwrite schemas/greet.tool.json') });
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund']);

    const generate = await run(npm, ['run', 'generate']);
    expect(generate.stdout).toMatch(/1 tools .* 1 stubs created/);
    expect(readFileSync(path.join(project, 'generated/tools/greet.base.ts'), 'utf8')).toContain("from 'toolsmith'");

    const stub = path.join(project, 'src/tools/greet.ts');
    const implemented = readFileSync(stub, 'utf8').replace(
      /void args;\s*return \{ success: false[^\n]*\n/,
      "return { success: true, output: { greeting: `${{ en: 'Hello', fr: 'Bonjour', de: 'Hallo' }[args.language ?? 'en']}, ${args.name}!` } };\n",
    );
    expect(implemented).not.toEqual(readFileSync(stub, 'utf8'));
    writeFileSync(stub, implemented);
    writeFileSync(
      path.join(project, 'main.ts'),
      `import { ToolOrchestrator } from 'toolsmith';
import { createToolClient, createTools } from './generated/registry.js';

const orchestrator = new ToolOrchestrator({ tools: createTools() });
const client = createToolClient(orchestrator, { gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' } });
const result = await client.call('greet', { name: 'Ada', language: 'fr' });
const greeting: string | undefined = result.output?.greeting;
console.log(JSON.stringify({ greeting, isError: result.isError }));
`,
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'] }, include: ['generated', 'src', 'main.ts'] }),
    );
    const tsc = await run(path.join(project, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'tsconfig.json']).catch((error) => error);
    expect(`${tsc.stdout ?? ''}${tsc.stderr ?? ''}`).toBe('');

    const called = await run(process.execPath, ['--import', 'tsx', 'main.ts']);
    expect(JSON.parse(called.stdout)).toEqual({ greeting: 'Bonjour, Ada!', isError: false });

    const check = await run(npm, ['run', 'generate:check']);
    expect(check.stdout).toContain('up to date');
  }, 240_000);

  /**
   * The framework adapters as installed: the same tarball in a second project with each framework
   * (pinned as in the lockfile, from npm's cache); a consumer of the three subpath exports
   * type-checks (strict, NodeNext) and runs. Here rather than in a file of its own because packing
   * builds dist/, which two files packing at once would race on.
   */
  describe('with the agent frameworks', () => {
    let adapters: string;
    const runIn = (command: string, args: string[]) => exec(command, args, { cwd: adapters, env: { ...process.env, npm_config_update_notifier: 'false' }, maxBuffer: 16 * 1024 * 1024 });

    beforeAll(async () => {
      adapters = path.join(dir, 'adapters');
      mkdirSync(adapters);
      writeFileSync(path.join(adapters, 'package.json'), JSON.stringify({ name: 'adapter-user', private: true, type: 'module' }, null, 2));
      const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8'));
      const pinned = (name: string) => `${name}@${lock.packages[`node_modules/${name}`].version}`;
      const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
      const packages = ['typescript', '@types/node', 'ai', '@openai/agents', '@langchain/core', 'zod'].map(pinned);
      await runIn(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, tarball), ...packages]);
    }, 240_000);

    it('the runtime bundle imports no framework', () => {
      const bundle = readFileSync(path.join(adapters, 'node_modules/toolsmith/dist/src/index.js'), 'utf8');
      expect(bundle).not.toMatch(/from\s*["'](ai|@openai\/agents[^"']*|@langchain\/[^"']*|langchain)["']/);
      expect(bundle).not.toMatch(/import\(\s*["'](ai|@openai|@langchain)/);
    });

    it('a consumer of toolsmith/ai-sdk, toolsmith/openai-agents and toolsmith/langchain type-checks and runs', async () => {
      writeFileSync(path.join(adapters, 'main.ts'), ADAPTER_CONSUMER);
      writeFileSync(
        path.join(adapters, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'] }, include: ['main.ts'] }),
      );
      const tsc = await runIn(path.join(adapters, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']).catch((error) => error);
      expect(`${tsc.stdout ?? ''}${tsc.stderr ?? ''}`).toBe('');
      const { stdout } = await runIn(process.execPath, ['out/main.js']);
      expect(JSON.parse(stdout)).toEqual({
        ai: { greeting: 'Hello, Ada!' },
        agents: { greeting: 'Hello, Bob!' },
        agentsStrict: true,
        langchain: { greeting: 'Hello, Cy!' },
        name: 'greet',
      });
    }, 120_000);
  });
});
