/**
 * Generate meets hostile input: every case ends in valid output or a clear problem with the file,
 * its line:column and a JSON pointer — never a crash, a hang or a raw errno trace — and a failed
 * run writes nothing. Each describe block is one class of input; each test one case of it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { createTempProject, REPO, run, typeCheck, type TempProject } from '../helpers/temp-project.js';

/** Every `Object.prototype` member that is also a valid tool name, definition key and property name. */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'] as const;

/** Runs `toolsmith generate` in a temp project holding `files` under schemas/. */
async function generateIn(
  project: TempProject,
  files: Record<string, unknown>,
  options: { child?: boolean } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  for (const [file, value] of Object.entries(files))
    project.write(`schemas/${file}`, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
  if (
    !Object.hasOwn(files, '../toolsmith.config.json') &&
    !existsSync(path.join(project.root, 'toolsmith.config.json'))
  )
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
  if (options.child) {
    // In a child process with a deadline: a read that blocks (a FIFO) would otherwise hang this
    // worker, timeouts included, instead of failing the test.
    try {
      const { stdout, stderr } = await run(process.execPath, [path.join(REPO, 'bin/toolsmith.js'), 'generate'], {
        cwd: project.root,
        timeout: 20_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failure = error as { code?: number; killed?: boolean; stdout?: string; stderr?: string };
      if (failure.killed) throw new Error('generate did not finish within 20 s (a blocking read?)');
      return {
        code: typeof failure.code === 'number' ? failure.code : 1,
        stdout: failure.stdout ?? '',
        stderr: failure.stderr ?? '',
      };
    }
  }
  let stdout = '';
  let stderr = '';
  const code = await main(['generate'], {
    cwd: project.root,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/**
 * Generates where generate must fail and returns stderr, after checking that it exited 1, printed
 * nothing on stdout, left the previous output and stubs byte-identical and left no temp folder.
 */
async function expectFailure(
  files: Record<string, unknown>,
  prepare?: (project: TempProject) => void,
  options: { child?: boolean } = {},
): Promise<string> {
  const project = createTempProject();
  try {
    project.write('generated/index.ts', '// previous output\n');
    project.write('src/tools/keep.ts', '// hand-written\n');
    prepare?.(project);
    const before = { generated: project.snapshot('generated'), tools: project.snapshot('src/tools') };
    const { code, stdout, stderr } = await generateIn(project, files, options);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect({ generated: project.snapshot('generated'), tools: project.snapshot('src/tools') }).toEqual(before);
    expect(readdirSync(project.root).filter((entry) => entry.includes('toolsmith-'))).toEqual([]);
    // Not even the cache: the next run must not trust anything from this one.
    expect(existsSync(path.join(project.root, 'node_modules/.cache/toolsmith'))).toBe(false);
    return stderr;
  } finally {
    project.dispose();
  }
}

/** A minimal valid definition. */
function tool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    ...extra,
  };
}

// ---------------------------------------------------------------------------------------------
// Object.prototype names
// ---------------------------------------------------------------------------------------------

describe('names that are Object.prototype members (tools, definitions, properties, categories)', () => {
  let project: TempProject;
  let result: { code: number; stdout: string; stderr: string };

  /** Every prototype name as a tool whose definitions and properties are named after every prototype name. */
  function prototypeProject(): Record<string, unknown> {
    const files: Record<string, unknown> = {};
    for (const name of PROTOTYPE_NAMES) {
      const properties: Record<string, unknown> = {};
      const definitions: Record<string, unknown> = {};
      const outputProperties: Record<string, unknown> = {};
      for (const key of PROTOTYPE_NAMES) {
        Object.defineProperty(properties, key, { value: { $ref: `#/definitions/${key}` }, enumerable: true });
        Object.defineProperty(definitions, key, {
          value: { type: 'string', description: `the ${key} definition` },
          enumerable: true,
        });
        Object.defineProperty(outputProperties, key, { value: { type: 'string' }, enumerable: true });
      }
      files[`${name}.tool.json`] = {
        name,
        description: `Echoes its arguments (${name}).`,
        category: name,
        version: name === 'valueOf' ? '1.0.0' : undefined,
        requiredCapabilities: [name],
        inputSchema: { type: 'object', properties, required: [...PROTOTYPE_NAMES], definitions },
        outputSchema: { type: 'object', properties: outputProperties, required: [...PROTOTYPE_NAMES] },
        examples: [{ input: Object.fromEntries(PROTOTYPE_NAMES.map((key) => [key, key])) }],
      };
    }
    // A shared schema whose properties carry the same names (its definitions get them in the next block:
    // here their type names would collide with the tools' own \`Constructor\`, … definitions).
    const sharedProperties: Record<string, unknown> = {};
    for (const key of PROTOTYPE_NAMES)
      Object.defineProperty(sharedProperties, key, { value: { type: 'integer' }, enumerable: true });
    files['shared/prototype-keys.schema.json'] = { type: 'object', properties: sharedProperties };
    files['uses-shared.tool.json'] = tool('uses_shared', {
      inputSchema: { type: 'object', properties: { a: { $ref: './shared/prototype-keys.schema.json' } } },
    });
    return files;
  }

  beforeAll(async () => {
    project = createTempProject();
    // JSON.stringify keeps an own `__proto__` key (Object.defineProperty above), as a user's file would have it.
    result = await generateIn(project, prototypeProject());
    // Implementations that echo their input, so the run checks the output validators with these keys too.
    for (const name of PROTOTYPE_NAMES) {
      const stem = name === '__proto__' ? 'proto' : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      const pascal = name === '__proto__' ? 'Proto' : name[0]!.toUpperCase() + name.slice(1);
      project.write(
        `src/tools/${stem}.ts`,
        `import type { ToolExecutionResult } from '${path.relative(path.join(project.root, 'src/tools'), path.join(project.root, project.runtimeImport)).split(path.sep).join('/')}';
import { ${pascal}ToolBase } from '../../generated/tools/${stem}.base.js';
import type { ${pascal}Input, ${pascal}Output } from '../../generated/types/${stem}.js';

export class ${pascal}Tool extends ${pascal}ToolBase {
  async execute(args: ${pascal}Input): Promise<ToolExecutionResult<${pascal}Output>> {
    return { success: true, output: { ...args } };
  }
}
`,
      );
    }
  }, 120_000);

  afterAll(() => project?.dispose());

  it('generates without a problem', () => {
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('does not pollute Object.prototype in the generating process', () => {
    for (const target of [
      'openai',
      'openai-strict',
      'openai-responses',
      'openai-responses-strict',
      'anthropic',
      'gemini',
      'gemini-legacy',
      'mcp',
    ])
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, target), target).toBe(false);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).openai).toBeUndefined();
  });

  it('type-checks with tsc (strict, NodeNext), implementations included', async () => {
    expect(await typeCheck(project, ['generated', 'src'])).toEqual({ code: 0, output: '' });
  }, 60_000);

  it('lists every tool and its losses in the manifests and the loss report', () => {
    const names = [...PROTOTYPE_NAMES, 'uses_shared'].sort();
    const mcp = JSON.parse(project.read('generated/manifests/mcp.json')) as { tools: { name: string }[] };
    expect(mcp.tools.map((entry) => entry.name)).toEqual(names);
    const openai = JSON.parse(project.read('generated/manifests/openai.json')) as {
      function: { name: string; parameters: { properties: object } };
    }[];
    expect(openai.map((entry) => entry.function.name)).toEqual(names);
    const constructorTool = openai.find((entry) => entry.function.name === 'constructor')!;
    expect(Object.keys(constructorTool.function.parameters.properties).sort()).toEqual([...PROTOTYPE_NAMES].sort());
    const report = JSON.parse(project.read('generated/manifests/loss-report.json')) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual(names);
    // Every target's losses, and every MCP host's verdict under `hosts`.
    expect(Object.keys(report['__proto__'] as object).sort()).toEqual([
      'anthropic',
      'gemini',
      'hosts',
      'mcp',
      'openai',
      'openai-responses',
      'openai-responses-strict',
      'openai-strict',
    ]);
    expect(project.read('generated/manifests/loss-report.md')).toContain('## __proto__');
  });

  it('renders a docs page per tool with every category in the index', () => {
    const index = project.read('generated/docs/index.md');
    for (const name of ['constructor', 'to-string', 'value-of', 'has-own-property', 'proto'])
      expect(project.read(`generated/docs/tools/${name}.md`)).toContain('## Input');
    for (const name of PROTOTYPE_NAMES) expect(index).toMatch(new RegExp(`^## ${name.replace(/_/g, '\\\\_')}$`, 'm'));
    const page = project.read('generated/docs/tools/proto.md');
    expect(page).toMatch(/^\| Capabilities \| `__proto__` \|$/m);
    for (const key of PROTOTYPE_NAMES) expect(page).toContain(`| \`${key}\` | [`);
  });

  it('runs every tool through the orchestrator, validating input and output with those keys', async () => {
    project.write(
      'check/run.ts',
      `import { ToolOrchestrator } from '${path.relative(path.join(project.root, 'check'), path.join(project.root, project.runtimeImport)).split(path.sep).join('/')}';
import { createTools } from '../generated/registry.js';
const orchestrator = new ToolOrchestrator({ tools: createTools() });
const names = ${JSON.stringify(PROTOTYPE_NAMES)};
const out: unknown[] = [];
for (const name of names) {
  const args = JSON.stringify(Object.fromEntries(names.map((key) => [key, name + ':' + key])));
  const ok = await orchestrator.processToolCall({ toolCallRequest: { id: 'c-' + name, name, arguments: args }, gmiId: 'g', personaId: 'p', personaCapabilities: [name], userContext: { userId: 'u' } });
  const bad = await orchestrator.processToolCall({ toolCallRequest: { id: 'd-' + name, name, arguments: '{"constructor":1}' }, gmiId: 'g', personaId: 'p', personaCapabilities: [name], userContext: { userId: 'u' } });
  out.push([name, ok.isError, ok.output, bad.isError]);
}
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'check/run.ts'], { cwd: project.root });
    const results = JSON.parse(stdout) as [string, boolean, Record<string, string>, boolean][];
    expect(results.map(([name, isError, , badIsError]) => [name, isError, badIsError])).toEqual(
      PROTOTYPE_NAMES.map((name) => [name, false, true]),
    );
    for (const [name, , output] of results) {
      expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
      expect(Object.keys(output).sort()).toEqual([...PROTOTYPE_NAMES].sort());
      for (const key of PROTOTYPE_NAMES)
        expect(Object.getOwnPropertyDescriptor(output, key)?.value).toBe(`${name}:${key}`);
    }
  }, 60_000);
});

describe('any names, Object.prototype members among them, through normalize, manifests, registry and docs (property)', () => {
  it('never throws, never touches Object.prototype, and lists every tool everywhere', async () => {
    const [
      { parseSource },
      { normalize },
      { emitRegistry },
      { createDocRenderer },
      { loadTemplates },
      { emitManifests, TEST_CONTEXT },
    ] = await Promise.all([
      import('../../codegen/load.js'),
      import('../../codegen/normalize.js'),
      import('../../codegen/emit/registry.js'),
      import('../../codegen/emit/docs.js'),
      import('../../codegen/templates/index.js'),
      import('./model-factory.js'),
    ]);
    const renderer = createDocRenderer(loadTemplates());
    let complete = 0;
    const prototypeNames = Object.getOwnPropertyNames(Object.prototype).filter((name) =>
      /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/.test(name),
    );
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const key = fc.oneof(fc.constantFrom(...prototypeNames), fc.string({ maxLength: 6 }));
    const own = (entries: [string, unknown][]) => {
      const out: Record<string, unknown> = {};
      for (const [name, value] of entries)
        Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
      return out;
    };
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...prototypeNames, 'plain'), { minLength: 1, maxLength: 4 }),
        fc.uniqueArray(key, { maxLength: 4 }),
        fc.uniqueArray(key, { maxLength: 3 }),
        (toolNames, propertyNames, definitionNames) => {
          const sources = toolNames.map((name) => {
            const definitions = own(
              definitionNames.map((definition) => [definition, { type: 'string', description: definition }]),
            );
            const properties = own(
              propertyNames.map((property, index) => [
                property,
                definitionNames.length > 0
                  ? {
                      $ref: `#/definitions/${encodeURIComponent(definitionNames[index % definitionNames.length]!.replace(/~/g, '~0').replace(/\//g, '~1'))}`,
                    }
                  : { type: 'number' },
              ]),
            );
            const text = JSON.stringify(
              {
                name,
                description: name,
                category: name,
                requiredCapabilities: [name],
                inputSchema: { type: 'object', properties, definitions },
                outputSchema: { type: 'object', properties },
              },
              null,
              2,
            );
            return parseSource(`${name}.tool.json`, `schemas/${name}.tool.json`, text).source;
          });
          const { project, problems } = normalize({ tools: sources, shared: [], problems: [] });
          expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
          if (problems.length > 0) return; // e.g. two names with one type name: a problem, never a crash
          const manifests = emitManifests(project, TEST_CONTEXT);
          expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
          const names = [...toolNames].sort();
          expect(Object.keys(manifests.losses).sort()).toEqual(names);
          for (const name of names)
            expect(Object.keys(Object.getOwnPropertyDescriptor(manifests.losses, name)!.value).sort()).toEqual([
              'anthropic',
              'gemini',
              'mcp',
              'openai',
              'openai-responses',
              'openai-responses-strict',
              'openai-strict',
            ]);
          const mcp = JSON.parse(manifests.files.find((file) => file.path === 'manifests/mcp.json')!.content) as {
            tools: { name: string; inputSchema: { properties: object } }[];
          };
          expect(mcp.tools.map((entry) => entry.name)).toEqual(names);
          for (const entry of mcp.tools)
            expect(Object.keys(entry.inputSchema.properties).sort()).toEqual([...propertyNames].sort());
          // Every target carries every property under its own name.
          const content = (file: string) =>
            JSON.parse(manifests.files.find((entry) => entry.path === `manifests/${file}.json`)!.content) as unknown;
          const parameters: Record<string, (value: any) => object[]> = {
            openai: (value) => value.map((entry: any) => entry.function.parameters.properties),
            'openai-strict': (value) => value.map((entry: any) => entry.function.parameters.properties),
            anthropic: (value) => value.map((entry: any) => entry.input_schema.properties),
            gemini: (value) =>
              value.functionDeclarations.map((entry: any) => entry.parametersJsonSchema?.properties ?? {}),
          };
          for (const [target, read] of Object.entries(parameters)) {
            if (Object.values(manifests.unavailable).some((reasons) => Object.hasOwn(reasons, target))) continue;
            for (const properties of read(content(target)))
              expect(Object.keys(properties).sort(), target).toEqual([...propertyNames].sort());
          }
          const registry = emitRegistry(project, TEST_CONTEXT).find((file) => file.path === 'registry.ts')!.content;
          for (const name of names) expect(registry).toContain(JSON.stringify(name).replace(/"/g, "'"));
          for (const tool of project.tools)
            expect(
              renderer.toolPage(tool, TEST_CONTEXT, {
                losses: manifests.losses[tool.name],
                unavailable: manifests.unavailable[tool.name],
              }).content,
            ).toContain(`(\`${tool.name}\`)`);
          expect(
            renderer
              .projectPages(project, TEST_CONTEXT)[0]!
              .content.split('\n')
              .filter((line) => line.startsWith('| [')).length,
          ).toBe(names.length);
          complete++;
        },
      ),
      { numRuns: 40 },
    );
    // Most runs got through every emitter (a run whose names collide ends at normalize's problems).
    expect(complete).toBeGreaterThan(20);
  }, 120_000);
});

