/**
 * Identifiers for correlating calls in logs: unique within a process and, with overwhelming
 * probability, across processes. Not secrets, so `Math.random` is enough: importing `node:crypto`
 * for `randomUUID` cost ~7 ms of start-up on the 2-core benchmark machine (P2).
 */

const HEX = '0123456789abcdef';

/** A random identifier in the UUID v4 layout (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`), from `Math.random`. */
export function randomId(): string {
  let out = '';
  for (let index = 0; index < 36; index++) {
    if (index === 8 || index === 13 || index === 18 || index === 23) out += '-';
    else if (index === 14) out += '4';
    else if (index === 19) out += HEX[8 + Math.floor(Math.random() * 4)];
    else out += HEX[Math.floor(Math.random() * 16)];
  }
  return out;
}

const processPrefix = randomId();
const DIGITS = '0123456789abcdefghijklmnopqrstuv';
/** The 1,024 two-digit base-32 endings, made on first use. */
let endings: string[] | undefined;
let sequence = 0;
let head = '';

/**
 * A fresh correlation id: this process's random prefix, then a base-32 counter. The counter's last
 * two digits come from a table and the rest is rebuilt once per 1,024 ids, so an id costs one
 * string concatenation: a number-to-string conversion per call cost ~7 % of a trivial call in P1,
 * and `String(n)` is worse still, since V8's number-string cache keeps each result alive through
 * the next scavenge (measured in P1: ~0.75 µs per call instead of ~0.4 µs).
 */
export function nextCorrelationId(): string {
  const low = sequence & 1023;
  if (low === 0) {
    endings ??= Array.from({ length: 1024 }, (_, index) => DIGITS[index >> 5]! + DIGITS[index & 31]!);
    head = `${processPrefix}-${(sequence >>> 10).toString(32)}`;
  }
  sequence++;
  return head + endings![low]!;
}
