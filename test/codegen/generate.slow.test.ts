import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { createTempProject, run, typeCheck, type TempProject } from '../helpers/temp-project.js';

async function generateIn(
  project: TempProject,
  extra: string[] = [],
): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  const code = await main(['generate', ...extra], {
    cwd: project.root,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stderr, stdout };
}

describe('generate on a temporary project with the example schemas', () => {
  let project: TempProject;

  beforeAll(async () => {
    project = createTempProject({ schemas: 'schemas' });
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
    const result = await generateIn(project);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  afterAll(() => project.dispose());

  it('emits every artifact for every tool', () => {
    const files = Object.keys(project.snapshot('generated'));
    for (const stem of [
      'calculator',
      'memory-read',
      'memory-write',
      'read-file',
      'list-directory',
      'get-current-datetime',
      'remember-calculation',
    ]) {
      expect(files).toContain(`types/${stem}.ts`);
      expect(files).toContain(`validators/${stem}.js`);
      expect(files).toContain(`validators/${stem}.d.ts`);
      expect(files).toContain(`tools/${stem}.base.ts`);
    }
    expect(files).toContain('types/shared/memory-entry.ts');
    expect(files).toContain('registry.ts');
    expect(files).toContain('index.ts');
    expect(Object.keys(project.snapshot('src/tools')).sort()).toEqual([
      'calculator.ts',
      'get-current-datetime.ts',
      'list-directory.ts',
      'memory-read.ts',
      'memory-write.ts',
      'read-file.ts',
      'remember-calculation.ts',
    ]);
  });

  it('declares a shared $ref schema once and imports it everywhere', () => {
    const generated = project.snapshot('generated');
    const declaring = Object.entries(generated).filter(([, content]) =>
      /export (interface|type) MemoryEntry\b/.test(content),
    );
    expect(declaring.map(([file]) => file)).toEqual(['types/shared/memory-entry.ts']);
    expect(generated['types/memory-write.ts']).toContain(
      "import type { MemoryEntry, MemoryKey } from './shared/memory-entry.js';",
    );
    expect(Object.values(generated).some((content) => /MemoryEntry1|MemoryKey1/.test(content))).toBe(false);
  });

  it('emits no index signature unless the schema allows additional properties', () => {
    const types = project.snapshot('generated/types');
    for (const content of Object.values(types)) expect(content).not.toContain('[k: string]');
  });

  it('type-checks the output with tsc (strict, NodeNext), stubs included', async () => {
    const result = await typeCheck(project, ['generated', 'src']);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('rejects a wrongly typed call by name at compile time', async () => {
    const call = (args: string) =>
      `import { createToolClient } from '../generated/registry.js';\nimport { ToolOrchestrator } from '${path.posix.join('..', project.runtimeImport)}';\nconst client = createToolClient(new ToolOrchestrator(), { gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' } });\nexport const result = client.call('calculator', ${args});\n`;
    project.write('check/good.ts', call("{ expression: '1+1' }"));
    expect(await typeCheck(project, ['check/good.ts'])).toEqual({ code: 0, output: '' });
    project.write('check/good.ts', call('{ expression: 42 }'));
    const bad = await typeCheck(project, ['check/good.ts']);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/TS2322.*number.*string/s);
    project.write('check/good.ts', call("{ expression: '1', precision: 2, nope: true }"));
    expect((await typeCheck(project, ['check/good.ts'])).output).toContain('nope');
  }, 60_000);

  it('validators import as real ESM, coerce "3" to 3 and fill defaults', async () => {
    project.write(
      'check/validate.mjs',
      `import { validateCalculatorInput } from '../generated/validators/calculator.js';
import { validateMemoryWriteInput } from '../generated/validators/memory-write.js';
const a = { expression: '1+1', precision: '3' };
const okA = validateCalculatorInput(a);
const b = { expression: '1' };
validateCalculatorInput(b);
const c = { key: 'Bad Key', value: 1 };
const okC = validateMemoryWriteInput(c);
console.log(JSON.stringify({ okA, a, b, okC, c, errors: validateMemoryWriteInput.errors }));
`,
    );
    // The validators import their helpers from the runtime, which is TypeScript in this repository.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'check/validate.mjs'], { cwd: project.root });
    const result = JSON.parse(stdout);
    expect(result.okA).toBe(true);
    expect(result.a).toEqual({ expression: '1+1', precision: 3 });
    expect(result.b).toEqual({ expression: '1', precision: 10 });
    expect(result.okC).toBe(false);
    expect(result.c.value).toBe(1); // still invalid after coercing it to "1": the value is put back as sent
    expect(
      result.errors.map((error: { instancePath: string; keyword: string }) => `${error.instancePath} ${error.keyword}`),
    ).toEqual(['/key pattern']);
  });

  it("importing a validator does not load Ajv's compiler", async () => {
    project.write(
      'check/loaded.mjs',
      `import { createRequire } from 'node:module';
await import('../generated/validators/memory-write.js');
await import('../generated/validators/get-current-datetime.js');
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('node_modules'));
console.log(JSON.stringify(loaded.map((file) => file.slice(file.lastIndexOf('node_modules/') + 13))));
`,
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'check/loaded.mjs'], { cwd: project.root });
    const loaded: string[] = JSON.parse(stdout);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((file) => file.startsWith('ajv/') && !file.startsWith('ajv/dist/runtime/'))).toEqual([]);
    expect(loaded.some((file) => file.startsWith('ajv-formats/dist/formats'))).toBe(true);
    expect(
      loaded.filter((file) => file.startsWith('ajv-formats/') && !file.startsWith('ajv-formats/dist/formats')),
    ).toEqual([]);
    // The helpers come through the runtime's one `validatorRuntime` import (bundled in the package), not from ajv directly.
    const source = project.read('generated/validators/memory-write.js');
    expect(source).toMatch(/^import \{ validatorRuntime \} from "[^"]+";$/m);
    expect(source).toContain('validatorRuntime.ucs2length');
    expect(source).not.toMatch(/from "ajv/);
  });

  it('a second generate leaves an edited stub untouched and rewrites nothing', async () => {
    const stub = path.join(project.root, 'src/tools/calculator.ts');
    const edited = `${readFileSync(stub, 'utf8')}\n// edited by hand\n`;
    writeFileSync(stub, edited);
    const before = project.snapshot('generated');
    const result = await generateIn(project);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\(7 unchanged, skipped\), 0 files written/);
    expect(readFileSync(stub, 'utf8')).toBe(edited);
    expect(project.snapshot('generated')).toEqual(before);
  }, 60_000);
});
