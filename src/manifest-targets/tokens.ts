/*
 * What a tool's manifest entry costs in tokens, per target: the text counted is the entry's JSON
 * (`JSON.stringify(entry)`, no indentation: what an SDK sends), read back from what generate wrote.
 *
 * - OpenAI targets and MCP: `o200k_base` (GPT-4o, GPT-4.1, o-series, GPT-5), exact for that text, with
 *   the pinned pure-JS `gpt-tokenizer` 4.0.0. What a provider adds around its tool list (its own
 *   rendering of the functions, a system preamble) is not in the count.
 * - Anthropic and Gemini publish no tokenizer: an estimate, `ceil(characters / charsPerToken)`, with
 *   `charsPerToken` calibrated on the entries of the bench's 1,000-tool corpus against their o200k
 *   count. `test/src/manifest-targets/tokens-estimate.e2e.test.ts` measures how far the estimate is from the o200k
 *   count on that corpus and holds it to `ESTIMATE_BOUND`. It estimates o200k-like tokens, not the
 *   provider's own count (Anthropic's `count_tokens` endpoint is the exact figure, over the network).
 *
 * Imported by the generator only (the runtime's `toolsmith-sdk/manifests` does not load a tokenizer). The
 * tokenizer is loaded on the first count, not with this module: its table costs ~150 ms and ~56 MB of
 * RSS, which an emit worker (it imports the manifest code, but never counts) must not pay.
 */
import { createRequire } from 'node:module';
import type { countTokens as CountTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { isObject, type SchemaNode } from '../schema/walk.js';
import { MANIFEST_TARGET_TABLE, type ManifestTarget } from './table.js';

/** How one target's entries are counted: exactly (o200k_base) or by the character estimate. */
export type TokenizerKind = 'o200k_base' | 'estimate';

/** How `target`'s entries are counted (its `charsPerToken` in the target table). */
export function tokenizerOf(target: ManifestTarget): TokenizerKind {
  return MANIFEST_TARGET_TABLE[target].charsPerToken === undefined ? 'o200k_base' : 'estimate';
}

/**
 * How far the estimate may be from the o200k count on the bench corpus, as a fraction of the o200k
 * count: for the corpus's total, and for any one tool's entry (measured by the test named above).
 * An entry heavy with short values (numbers in `input_examples`) has fewer characters per token: the
 * worst Anthropic entry of the corpus is 26 % under.
 */
export const ESTIMATE_BOUND = Object.freeze({ total: 0.01, perTool: 0.3 });

/** The pinned tokenizer library (a test checks it against the installed package). */
export const TOKENIZER_LIBRARY = 'gpt-tokenizer@4.0.0';

let countTokens: typeof CountTokens | undefined;

/** Special-token text (`<|endoftext|>`) in a description is text to the API: counted as such, never refused. */
const AS_TEXT = Object.freeze({ disallowedSpecial: new Set<string>() });

/**
 * The longest run of characters the byte-pair merge is given at once. A run without a break (one long
 * word, a row of dashes or spaces, a script written without spaces) is one pre-token, and merging one
 * costs the square of its length (a 1 MB word took minutes): a longer run is counted in pieces of this
 * length, and the count is marked estimated (each cut may add a token or two). Ordinary text (no such
 * run longer than this) is counted exactly, in one piece.
 */
export const LONGEST_MERGED_RUN = 256;

/**
 * How many characters of long runs one text has merged, in pieces, before the rest of its long runs is
 * counted at the tokens per character of those pieces: the merges of a text's long runs are at most
 * this many characters, whatever its length (random letters cost ~0.8 ms per piece to merge).
 */
export const LONG_RUN_MERGE_BUDGET = 65_536;

/**
 * A run the o200k pre-tokenizer may keep as one piece longer than `LONGEST_MERGED_RUN`: its pre-tokens
 * are one character and letters, up to three digits, punctuation then `[\r\n/]*`, or whitespace, so a
 * longer one holds a long run of letters, of punctuation, of whitespace, or of line ends and slashes.
 * Each is matched from its first character only (the look-behind), and as `c{n}c*`, not `c{n,}`, which
 * overflows V8's backtracking stack on a 10 MB run: the search stays linear in the text.
 */
const LONG_RUN = new RegExp(
  ['[\\p{L}\\p{M}]', '[^\\s\\p{L}\\p{N}]', '\\s', '[\\r\\n/]']
    .map((run) => `(?<!${run})${run}{${LONGEST_MERGED_RUN + 1}}${run}*`)
    .join('|'),
  'gu',
);

/** A token count, and whether a part of the text was counted in pieces (not exact). */
export interface TokenCount {
  tokens: number;
  estimated: boolean;
}

/** The exact o200k_base token count of `text` (no run of it longer than `LONGEST_MERGED_RUN`). */
function mergeCount(text: string): number {
  countTokens ??= (
    createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: typeof CountTokens }
  ).countTokens;
  return countTokens(text, AS_TEXT);
}

/**
 * The o200k_base token count of `text`: exact, but where a run is longer than `LONGEST_MERGED_RUN`
 * (counted in pieces, past `LONG_RUN_MERGE_BUDGET` at the pieces' tokens per character, and marked
 * estimated). `count` is the exact counter (a test's probe).
 */
