import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_PACKAGES, GENERATOR_PACKAGES } from '../codegen/cli/generator-packages.js';
import { ADAPTER_CONSUMER } from './helpers/adapter-consumer.js';
import { REPO } from './helpers/temp-project.js';

const exec = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/**
 * The path a user takes: pack, install the tarball into a fresh project (from npm's cache — no
 * network beyond what `npm ci` fetched), init, generate, implement the stub in one line, type-check
 * and build with the tsconfig init wrote, install for production (`npm ci --omit=dev`), then call
 * the tool with plain node from `dist/`, through `toolsmith call`, and through `toolsmith serve`
 * answering the official MCP SDK client — with neither the generator nor tsx installed.
 */
describe('toolsmith as an installed package', () => {
  let dir: string;
  let project: string;
  const run = async (command: string, args: string[]) => {
    const { stdout, stderr } = await exec(command, args, {
      cwd: project,
      env: { ...process.env, npm_config_update_notifier: 'false' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { stdout, stderr };
  };
  /** The installed CLI run with plain node (no tsx flag, no loader but what bin/toolsmith.js registers). */
  const toolsmith = (args: string[]) =>
    run(process.execPath, [path.join(project, 'node_modules/toolsmith-sdk/bin/toolsmith.js'), ...args]);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'toolsmith-package-'));
    project = path.join(dir, 'project');
    mkdirSync(project);
    await exec(npm, ['pack', '--pack-destination', dir], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
    // Published as toolsmith-sdk: the registry's `toolsmith` is an unrelated package.
    expect(tarball).toBe(
      `toolsmith-sdk-${JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version}.tgz`,
    );
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'user-project', private: true, type: 'module' }, null, 2),
    );
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, tarball)]);
  }, 240_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has a clean exports map (@arethetypeswrong/cli, ESM-only profile)', async () => {
    const { stdout } = await exec(npx, ['attw', '--pack', '.', '--profile', 'esm-only', '--format', 'ascii'], {
      cwd: REPO,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toContain('"toolsmith-sdk/codegen"');
    expect(stdout).not.toMatch(/^(node16 \(from ESM\)|bundler): (?!🟢)/m);
  }, 240_000);

  it('ships only what users need', () => {
    const installed = path.join(project, 'node_modules/toolsmith-sdk');
    expect(readdirSync(installed).sort()).toEqual([
      'ARCHITECTURE.md',
      'README.md',
      'bin',
      'dist',
      'package.json',
      'tool-definition.schema.json',
      'toolsmith.config.schema.json',
    ]);
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    for (const condition of Object.values(manifest.exports) as Array<string | Record<string, string>>) {
      if (typeof condition === 'object') expect(Object.keys(condition)[0]).toBe('types');
    }
    expect(manifest.sideEffects).toBe(false);
  });

  it('a runtime-only install has no generator packages; generate says how to add them, call and serve say to generate', async () => {
    const installed = readdirSync(path.join(project, 'node_modules'));
    for (const name of [...Object.keys(GENERATOR_PACKAGES), ...Object.keys(BUILD_PACKAGES)])
      expect(installed).not.toContain(name.split('/')[0]);
    expect(installed).toEqual(expect.arrayContaining(['ajv', 'ajv-formats', 'toolsmith-sdk']));
    mkdirSync(path.join(project, 'schemas'));
    const failed = await run(npx, ['--no', 'toolsmith', 'generate']).catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("the generator's packages are not installed");
    expect(failed.stderr).toMatch(
      /hint: npm install --save-dev --save-exact json-schema-to-typescript@16\.0\.0 prettier@3\.10\.1/,
    );
    // --watch --update-stubs also needs chokidar and ts-morph: said before anything is watched.
    const watching = await run(npx, ['--no', 'toolsmith', 'generate', '--watch', '--update-stubs']).catch((e) => e);
    expect(watching).toMatchObject({ code: 1, stdout: '' });
    expect(watching.stderr).toContain(
      'missing: json-schema-to-typescript, prettier, handlebars, gpt-tokenizer, ts-morph, chokidar',
    );
    rmSync(path.join(project, 'schemas'), { recursive: true });
    for (const command of ['call', 'serve']) {
      const early = await toolsmith(command === 'call' ? ['call', 'greet', '{}'] : ['serve']).catch((error) => error);
      expect(early).toMatchObject({ code: 1, stdout: '' });
      expect(early.stderr).toBe(
        `toolsmith ${command}: neither generated/registry.ts nor dist/generated/registry.js exists. Run \`npx --no toolsmith generate\` first (and \`npm run build\` for a production install).\n`,
      );
    }
  });

  it('init scaffolds, refuses to overwrite; generate, tsc and a typed call work; the build runs with plain node after npm ci --omit=dev, and so do call and serve', async () => {
    const init = await run(npx, ['--no', 'toolsmith', 'init']);
    expect(init.stdout).toContain('created schemas/greet.tool.json, toolsmith.config.json, tsconfig.json');
    expect(init.stdout).toContain(
      'added devDependencies json-schema-to-typescript, prettier, handlebars, chokidar, tsx, gpt-tokenizer, ts-morph, typescript, @types/node',
    );
    const definition = JSON.parse(readFileSync(path.join(project, 'schemas/greet.tool.json'), 'utf8'));
    expect(definition.$schema).toBe('../node_modules/toolsmith-sdk/tool-definition.schema.json');
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
    expect(manifest.scripts).toEqual({
      generate: 'toolsmith generate',
      'generate:check': 'toolsmith check',
      build: 'tsc -p tsconfig.json && toolsmith copy-assets',
    });
    expect(manifest.devDependencies).toEqual({ ...GENERATOR_PACKAGES, ...BUILD_PACKAGES });
    expect(Object.keys(manifest.dependencies)).toEqual(['toolsmith-sdk']);
    await expect(run(npx, ['--no', 'toolsmith', 'init'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('refusing to overwrite schemas/greet.tool.json'),
    });
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund']);

    const generate = await run(npm, ['run', 'generate']);
    expect(generate.stdout).toMatch(/1 tools .* 1 stubs created/);
    expect(readFileSync(path.join(project, 'generated/tools/greet.base.ts'), 'utf8')).toContain("from 'toolsmith-sdk'");

    const stub = path.join(project, 'src/tools/greet.ts');
    const implemented = readFileSync(stub, 'utf8').replace(
      /void args;\s*return \{ success: false[^\n]*\n/,
      "return { success: true, output: { greeting: `${{ en: 'Hello', fr: 'Bonjour', de: 'Hallo' }[args.language ?? 'en']}, ${args.name}!` } };\n",
    );
    expect(implemented).not.toEqual(readFileSync(stub, 'utf8'));
    writeFileSync(stub, implemented);
    writeFileSync(
      path.join(project, 'src/main.ts'),
      `import { ToolOrchestrator } from 'toolsmith-sdk';
import { createToolClient, createTools } from '../generated/registry.js';
import { createLazyTools } from '../generated/lazy-registry.js';

for (const tools of [createTools(), createLazyTools()]) {
  const orchestrator = new ToolOrchestrator({ tools });
  const client = createToolClient(orchestrator, { gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' } });
  const result = await client.call('greet', { name: 'Ada', language: 'fr' });
  const greeting: string | undefined = result.output?.greeting;
  console.log(JSON.stringify({ greeting, isError: result.isError, description: orchestrator.listTools()[0]?.description }));
}
`,
    );
    // An entry module for call and serve: an approval gate that rejects every call.
    writeFileSync(
      path.join(project, 'src/reject-all.ts'),
      `import type { ToolOrchestratorOptions } from 'toolsmith-sdk';
export default { requireApproval: 'always', approvalGate: async () => ({ approved: false, reason: 'no calls today' }) } satisfies ToolOrchestratorOptions;
`,
    );
    const typeCheck = await run(path.join(project, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'tsconfig.json']).catch(
      (error) => error,
    );
    expect(`${typeCheck.stdout ?? ''}${typeCheck.stderr ?? ''}`).toBe('');
    const expected = [
      { greeting: 'Bonjour, Ada!', isError: false, description: definition.description },
      { greeting: 'Bonjour, Ada!', isError: false, description: definition.description },
    ];
    const lines = (stdout: string) =>
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
    expect(lines((await run(process.execPath, ['--import', 'tsx', 'src/main.ts'])).stdout)).toEqual(expected);
    expect((await run(npm, ['run', 'generate:check'])).stdout).toContain('up to date');

    // The config as toolsmith.config.ts, typed by defineConfig from toolsmith-sdk/config: tsc checks it
    // (a typo does not compile), and check reads it (its manifest targets make the output differ).
    const jsonConfig = path.join(project, 'toolsmith.config.json');
    const tsConfig = path.join(project, 'toolsmith.config.ts');
    const initConfig = JSON.parse(readFileSync(jsonConfig, 'utf8'));
    expect(readFileSync(path.join(project, initConfig.$schema), 'utf8')).toContain('"workers"');
    renameSync(jsonConfig, path.join(dir, 'toolsmith.config.json'));
    const typedConfig = (body: string) =>
      writeFileSync(
        tsConfig,
        `import { defineConfig } from 'toolsmith-sdk/config';\nexport default defineConfig(${body});\n`,
      );
    writeFileSync(
      path.join(project, 'tsconfig.config.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { noEmit: true },
        include: ['toolsmith.config.ts'],
      }),
    );
    const tscConfig = () =>
      run(path.join(project, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.config.json']).catch((error) => error);
    typedConfig("{ outt: 'generated' }");
    expect((await tscConfig()).stdout).toContain("'outt' does not exist in type 'ToolsmithConfig'");
    typedConfig("{ capabilities: [], manifests: { targets: ['mcp'] } }");
    const typed = await tscConfig();
    expect(`${typed.stdout ?? ''}${typed.stderr ?? ''}`).toBe('');
    const drift = await run(npm, ['run', 'generate:check']).catch((error) => error);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('extra:   generated/manifests/openai.json');
    rmSync(tsConfig);
    rmSync(path.join(project, 'tsconfig.config.json'));
    renameSync(path.join(dir, 'toolsmith.config.json'), jsonConfig);

    const build = await run(npm, ['run', 'build']);
    expect(build.stderr).toBe('');
    expect(build.stdout).toContain('toolsmith copy-assets: 13 files copied to dist/generated/');
    for (const file of [
      'generated/registry.js',
      'generated/lazy-registry.js',
      'generated/validators/greet.js',
      'generated/catalog.json',
      'generated/schemas/greet.json',
      'generated/manifests/mcp.json',
      'src/main.js',
      'src/tools/greet.js',
    ]) {
      expect(readdirSync(path.join(project, 'dist', path.dirname(file)))).toContain(path.basename(file));
    }

    // Production: only the runtime is installed (nothing dev, nothing devOptional), and the build runs with plain node.
    await run(npm, ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund']);
    const installed = readdirSync(path.join(project, 'node_modules'));
    for (const name of [...Object.keys(GENERATOR_PACKAGES), ...Object.keys(BUILD_PACKAGES), 'esbuild'])
      expect(installed).not.toContain(name.split('/')[0]);
    const lock = JSON.parse(readFileSync(path.join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
    };
    const kept = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && !entry.dev && !entry.devOptional)
      .map(([name]) => name.replace(/^node_modules\//, ''));
    expect(
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.devOptional)
        .map(([name]) => name),
    ).toEqual([]);
    expect(kept).toEqual(
      expect.arrayContaining(['toolsmith-sdk', 'ajv', 'ajv-formats', '@modelcontextprotocol/server']),
    );
    expect(kept).not.toContain('@modelcontextprotocol/sdk');
    expect(lines((await run(process.execPath, ['dist/src/main.js'])).stdout)).toEqual(expected);

    const called = await toolsmith(['call', 'greet', '{"name":"Ada","language":"de"}']);
    expect(JSON.parse(called.stdout)).toMatchObject({
      toolName: 'greet',
      isError: false,
      output: { greeting: 'Hallo, Ada!' },
    });
    // The copied standalone validator checks the input: minLength 1, at the JSON pointer.
    const invalid = await toolsmith(['call', 'greet', '{"name":""}']).catch((error) => error);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stdout).errorDetails).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      details: { errors: [expect.objectContaining({ path: '/name', keyword: 'minLength' })] },
    });
    const rejected = await toolsmith(['call', 'greet', '{"name":"Ada"}', '--entry', 'src/reject-all.ts']).catch(
      (error) => error,
    );
    expect(rejected.code).toBe(1);
    expect(JSON.parse(rejected.stdout).errorDetails).toMatchObject({
      code: 'APPROVAL_REJECTED',
      details: { reason: 'no calls today' },
    });

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(project, 'node_modules/toolsmith-sdk/bin/toolsmith.js'), 'serve'],
      cwd: project,
      stderr: 'pipe',
    });
    let serveErrors = '';
    transport.stderr?.on('data', (chunk: Buffer) => (serveErrors += chunk.toString('utf8')));
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(['greet']);
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Bob' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ greeting: 'Hello, Bob!' });
    } finally {
      await client.close();
    }
    expect(serveErrors).toBe('');

    // serve takes the entry module too: its gate rejects the call, which the client gets as a tool error.
    const gated = new Client({ name: 'package-test-entry', version: '1.0.0' });
    await gated.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          path.join(project, 'node_modules/toolsmith-sdk/bin/toolsmith.js'),
          'serve',
          '--entry',
          'src/reject-all.ts',
        ],
        cwd: project,
      }),
    );
    try {
      const result = await gated.callTool({ name: 'greet', arguments: { name: 'Bob' } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('no calls today');
    } finally {
      await gated.close();
    }

    // A build without copy-assets: call says to run it instead of Node's ERR_MODULE_NOT_FOUND trace.
    renameSync(path.join(project, 'dist/generated/validators'), path.join(project, 'validators-away'));
    const uncopied = await toolsmith(['call', 'greet', '{"name":"Ada"}']).catch((error) => error);
    renameSync(path.join(project, 'validators-away'), path.join(project, 'dist/generated/validators'));
    expect(uncopied).toMatchObject({ code: 1, stdout: '' });
    expect(uncopied.stderr).toBe(
      'toolsmith call: dist/generated/validators/greet.js is missing from the build: tsc does not emit the generated validators. Run `npx --no toolsmith copy-assets` after tsc (the `build` script toolsmith init writes does).\n',
    );

    // Without tsx and without a build, call says what to do instead of Node's ERR_UNKNOWN_FILE_EXTENSION.
    renameSync(path.join(project, 'dist'), path.join(project, 'dist-away'));
    const unbuilt = await toolsmith(['call', 'greet', '{"name":"Ada"}']).catch((error) => error);
    renameSync(path.join(project, 'dist-away'), path.join(project, 'dist'));
    expect(unbuilt).toMatchObject({ code: 1, stdout: '' });
    expect(unbuilt.stderr).toBe(
      'toolsmith call: generated/registry.ts is TypeScript, which node runs only with tsx, and it is not built. For production, build it (`npm run build` writes dist/generated/registry.js); in development, install tsx (npm install --save-dev tsx).\n',
    );

    // A toolsmith.config.ts in a production install (no tsx): read through jiti; its entry rejects the call.
    renameSync(path.join(project, 'toolsmith.config.json'), path.join(dir, 'toolsmith.config.json'));
    writeFileSync(
      path.join(project, 'toolsmith.config.ts'),
      "import { defineConfig } from 'toolsmith-sdk/config';\nconst entry: string = 'src/reject-all.ts';\nexport default defineConfig({ entry });\n",
    );
    const configured = await toolsmith(['call', 'greet', '{"name":"Ada"}']).catch((error) => error);
    expect(configured.code).toBe(1);
    expect(JSON.parse(configured.stdout).errorDetails).toMatchObject({ code: 'APPROVAL_REJECTED' });
    // With the JSON config back beside it, both are named.
    renameSync(path.join(dir, 'toolsmith.config.json'), path.join(project, 'toolsmith.config.json'));
    const twoConfigs = await toolsmith(['call', 'greet', '{"name":"Ada"}']).catch((error) => error);
    expect(twoConfigs).toMatchObject({ code: 1, stdout: '' });
    expect(twoConfigs.stderr).toContain(
      'toolsmith.config.json:1:1: 2 config files: toolsmith.config.json and toolsmith.config.ts; toolsmith reads one',
    );
  }, 300_000);

  /**
   * The framework adapters as installed: the same tarball in a second project with each framework
   * (pinned as in the lockfile, from npm's cache); a consumer of the three subpath exports
   * type-checks (strict, NodeNext) and runs. Here rather than in a file of its own because packing
   * builds dist/, which two files packing at once would race on.
   */
  describe('with the agent frameworks', () => {
    let adapters: string;
    const runIn = (command: string, args: string[]) =>
      exec(command, args, {
        cwd: adapters,
        env: { ...process.env, npm_config_update_notifier: 'false' },
        maxBuffer: 16 * 1024 * 1024,
      });

    beforeAll(async () => {
      adapters = path.join(dir, 'adapters');
      mkdirSync(adapters);
      writeFileSync(
        path.join(adapters, 'package.json'),
        JSON.stringify({ name: 'adapter-user', private: true, type: 'module' }, null, 2),
      );
      const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8'));
      const pinned = (name: string) => `${name}@${lock.packages[`node_modules/${name}`].version}`;
      const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
      const packages = ['typescript', '@types/node', 'ai', '@openai/agents', '@langchain/core', 'zod'].map(pinned);
      await runIn(npm, [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        path.join(dir, tarball),
        ...packages,
      ]);
    }, 240_000);

    it('the runtime bundle imports no framework', () => {
      const bundle = readFileSync(path.join(adapters, 'node_modules/toolsmith-sdk/dist/src/index.js'), 'utf8');
      expect(bundle).not.toMatch(/from\s*["'](ai|@openai\/agents[^"']*|@langchain\/[^"']*|langchain)["']/);
      expect(bundle).not.toMatch(/import\(\s*["'](ai|@openai|@langchain)/);
    });

    it('a consumer of toolsmith-sdk/ai-sdk, toolsmith-sdk/openai-agents and toolsmith-sdk/langchain type-checks and runs', async () => {
      writeFileSync(path.join(adapters, 'main.ts'), ADAPTER_CONSUMER);
      writeFileSync(
        path.join(adapters, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            skipLibCheck: true,
            outDir: 'out',
            types: ['node'],
          },
          include: ['main.ts'],
        }),
      );
      const tsc = await runIn(path.join(adapters, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']).catch(
        (error) => error,
      );
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
