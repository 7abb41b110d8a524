import { describe, expect, it } from 'vitest';
import { nextCorrelationId, randomId } from '../../src/ids.js';

describe('correlation ids', () => {
  it('are unique across the table boundaries and share the process prefix', () => {
    const ids = Array.from({ length: 70_000 }, () => nextCorrelationId());
    expect(new Set(ids).size).toBe(ids.length);
    const prefix = ids[0]!.slice(0, 36);
    expect(prefix).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const id of ids) {
      expect(id.startsWith(`${prefix}-`)).toBe(true);
      expect(id.slice(37)).toMatch(/^[0-9a-v]{3,}$/);
    }
    // The counter part reads as the count in base 32: consecutive ids count up by one.
    const counts = ids.map((id) => Number.parseInt(id.slice(37), 32));
    counts.forEach((count, index) => expect(count).toBe(counts[0]! + index));
  });

  it('randomId has the UUID v4 layout and differs between calls', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => randomId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
