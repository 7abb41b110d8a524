/**
 * The generator lays bases, stubs and validator declarations out itself (codegen/emit/layout.ts) instead of printing them and
 * running prettier: every file it marks `preformatted` must be exactly what prettier (the generator's
 * options) makes of it. Checked on seeded random JSON literals near the line width, on every tool of
 * the field corpus, the repository's examples and a bench corpus, and on names long enough that the
 * layout hands the file to prettier instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { format } from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../../bench/corpus.js';
import { formatFile, PRETTIER_OPTIONS } from '../../../codegen/emit/format.js';
import { callWithLiteral, newLayout } from '../../../codegen/emit/layout.js';
import { emitStub } from '../../../codegen/emit/stubs.js';
import { emitToolBase } from '../../../codegen/emit/tool-bases.js';
import { emitToolValidators } from '../../../codegen/emit/validators.js';
import type { ProjectModel, ToolModel } from '../../../codegen/model.js';
import { emitSharedTypes, emitToolTypes } from '../../../codegen/emit/types.js';
import { corpora, EMIT_CONTEXT, projectOf, typeHomes } from './project.js';

const prettier = (text: string) => format(text, { ...PRETTIER_OPTIONS, parser: 'typescript' });

/** `export const <name>: T = deepFreeze(<value>);` laid out by layout.ts, and whether it claims prettier's layout. */
function frozenConst(name: string, value: unknown): { text: string; exact: boolean } {
  const layout = newLayout();
  const left = `export const ${name}: T = `;
  return { text: `${left}${callWithLiteral('deepFreeze', value, '', left.length, 1, layout)};\n`, exact: layout.exact };
}

type Random = ReturnType<typeof createRandom>;

const WORDS = ['a', 'id', 'type', 'title', 'description', 'x-order', 'enum', 'café', "it's", '"q"', '__proto__', '0'];

/** A random JSON value whose strings and keys are sized to land near the width of 120. */
function randomValue(random: Random, depth: number): unknown {
  const kind = random.int(0, depth > 3 ? 3 : 6);
  switch (kind) {
    case 0:
      return random.pick([true, false, null, 0, -1.5, 1e21, 123456789, 0.000001]);
    case 1:
    case 2:
      return randomString(random);
    case 3:
      return random.int(0, 1) === 0 ? randomNumber(random) : randomString(random).slice(0, 8);
    case 4: {
      const numbers = random.int(0, 1) === 0;
      return Array.from({ length: random.int(0, 30) }, () =>
        numbers ? randomNumber(random) : randomValue(random, depth + 1),
      );
    }
    default: {
      const object: Record<string, unknown> = {};
      for (let i = random.int(0, 5); i > 0; i--)
        object[`${random.pick(WORDS)}${random.int(0, 2) === 0 ? '' : 'k'.repeat(random.int(0, 40))}`] = randomValue(
          random,
          depth + 1,
        );
      return object;
    }
  }
}

function randomNumber(random: Random): number {
  return random.pick([random.int(-99, 99999), random.int(0, 9) / 4, -random.int(1, 1000)]);
}

function randomString(random: Random): string {
  const base = random.pick(['plain', "it's", 'say "hi"', 'back\\slash', 'line\nbreak', 'tab\there', 'é', '\u2028']);
  return `${base}${'w'.repeat(random.int(0, 130))}`;
}

describe('literals laid out as prettier lays them out', () => {
  it('600 seeded random values: every one marked exact is prettier’s layout, and most are', async () => {
    const random = createRandom(17);
    let exact = 0;
    for (let i = 0; i < 600; i++) {
      const value = randomValue(random, 0);
      const { text, exact: claimed } = frozenConst(`value${'v'.repeat(random.int(0, 60))}`, { value });
      if (!claimed) continue;
      exact++;
      expect(await prettier(text), JSON.stringify(value)).toBe(text);
    }
    expect(exact).toBeGreaterThan(400);
  });

  it('known layouts: numbers filled, arrays of arrays broken, long strings under their key unless it is short', async () => {
    const cases: unknown[] = [
      { nums: Array.from({ length: 40 }, (_, i) => i * 37) },
      {
        pairs: [
          [1, 2],
          [3, 4],
        ],
        single: [[1], [2]],
        mixed: [[1, 2], { a: 1 }],
      },
      { abcd: 'x'.repeat(130), abcde: 'x'.repeat(130), '"q"': 'x'.repeat(130) },
      { big: 1e21, small: 1e-7, neg: [-1, -2.5] },
      { enum: ['x'.repeat(50), 'y'.repeat(50), 'z'.repeat(20)] },
      { empty: [{}], nested: [{ a: [] }], __proto__key: { ['__proto__']: 1 } },
    ];
    for (const value of cases) {
      const { text, exact } = frozenConst('known', value);
      expect(exact, JSON.stringify(value)).toBe(true);
      expect(await prettier(text)).toBe(text);
    }
  });

  it('leaves to prettier what it does not decide: a key prettier would unquote, a head past the width', () => {
    expect(frozenConst('unicode', { café: 1 }).exact).toBe(false);
    expect(frozenConst('x'.repeat(100), { a: 1 }).exact).toBe(false);
    expect(frozenConst('short', { 'a-b': 1 }).exact).toBe(true);
  });
});

