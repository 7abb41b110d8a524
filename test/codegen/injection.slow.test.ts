/**
 * Text from schemas is data: descriptions, titles, enum values, defaults, examples and property names
 * full of `*\/`, backticks, `${`, `</script>`, quotes, backslashes, newlines, U+2028/U+2029, `@param`,
 * code fences and non-identifier names (`my-prop`, `class`, `__proto__`, `constructor`, `0`) must not
 * change the meaning of any generated file.
 *
 * Oracles: tsc; the exact top-level declarations of every generated TypeScript/JavaScript file (read
 * with ts-morph), which must equal both a hand-written list and those of a "benign twin" (the same
 * fixture with every dangerous fragment replaced by a plain token); the validators and the frozen schemas at
 * run time; JSON outputs parse and carry the strings verbatim; Markdown keeps the twin's structure.
 * Then a fast-check property puts random strings in the same places.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { Node, Project, type SourceFile, type Statement } from 'ts-morph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { layoutList, PRINT_WIDTH, quoted, stringLiteral, valueLiteral } from '../../codegen/emit/literal.js';
import { loadDefinitions } from '../../codegen/load.js';
import { normalize } from '../../codegen/normalize.js';
import { REPO, createTempProject, run, typeCheck, type TempProject } from '../helpers/temp-project.js';

const FIXTURE = path.join(REPO, 'test/fixtures/injection/schemas');
/** Every fragment that could end a comment, a string, a template, a script block, a fence or a line. */
const FRAGMENTS = [
  '*/',
  '/*',
  '```',
  '`',
  '${',
  '</script>',
  '<!--',
  '-->',
  '"',
  "'",
  '\\',
  '\n',
  '\r',
  '\u2028',
  '\u2029',
  '@param',
  '@returns',
];

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Replaces every dangerous fragment in every string (keys included) with a plain token (`Z<n>Z`). */
function defang(value: unknown): unknown {
  const clean = (text: string) =>
    FRAGMENTS.reduce((out, fragment, index) => out.split(fragment).join(`Z${index}Z`), text);
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return value.map(defang);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value))
      Object.defineProperty(out, clean(key), {
        value: defang((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) =>
      statSync(path.join(dir, name)).isDirectory()
        ? listFiles(path.join(dir, name), `${prefix}${name}/`)
        : [`${prefix}${name}`],
    );
}

/** Copies a schemas folder (optionally transformed) into a fresh temp project and generates. */
async function generateProject(
  schemas: Record<string, unknown>,
): Promise<{ project: TempProject; code: number; stderr: string }> {
  const project = createTempProject();
  for (const [file, value] of Object.entries(schemas))
    project.write(`schemas/${file}`, `${JSON.stringify(value, null, 2)}\n`);
  project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
  let stderr = '';
  const code = await main(['generate'], {
    cwd: project.root,
    stdout: () => undefined,
    stderr: (text) => (stderr += text),
  });
  return { project, code, stderr };
}

function readFixture(): Record<string, unknown> {
  return Object.fromEntries(
    listFiles(FIXTURE).map((file) => [file, JSON.parse(readFileSync(path.join(FIXTURE, file), 'utf8'))]),
  );
}

/** One line per top-level statement: what it declares and whether it is exported; class members too. */
function describeStatement(statement: Statement): string[] {
  const exported = Node.isExportable(statement) && statement.isExported() ? 'export ' : '';
  if (Node.isImportDeclaration(statement)) {
    const names = statement
      .getNamedImports()
      .map((named) => named.getText())
      .sort();
    const fallback = statement.getDefaultImport()?.getText();
    return [
      `import ${[fallback, names.length ? `{ ${names.join(', ')} }` : undefined].filter(Boolean).join(', ')} from ${statement.getModuleSpecifierValue()}`,
    ];
  }
  if (Node.isExportDeclaration(statement)) {
    const names = statement
      .getNamedExports()
      .map((named) => named.getText())
      .sort();
    return [
      `export ${names.length ? `{ ${names.join(', ')} }` : '*'}${statement.getModuleSpecifierValue() ? ` from ${statement.getModuleSpecifierValue()}` : ''}`,
    ];
  }
  if (Node.isVariableStatement(statement))
    return statement.getDeclarations().map((declaration) => `${exported}const ${declaration.getName()}`);
  if (Node.isClassDeclaration(statement)) {
    const members = statement
      .getMembers()
      .map((member) =>
        Node.isPropertyDeclaration(member) || Node.isMethodDeclaration(member)
          ? member.getName()
          : member.getKindName(),
      );
    return [`${exported}class ${statement.getName()} { ${members.join(', ')} }`];
  }
  if (Node.isInterfaceDeclaration(statement))
    return [`${exported}interface ${statement.getName()} (${statement.getMembers().length} members)`];
  if (Node.isTypeAliasDeclaration(statement)) return [`${exported}type ${statement.getName()}`];
  if (Node.isFunctionDeclaration(statement)) return [`${exported}function ${statement.getName()}`];
  return [statement.getKindName()];
}

/** The declarations of every generated .ts/.js file of a project (and of its stubs). */
function declarationsOf(project: TempProject): Record<string, string[]> {
  const morph = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true } });
  const out: Record<string, string[]> = {};
  for (const dir of ['generated', 'src/tools']) {
    for (const [file, content] of Object.entries(project.snapshot(dir))) {
      if (!/\.(ts|js)$/.test(file)) continue;
      const source: SourceFile = morph.createSourceFile(`/${dir}/${file}`, content);
      out[`${dir}/${file}`] = source.getStatements().flatMap(describeStatement);
    }
  }
  return out;
}

