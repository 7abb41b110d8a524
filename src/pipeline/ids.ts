/**
 * Identifiers for correlating calls in logs: unique within a process and, with overwhelming
 * probability, across processes. Not secrets, so `Math.random` is enough: importing `node:crypto`
 * for `randomUUID` is a measurable part of a cold start (P2; see bench/README.md).
 */

const HEX = '0123456789abcdef';

/** A random identifier in the UUID v4 layout (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`), from `Math.random`. */
export function randomId(): string {
  // `x`: any hex digit; `y`: the variant's, 8 to b.
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (placeholder) =>
    placeholder === 'x' ? HEX[Math.floor(Math.random() * 16)]! : HEX[8 + Math.floor(Math.random() * 4)]!,
  );
}

const DIGITS = '0123456789abcdefghijklmnopqrstuv';
/** The 1,024 two-digit base-32 endings, made on first use. */
let endings: string[] | undefined;

/**
 * A counter of ids `<prefix>-<n in base 32, at least three digits>`, starting at `start`. The last
 * two digits come from a table and the rest is rebuilt once per 1,024 ids, so an id costs one string
 * concatenation: a number-to-string conversion per call is a visible part of a trivial call (P1), and
 * `String(n)` is worse still, since V8's number-string cache keeps each result alive through the next
 * scavenge (see bench/README.md).
 */
export function idSequence(prefix: string, start = 0): () => string {
  let sequence = start;
  let head = `${prefix}-${Math.floor(sequence / 1024).toString(32)}`;
  endings ??= Array.from({ length: 1024 }, (_, index) => DIGITS[index >> 5]! + DIGITS[index & 31]!);
  const table = endings;
  return () => {
    // Arithmetic, not bit operations: those wrap at 2^32 ids (days for a busy server), this at 2^53.
    const low = sequence % 1024;
    if (low === 0) head = `${prefix}-${Math.floor(sequence / 1024).toString(32)}`;
    sequence++;
    return head + table[low]!;
  };
}

/** A fresh correlation id: this process's random prefix and a counter (see `idSequence`). */
export const nextCorrelationId: () => string = idSequence(randomId());