/** Each tool's types file formatted as the generator formats it (`babel-ts`) and as prettier's `typescript` parser does: the same bytes. */
async function checkTypes(project: ProjectModel): Promise<number> {
  const homes = typeHomes(project);
  for (const tool of project.tools) {
    const file = await emitToolTypes(tool, homes, EMIT_CONTEXT);
    expect((await formatFile(file)).content, `${tool.name}: ${file.path}`).toBe(await prettier(file.content));
  }
  for (const shared of project.shared) {
    const file = await emitSharedTypes(shared, homes, EMIT_CONTEXT);
    expect((await formatFile(file)).content, file.path).toBe(await prettier(file.content));
  }
  return project.tools.length + project.shared.length;
}

/** Each tool's base, stub and validator declarations, checked: a preformatted file is prettier's layout; any other one gets prettier's. */
async function checkTools(tools: readonly ToolModel[]): Promise<{ exact: number; files: number }> {
  let exact = 0;
  let files = 0;
  for (const tool of tools) {
    const declarations = emitToolValidators(tool, EMIT_CONTEXT)[1]!;
    for (const file of [emitToolBase(tool, EMIT_CONTEXT), emitStub(tool, EMIT_CONTEXT), declarations]) {
      files++;
      const expected = await prettier(file.content);
      if (file.preformatted) {
        exact++;
        expect(file.content, `${tool.name}: ${file.path}`).toBe(expected);
      }
      expect((await formatFile(file)).content, `${tool.name}: ${file.path}`).toBe(expected);
    }
  }
  return { exact, files };
}

describe('bases and stubs laid out as prettier lays them out', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'toolsmith-layout-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('every tool of the field corpus, the repository’s examples and a 150-tool bench corpus', async () => {
    const { field, examples, bench } = corpora(scratch, 5);
    const tools = [...field.tools, ...examples.tools, ...bench.tools];
    expect(tools.length).toBeGreaterThan(160);
    const { exact, files } = await checkTools(tools);
    expect(exact).toBe(files);
    // The types files, which prettier still formats: its faster parser gives the same bytes.
    let typesFiles = 0;
    for (const project of [field, examples, bench]) typesFiles += await checkTypes(project);
    expect(typesFiles).toBeGreaterThan(160);
  }, 180_000);

  it('a 64-character name: every declaration broken as prettier breaks it (imports, class header, execute, stub)', async () => {
    const name = `a_${'very_long_'.repeat(6)}name`.slice(0, 64);
    const project = projectOf({
      [`${name}.tool.json`]: {
        name,
        description: 'A tool whose name makes every declaration too long for one line.',
        requiredCapabilities: ['x'.repeat(60), 'y'.repeat(60)],
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        outputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      },
    });
    expect(await checkTools(project.tools)).toEqual({ exact: 3, files: 3 });
  });

  it('a key prettier would unquote (not ASCII): the base is handed to prettier and comes out as prettier makes it', async () => {
    const project = projectOf({
      'accents.tool.json': {
        name: 'accents',
        description: 'A property named with an accent.',
        inputSchema: { type: 'object', properties: { café: { type: 'string' } } },
      },
    });
    const base = emitToolBase(project.tools[0]!, EMIT_CONTEXT);
    expect(base.preformatted).toBeUndefined();
    expect(base.content).toContain("'café': {");
    expect((await formatFile(base)).content).toMatch(/^ +café: \{$/m);
    expect(await checkTools(project.tools)).toEqual({ exact: 2, files: 3 });
  });
});