describe('shared schema definitions named after Object.prototype members', () => {
  it('generates, type-checks and validates through the shared types', async () => {
    const project = createTempProject();
    try {
      const definitions: Record<string, unknown> = {};
      for (const key of PROTOTYPE_NAMES)
        Object.defineProperty(definitions, key, { value: { type: 'integer', minimum: 1 }, enumerable: true });
      const properties: Record<string, unknown> = {};
      for (const key of PROTOTYPE_NAMES)
        Object.defineProperty(properties, key, {
          value: { $ref: `./shared/keys.schema.json#/definitions/${key}` },
          enumerable: true,
        });
      const result = await generateIn(project, {
        'shared/keys.schema.json': { definitions },
        'plain.tool.json': tool('plain', { inputSchema: { type: 'object', properties } }),
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const types = project.read('generated/types/shared/keys.ts');
      for (const name of ['Constructor', 'ToString', 'ValueOf', 'HasOwnProperty', 'Proto'])
        expect(types).toMatch(new RegExp(`^export type ${name} = number;$`, 'm'));
      expect(await typeCheck(project, ['generated', 'src'])).toEqual({ code: 0, output: '' });
      project.write(
        'check/validate.ts',
        `import { validatePlainInput } from '../generated/validators/plain.js';
console.log(JSON.stringify([validatePlainInput(JSON.parse('{"constructor":2,"valueOf":3}')), validatePlainInput(JSON.parse('{"hasOwnProperty":0}')), validatePlainInput.errors?.[0]?.instancePath]));
`,
      );
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'check/validate.ts'], { cwd: project.root });
      expect(JSON.parse(stdout)).toEqual([true, false, '/hasOwnProperty']);
    } finally {
      project.dispose();
    }
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// JSON pointers with `%`, `~` and `/`
// ---------------------------------------------------------------------------------------------

describe('JSON pointers: ~0/~1 only, a $ref fragment decoded once where it is read', () => {
  it('reports a problem under a property named `50%` at its pointer (no URIError)', async () => {
    const stderr = await expectFailure({
      'a.tool.json': tool('a', {
        inputSchema: { type: 'object', properties: { '50%': { type: 'string', minLength: 'x' } } },
      }),
    });
    expect(stderr).toBe(
      'toolsmith: 1 problem; nothing was written.\n' +
        'schemas/a.tool.json:9:22 /inputSchema/properties/50%/minLength: not a valid draft-07 schema: /inputSchema/properties/50%/minLength must be integer\n' +
        '    hint: see https://json-schema.org/draft-07/json-schema-validation\n',
    );
  });

  it('reports a property named `a~b/c%25` with its pointer escaped as ~0/~1 and `%25` kept', async () => {
    const stderr = await expectFailure({
      'a.tool.json': tool('a', { inputSchema: { type: 'object', properties: { 'a~b/c%25': { type: 'nope' } } } }),
    });
    expect(stderr).toContain(
      'schemas/a.tool.json:8:17 /inputSchema/properties/a~0b~1c%25/type: "nope" is not a JSON Schema type',
    );
  });

  it.each([
    ['#/definitions/%zz', 'has a malformed percent escape "%zz"'],
    ['#/definitions/50%', 'has a malformed percent escape "%"'],
    ['#/definitions/%C3', 'has percent escapes that do not spell UTF-8 text'],
    ['./shared/s.schema.json#/definitions/%zz', 'has a malformed percent escape "%zz"'],
    ['./shared/%zz.schema.json', 'has a malformed percent escape "%zz"'],
    ['#definitions', 'has the fragment "#definitions", which is not a JSON pointer'],
  ])('a $ref "%s" is a problem at the $ref', async (ref, expected) => {
    const stderr = await expectFailure({
      'shared/s.schema.json': { definitions: { ok: { type: 'string' } } },
      'a.tool.json': tool('a', { inputSchema: { type: 'object', properties: { q: { $ref: ref } } } }),
    });
    expect(stderr).toContain(
      `schemas/a.tool.json:8:17 /inputSchema/properties/q/$ref: the $ref ${JSON.stringify(ref)} ${expected}`,
    );
    expect(stderr).toContain('hint: a `$ref` is a URI reference: its fragment is a JSON pointer');
  });

  it('resolves percent-encoded and ~-escaped fragments once: `50%25` → `50%`, `a~1b` → `a/b`, `%7E0` stays `~0`', async () => {
    const project = createTempProject();
    try {
      const definitions = {
        '50%': { type: 'integer' },
        'a/b': { type: 'boolean' },
        '~0': { type: 'string', enum: ['tilde'] },
      };
      const result = await generateIn(project, {
        'shared/s.schema.json': { definitions: { 'x%y': { type: 'number' } } },
        'a.tool.json': tool('a', {
          inputSchema: {
            type: 'object',
            properties: {
              p: { $ref: '#/definitions/50%25' },
              s: { $ref: '#/definitions/a~1b' },
              t: { $ref: '#/definitions/%7E00' },
              u: { $ref: './shared/s.schema.json#/definitions/x%25y' },
            },
            definitions,
          },
        }),
      });
      expect(result.stderr).toBe('');
      // The types name the same definitions: no `unknown` for a reference that only needed decoding.
      const types = project.read('generated/types/a.ts');
      expect(types).toContain(
        'export interface AInput {\n  p?: A_50;\n  s?: AB;\n  t?: A_0;\n  u?: XY;\n  [k: string]: unknown;\n}',
      );
      expect(types).toContain("export type A_50 = number;\n\nexport type AB = boolean;\n\nexport type A_0 = 'tilde';");
      expect(await typeCheck(project, ['generated', 'src'])).toEqual({ code: 0, output: '' });
      project.write(
        'check/validate.ts',
        `import { validateAInput } from '../generated/validators/a.js';
console.log(JSON.stringify([validateAInput({ p: 1, s: true, t: 'tilde', u: 2.5 }), validateAInput({ p: 'x' }), validateAInput({ t: 'other' }), validateAInput({ u: 'x' })]));
`,
      );
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'check/validate.ts'], { cwd: project.root });
      expect(JSON.parse(stdout)).toEqual([true, false, false, false]);
    } finally {
      project.dispose();
    }
  }, 60_000);

  it('pointer helpers round-trip any segments (property)', async () => {
    const { escapePointerSegment, formatPointer, parsePointer, decodeFragment } =
      await import('../../src/schema/json-pointer.js');
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' })), (segments) => {
        expect(parsePointer(formatPointer(segments))).toEqual(segments);
        expect(parsePointer(`#${formatPointer(segments)}`)).toEqual(segments);
        // A fragment is the pointer percent-encoded: decoding once gives the pointer back, never throws.
        const pointer = formatPointer(segments);
        expect(decodeFragment(`#${encodeURI(pointer).replace(/#/g, '%23')}`)).toEqual({ pointer });
        for (const segment of segments) expect(escapePointerSegment(segment).includes('/')).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const decoded = decodeFragment(`#/${text}`);
        expect('pointer' in decoded || 'error' in decoded).toBe(true);
        if ('pointer' in decoded) expect(decoded.pointer).toBe(`/${decodeURIComponent(text)}`);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The file system: FIFOs, links, folders named like definitions
// ---------------------------------------------------------------------------------------------

describe('only regular files are read; every other entry is a problem with its path', () => {
  const good = tool('good');

  it('a FIFO named x.tool.json does not hang generate', async () => {
    const stderr = await expectFailure(
      { 'good.tool.json': good },
      (project) => {
        mkdirSync(path.join(project.root, 'schemas'), { recursive: true });
        execFileSync('mkfifo', [path.join(project.root, 'schemas/x.tool.json')]);
      },
      { child: true },
    );
    expect(stderr).toBe(
      'toolsmith: 1 problem; nothing was written.\n' +
        'schemas/x.tool.json:1:1: not read: it is a named pipe (FIFO), not a regular file\n' +
        '    hint: only regular files are read (links to them are followed): replace it with one or move it away\n',
    );
  }, 30_000);

  it('a FIFO that replaced a definition after a successful run does not hang the nothing-changed check either', async () => {
    const project = createTempProject();
    try {
      expect((await generateIn(project, { 'good.tool.json': good, 'x.tool.json': tool('x') })).code).toBe(0);
      const before = project.snapshot('generated');
      const { rmSync } = await import('node:fs');
      rmSync(path.join(project.root, 'schemas/x.tool.json'));
      execFileSync('mkfifo', [path.join(project.root, 'schemas/x.tool.json')]);
      const again = await generateIn(project, {}, { child: true });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(
        'schemas/x.tool.json:1:1: not read: it is a named pipe (FIFO), not a regular file',
      );
      expect(project.snapshot('generated')).toEqual(before);
    } finally {
      project.dispose();
    }
  }, 30_000);

  it.each([
    [
      'a symlink loop',
      (dir: string) => {
        symlinkSync('loop-b.tool.json', path.join(dir, 'loop-a.tool.json'));
        symlinkSync('loop-a.tool.json', path.join(dir, 'loop-b.tool.json'));
      },
      [
        'schemas/loop-a.tool.json:1:1: not read: it is a symbolic link that loops (ELOOP)',
        'schemas/loop-b.tool.json:1:1: not read: it is a symbolic link that loops (ELOOP)',
      ],
    ],
    [
      'a dangling symlink',
      (dir: string) => symlinkSync('missing.json', path.join(dir, 'dangling.tool.json')),
      ['schemas/dangling.tool.json:1:1: not read: it is a symbolic link to a file that does not exist (ENOENT)'],
    ],
    [
      'a symlink to a folder',
      (dir: string) => {
        mkdirSync(path.join(dir, 'real-folder'));
        symlinkSync('real-folder', path.join(dir, 'folder.tool.json'));
      },
      ['schemas/folder.tool.json:1:1: not read: it is a folder, not a regular file'],
    ],
    [
      'a folder named like a definition',
      (dir: string) => mkdirSync(path.join(dir, 'folder.schema.json')),
      ['schemas/folder.schema.json:1:1: not read: it is a folder, not a regular file'],
    ],
    [
      'a folder link that loops back',
      (dir: string) => {
        mkdirSync(path.join(dir, 'sub'));
        symlinkSync('..', path.join(dir, 'sub', 'up'));
      },
      ['schemas/sub/up:1:1: the folder link leads back to a folder that contains it (a loop); it is not followed'],
    ],
  ])('%s is a problem with the path, no raw errno trace', async (_label, make, expected) => {
    const stderr = await expectFailure({ 'good.tool.json': good }, (project) => {
      mkdirSync(path.join(project.root, 'schemas'), { recursive: true });
      make(path.join(project.root, 'schemas'));
    });
    expect(stderr.split('\n').filter((line) => line.startsWith('schemas/'))).toEqual(expected);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a folder link loop added after a successful run is reported, not answered "nothing changed"', async () => {
    const project = createTempProject();
    try {
      expect((await generateIn(project, { 'good.tool.json': good })).code).toBe(0);
      mkdirSync(path.join(project.root, 'schemas/sub'));
      symlinkSync('..', path.join(project.root, 'schemas/sub/up'));
      const again = await generateIn(project, {});
      expect(again.stderr).toContain(
        'schemas/sub/up:1:1: the folder link leads back to a folder that contains it (a loop); it is not followed',
      );
      expect(again.code).toBe(1);
    } finally {
      project.dispose();
    }
  }, 30_000);

  it('a FIFO as toolsmith.config.json is a problem, not a hang', async () => {
    const stderr = await expectFailure(
      { 'good.tool.json': good },
      (project) => execFileSync('mkfifo', [path.join(project.root, 'toolsmith.config.json')]),
      { child: true },
    );
    expect(stderr).toBe(
      'toolsmith: 1 problem; nothing was written.\n' +
        'toolsmith.config.json:1:1: not read: it is a named pipe (FIFO), not a regular file\n' +
        '    hint: only regular files are read (links to them are followed): replace it with one or move it away\n',
    );
  }, 30_000);

  it('a FIFO as a docs template (--templates) is a problem naming it, not a hang or a trace', async () => {
    const stderr = await expectFailure(
      { 'good.tool.json': good, '../toolsmith.config.json': { templates: 'my-templates' } },
      (project) => {
        mkdirSync(path.join(project.root, 'my-templates'));
        execFileSync('mkfifo', [path.join(project.root, 'my-templates/tool.hbs')]);
      },
      { child: true },
    );
    expect(stderr).toBe(
      'toolsmith: 1 problem; nothing was written.\n' +
        'my-templates/tool.hbs:1:1: not read: it is a named pipe (FIFO), not a regular file\n' +
        '    hint: only regular files are read (links to them are followed): replace it with one or move it away\n',
    );
  }, 30_000);

  it('refuses a link to a file or a folder outside the project as a $ref outside it is refused, and never reads its target', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'toolsmith-outside-'));
    const project = createTempProject();
    try {
      // A FIFO: opened, it would be reported as one ("not a regular file"), never as a link out.
      execFileSync('mkfifo', [path.join(outside, 'secret.tool.json')]);
      mkdirSync(path.join(outside, 'shared'));
      writeFileSync(path.join(outside, 'shared/point.schema.json'), '{ "type": "object" }');
      // A run that succeeds first: a link out added after it is a problem, not "nothing changed".
      expect((await generateIn(project, { 'good.tool.json': good })).code).toBe(0);
      const before = project.snapshot('generated');
      symlinkSync(path.join(outside, 'secret.tool.json'), path.join(project.root, 'schemas/secret.tool.json'));
      symlinkSync(path.join(outside, 'shared'), path.join(project.root, 'schemas/shared'));
      const uses = tool('uses', {
        inputSchema: { type: 'object', properties: { at: { $ref: '../../x.schema.json' } } },
      });
      const { code, stderr } = await generateIn(project, { 'uses.tool.json': uses });
      expect(code).toBe(1);
      expect(stderr).toBe(
        'toolsmith: 3 problems; nothing was written.\n' +
          `schemas/secret.tool.json:1:1: not read: it is a symbolic link that points outside the project folder (to ${outside}/secret.tool.json)\n` +
          '    hint: toolsmith reads nothing outside the project folder, as a $ref may not point outside it: copy the file or folder into the project, or link to one inside it\n' +
          `schemas/shared:1:1: not read: it is a symbolic link that points outside the project folder (to ${outside}/shared)\n` +
          '    hint: toolsmith reads nothing outside the project folder, as a $ref may not point outside it: copy the file or folder into the project, or link to one inside it\n' +
          'schemas/uses.tool.json:8:17 /inputSchema/properties/at/$ref: the $ref "../../x.schema.json" points outside the schemas folder\n' +
          '    hint: shared schemas must live under the schemas folder and be referenced by a relative path\n',
      );
      expect(project.snapshot('generated')).toEqual(before);
    } finally {
      project.dispose();
      rmSync(outside, { recursive: true, force: true });
    }
  }, 30_000);

  it('follows symlinks to regular files and to folders', async () => {
    const project = createTempProject();
    try {
      project.write('elsewhere/linked.tool.json', tool('linked'));
      project.write('elsewhere/shared/point.schema.json', { type: 'object', properties: { x: { type: 'number' } } });
      mkdirSync(path.join(project.root, 'schemas'), { recursive: true });
      symlinkSync('../elsewhere/linked.tool.json', path.join(project.root, 'schemas/linked.tool.json'));
      symlinkSync('../elsewhere/shared', path.join(project.root, 'schemas/shared'));
      const result = await generateIn(project, {
        'uses.tool.json': tool('uses', {
          inputSchema: { type: 'object', properties: { at: { $ref: './shared/point.schema.json' } } },
        }),
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(project.read('generated/registry.ts')).toContain("export const toolNames = ['linked', 'uses'] as const;");
      expect(project.read('generated/types/shared/point.ts')).toContain('export interface Point {');
    } finally {
      project.dispose();
    }
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// Deep nesting
// ---------------------------------------------------------------------------------------------

/** Nests `wrap` around a string schema until the definition file is as deep as `depth` allows. */
function nestedTool(name: string, wrap: (schema: object) => object, depth: number): Record<string, unknown> {
  const depthOf = (value: unknown): number =>
    value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value as object).map(depthOf)) : 0;
  let schema: object = wrap({ type: 'string' });
  let best: Record<string, unknown> | undefined;
  for (;;) {
    const definition = tool(name, { inputSchema: { type: 'object', properties: { x: schema } } });
    if (depthOf(definition) > depth) break;
    best = definition;
    schema = wrap(schema);
  }
  return best!;
}

const NESTING_KEYWORDS: Record<string, (schema: object) => object> = {
  properties: (schema) => ({ type: 'object', properties: { a: schema } }),
  items: (schema) => ({ type: 'array', items: schema }),
  additionalProperties: (schema) => ({ type: 'object', additionalProperties: schema }),
  allOf: (schema) => ({ allOf: [schema] }),
  anyOf: (schema) => ({ anyOf: [schema, { type: 'null' }] }),
  oneOf: (schema) => ({ oneOf: [schema, { type: 'null' }] }),
  not: (schema) => ({ not: schema }),
  if_then: (schema) => ({ if: { type: 'object' }, then: schema }),
  patternProperties: (schema) => ({ type: 'object', patternProperties: { '^a': schema } }),
  dependencies: (schema) => ({ type: 'object', dependencies: { a: schema } }),
  tuple_items: (schema) => ({ type: 'array', items: [schema] }),
};

describe('deep nesting: generated up to the limit, a clear "too deep" problem with the pointer beyond', () => {
  it('every nesting keyword generates and type-checks at exactly the limit', async () => {
    const { MAX_JSON_DEPTH } = await import('../../codegen/load.js');
    const project = createTempProject();
    try {
      const files: Record<string, unknown> = {
        '../toolsmith.config.json': {
          runtimeImport: project.runtimeImport,
          manifests: { targets: ['openai', 'anthropic', 'mcp'] },
        },
      };
      for (const [keyword, wrap] of Object.entries(NESTING_KEYWORDS))
        files[`${keyword}.tool.json`] = nestedTool(keyword, wrap, MAX_JSON_DEPTH);
      const result = await generateIn(project, files);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(await typeCheck(project, ['generated', 'src'])).toEqual({ code: 0, output: '' });
    } finally {
      project.dispose();
    }
  }, 120_000);

  it.each([200, 5_000])(
    '%i levels deep is one problem at the first container past the limit, with its pointer',
    async (levels) => {
      // Written as text: JSON.stringify itself overflows the stack on 5,000 levels.
      const head = '{"name":"deep","description":"d","inputSchema":{"type":"object","properties":{"x":';
      const level = '{"type":"object","properties":{"a":';
      const text = `${head}${level.repeat(levels / 2)}{"type":"string"}${'}}'.repeat(levels / 2)}}}}\n`;
      const stderr = await expectFailure({ 'good.tool.json': good(), 'deep.tool.json': text });
      // Levels: the file 1, inputSchema 2, properties 3, x 4, then two per `properties/a`: the 65th opens at …/properties.
      const pointer = `/inputSchema/properties/x${'/properties/a'.repeat(30)}/properties`;
      const column = head.length + 30 * level.length + '{"type":"object","properties":'.length + 1;
      expect(stderr).toBe(
        'toolsmith: 1 problem; nothing was written.\n' +
          `schemas/deep.tool.json:1:${column} ${pointer}: the file nests objects and arrays more than 64 levels deep\n` +
          '    hint: flatten the schema: move deep parts under `definitions` and `$ref` them (generated code, validators and docs must stay within the stack)\n',
      );
      expect(text[column - 1]).toBe('{');
    },
    30_000,
  );

  function good(): Record<string, unknown> {
    return tool('good');
  }
});

// ---------------------------------------------------------------------------------------------
// Boolean schemas, duplicate keys, shared defaults
// ---------------------------------------------------------------------------------------------

describe('definitions that JSON.parse or draft-07 accept but a tool cannot have', () => {
  it.each([
    [
      'inputSchema: true',
      { inputSchema: true },
      'schemas/a.tool.json:4:18 /inputSchema: the input schema is `true`, a boolean schema; a tool\'s input schema must be an object schema with `"type": "object"`',
    ],
    [
      'inputSchema: false',
      { inputSchema: false },
      'schemas/a.tool.json:4:18 /inputSchema: the input schema is `false`, a boolean schema; a tool\'s input schema must be an object schema with `"type": "object"`',
    ],
    [
      'outputSchema: false',
      { outputSchema: false },
      'schemas/a.tool.json:12:19 /outputSchema: the output schema is `false`: it accepts no output, so every call of the tool would fail',
    ],
    [
      'outputSchema: true',
      { outputSchema: true },
      'schemas/a.tool.json:12:19 /outputSchema: the output schema is `true`: it accepts any output, so it checks nothing',
    ],
  ])('%s is a problem at the field, not a tool silently left out', async (_label, extra, expected) => {
    const stderr = await expectFailure({ 'a.tool.json': tool('a', extra), 'b.tool.json': tool('b') });
    expect(stderr.split('\n').filter((line) => line.startsWith('schemas/'))).toEqual([expected]);
  });

  it('a key twice in one object is a problem at the second, naming the first (every level, every file, all at once)', async () => {
    const text = [
      '{',
      '  "name": "a",',
      '  "description": "first",',
      '  "description": "second",',
      '  "inputSchema": {',
      '    "type": "object",',
      '    "properties": { "q": { "type": "string" }, "q": { "type": "number" } },',
      '    "required": ["q"]',
      '  }',
      '}',
      '',
    ].join('\n');
    const stderr = await expectFailure({
      'a.tool.json': text,
      'shared/s.schema.json': '{ "type": "object", "type": "string" }\n',
      'b.tool.json': tool('b', { inputSchema: { type: 'object', properties: { q: { type: 'nope' } } } }),
    });
    expect(stderr).toBe(
      'toolsmith: 4 problems; nothing was written.\n' +
        'schemas/a.tool.json:4:3 /description: the key "description" appears twice in one object (first at schemas/a.tool.json:3:3, again here)\n' +
        '    hint: remove one of them: an editor shows the first value, JSON.parse keeps the last\n' +
        'schemas/a.tool.json:7:48 /inputSchema/properties/q: the key "q" appears twice in one object (first at schemas/a.tool.json:7:21, again here)\n' +
        '    hint: remove one of them: an editor shows the first value, JSON.parse keeps the last\n' +
        'schemas/b.tool.json:8:17 /inputSchema/properties/q/type: "nope" is not a JSON Schema type\n' +
        '    hint: the types are: array, boolean, integer, null, number, object, string (or an array of them)\n' +
        'schemas/shared/s.schema.json:1:21 /type: the key "type" appears twice in one object (first at schemas/shared/s.schema.json:1:3, again here)\n' +
        '    hint: remove one of them: an editor shows the first value, JSON.parse keeps the last\n',
    );
  });

  it('the same key in different objects, or as a string value, is not a duplicate (property)', async () => {
    const { duplicateKeys } = await import('../../codegen/load.js');
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON.stringify never writes a key twice: no problem may be reported, whatever the keys and strings hold.
        const text = JSON.stringify(value, null, 1);
        expect(duplicateKeys('x.json', text, JSON.parse(text))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('a default that breaks its schema inside a shared file is reported at the shared file, once', async () => {
    const stderr = await expectFailure({
      'shared/s.schema.json': {
        type: 'object',
        properties: { n: { $ref: '#/definitions/N' }, m: { type: 'boolean', default: [] } },
        definitions: { N: { type: 'integer', default: 'x' } },
      },
      'a.tool.json': tool('a', {
        inputSchema: {
          type: 'object',
          properties: { q: { $ref: './shared/s.schema.json#/definitions/N' }, r: { $ref: './shared/s.schema.json' } },
        },
      }),
      'b.tool.json': tool('b', {
        inputSchema: { type: 'object', properties: { own: { type: 'number', default: 'no' } } },
        outputSchema: { type: 'object', properties: { q: { $ref: './shared/s.schema.json#/definitions/N' } } },
      }),
    });
    expect(stderr).toBe(
      'toolsmith: 2 problems and 1 warning; nothing was written.\n' +
        'schemas/b.tool.json:9:20 /inputSchema/properties/own/default: the default "no" does not match its own schema: / must be number\n' +
        '    hint: fix the default or the schema: it would be filled in and then rejected\n' +
        'schemas/shared/s.schema.json:9:18 /properties/m/default: the default [] does not match its own schema: / must be boolean\n' +
        '    hint: fix the default or the schema: it would be filled in and then rejected\n' +
        // A default on a definition is never filled in (Ajv fills a property's own default): a warning, at the shared file.
        'schemas/shared/s.schema.json:15:18 /definitions/N/default: warning: the default "x" is never filled in: it is on a definition\n' +
        "    hint: put the default beside the `$ref` that uses the definition (a property's own `default` is filled in)\n",
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Composed tools that call each other in a cycle
// ---------------------------------------------------------------------------------------------

describe('composed tools: a cycle is rejected at generate, named, at the step', () => {
  const composed = (name: string, calls: string[]) =>
    tool(name, {
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
      steps: calls.map((call) => ({ tool: call, arguments: {} })),
    });
  const plain = (name: string) => tool(name, { inputSchema: { type: 'object' }, outputSchema: { type: 'object' } });
  const lines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('schemas/'));

  it('a self-cycle: a → a', async () => {
    expect(lines(await expectFailure({ 'a.tool.json': composed('a', ['a']) }))).toEqual([
      'schemas/a.tool.json:12:15 /steps/0/tool: step 0 calls the composed tool itself: a → a',
    ]);
  });

  it('a → b → a, at both steps', async () => {
    expect(
      lines(await expectFailure({ 'a.tool.json': composed('a', ['b']), 'b.tool.json': composed('b', ['a']) })),
    ).toEqual([
      'schemas/a.tool.json:12:15 /steps/0/tool: step 0 calls "b", which leads back to "a": a → b → a',
      'schemas/b.tool.json:12:15 /steps/0/tool: step 0 calls "a", which leads back to "b": b → a → b',
    ]);
  });

  it('a longer cycle behind a fine step, with a tool that only enters it', async () => {
    const stderr = await expectFailure({
      'a.tool.json': composed('a', ['leaf', 'b']),
      'b.tool.json': composed('b', ['c']),
      'c.tool.json': composed('c', ['a']),
      'd.tool.json': composed('d', ['a']),
      'leaf.tool.json': plain('leaf'),
    });
    expect(lines(stderr)).toEqual([
      'schemas/a.tool.json:16:15 /steps/1/tool: step 1 calls "b", which leads back to "a": a → b → c → a',
      'schemas/b.tool.json:12:15 /steps/0/tool: step 0 calls "c", which leads back to "b": b → c → a → b',
      'schemas/c.tool.json:12:15 /steps/0/tool: step 0 calls "a", which leads back to "c": c → a → b → c',
    ]);
    expect(stderr).toContain('hint: composed tools must not call each other in a cycle');
  });

  it('shared callees and diamonds are not cycles (property: reported exactly when the call graph has a cycle)', async () => {
    const { composedCycles } = await import('../../codegen/rules/composed-cycles.js');
    const { Diagnostics } = await import('../../codegen/problems.js');
    const { parseSource } = await import('../../codegen/load.js');
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        (graph) => {
          const names = graph.map((_, index) => `t${index}`);
          const nodes = graph.map((calls, index) => {
            const calling = calls.filter((call) => call < graph.length).map((call) => names[call]!);
            const text = JSON.stringify(
              { name: names[index], steps: calling.map((call) => ({ tool: call, arguments: {} })) },
              null,
              2,
            );
            return {
              name: names[index]!,
              source: parseSource(`${names[index]}.tool.json`, `schemas/${names[index]}.tool.json`, text).source,
              calls: calling,
            };
          });
          // Oracle: a node is on a cycle when it can reach itself (transitive closure by repeated squaring of reachability).
          const reach = nodes.map((node) => new Set(node.calls));
          for (let round = 0; round < nodes.length; round++)
            for (const set of reach)
              for (const name of [...set]) for (const next of reach[names.indexOf(name)]!) set.add(next);
          const expected = nodes.flatMap((node, index) =>
            node.calls.flatMap((call, step) =>
              reach[names.indexOf(call)]!.has(names[index]!) || call === names[index]
                ? [`${node.name}/steps/${step}/tool`]
                : [],
            ),
          );
          const diagnostics = new Diagnostics();
          composedCycles.run(
            nodes.map(({ source }) => ({ source, definition: source.value as Record<string, unknown> })),
            diagnostics,
          );
          const problems = diagnostics.problems();
          expect(
            problems
              .map((problem) => `${problem.file.replace(/^schemas\/|\.tool\.json$/g, '')}${problem.pointer}`)
              .sort(),
          ).toEqual([...expected].sort());
          for (const problem of problems) {
            const cycle = problem.message.split(': ').pop()!.split(' → ');
            expect(cycle[0]).toBe(cycle[cycle.length - 1]);
            for (let i = 0; i + 1 < cycle.length; i++)
              expect(nodes[names.indexOf(cycle[i]!)]!.calls).toContain(cycle[i + 1]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Docs: no file name or schema text closes a comment or breaks a table
// ---------------------------------------------------------------------------------------------

describe('docs: every field full of comment closers, pipes, backticks and line breaks keeps the page structure', () => {
  /** Everything that could close a comment (`*\/`, `-->`, `--->`, `--!>`), split a table cell or a line, or open code or HTML. */
  const NASTY = 'a*/b|c`d<!--e-->f\ng\r\nh\u2028i--->j--!>k\\|l';
  /** A folder and file name carrying the same (no `/` is possible in a name, so `*\/` spans the folder). */
  const NASTY_FILE = 'x*/a|b`<!--c-->\nd--->e.tool.json';
  const fragments = ['*/', '-->', '--->', '--!>', '<!--', '|', '`', '\r\n', '\n', '\u2028', '\\'];
  const defang = (text: string) =>
    fragments.reduce((out, fragment, index) => out.split(fragment).join(`Z${index}Z`), text);

  function definition(text: (value: string) => string): Record<string, unknown> {
    return {
      name: 'nasty',
      id: text(NASTY),
      version: text(NASTY),
      category: text(NASTY),
      displayName: text(NASTY),
      description: text(NASTY),
      requiredCapabilities: [text(NASTY), 'plain'],
      inputSchema: {
        type: 'object',
        properties: {
          [text(NASTY)]: {
            type: 'string',
            description: text(NASTY),
            default: text(NASTY),
            enum: [text(NASTY), 'b'],
            pattern: text('b|c'),
          },
          plain: {
            type: 'object',
            description: text(NASTY),
            properties: { [text(NASTY)]: { type: 'number', description: text(NASTY) } },
          },
        },
        required: [text(NASTY)],
        definitions: {
          Local: { type: 'object', description: text(NASTY), properties: { [text(NASTY)]: { const: text(NASTY) } } },
        },
      },
      outputSchema: {
        type: 'object',
        properties: { [text(NASTY)]: { $ref: '#/definitions/Local' } },
        definitions: {
          Local: { type: 'object', description: text(NASTY), properties: { [text(NASTY)]: { const: text(NASTY) } } },
        },
      },
      examples: [{ input: { [text(NASTY)]: text(NASTY) } }],
    };
  }

  type Token = {
    type: string;
    raw: string;
    text?: string;
    tokens?: Token[];
    items?: Token[];
    header?: { text: string; tokens: Token[] }[];
    rows?: { text: string; tokens: Token[] }[][];
  };
  /** The page's Markdown structure: block and inline token types, table dimensions; no text. */
  function shape(tokens: Token[]): unknown[] {
    // Inline escapes differ between the twins by design; code spans, links, emphasis and HTML must not.
    // `<br>` is how tableCell writes a line break of the text (the twin has none).
    const inline = (children: Token[] | undefined) =>
      (children ?? [])
        .filter((token) => !['text', 'escape', 'br'].includes(token.type) && token.raw !== '<br>')
        .map((token) => token.type);
    return tokens.map((token) => {
      if (token.type === 'table')
        return ['table', token.header!.length, token.rows!.map((row) => row.map((cell) => inline(cell.tokens)))];
      if (token.type === 'list') return ['list', shape(token.items!)];
      if (token.type === 'list_item') return ['item', shape(token.tokens!)];
      return [token.type, inline(token.tokens)];
    });
  }
  function htmlTokens(tokens: Token[]): string[] {
    return tokens.flatMap((token) => [
      ...(token.type === 'html' ? [token.raw] : []),
      ...htmlTokens(token.tokens ?? []),
      ...htmlTokens(token.items ?? []),
      ...(token.rows ?? []).flatMap((row) => row.flatMap((cell) => htmlTokens(cell.tokens))),
    ]);
  }
  const decode = (text: string) =>
    text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');

  let nasty: TempProject;
  let twin: TempProject;
  beforeAll(async () => {
    nasty = createTempProject();
    twin = createTempProject();
    const [a, b] = await Promise.all([
      generateIn(nasty, { [NASTY_FILE]: definition((text) => text) }),
      generateIn(twin, { [defang(NASTY_FILE).replace(/Z0Z/, '*/')]: definition(defang) }),
    ]);
    expect(a.stderr).toBe('');
    expect(b.stderr).toBe('');
  }, 120_000);
  afterAll(() => {
    if (process.env.KEEP_DOCS === undefined) nasty?.dispose();
    twin?.dispose();
  });

  it('type-checks: the banners of the generated TypeScript are still comments', async () => {
    expect(await typeCheck(nasty, ['generated', 'src'])).toEqual({ code: 0, output: '' });
  }, 60_000);

  it.each(['docs/tools/nasty.md', 'docs/index.md', 'manifests/loss-report.md'])(
    '%s has the Markdown structure of its benign twin',
    async (page) => {
      const { marked } = await import('marked');
      const tokens = marked.lexer(nasty.read(`generated/${page}`)) as unknown as Token[];
      expect(shape(tokens)).toEqual(shape(marked.lexer(twin.read(`generated/${page}`)) as unknown as Token[]));
    },
  );

  it.each(['docs/tools/nasty.md', 'docs/index.md', 'manifests/loss-report.md'])(
    '%s has one HTML comment, the banner, on its first line',
    async (page) => {
      const { marked } = await import('marked');
      const text = nasty.read(`generated/${page}`);
      const firstLine = text.split('\n')[0]!;
      expect(firstLine).toMatch(/^<!-- Generated by toolsmith .* -->$/);
      expect(firstLine.indexOf('-->')).toBe(firstLine.length - 3);
      expect(firstLine.slice(4, -3)).not.toContain('--');
      // `<br>` is the line break tableCell puts in a cell; any other HTML came from schema text.
      expect(
        htmlTokens(marked.lexer(text) as unknown as Token[])
          .map((raw) => raw.trim())
          .filter((raw) => raw !== '<br>'),
      ).toEqual([firstLine]);
    },
  );

  it('shows every field verbatim in its table cell (id, version, category, capabilities, source, properties)', async () => {
    const { marked } = await import('marked');
    const tables = (marked.lexer(nasty.read('generated/docs/tools/nasty.md')) as unknown as Token[]).filter(
      (token) => token.type === 'table',
    );
    const meta = new Map(tables[0]!.rows!.map((row) => [row[0]!.text, row[1]!.tokens]));
    // Line breaks become spaces in a code span; a backslash right before a pipe is the one thing a GFM
    // table cell cannot carry inside code (its `\|` means "a pipe"), so `\|` shows as `|` (see tableCell).
    const flat = (text: string) => text.replace(/\r\n|\r|\n|\u2028/g, ' ').replace(/\\\|/g, '|');
    const code = (tokens: Token[] | undefined) =>
      tokens?.filter((token) => token.type === 'codespan').map((token) => decode(token.text!));
    expect(code(meta.get('Id'))).toEqual([flat(NASTY)]);
    expect(code(meta.get('Version'))).toEqual([flat(NASTY)]);
    expect(code(meta.get('Capabilities'))).toEqual([flat(NASTY), 'plain']);
    expect(code(meta.get('Defined in'))).toEqual([flat(`schemas/${NASTY_FILE}`)]);
    expect(
      meta
        .get('Category')!
        .map((token) => decode(token.raw))
        .join(''),
    ).toContain('c\\`d');
    const input = tables[1]!;
    expect(input.rows!.map((row) => code(row[0]!.tokens))).toEqual([
      [flat(NASTY)],
      ['plain'],
      [flat(`plain.${NASTY}`)],
    ]);
    expect(input.rows!.every((row) => row.length === 6)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// One run, every class at once
// ---------------------------------------------------------------------------------------------

describe('all problems of a run are reported at once, each with its position; nothing is written', () => {
  it('a FIFO, a dangling link, a duplicate key, a malformed $ref, a boolean schema, a cycle, a deep file and a bad shared default in one run', async () => {
    const composed = (name: string, call: string) =>
      tool(name, {
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object' },
        steps: [{ tool: call, arguments: {} }],
      });
    const stderr = await expectFailure(
      {
        'dup.tool.json': '{ "name": "dup", "name": "dup", "description": "d", "inputSchema": { "type": "object" } }\n',
        'ref.tool.json': tool('ref', {
          inputSchema: { type: 'object', properties: { q: { $ref: '#/definitions/%zz' } } },
        }),
        'bool.tool.json': tool('bool', { outputSchema: false }),
        'c1.tool.json': composed('c1', 'c2'),
        'c2.tool.json': composed('c2', 'c1'),
        'deep.tool.json': `{"name":"deep","description":"d","inputSchema":${'{"not":'.repeat(70)}{}${'}'.repeat(70)}}\n`,
        'shared/s.schema.json': {
          definitions: { N: { type: 'object', properties: { k: { type: 'integer', default: 'x' } } } },
        },
        'uses.tool.json': tool('uses', {
          inputSchema: { type: 'object', properties: { n: { $ref: './shared/s.schema.json#/definitions/N' } } },
        }),
        'fine.tool.json': tool('fine'),
      },
      (project) => {
        mkdirSync(path.join(project.root, 'schemas'), { recursive: true });
        execFileSync('mkfifo', [path.join(project.root, 'schemas/fifo.tool.json')]);
        symlinkSync('nowhere.json', path.join(project.root, 'schemas/dangling.tool.json'));
      },
      { child: true },
    );
    expect(stderr.split('\n').filter((line) => line.startsWith('schemas/'))).toEqual([
      'schemas/bool.tool.json:12:19 /outputSchema: the output schema is `false`: it accepts no output, so every call of the tool would fail',
      'schemas/c1.tool.json:12:15 /steps/0/tool: step 0 calls "c2", which leads back to "c1": c1 → c2 → c1',
      'schemas/c2.tool.json:12:15 /steps/0/tool: step 0 calls "c1", which leads back to "c2": c2 → c1 → c2',
      'schemas/dangling.tool.json:1:1: not read: it is a symbolic link to a file that does not exist (ENOENT)',
      `schemas/deep.tool.json:1:${'{"name":"deep","description":"d","inputSchema":'.length + 7 * 63 + 1}${' /inputSchema'}${'/not'.repeat(63)}: the file nests objects and arrays more than 64 levels deep`,
      'schemas/dup.tool.json:1:18 /name: the key "name" appears twice in one object (first at schemas/dup.tool.json:1:3, again here)',
      'schemas/fifo.tool.json:1:1: not read: it is a named pipe (FIFO), not a regular file',
      'schemas/ref.tool.json:8:17 /inputSchema/properties/q/$ref: the $ref "#/definitions/%zz" has a malformed percent escape "%zz" (a literal % is written %25)',
      'schemas/shared/s.schema.json:8:22 /definitions/N/properties/k/default: the default "x" does not match its own schema: / must be integer',
    ]);
    expect(stderr.split('\n')[0]).toBe('toolsmith: 9 problems; nothing was written.');
  }, 30_000);
});

describe('an emitter that throws on an accepted tool', () => {
  it('is a problem at that tool, reported with the others, and no files are returned', async () => {
    const { emitInMemory, makeProject, makeSettings, makeTool } = await import('./model-factory.js');
    const bad = makeTool({ name: 'bad' });
    // Stands in for a library that overflows or throws on some schema: only the per-tool emitters read this field.
    Object.defineProperty(bad, 'definitionOrigins', {
      get() {
        throw new RangeError('Maximum call stack size exceeded');
      },
    });
    const result = await emitInMemory(makeProject([makeTool({ name: 'fine' }), bad]), makeSettings());
    expect(result.files).toEqual([]);
    expect(result.problems).toEqual([
      {
        file: 'schemas/bad.tool.json',
        line: 1,
        column: 1,
        pointer: '',
        message: 'the generator failed on this tool (RangeError: Maximum call stack size exceeded)',
        hint: 'a bug in toolsmith or a library it uses: please report it with this definition; until then, simplify the part of the schema the error points at',
      },
    ]);
  });
});

describe('problem lines stay lines', () => {
  it('a key or file name with line breaks is printed with escapes, one line per problem and one per hint', async () => {
    const stderr = await expectFailure({
      'we\nird.tool.json': tool('a', {
        inputSchema: { type: 'object', properties: { q: { type: 'string', 'ty\npe': 1 } } },
      }),
    });
    expect(stderr).toBe(
      'toolsmith: 1 problem; nothing was written.\n' +
        'schemas/we\\nird.tool.json:9:9 /inputSchema/properties/q/ty\\npe: unknown keyword "ty\\npe"\n' +
        '    hint: did you mean `type`? (an extension keyword must start with `x-`)\n',
    );
  });
});
