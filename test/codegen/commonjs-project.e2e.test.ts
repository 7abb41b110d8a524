/*
 * A fresh npm 11 project is CommonJS (`npm init -y` writes `"type": "commonjs"`), while toolsmith's
 * generated code is ES modules. Real processes: npm, and the toolsmith CLI (`bin/toolsmith.js`) in
 * the project folder.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempProject, REPO, run, typeCheckFolder, type TempProject } from '../helpers/temp-project.js';

const BIN = path.join(REPO, 'bin/toolsmith.js');

/** A process's exit code and output (a failed exit is an answer here, not an error). */
async function exec(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

const toolsmith = (project: TempProject, ...args: string[]) => exec(process.execPath, [BIN, ...args], project.root);
const npm = (project: TempProject, ...args: string[]) => exec('npm', args, project.root);
const packageType = (project: TempProject) => JSON.parse(project.read('package.json')).type as unknown;

/** A temp project (the repository's packages linked in) whose package.json is `npm init -y`'s. */
async function npmInitProject(): Promise<TempProject> {
  const project = createTempProject();
  rmSync(path.join(project.root, 'package.json'));
  expect((await npm(project, 'init', '-y')).code).toBe(0);
  expect(packageType(project)).toBe('commonjs');
  return project;
}

const FIX =
  'Make the project ES modules: `npm pkg set type=module` (code of your own that uses require() then needs import, or a .cjs name).';

describe('a CommonJS project (npm 11: npm init -y)', () => {
  let project: TempProject | undefined;
  afterEach(() => project?.dispose());

  it('without code of its own: init makes it ES modules and says so; call and serve in it made CommonJS again print the fix, not a stack', async () => {
    project = await npmInitProject();
    const init = await toolsmith(project, 'init');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      `Set "type": "module" in package.json (it had "type": "commonjs"): toolsmith's generated code is ES modules.`,
    );
    expect(packageType(project)).toBe('module');
    const config = JSON.parse(project.read('toolsmith.config.json'));
    project.write('toolsmith.config.json', { ...config, runtimeImport: project.runtimeImport });
    expect((await toolsmith(project, 'generate')).code).toBe(0);
    // The generated code type-checks as ES modules; as CommonJS it is TS1470 (import.meta).
    const esm = await typeCheckFolder(project.root, ['src', 'generated']);
    expect(esm.output).toBe('');

    expect((await npm(project, 'pkg', 'set', 'type=commonjs')).code).toBe(0);
    expect((await typeCheckFolder(project.root, ['src', 'generated'])).output).toContain('TS1470');
    const call = await toolsmith(project, 'call', 'greet', '{"name":"Ada"}');
    expect(call).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'toolsmith call: package.json has "type": "commonjs", so Node loads generated/registry.ts as CommonJS, ' +
        `but toolsmith's generated code is ES modules (import.meta, top-level await). ${FIX}\n`,
    });
    const serve = await toolsmith(project, 'serve');
    expect(serve.code).toBe(1);
    expect(serve.stderr).toBe(call.stderr.replace('toolsmith call:', 'toolsmith serve:'));

    // The printed fix, run as printed: the call reaches the tool (its stub says it is not implemented).
    expect((await npm(project, 'pkg', 'set', 'type=module')).code).toBe(0);
    const fixed = await toolsmith(project, 'call', 'greet', '{"name":"Ada"}');
    expect(JSON.parse(fixed.stdout).errorDetails).toEqual({
      code: 'TOOL_FAILED',
      message: "Tool 'greet' failed: greet is not implemented yet: write its execute() in greet.ts",
    });
  });

  it('with code of its own: init refuses, printing the exact fix, and writes nothing', async () => {
    project = await npmInitProject();
    project.write('src/index.js', 'module.exports = 42;\n');
    const manifest = project.read('package.json');
    const init = await toolsmith(project, 'init');
    expect(init).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'toolsmith init: package.json has "type": "commonjs" and code of its own (src/index.js), which ' +
        `"type": "module" would load as ES modules; toolsmith's generated code is ES modules (import.meta, ` +
        'top-level await). Make the project ES modules first: `npm pkg set type=module`, with that code using ' +
        'import/export (or renamed .cjs/.cts), then run init again. Nothing was written.\n',
    });
    expect(project.read('package.json')).toBe(manifest);
    expect(readdirSync(project.root).sort()).toEqual(['node_modules', 'package.json', 'src']);
    expect(readFileSync(path.join(project.root, 'src/index.js'), 'utf8')).toBe('module.exports = 42;\n');
  });
});
