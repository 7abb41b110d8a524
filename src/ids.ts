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

let sequence = 0;
const processPrefix = randomId();

/**
 * A fresh correlation id: this process's random prefix and a base-36 counter. Base 36, not
 * `String(n)`: V8 keeps every decimal number-to-string result in its number string cache, so one
 * string per call would survive each scavenge and be promoted (measured in P1: a call took
 * ~0.75 µs instead of ~0.4 µs).
 */
export function nextCorrelationId(): string {
  return `${processPrefix}-${(++sequence).toString(36)}`;
}