export function countO200k(text: string, count: (piece: string) => number = mergeCount): TokenCount {
  let tokens = 0;
  let from = 0;
  const merged = { tokens: 0, characters: 0 };
  for (const run of text.matchAll(LONG_RUN)) {
    if (run.index > from) tokens += count(text.slice(from, run.index));
    const end = run.index + run[0].length;
    for (let at = run.index; at < end;) {
      if (merged.characters >= LONG_RUN_MERGE_BUDGET) {
        tokens += Math.ceil(((end - at) * merged.tokens) / merged.characters);
        break;
      }
      let cut = Math.min(at + LONGEST_MERGED_RUN, end);
      // Never between the halves of a surrogate pair.
      if (cut < end && /[\uDC00-\uDFFF]/.test(text[cut]!)) cut -= 1;
      const piece = count(text.slice(at, cut));
      tokens += piece;
      merged.tokens += piece;
      merged.characters += cut - at;
      at = cut;
    }
    from = end;
  }
  if (from === 0) return { tokens: count(text), estimated: false };
  if (from < text.length) tokens += count(text.slice(from));
  return { tokens, estimated: true };
}

/**
 * The tokens of `text` (an entry's JSON, or a part of it) by `target`'s counter: o200k_base, or
 * `ceil(characters / charsPerToken)`; `estimated` only where an o200k count had a run too long to
 * merge whole (an estimated target's count is always an estimate).
 */
export function countTargetTokens(text: string, target: ManifestTarget): TokenCount {
  const perToken = MANIFEST_TARGET_TABLE[target].charsPerToken;
  return perToken === undefined ? countO200k(text) : { tokens: Math.ceil(text.length / perToken), estimated: false };
}

/** What `token-report.json` says of a target's counter. */
export function tokenizerDescription(target: ManifestTarget): Record<string, unknown> {
  const text = 'JSON.stringify(entry): the entry as written, without indentation';
  const perToken = MANIFEST_TARGET_TABLE[target].charsPerToken;
  if (perToken === undefined)
    return {
      encoding: 'o200k_base',
      exact: true,
      library: TOKENIZER_LIBRARY,
      longRuns:
        `a run of more than ${LONGEST_MERGED_RUN} letters, punctuation marks or spaces (one pre-token) is counted in pieces of ` +
        `${LONGEST_MERGED_RUN}: a tool with one is marked "estimated": true`,
      text,
    };
  return {
    bound:
      `on the bench corpus (1,000 tools) within ${ESTIMATE_BOUND.total * 100} % of the o200k_base count in total ` +
      `and ${ESTIMATE_BOUND.perTool * 100} % per tool`,
    charsPerToken: perToken,
    exact: false,
    method: `estimate: ceil(characters / ${perToken}); the provider publishes no tokenizer`,
    text,
  };
}

/** What in an entry costs most (each part by the target's counter; the parts may overlap). */
export interface EntryCost {
  /** Every `description` string: the tool's and its properties'. */
  descriptions: number;
  /** Every `enum` and `const` value. */
  enums: number;
  /** What lies below the root's own properties: local definitions, nested objects' properties, items, alternatives. */
  nestedSchemas: number;
}

/** The keys under which a target's entry carries a tool schema (input, and output where the target has one). */
const SCHEMA_KEYS = [
  'parameters',
  'input_schema',
  'inputSchema',
  'parametersJsonSchema',
  'responseJsonSchema',
  'outputSchema',
];

/** The subschema keywords of a property whose contents count as nested. */
const NESTED_KEYWORDS = ['properties', 'items', 'prefixItems', 'additionalProperties', 'anyOf', 'oneOf', 'allOf'];

/** The tool schemas of an entry (at its top level, or one level down: OpenAI Chat's `function`). */
function entrySchemas(entry: unknown): SchemaNode[] {
  if (!isObject(entry)) return [];
  const holders = [entry, ...(isObject(entry.function) ? [entry.function] : [])];
  return holders.flatMap((holder) => SCHEMA_KEYS.map((key) => holder[key]).filter(isObject));
}

/** The parts of an entry by token count: descriptions, enums, nested schemas. */
export function entryCost(entry: unknown, target: ManifestTarget): EntryCost {
  const cost: EntryCost = { descriptions: 0, enums: 0, nestedSchemas: 0 };
  const count = (value: unknown) => countTargetTokens(JSON.stringify(value), target).tokens;
  // Every object and array of the entry; `parentKey`: the key (or index) it sits under.
  const visit = (value: unknown, parentKey: string): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      // Under `properties` a key is a property name, not a keyword.
      if (parentKey !== 'properties') {
        if (key === 'description' && typeof child === 'string') cost.descriptions += count(child);
        else if (key === 'enum' || key === 'const') cost.enums += count(child);
      }
      visit(child, key);
    }
  };
  visit(entry, '');
  for (const schema of entrySchemas(entry)) {
    for (const key of ['definitions', '$defs']) if (schema[key] !== undefined) cost.nestedSchemas += count(schema[key]);
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const name of Object.keys(properties)) {
      const property = properties[name];
      if (!isObject(property)) continue;
      for (const key of NESTED_KEYWORDS)
        if (isObject(property[key]) || Array.isArray(property[key])) cost.nestedSchemas += count(property[key]);
    }
  }
  return cost;
}