/** Runs a script with Node (TypeScript through tsx) in a project and parses its JSON output. */
async function runScript(project: TempProject, file: string, source: string): Promise<any> {
  project.write(file, source);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: project.root });
  return JSON.parse(stdout);
}

// ---------------------------------------------------------------------------------------------
// The fixture
// ---------------------------------------------------------------------------------------------

/** What the generated files of the fixture declare, and nothing else. */
const EXPECTED: Record<string, string[]> = {
  'generated/types/nasty-tool.ts': [
    'import { NastyEntry } from ./shared/nasty-entry.js',
    'export interface NastyToolInput (10 members)',
    'export type NastyToolArgs',
    'export type NastyToolLocalThing',
    'export interface NastyToolOutput (1 members)',
  ],
  'generated/types/shared/nasty-entry.ts': ['export interface NastyEntry (2 members)', 'export type Flavor'],
  'generated/validators/nasty-tool.d.ts': [
    'import { ValidateFunction } from RUNTIME',
    'import { NastyToolInput, NastyToolOutput } from ../types/nasty-tool.js',
    'export const validateNastyToolInput',
    'export const validateNastyToolOutput',
  ],
  'generated/tools/nasty-tool.base.ts': [
    'import { deepFreeze, type ITool, type JSONSchemaObject, type ToolExecutionContext, type ToolExecutionResult } from RUNTIME',
    'import { NastyToolArgs, NastyToolInput, NastyToolOutput } from ../types/nasty-tool.js',
    'import { validateNastyToolInput, validateNastyToolOutput } from ../validators/nasty-tool.js',
    'export const nastyToolInputSchema',
    'export const nastyToolOutputSchema',
    'export class NastyToolToolBase { id, name, displayName, description, inputSchema, outputSchema, requiredCapabilities, category, version, hasSideEffects, validators, execute }',
  ],
  'src/tools/nasty-tool.ts': [
    'import { ToolExecutionContext, ToolExecutionResult } from RUNTIME',
    'import { NastyToolToolBase } from ../../generated/tools/nasty-tool.base.js',
    'import { NastyToolArgs, NastyToolOutput } from ../../generated/types/nasty-tool.js',
    'export class NastyToolTool { execute }',
  ],
};

