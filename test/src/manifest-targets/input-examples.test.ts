import { describe, expect, it } from 'vitest';
import { buildAnthropicManifest } from '../../../src/manifest-targets/anthropic.js';
import { DEFAULT_INPUT_EXAMPLES, selectInputExamples } from '../../../src/manifest-targets/input-examples.js';
import { buildManifestTarget } from '../../../src/manifest-targets/table.js';
import { makeProject, makeTool, TEST_CONTEXT, emitManifests } from '../../codegen/model-factory.js';

describe('input examples, the most different first', () => {
  const near = { city: 'Paris', units: 'metric' };
  const nearer = { city: 'Paris', units: 'imperial' };
  const rich = { city: 'Oslo', units: 'metric', days: 3, hourly: true };
  const far = { coordinates: { lat: 1, lon: 2 } };
  const examples = (...inputs: unknown[]) => inputs.map((input) => ({ input }));

  it('starts with the richest, then takes each time the one farthest from those taken', () => {
    // rich has the most leaves (4). nearer and far share none with it (distance 1; nearer comes first),
    // near shares `units` (1 - 1/5). Then far (nothing shared with either) before near (shares `city` with nearer).
    expect(selectInputExamples(examples(near, nearer, rich, far), 4)).toEqual([rich, nearer, far, near]);
  });

  it('stops at the limit, takes a duplicate once, skips non-object inputs and copies what it takes', () => {
    const taken = selectInputExamples(examples(near, near, 'text', rich), 5);
    expect(taken).toEqual([rich, near]);
    expect(taken[1]).not.toBe(near);
    expect(selectInputExamples(examples(near, rich, far), 1)).toEqual([rich]);
    expect(selectInputExamples(examples(near), 0)).toEqual([]);
  });

  it('go into an Anthropic entry as input_examples only when the project asks for them', () => {
    const tool = {
      name: 'forecast',
      description: 'Forecasts the weather.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      examples: [{ input: near }, { input: rich }],
    };
    expect(buildAnthropicManifest({ tools: [tool] }).content[0]).not.toHaveProperty('input_examples');
    expect(
      buildAnthropicManifest({ tools: [tool], inputExamples: DEFAULT_INPUT_EXAMPLES }).content[0]!.input_examples,
    ).toEqual([rich, near]);
    expect(buildAnthropicManifest({ tools: [tool], inputExamples: 1 }).content[0]!.input_examples).toEqual([rich]);
  });

  it('examplesInDescriptions: told at the end of the description where the target has no field for them, and counted', () => {
    const tool = {
      name: 'forecast',
      description: 'Forecasts the weather',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      examples: [{ input: near }, { input: rich }, { input: far }],
    };
    const project = { tools: [tool], examplesInDescriptions: true, inputExamples: 2 };
    const openai = buildManifestTarget('openai', project).content as { function: { description: string } }[];
    expect(openai[0]!.function.description).toBe(
      `Forecasts the weather. Example input: ${JSON.stringify(rich)}. Example input: ${JSON.stringify(far)}.`,
    );
    // Anthropic has `input_examples`: its description stays as written.
    const anthropic = buildManifestTarget('anthropic', project).content as {
      description: string;
      input_examples: unknown;
    }[];
    expect(anthropic[0]!.description).toBe('Forecasts the weather');
    expect(anthropic[0]!.input_examples).toEqual([rich, far]);
    // Off by default; on, the token report counts the longer entries.
    expect((buildManifestTarget('openai', { tools: [tool] }).content as typeof openai)[0]!.function.description).toBe(
      'Forecasts the weather',
    );
    const model = makeTool({ ...tool, inputSchema: { type: 'object', properties: { city: { type: 'string' } } } });
    const tokens = (examplesInDescriptions: boolean) =>
      emitManifests(makeProject([model]), TEST_CONTEXT, { targets: ['openai', 'anthropic'], examplesInDescriptions })
        .tokens!.tools.forecast!;
    expect(tokens(true).openai).toBeGreaterThan((tokens(false).openai as number) + 20);
    expect(tokens(true).anthropic).toBe(tokens(false).anthropic);
  });
});
