import { readFileSync } from 'node:fs';
import path from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { GENERATOR_PACKAGES } from '../../../codegen/cli/generator-packages.js';
import { MANIFEST_TARGETS } from '../../../src/manifest-targets/table.js';
import {
  countO200k,
  countTargetTokens,
  entryCost,
  LONG_RUN_MERGE_BUDGET,
  LONGEST_MERGED_RUN,
  tokenizerOf,
  TOKENIZER_LIBRARY,
  tokenizerDescription,
} from '../../../src/manifest-targets/tokens.js';
import { REPO } from '../../helpers/temp-project.js';

describe('token counters', () => {
  it('count o200k_base exactly: the same as the tokenizer’s own encoding, for known strings', () => {
    // "hello world" is two o200k tokens; the count is the length of the encoding for any text.
    expect(countO200k('hello world')).toEqual({ tokens: 2, estimated: false });
    const text = JSON.stringify({ type: 'function', function: { name: 'a_b', description: 'Finds é ✓ things.' } });
    expect(countO200k(text)).toEqual({ tokens: encode(text).length, estimated: false });
    // A run of exactly the longest merged length is still one piece, counted exactly.
    const word = 'ab'.repeat(LONGEST_MERGED_RUN / 2);
    expect(countO200k(word)).toEqual({ tokens: encode(word).length, estimated: false });
  });

  it.each([
    ['one long word', 'x'.repeat(2 ** 20)],
    ['a rule of dashes in a sentence', `see below ${'-'.repeat(3000)} end`],
    ['a script written without spaces', '漢字かな交じり文'.repeat(200)],
    ['a row of spaces', `a${' '.repeat(5000)}b`],
    ['line ends and slashes', `!${'\n/'.repeat(3000)}`],
    ['emoji (surrogate pairs)', `say x${'😀'.repeat(1000)}`],
  ])('count a run longer than LONGEST_MERGED_RUN in pieces, never merging over it, marked estimated: %s', (_, text) => {
    const pieces: string[] = [];
    const probe = (piece: string) => {
      pieces.push(piece);
      return encode(piece).length;
    };
    const count = countO200k(text, probe);
    // Bounded work: no piece handed to the merge is longer than the bound, and no more of the runs is
    // merged than the budget (plus the text between runs).
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(LONGEST_MERGED_RUN);
    expect(pieces.length).toBeLessThanOrEqual(LONG_RUN_MERGE_BUDGET / LONGEST_MERGED_RUN + 2);
    expect(pieces.every((piece) => !/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(piece))).toBe(true);
    expect(count.estimated).toBe(true);
    // Under the budget the pieces are the whole text, and the count theirs.
    if (text.length <= LONG_RUN_MERGE_BUDGET) {
      expect(pieces.join('')).toBe(text);
      expect(count.tokens).toBe(pieces.reduce((sum, piece) => sum + encode(piece).length, 0));
    }
    // The real counter gives the same figure.
    expect(countO200k(text)).toEqual(count);
  });

  it('count long runs past the merge budget at the tokens per character of the pieces merged', () => {
    // 256 'x' are 32 tokens: a 1 MB word is 2^20 / 8 tokens, of which only the budget was merged.
    let calls = 0;
    const word = countO200k('x'.repeat(2 ** 20), (piece) => {
      calls++;
      return encode(piece).length;
    });
    expect(word).toEqual({ tokens: 2 ** 20 / 8, estimated: true });
    expect(calls).toBe(LONG_RUN_MERGE_BUDGET / LONGEST_MERGED_RUN);
    // Two runs: the second, past the budget, at the first one's rate.
    const rule = encode('-'.repeat(LONGEST_MERGED_RUN)).length;
    const pieces = LONG_RUN_MERGE_BUDGET / LONGEST_MERGED_RUN;
    expect(countO200k(`${'-'.repeat(LONG_RUN_MERGE_BUDGET)} and ${'-'.repeat(6400)}`).tokens).toBe(
      rule * pieces + encode(' and ').length + Math.ceil((6400 * rule) / LONGEST_MERGED_RUN),
    );
  });

  it('count ordinary JSON exactly, and a long run within two tokens per cut of the exact count', () => {
    // Base64 and compact JSON have no long run the pre-tokenizer keeps whole (digits and quotes break them).
    const json = JSON.stringify({ data: Buffer.from('toolsmith '.repeat(400)).toString('base64'), n: [1, 2] });
    expect(countO200k(json)).toEqual({ tokens: encode(json).length, estimated: false });
    for (const text of [
      'toolsmith'.repeat(400),
      'abcdefghij'.repeat(300),
      'x'.repeat(4000),
      '漢字かな交じり文'.repeat(200),
    ]) {
      const cuts = Math.ceil(text.length / LONGEST_MERGED_RUN) - 1;
      const { tokens, estimated } = countO200k(text);
      expect(estimated).toBe(true);
      expect(Math.abs(tokens - encode(text).length), text.slice(0, 20)).toBeLessThanOrEqual(2 * cuts);
    }
  });

  it('count special-token text as text (the API does), never refuse it', () => {
    expect(countO200k('a <|endoftext|> b').tokens).toBe(
      encode('a <|endoftext|> b', { disallowedSpecial: new Set() }).length,
    );
    expect(countO200k('a <|endoftext|> b').tokens).toBeGreaterThan(3);
  });

  it('pin the tokenizer the generator is tested with', () => {
    const installed = JSON.parse(readFileSync(path.join(REPO, 'node_modules/gpt-tokenizer/package.json'), 'utf8'));
    expect(TOKENIZER_LIBRARY).toBe(`gpt-tokenizer@${installed.version}`);
    expect(`gpt-tokenizer@${GENERATOR_PACKAGES['gpt-tokenizer']}`).toBe(TOKENIZER_LIBRARY);
  });

  it('estimate Anthropic and Gemini by characters, and count OpenAI and MCP with o200k_base', () => {
    expect(MANIFEST_TARGETS.filter((target) => tokenizerOf(target) === 'estimate')).toEqual([
      'anthropic',
      'gemini',
      'gemini-legacy',
    ]);
    expect(countTargetTokens('x'.repeat(409), 'anthropic').tokens).toBe(100);
    expect(countTargetTokens('x'.repeat(410), 'anthropic').tokens).toBe(101);
    expect(countTargetTokens('', 'gemini').tokens).toBe(0);
    expect(countTargetTokens('hello world', 'openai')).toEqual({ tokens: 2, estimated: false });
    expect(countTargetTokens('hello world', 'anthropic')).toEqual({ tokens: Math.ceil(11 / 4.09), estimated: false });
    expect(tokenizerDescription('anthropic')).toMatchObject({ exact: false, charsPerToken: 4.09 });
    expect(tokenizerDescription('mcp')).toEqual({
      encoding: 'o200k_base',
      exact: true,
      library: TOKENIZER_LIBRARY,
      longRuns: `a run of more than 256 letters, punctuation marks or spaces (one pre-token) is counted in pieces of 256: a tool with one is marked "estimated": true`,
      text: 'JSON.stringify(entry): the entry as written, without indentation',
    });
  });

  it('measure what in an entry costs: descriptions, enums, nested schemas (each by the target’s counter)', () => {
    const nested = { type: 'object', properties: { street: { type: 'string' } } };
    const entry = {
      type: 'function',
      function: {
        name: 'ship',
        description: 'Ships an order.',
        parameters: {
          type: 'object',
          properties: {
            // A property named `description` or `enum` is a name, not a keyword.
            description: { type: 'string', description: 'What is shipped.' },
            enum: { type: 'string', enum: ['fast', 'slow'] },
            address: nested,
          },
          definitions: { Unit: { const: 'kg' } },
        },
      },
    };
    const count = (value: unknown) => countO200k(JSON.stringify(value)).tokens;
    expect(entryCost(entry, 'openai')).toEqual({
      descriptions: count('Ships an order.') + count('What is shipped.'),
      enums: count(['fast', 'slow']) + count('kg'),
      nestedSchemas: count(nested.properties) + count({ Unit: { const: 'kg' } }),
    });
    expect(entryCost({ name: 'x', description: 'y'.repeat(50), input_schema: {} }, 'anthropic')).toEqual({
      descriptions: Math.ceil(52 / 4.09),
      enums: 0,
      nestedSchemas: 0,
    });
  });
});