describe('a definition full of dangerous strings and non-identifier names', () => {
  let nasty: TempProject;
  let benign: TempProject;
  let nastyDeclarations: Record<string, string[]>;

  beforeAll(async () => {
    const fixture = readFixture();
    const [a, b] = await Promise.all([
      generateProject(fixture),
      generateProject(defang(fixture) as Record<string, unknown>),
    ]);
    nasty = a.project;
    benign = b.project;
    expect(a.stderr).toBe('');
    expect(a.code).toBe(0);
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    nastyDeclarations = declarationsOf(nasty);
  }, 60_000);

  afterAll(() => {
    nasty?.dispose();
    benign?.dispose();
  });

  it('type-checks (tsc strict, NodeNext), stubs included', async () => {
    expect(await typeCheck(nasty, ['generated', 'src'])).toEqual({ code: 0, output: '' });
  }, 60_000);

  it('declares exactly the expected names in every TypeScript file', () => {
    const runtime = (text: string) => text.replace(/from \S*src\/index\.js$/, 'from RUNTIME');
    for (const [file, expected] of Object.entries(EXPECTED))
      expect(nastyDeclarations[file]?.map(runtime), file).toEqual(expected);
  });

  it('declares the same as its benign twin in every generated .ts/.js file', () => {
    const twin = declarationsOf(benign);
    expect(Object.keys(nastyDeclarations).sort()).toEqual(Object.keys(twin).sort());
    for (const file of Object.keys(twin)) expect(nastyDeclarations[file], file).toEqual(twin[file]);
    // The validator module exports exactly its two validators.
    expect(
      nastyDeclarations['generated/validators/nasty-tool.js']!.filter((line) => line.startsWith('export')),
    ).toEqual(['export const validateNastyToolInput', 'export const validateNastyToolOutput']);
  });

  it('validators accept and reject objects with those keys; frozen schemas equal the bundled ones at run time', async () => {
    const model = normalize(loadDefinitions(path.join(nasty.root, 'schemas'), nasty.root));
    expect(model.problems).toEqual([]);
    const tool = model.project.tools[0]!;
    const result = await runScript(
      nasty,
      'check/runtime.ts',
      `import { validateNastyToolInput } from '../generated/validators/nasty-tool.js';
import { NastyToolToolBase, nastyToolInputSchema, nastyToolOutputSchema } from '../generated/tools/nasty-tool.base.js';
const valid = JSON.parse(${stringLiteral(JSON.stringify({ 'my-prop': 'a', class: '</script>', constructor: true, 0: 'zero', nested: { toString: 'x' } }))});
const okValid = validateNastyToolInput(valid);
const badClass = JSON.parse('{"my-prop":"a","class":"nope","constructor":true,"0":"z"}');
const okBadClass = validateNastyToolInput(badClass);
const badErrors = validateNastyToolInput.errors?.map((e) => e.instancePath + ' ' + e.keyword);
const inherited = {"my-prop":"a","class":"*/","0":"z"};
const okInherited = validateNastyToolInput(inherited);
const inheritedErrors = validateNastyToolInput.errors?.map((e) => e.keyword + ' ' + JSON.stringify(e.params));
const withProto = JSON.parse('{"my-prop":"a","class":"*/","constructor":false,"0":"z","__proto__":5}');
const okWithProto = validateNastyToolInput(withProto);
const protoErrors = validateNastyToolInput.errors?.map((e) => e.keyword + ' ' + JSON.stringify(e.params));
class Impl extends NastyToolToolBase { async execute() { return { success: true as const, output: undefined as never }; } }
const tool = new Impl();
const props = nastyToolInputSchema.properties as Record<string, unknown>;
console.log(JSON.stringify({
  okValid, valid, okBadClass, badErrors, okInherited, inheritedErrors, okWithProto, protoErrors,
  protoIsObject: Object.getPrototypeOf(props) === Object.prototype,
  hasOwnProto: Object.hasOwn(props, '__proto__'),
  nestedHasOwnProto: Object.hasOwn((props.nested as any).properties, '__proto__'),
  sameObject: tool.inputSchema === nastyToolInputSchema,
  frozen: Object.isFrozen(props),
  input: nastyToolInputSchema, output: nastyToolOutputSchema,
  description: tool.description, displayName: tool.displayName, category: tool.category, version: tool.version,
  requiredCapabilities: tool.requiredCapabilities,
}));
`,
    );
    expect(result.okValid).toBe(true);
    // Defaults were filled with the exact dangerous strings.
    expect(result.valid.withDefault).toBe((tool.inputSchema.properties!.withDefault as { default: string }).default);
    expect(result.okBadClass).toBe(false);
    expect(result.badErrors).toEqual(['/class enum']);
    // `constructor` is inherited by every object: with `ownProperties` it is still reported missing.
    expect(result.okInherited).toBe(false);
    expect(result.inheritedErrors).toEqual(['required {"missingProperty":"constructor"}']);
    // Known Ajv limitation: it never applies the schema of a property named `__proto__` and counts
    // the key as an additional property (so `additionalProperties: false` rejects it).
    expect(result.okWithProto).toBe(false);
    expect(result.protoErrors).toEqual(['additionalProperties {"additionalProperty":"__proto__"}']);

    expect(result.protoIsObject).toBe(true);
    expect(result.hasOwnProto).toBe(true);
    expect(result.nestedHasOwnProto).toBe(true);
    expect(result.sameObject).toBe(true);
    expect(result.frozen).toBe(true);
    expect(isDeepStrictEqual(result.input, tool.inputSchema)).toBe(true);
    expect(isDeepStrictEqual(result.output, tool.outputSchema)).toBe(true);
    expect(result.description).toBe(tool.description);
    expect(result.displayName).toBe(tool.displayName);
    expect(result.category).toBe(tool.category);
    expect(result.version).toBe(tool.version);
    expect(result.requiredCapabilities).toEqual(tool.requiredCapabilities);
  }, 60_000);

  it('JSON outputs parse and carry the strings verbatim', () => {
    const model = normalize(loadDefinitions(path.join(nasty.root, 'schemas'), nasty.root));
    const description = model.project.tools[0]!.description;
    const json = Object.entries(nasty.snapshot('generated')).filter(([file]) => file.endsWith('.json'));
    expect(json.length).toBeGreaterThan(0);
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.flatMap(strings)
          : value && typeof value === 'object'
            ? Object.values(value).flatMap(strings)
            : [];
    const manifests = json.filter(([file]) => /manifests\/(mcp|openai|anthropic|gemini)/.test(file));
    expect(manifests.length).toBeGreaterThan(0);
    for (const [file, content] of json) {
      const parsed = JSON.parse(content);
      if (manifests.some(([name]) => name === file)) expect(strings(parsed), file).toContain(description);
    }
  });

  it('Markdown keeps the structure of its benign twin; no raw HTML or fence escapes from the data', () => {
    const twin = benign.snapshot('generated');
    const markdown = Object.entries(nasty.snapshot('generated')).filter(([file]) => file.endsWith('.md'));
    expect(markdown.length).toBeGreaterThan(0);
    // Headings by level, table rows by cell count, fences by info string (a longer fence is how a
    // value containing ``` is kept inside its block), a paragraph as one `text` however many lines.
    const skeleton = (text: string) =>
      text
        .split('\n')
        .map((line) =>
          line.startsWith('#')
            ? '#'.repeat(/^#+/.exec(line)![0].length)
            : line.startsWith('|')
              ? `|${line.split(/(?<!\\)\|/).length}`
              : /^`{3,}/.test(line)
                ? `fence${line.replace(/^`+/, '')}`
                : line === ''
                  ? ''
                  : 'text',
        )
        .join('\n')
        .replace(/text(\ntext)+/g, 'text');
    for (const [file, content] of markdown) {
      expect(twin[file], file).toBeDefined();
      expect(skeleton(content), file).toBe(skeleton(twin[file]!));
      // Outside code (where Markdown shows text literally) no raw HTML may come from the data.
      const outsideCode = (text: string) =>
        text
          .replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1[ \t]*$/gm, '')
          .replace(/(?<![\\`])(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
      for (const raw of ['<script', '</script>', '<!--', '-->']) {
        expect(outsideCode(content).split(raw).length, `${file} ${raw}`).toBe(
          outsideCode(twin[file]!).split(raw).length,
        );
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Property: random strings
// ---------------------------------------------------------------------------------------------

const RANDOM_RUNS = 4;
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(...FRAGMENTS),
  fc
    .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: 'binary', maxLength: 4 })), {
      minLength: 1,
      maxLength: 8,
    })
    .map((parts) => parts.join('')),
);

/** A definition with random strings as descriptions, titles, enum values, defaults, examples and names. */
function randomDefinition(strings: string[], keys: string[], enumValues: string[]): Record<string, unknown> {
  const at = (index: number) => strings[index % strings.length]!;
  const properties: Record<string, unknown> = {
    picked: { type: 'string', description: at(0), title: at(1), enum: enumValues },
    free: { type: 'string', description: at(2), default: at(3), examples: [at(4)] },
    count: { type: 'integer', description: at(5), title: at(6) },
  };
  keys.forEach((key, index) =>
    Object.defineProperty(properties, key, {
      value: { type: 'string', description: at(7 + index) },
      enumerable: true,
      writable: true,
      configurable: true,
    }),
  );
  return {
    name: 'random_tool',
    description: `${at(10)}.`,
    displayName: `${at(11)}!`,
    category: `${at(12)}?`,
    requiredCapabilities: [`${at(13)}:`],
    inputSchema: {
      type: 'object',
      title: at(14),
      description: at(15),
      additionalProperties: false,
      required: ['picked'],
      properties,
    },
    outputSchema: {
      type: 'object',
      description: at(16),
      additionalProperties: false,
      properties: { echo: { type: 'string', const: at(17), description: at(18) } },
    },
    examples: [{ description: at(19), input: { picked: enumValues[0], free: at(20) } }],
  };
}

describe('random strings as descriptions, enum values, defaults, examples and property names', () => {
  let baseline: Record<string, string[]>;

  beforeAll(async () => {
    const plain = Array.from({ length: 24 }, (_, index) => `plain ${index}`);
    const { project, code, stderr } = await generateProject({
      'random_tool.tool.json': randomDefinition(plain, ['k1', 'k2'], ['e1', 'e2']),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    baseline = declarationsOf(project);
    project.dispose();
  }, 60_000);

  it('always compiles, keeps its declarations, and its types accept the enum values', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(nastyString, { minLength: 24, maxLength: 24 }),
        fc
          .uniqueArray(nastyString, { minLength: 2, maxLength: 2, selector: (key) => key })
          .filter((keys) => keys.every((key) => !['picked', 'free', 'count'].includes(key))),
        fc.uniqueArray(nastyString, { minLength: 1, maxLength: 6 }),
        async (strings, keys, enumValues) => {
          const { project, code, stderr } = await generateProject({
            'random_tool.tool.json': randomDefinition(strings, keys, enumValues),
          });
          try {
            expect(stderr).toBe('');
            expect(code).toBe(0);
            // Each enum value, as a literal, must be assignable to the generated union: no character lost.
            project.write(
              'check/enum.ts',
              `import type { RandomToolInput } from '../generated/types/random-tool.js';\nexport const values: RandomToolInput['picked'][] = [${enumValues.map((value) => stringLiteral(value)).join(', ')}];\n`,
            );
            expect(await typeCheck(project, ['generated', 'src', 'check'])).toEqual({ code: 0, output: '' });
            expect(declarationsOf(project)).toEqual(baseline);
          } finally {
            project.dispose();
          }
        },
      ),
      { numRuns: RANDOM_RUNS },
    );
  }, 120_000);
});

describe('the literal helpers', () => {
  it('quoted() gives a single- or double-quoted literal that evaluates back to any string', () => {
    fc.assert(
      fc.property(nastyString, (text) => {
        const literal = quoted(text);
        expect(literal[0] === "'" || literal[0] === '"').toBe(true);
        expect(literal).not.toMatch(/[\u2028\u2029\n\r]/);
        expect(new Function(`return ${literal};`)()).toBe(text);
      }),
      { numRuns: 500 },
    );
    expect(quoted('calculator')).toBe("'calculator'");
    expect(quoted(`it's "x"`)).toBe(`'it\\'s "x"'`);
    expect(quoted(`it's`)).toBe(`"it's"`);
  });

  it('valueLiteral() gives a literal, in lines or inline, that evaluates back to any JSON value, `__proto__` keys included', () => {
    const key = fc.oneof(nastyString, fc.constantFrom('__proto__', 'constructor', 'toString', '0', 'a-b', 'café'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.oneof(nastyString, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const expected = JSON.parse(JSON.stringify(value));
        for (const inline of [false, true]) {
          const literal = valueLiteral(value, inline);
          if (inline) expect(literal).not.toContain('\n');
          expect(isDeepStrictEqual(new Function(`return ${literal};`)(), expected), literal).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
    expect(valueLiteral({ __proto__key: 1, ['__proto__']: { a: [1, 'x'] }, list: [{}] })).toBe(
      "{\n  __proto__key: 1,\n  ['__proto__']: {\n    a: [1, 'x'],\n  },\n  list: [\n    {},\n  ],\n}",
    );
    expect(valueLiteral({ openWorldHint: true, title: "it's" }, true)).toBe(`{ openWorldHint: true, title: "it's" }`);
  });

  it('layoutList() keeps a list on its line up to the print width and breaks it one item per line beyond', () => {
    expect(layoutList(["'a'", "'b'"], 'const x = ', ' as const;')).toBe("const x = ['a', 'b'] as const;");
    const items = Array.from({ length: 20 }, (_, index) => `'item_${index}'`);
    const broken = layoutList(items, 'const x = ', ';', '  ');
    expect(broken.split('\n')).toEqual(['  const x = [', ...items.map((item) => `    ${item},`), '  ];']);
    expect(Math.max(...broken.split('\n').map((line) => line.length))).toBeLessThanOrEqual(PRINT_WIDTH);
  });
});
