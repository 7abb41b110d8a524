/*
 * Every problem of one definition file is reported in one run: for each pair of problems written into
 * the same file, generate reports exactly what it reports for each alone (no problem hidden behind
 * another, no second problem caused by the first).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../../codegen/generate.js';
import { createTempProject } from '../../helpers/temp-project.js';

type Definition = {
  inputSchema: Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };
  examples: { input: Record<string, unknown> }[];
};

/** One tool with five independent properties; each problem below spoils one part of it. */
function baseDefinition(): Definition & Record<string, unknown> {
  return {
    name: 'pairs',
    description: 'A tool whose definition collects problems.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        count: { type: 'integer' },
        label: { type: 'string' },
        mode: { type: 'string', enum: ['a', 'b'] },
        target: { type: 'string' },
        size: { type: 'integer' },
      },
      definitions: { Target: { type: 'string' } },
    },
    examples: [{ input: { count: 1 } }, { input: { count: 2 } }, { input: { count: 3 } }],
  };
}

const PROBLEMS: Record<string, (definition: Definition) => void> = {
  'a bad default': (definition) => {
    definition.inputSchema.properties.count!.default = 'many';
  },
  'a duplicate enum item': (definition) => {
    definition.inputSchema.properties.mode!.enum = ['a', 'a'];
  },
  'a dangling $ref': (definition) => {
    definition.inputSchema.properties.target = { $ref: '#/definitions/Missing' };
  },
  'a misspelt keyword': (definition) => {
    definition.inputSchema.properties.label!.maxLenght = 5;
  },
  'a bad example': (definition) => {
    definition.examples[1] = { input: { size: 'big' } };
  },
  'an example without input': (definition) => {
    definition.examples[2] = { output: { size: 1 } } as never;
  },
};

const project = createTempProject();
afterAll(() => project.dispose());

/** What generate reports for the definition with `problems` written in: `pointer message`, sorted. */
async function reportedFor(problems: string[]): Promise<string[]> {
  const definition = baseDefinition();
  for (const problem of problems) PROBLEMS[problem]!(definition);
  project.write('schemas/pairs.tool.json', definition);
  const result = await generate({ root: project.root, runtimeImport: project.runtimeImport, format: false });
  return result.problems.map((problem) => `${problem.pointer} ${problem.message}`).sort();
}

const names = Object.keys(PROBLEMS);
const pairs = names.flatMap((first, index) => names.slice(index + 1).map((second) => [first, second] as const));

describe('every problem of one file at once', () => {
  const alone = new Map<string, string[]>();

  it.each(names)('%s alone is reported', async (name) => {
    const reported = await reportedFor([name]);
    expect(reported.length, reported.join('\n')).toBeGreaterThan(0);
    alone.set(name, reported);
  });

  it.each(pairs)('%s and %s: both, and nothing else', async (first, second) => {
    const expected = [
      ...(alone.get(first) ?? (await reportedFor([first]))),
      ...(alone.get(second) ?? (await reportedFor([second]))),
    ];
    expect(await reportedFor([first, second])).toEqual(expected.sort());
  });

  it('the file without a problem generates', async () => {
    expect(await reportedFor([])).toEqual([]);
  });
});
