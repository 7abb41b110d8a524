/**
 * The one "did you mean" picker: the candidate a word is a near-typo of. The schema dialect asks it
 * about unknown keywords and formats; the call feedback about an unknown property or a near-miss
 * enum value; the generator about unknown definition fields, config keys and values, shared schema
 * files and step tools. And the one edit distance (`editDistance`), which the registry ranks by.
 */

/** Longest word compared: a longer one (a key of megabytes) gets no suggestion. */
const MAX_COMPARED_LENGTH = 256;

/**
 * The candidate `word` is a near-typo of: at most one edit (a transposition counts as one) for
 * words under six characters, two for longer ones, compared case-insensitively; ties go to the
 * first in plain string order. Undefined when none is that close (`markdownDescription`,
 * `optional`, `json` are no typos of a keyword).
 */
export function nearestName(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length > MAX_COMPARED_LENGTH) return undefined;
  const limit = word.length < 6 ? 1 : 2;
  const probe = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = typoDistance(probe, candidate.toLowerCase(), limit);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/**
 * The edit distance between two names, compared case-insensitively (so `Calculator` is 0 from
 * `calculator`): what the registry ranks its nearest names by.
 */
export function editDistance(a: string, b: string): number {
  return typoDistance(a.toLowerCase(), b.toLowerCase(), Number.POSITIVE_INFINITY);
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions); `limit + 1` for
 * words whose lengths alone differ by more than `limit`. Three rows, no matrix.
 */
function typoDistance(a: string, b: string, limit: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}
