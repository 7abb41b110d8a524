/*
 * A definition's `examples` as Anthropic's `input_examples`: the example inputs (already validated
 * against the input schema at build), at most `limit`, the most different first, so a low limit
 * still shows the model the widest spread of calls.
 */
import { escapePointerSegment } from '../schema/json-pointer.js';
import { copyJsonValue, isObject } from '../schema/walk.js';
import { appendDescription } from '../schema/keyword-sentences.js';
import type { ManifestTool } from './build.js';

/**
 * How many examples an Anthropic entry carries by default (`manifests.inputExamples`). Anthropic's
 * guide advises a few per tool (each costs tokens in every request); the API documents no maximum.
 */
export const DEFAULT_INPUT_EXAMPLES = 5;

/** The leaves of a JSON value as `pointer=json` strings (an empty object or array is a leaf). */
function leaves(value: unknown, pointer = '', out = new Set<string>()): Set<string> {
  const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
  if (keys.length === 0) {
    out.add(`${pointer}=${JSON.stringify(value)}`);
    return out;
  }
  for (const key of keys)
    leaves((value as Record<string, unknown>)[key], `${pointer}/${escapePointerSegment(key)}`, out);
  return out;
}

/** Jaccard distance of two leaf sets: 0 for the same leaves, 1 for none in common. */
function distance(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const leaf of a) if (b.has(leaf)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : 1 - shared / union;
}

/**
 * At most `limit` of a tool's example inputs, the most different first: the one with the most leaves (paths and
 * values), then each time the one farthest (Jaccard distance over leaves) from those already taken;
 * ties go to the earlier example. Exact duplicates are taken once. Copies, never the model's values.
 */
export function selectInputExamples(examples: ManifestTool['examples'], limit: number): Record<string, unknown>[] {
  const candidates = (examples ?? [])
    .map((example) => example.input)
    .filter(isObject)
    .map((input) => ({ input, leaves: leaves(input), key: JSON.stringify(input), nearest: Number.POSITIVE_INFINITY }))
    .filter((candidate, position, all) => all.findIndex((other) => other.key === candidate.key) === position);
  const chosen: typeof candidates = [];
  const score = (candidate: (typeof candidates)[number]) =>
    chosen.length === 0 ? candidate.leaves.size : candidate.nearest;
  while (chosen.length < limit && chosen.length < candidates.length) {
    // The highest score; a tie keeps the earlier example.
    const best = candidates
      .filter((candidate) => !chosen.includes(candidate))
      .reduce((kept, candidate) => (score(candidate) > score(kept) ? candidate : kept));
    chosen.push(best);
    for (const candidate of candidates)
      candidate.nearest = Math.min(candidate.nearest, distance(candidate.leaves, best.leaves));
  }
  return chosen.map((candidate) => copyJsonValue(candidate.input));
}

/**
 * The tools with their examples told at the end of the description (`Example input: {…}.`, at most
 * `limit`, the most different first), for a target without an examples field
 * (`manifests.examplesInDescriptions`); a tool without examples is given as it is.
 */
export function describeExamples<T extends ManifestTool>(tools: readonly T[], limit: number): T[] {
  return tools.map((tool) => {
    const examples = selectInputExamples(tool.examples, limit);
    if (examples.length === 0) return tool;
    const sentences = examples.map((example) => `Example input: ${JSON.stringify(example)}.`);
    return { ...tool, description: appendDescription(tool.description, sentences) };
  });
}
