import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { configArtifacts } from '../../codegen/config/config-artifacts.js';
import { CONFIG_KEYS, CONFIG_SCHEMA } from '../../codegen/config/config-schema.js';
import { loadConfig } from '../../codegen/config/config.js';
import type { ToolsmithConfig } from '../../codegen/config/generated/config-type.js';
import { defineConfig } from '../../codegen/config/define-config.js';
import { initProject } from '../../codegen/cli/init.js';
import { generatorSettings, optionsFromConfig, resolveOptions, withDefaults } from '../../codegen/config/options.js';
import { emitSettings } from '../../codegen/emit/settings.js';
import { loadTemplates } from '../../codegen/templates/index.js';
import { createTempProject, REPO, type TempProject } from '../helpers/temp-project.js';

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.dispose();
});

function project(): TempProject {
  const made = createTempProject();
  projects.push(made);
  return made;
}

/** A project with one small tool, generating against the repository's runtime. */
function oneToolProject(): TempProject {
  const made = project();
  made.write('schemas/echo.tool.json', {
    name: 'echo',
    description: 'Echoes a text.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  });
  return made;
}

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { cwd, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** `import { defineConfig } from 'toolsmith-sdk/config'` as a temp project can spell it (the repository's source). */
const DEFINE_CONFIG = JSON.stringify(path.join(REPO, 'codegen/config/define-config.ts'));

describe('the config schema', () => {
  it('the committed schema, type and validator are what codegen/config-schema.ts gives (npm run config-schema)', async () => {
    const artifacts = await configArtifacts();
    expect([...artifacts.keys()].sort()).toEqual([
      'codegen/config/generated/config-type.ts',
      'codegen/config/generated/config-validator.ts',
      'toolsmith.config.schema.json',
    ]);
    for (const [file, content] of artifacts) expect(readFileSync(path.join(REPO, file), 'utf8'), file).toBe(content);
    expect(JSON.parse(artifacts.get('toolsmith.config.schema.json')!)).toEqual(CONFIG_SCHEMA);
  });

  it('ships as a draft-07 schema that Ajv compiles and the repository config passes; the type has every key', () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(manifest.files).toContain('toolsmith.config.schema.json');
    expect(manifest.exports['./toolsmith.config.schema.json']).toBe('./toolsmith.config.schema.json');
    expect(manifest.exports['./config'].import).toBe('./dist/codegen/config/define-config.js');
    const schema = JSON.parse(readFileSync(path.join(REPO, 'toolsmith.config.schema.json'), 'utf8'));
    const validate = new Ajv({ strict: true, allErrors: true }).compile(schema);
    const repoConfig = JSON.parse(readFileSync(path.join(REPO, 'toolsmith.config.json'), 'utf8'));
    expect(repoConfig.$schema).toBe('./toolsmith.config.schema.json');
    expect(validate(repoConfig)).toBe(true);
    expect(validate({ ...repoConfig, outt: 'x' })).toBe(false);
    expectTypeOf<keyof ToolsmithConfig>().toEqualTypeOf<(typeof CONFIG_KEYS)[number]>();
    expect(CONFIG_KEYS).toEqual([
      '$schema',
      'schemas',
      'out',
      'stubs',
      'runtimeImport',
      'regenerateCommand',
      'templates',
      'manifests',
      'entry',
      'capabilities',
      'injectedArguments',
      'toolFailureMeta',
      'format',
      'strict',
      'workers',
    ]);
  });

  it('defineConfig is the identity typed by ToolsmithConfig: an unknown or mistyped key does not compile', () => {
    const config = { out: 'sdk', manifests: { targets: ['openai' as const] } };
    expect(defineConfig(config)).toBe(config);
    // @ts-expect-error an unknown key
    defineConfig({ outt: 'sdk' });
    // @ts-expect-error a boolean, not a string
    defineConfig({ format: 'yes' });
    // @ts-expect-error only known manifest targets
    defineConfig({ manifests: { targets: ['gemni'] } });
    expectTypeOf(defineConfig).parameter(0).toEqualTypeOf<ToolsmithConfig>();
  });
});

describe('toolsmith.config.json is checked by the schema, every problem at its line:column', () => {
  it('unknown keys (top level and nested) with "did you mean", wrong types, enum values and limits, all at once', async () => {
    const temp = project();
    temp.write(
      'toolsmith.config.json',
      [
        '{',
        '  "format": "yes",',
        '  "outt": "sdk",',
        '  "workers": 0,',
        '  "schemas": "",',
        '  "manifests": { "tragets": ["openai"], "unrepresentable": "omitt" },',
        '  "capabilities": ["a", 3]',
        '}',
        '',
      ].join('\n'),
    );
    const { config, problems } = await loadConfig(temp.root);
    expect(config).toEqual({});
    const shown = problems
      .map(
        (problem) =>
          `${problem.file}:${problem.line}:${problem.column} ${problem.pointer}: ${problem.message}${problem.hint ? ` | ${problem.hint}` : ''}`,
      )
      .sort();
    expect(shown).toEqual([
      'toolsmith.config.json:2:13 /format: "format" must be true or false, not "yes"',
      'toolsmith.config.json:3:3 /outt: unknown config key "outt" | did you mean `out`?',
      'toolsmith.config.json:4:14 /workers: "workers" must be at least 1, not 0',
      'toolsmith.config.json:5:14 /schemas: "schemas" must not be empty',
      'toolsmith.config.json:6:18 /manifests/tragets: unknown key "tragets" in "manifests" | did you mean `targets`?',
      'toolsmith.config.json:6:60 /manifests/unrepresentable: "manifests.unrepresentable" must be "omit" or "error", not "omitt" | did you mean `omit`?',
      'toolsmith.config.json:7:25 /capabilities/1: "capabilities[1]" must be a string, not 3',
    ]);
  });

  it('from the CLI: exit 1, the problem printed at its position, nothing generated', async () => {
    const temp = oneToolProject();
    temp.write('toolsmith.config.json', '{\n  "runtimeImport": "toolsmith-sdk",\n  "format": "yes"\n}\n');
    const result = await cli(['generate'], temp.root);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      'toolsmith: 1 problem; nothing was written.\ntoolsmith.config.json:3:13 /format: "format" must be true or false, not "yes"\n',
    );
    expect(existsSync(path.join(temp.root, 'generated'))).toBe(false);
  });

  it('a token budget with the token report off is a problem at the budget naming both keys', async () => {
    const temp = project();
    temp.write(
      'toolsmith.config.json',
      '{\n  "manifests": {\n    "tokenReport": false,\n    "tokenBudget": { "mcp": { "total": 10 } }\n  }\n}\n',
    );
    const { problems, config } = await loadConfig(temp.root);
    expect(config).toEqual({});
    const shown = (problem: (typeof problems)[number]) =>
      `${problem.file}:${problem.line}:${problem.column} ${problem.pointer}: ${problem.message}${problem.hint ? ` | ${problem.hint}` : ''}`;
    expect(problems.map(shown)).toEqual([
      `toolsmith.config.json:4:5 /manifests/tokenBudget: "manifests.tokenBudget" is set while "manifests.tokenReport" is false: a budget is judged on the token report's counts, which are then not made | remove \`manifests.tokenBudget\`, or set \`manifests.tokenReport\` to true (its default)`,
    ]);
    temp.write('toolsmith.config.json', { manifests: { tokenReport: true, tokenBudget: { mcp: { total: 10 } } } });
    expect((await loadConfig(temp.root)).problems).toEqual([]);
  });

  it('a key that is no near-typo lists the keys; a config that is not an object says so', async () => {
    const temp = project();
    temp.write('toolsmith.config.json', { zzzzzzzz: 1 });
    const [unknown] = (await loadConfig(temp.root)).problems;
    expect(unknown).toMatchObject({ pointer: '/zzzzzzzz', message: 'unknown config key "zzzzzzzz"' });
    expect(unknown!.hint).toBe(`the keys are: ${CONFIG_KEYS.join(', ')}`);
    temp.write('toolsmith.config.json', '[]\n');
    expect((await loadConfig(temp.root)).problems).toMatchObject([
      { line: 1, column: 1, pointer: '', message: 'the config must be an object, not an array' },
    ]);
  });
});

describe('toolsmith.config.ts and the other module configs', () => {
  it('a toolsmith.config.ts with defineConfig drives generate: its out is where the files go', async () => {
    const temp = oneToolProject();
    temp.write(
      'toolsmith.config.ts',
      `import { defineConfig } from ${DEFINE_CONFIG};
const folder: string = ['s', 'd', 'k'].join('');
export default defineConfig({ out: folder, runtimeImport: ${JSON.stringify(temp.runtimeImport)}, manifests: { targets: ['mcp'] } });
`,
    );
    const result = await cli(['generate'], temp.root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const files = Object.keys(temp.snapshot('sdk'));
    expect(files).toContain('registry.ts');
    expect(files.filter((file) => file.startsWith('manifests/')).sort()).toEqual([
      'manifests/loss-report.json',
      'manifests/loss-report.md',
      'manifests/mcp.json',
      'manifests/mcp.ts',
      'manifests/token-report.json',
    ]);
    expect(existsSync(path.join(temp.root, 'generated'))).toBe(false);
  }, 60_000);

  it('a typo key in a .ts config is reported with its key path and a suggestion; so is a wrong value', async () => {
    const temp = project();
    temp.write(
      'toolsmith.config.ts',
      `export default { outt: 'sdk', manifests: { unrepresentable: 'eror' } } as Record<string, unknown>;\n`,
    );
    const { problems } = await loadConfig(temp.root);
    expect(problems).toEqual([
      {
        file: 'toolsmith.config.ts',
        line: 1,
        column: 1,
        pointer: '/outt',
        message: 'unknown config key "outt"',
        hint: 'did you mean `out`?',
      },
      {
        file: 'toolsmith.config.ts',
        line: 1,
        column: 1,
        pointer: '/manifests/unrepresentable',
        message: '"manifests.unrepresentable" must be "omit" or "error", not "eror"',
        hint: 'did you mean `error`?',
      },
    ]);
  });

  it('.mts, .js and .mjs configs are read too; a function is not a config', async () => {
    const temp = project();
    temp.write('toolsmith.config.mts', 'const out: string = "a";\nexport default { out };\n');
    expect(await loadConfig(temp.root)).toMatchObject({ config: { out: 'a' }, problems: [] });
    const js = project();
    js.write('toolsmith.config.js', 'export default { out: "b", strict: true };\n');
    expect(await loadConfig(js.root)).toMatchObject({ config: { out: 'b', strict: true }, problems: [] });
    const mjs = project();
    mjs.write('toolsmith.config.mjs', 'export default () => ({ out: "c" });\n');
    expect((await loadConfig(mjs.root)).problems).toMatchObject([
      { file: 'toolsmith.config.mjs', pointer: '', message: 'the config must be an object, not a function' },
    ]);
  });

  it('two configs are an error naming both, and nothing is generated', async () => {
    const temp = oneToolProject();
    temp.write('toolsmith.config.json', { out: 'a' });
    temp.write('toolsmith.config.ts', 'export default { out: "b" };\n');
    const result = await cli(['generate'], temp.root);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'toolsmith: 1 problem; nothing was written.\n' +
        'toolsmith.config.json:1:1: 2 config files: toolsmith.config.json and toolsmith.config.ts; toolsmith reads one\n' +
        '    hint: keep one of them and move what the others say into it\n',
    );
    for (const dir of ['a', 'b', 'generated']) expect(existsSync(path.join(temp.root, dir))).toBe(false);
    // --config picks one of them explicitly.
    expect(await loadConfig(temp.root, 'toolsmith.config.ts')).toMatchObject({ config: { out: 'b' }, problems: [] });
  });

  it('a config that throws on import, does not parse or exports nothing is an error naming the file', async () => {
    const temp = project();
    temp.write('toolsmith.config.ts', 'const port: number = 1;\nthrow new Error(`no config on port ${port}`);\n');
    expect((await loadConfig(temp.root)).problems).toEqual([
      {
        file: 'toolsmith.config.ts',
        line: 1,
        column: 1,
        pointer: '',
        message: 'the config could not be loaded: no config on port 1',
        hint: 'fix the config module: toolsmith imports it to read the configuration',
      },
    ]);
    temp.write('toolsmith.config.ts', 'export default {\n  out: "x",\n  bad syntax\n};\n');
    expect((await loadConfig(temp.root)).problems).toMatchObject([
      {
        file: 'toolsmith.config.ts',
        line: 3,
        column: 7,
        message: expect.stringMatching(/^the config could not be loaded: .*Unexpected token/),
      },
    ]);
    temp.write('toolsmith.config.ts', 'export const out = "x";\n');
    expect((await loadConfig(temp.root)).problems).toMatchObject([
      { file: 'toolsmith.config.ts', message: 'the config module has no default export' },
    ]);
    const result = await cli(['check'], temp.root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('toolsmith.config.ts:1:1: the config module has no default export');
  });
});

describe('one mapping from the config (and the flags) to the generator options', () => {
  it('flags win over the config; manifests are renamed; call/serve keys stay out', () => {
    const config: ToolsmithConfig = {
      $schema: './toolsmith.config.schema.json',
      schemas: 'defs',
      out: 'sdk',
      format: false,
      workers: 3,
      entry: 'src/entry.ts',
      capabilities: ['a'],
      manifests: { targets: ['mcp'], unrepresentable: 'error', describeLosses: false, tokenReport: false },
    };
    expect(optionsFromConfig('/project', config, { out: 'other', workers: 1, strict: true })).toEqual({
      root: '/project',
      schemas: 'defs',
      out: 'other',
      format: false,
      strict: true,
      workers: 1,
      manifests: { targets: ['mcp'], unrepresentable: 'error', describeLosses: false, tokenReport: false },
    });
    expect(optionsFromConfig('/project', {})).toEqual({ root: '/project' });
  });
});

describe('settings: the defaults come from config-schema.ts', () => {
  it('fills every declared default, nested ones too, and keeps what is given', () => {
    const settings = generatorSettings({ root: '/p', out: 'sdk', manifests: { inputExamples: 2 } });
    expect(settings).toMatchObject({
      schemas: 'schemas',
      out: 'sdk',
      stubs: 'src/tools',
      runtimeImport: 'toolsmith-sdk',
      regenerateCommand: 'npx --no toolsmith generate',
      format: true,
      strict: false,
      manifests: {
        unrepresentable: 'omit',
        describeLosses: true,
        inputExamples: 2,
        examplesInDescriptions: false,
        tokenReport: true,
      },
    });
    for (const [key, property] of Object.entries(CONFIG_SCHEMA.properties))
      if ('default' in property && key !== 'manifests') expect(settings).toHaveProperty(key);
  });

  it('a declared default reaches the emitters: a key with a default in the schema is in the emit settings', () => {
    const defaulted = Object.entries(CONFIG_SCHEMA.properties).filter(
      ([key, property]) =>
        'default' in property &&
        !['schemas', 'out', 'stubs', 'runtimeImport', 'regenerateCommand', 'strict', 'manifests'].includes(key),
    );
    expect(defaulted.map(([key]) => key)).toContain('format');
    const settings = emitSettings(resolveOptions({ root: '/p' }), loadTemplates(undefined));
    for (const [key, property] of defaulted)
      expect(settings[key as keyof typeof settings]).toEqual((property as { default: unknown }).default);
    expect(emitSettings(resolveOptions({ root: '/p', format: false }), loadTemplates(undefined)).format).toBe(false);
  });

  it('an absent object without a default of its own stays absent (deferLoading is a switch), a present one is filled', () => {
    expect(generatorSettings({ root: '/p' }).manifests.deferLoading).toBeUndefined();
    expect(
      generatorSettings({ root: '/p', manifests: { deferLoading: { loaded: ['a'] } } }).manifests.deferLoading,
    ).toEqual({
      loaded: ['a'],
      anthropicSearch: 'bm25',
      namespaces: false,
    });
    expect(
      generatorSettings({ root: '/p', manifests: { tokenBudget: { mcp: { total: 9 } } } }).manifests.tokenBudget,
    ).toEqual({ mcp: { total: 9 } });
  });

  it('holds only config keys: what a caller adds to the options (root, a callback) is not a setting, so not in the cache key', () => {
    const settings = generatorSettings({ root: '/p', workerThreshold: 3, onProgress: () => {} } as never);
    expect(Object.keys(settings).filter((key) => !Object.hasOwn(CONFIG_SCHEMA.properties, key))).toEqual([]);
    expect(Object.keys(settings)).toContain('format');
  });

  it('never changes the options it is given', () => {
    const options = { root: '/p', manifests: { targets: ['mcp' as const] } };
    const copy = structuredClone(options);
    withDefaults(CONFIG_SCHEMA as never, options);
    generatorSettings(options);
    expect(options).toEqual(copy);
  });
});

describe('--workers', () => {
  it('takes a positive whole number; anything else is a usage error (exit 2) saying what is wanted', async () => {
    const temp = project();
    for (const bad of ['0', '-1', 'two', '1.5', '']) {
      for (const command of ['generate', 'check']) {
        const result = await cli([command, '--workers', bad], temp.root);
        expect(result.code, `${command} --workers ${bad}`).toBe(2);
        expect(result.stderr).toBe(
          `error: option '--workers <n>' argument '${bad}' is invalid. It must be a positive whole number, e.g. --workers 2 (1 emits in process).\n`,
        );
      }
    }
    expect((await cli(['generate', '--help'], temp.root)).stdout).toContain('--workers <n>');
    expect((await cli(['check', '--help'], temp.root)).stdout).toContain('--workers <n>');
  });

  it('reaches generate: --workers 2 is the main thread and one worker thread; the flag wins over the config key', async () => {
    const temp = project();
    for (const name of ['a', 'b', 'c'])
      temp.write(`schemas/${name}.tool.json`, {
        name,
        description: `Tool ${name}.`,
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      });
    temp.write('toolsmith.config.json', { runtimeImport: temp.runtimeImport, format: false, workers: 3 });
    const previous = process.env.TOOLSMITH_WORKER_THRESHOLD;
    process.env.TOOLSMITH_WORKER_THRESHOLD = '1';
    let started = 0;
    // Thread ids only grow: a thread an earlier test started (its run's printing thread) has a smaller one.
    const marker = new Worker('', { eval: true });
    const earlier = marker.threadId;
    await marker.terminate();
    const count = (worker: Worker) => {
      if (worker.threadId > earlier) started++;
    };
    process.on('worker', count);
    try {
      // Each run starts the printing thread of the bases and stubs too (emit/pool/printer.ts): one more.
      expect((await cli(['generate', '--workers', '2'], temp.root)).code).toBe(0);
      expect(started).toBe(1 + 1);
      started = 0;
      // check never uses the cache: every tool is emitted, on the config's three threads (two workers) …
      expect((await cli(['check'], temp.root)).code).toBe(0);
      expect(started).toBe(2 + 1);
      started = 0;
      // … or in process with --workers 1.
      expect((await cli(['check', '--workers', '1'], temp.root)).code).toBe(0);
      expect(started).toBe(0 + 1);
    } finally {
      process.off('worker', count);
      if (previous === undefined) delete process.env.TOOLSMITH_WORKER_THRESHOLD;
      else process.env.TOOLSMITH_WORKER_THRESHOLD = previous;
    }
  }, 120_000);
});

describe('toolsmith init and the config', () => {
  it('writes a config whose $schema is the schema the package ships, and refuses when a toolsmith.config.ts exists', async () => {
    const temp = project();
    const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(initProject(temp.root).conflicts).toEqual([]);
    expect(JSON.parse(temp.read('toolsmith.config.json'))).toEqual({
      $schema: `./node_modules/toolsmith-sdk/${manifest.exports['./toolsmith.config.schema.json'].slice(2)}`,
      schemas: 'schemas',
      out: 'generated',
      stubs: 'src/tools',
      capabilities: [],
    });
    expect(await loadConfig(temp.root)).toMatchObject({ problems: [] });
    const other = project();
    other.write('toolsmith.config.ts', 'export default {};\n');
    expect(initProject(other.root)).toMatchObject({ created: [], conflicts: ['toolsmith.config.ts'] });
    expect(existsSync(path.join(other.root, 'toolsmith.config.json'))).toBe(false);
  });
});
