import { describe, expect, it } from 'vitest';
import { idSequence, nextCorrelationId, randomId } from '../../src/pipeline/ids.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The counter part of an id made with `prefix`, as a number. */
function counterOf(id: string, prefix: string): number {
  expect(id.startsWith(`${prefix}-`)).toBe(true);
  const digits = id.slice(prefix.length + 1);
  expect(digits).toMatch(/^[0-9a-v]{3,}$/);
  return Number.parseInt(digits, 32);
}

describe('correlation ids', () => {
  it('are unique across the table boundaries and share the process prefix', () => {
    const ids = Array.from({ length: 5_000 }, () => nextCorrelationId());
    expect(new Set(ids).size).toBe(ids.length);
    const prefix = ids[0]!.slice(0, 36);
    expect(prefix).toMatch(UUID);
    const counts = ids.map((id) => counterOf(id, prefix));
    // Consecutive ids count up by one, across every 1,024-id boundary.
    counts.forEach((count, index) => expect(count).toBe(counts[0]! + index));
  });

  it('keep counting past 2^32 ids (no 32-bit wrap) and from a start inside a block of 1,024', () => {
    for (const start of [2 ** 32 - 3, 2 ** 32 + 1000, 2 ** 40 - 1, 1_500]) {
      const next = idSequence('p', start);
      const counts = Array.from({ length: 2_100 }, () => counterOf(next(), 'p'));
      counts.forEach((count, index) => expect(count).toBe(start + index));
    }
  });

  it('randomId has the UUID v4 layout and differs between calls', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => randomId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(UUID);
  });
});
