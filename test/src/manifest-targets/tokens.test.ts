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
  estimateTokens,
  tokenizerOf,
  TOKENIZER_LIBRARY,
  tokenizerDescription,
} from '../../../src/manifest-targets/tokens.js';
import { REPO } from '../../helpers/temp-project.js';

describe('token counters', () => {
  it('count o200k_base exactly: the same as the tokenizer’s own encoding, for known strings', () => {
    // "hello world" is two o200k tokens; the count is the length of the encoding for any text.
    expect(countO200k('hello world')).toBe(2);
    const text = JSON.stringify({ type: 'function', function: { name: 'a_b', description: 'Finds é ✓ things.' } });
    expect(countO200k(text)).toBe(encode(text).length);
  });

  it('count special-token text as text (the API does), never refuse it', () => {
    expect(countO200k('a <|endoftext|> b')).toBe(encode('a <|endoftext|> b', { disallowedSpecial: new Set() }).length);
    expect(countO200k('a <|endoftext|> b')).toBeGreaterThan(3);
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
    expect(estimateTokens('x'.repeat(409), 'anthropic')).toBe(100);
    expect(estimateTokens('x'.repeat(410), 'anthropic')).toBe(101);
    expect(estimateTokens('', 'gemini')).toBe(0);
    expect(countTargetTokens('hello world', 'openai')).toBe(2);
    expect(countTargetTokens('hello world', 'anthropic')).toBe(Math.ceil(11 / 4.09));
    expect(tokenizerDescription('anthropic')).toMatchObject({ exact: false, charsPerToken: 4.09 });
    expect(tokenizerDescription('mcp')).toEqual({
      encoding: 'o200k_base',
      exact: true,
      library: TOKENIZER_LIBRARY,
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
    const count = (value: unknown) => countO200k(JSON.stringify(value));
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
