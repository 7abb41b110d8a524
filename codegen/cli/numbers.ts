import { InvalidArgumentError } from 'commander';

/*
 * The CLI's whole-number flags (`--port`, `--workers`, `--page-size`, the limits and timeouts) and the
 * environment variables that stand for them, read by one rule: digits only, a safe integer, at least
 * the flag's minimum. "1e3", "0x10", "-1", "1.5" and "10MB" are refused, never read as something else.
 */

/** `text` as a whole number of at least `min` (digits only, spaces around ignored), else undefined. */
export function wholeNumber(text: string, min = 0): number | undefined {
  const trimmed = text.trim();
  const number = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  return Number.isSafeInteger(number) && number >= min ? number : undefined;
}

/** What a whole-number value with this minimum must be, for an error message. */
export function wholeNumberWanted(min: number): string {
  if (min === 0) return 'a whole number (0 or more)';
  if (min === 1) return 'a positive whole number';
  return `a whole number of at least ${min}`;
}

/**
 * A commander parser for a whole-number option: anything else is a usage error (exit 2) saying what
 * is wanted, with `example`.
 */
export function wholeNumberOption(min: number, example: string): (value: string) => number {
  return (value) => {
    const number = wholeNumber(value, min);
    if (number === undefined) throw new InvalidArgumentError(`It must be ${wholeNumberWanted(min)}, e.g. ${example}.`);
    return number;
  };
}
