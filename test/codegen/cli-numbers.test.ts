import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { wholeNumber, wholeNumberOption } from '../../codegen/cli/numbers.js';

describe('whole-number flags', () => {
  it('read digits only, a safe integer at least the minimum', () => {
    expect(['0', '7', ' 12 ', '3000'].map((text) => wholeNumber(text))).toEqual([0, 7, 12, 3000]);
    for (const text of ['', '-1', '1.5', '1e3', '0x10', '10MB', 'eighty', '9007199254740993'])
      expect(wholeNumber(text), text).toBeUndefined();
    expect(wholeNumber('0', 1)).toBeUndefined();
    expect(wholeNumber('1', 1)).toBe(1);
  });

  it('refuse anything else as a usage error saying what is wanted, with the example', () => {
    const parse = wholeNumberOption(1, '--page-size 100');
    expect(parse('25')).toBe(25);
    expect(() => parse('0')).toThrow(InvalidArgumentError);
    expect(() => parse('0')).toThrow('It must be a positive whole number, e.g. --page-size 100.');
    expect(() => wholeNumberOption(0, '--port 3000')('-1')).toThrow(
      'It must be a whole number (0 or more), e.g. --port 3000.',
    );
  });
});
