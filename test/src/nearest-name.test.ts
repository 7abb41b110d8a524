import { describe, expect, it } from 'vitest';
import { nearestName } from '../../src/text/nearest-name.js';

describe('nearestName', () => {
  it('counts a transposition as one edit and allows one edit under six characters, two from six on', () => {
    expect(nearestName('tpye', ['type'])).toBe('type');
    expect(nearestName('tyep', ['type'])).toBe('type');
    expect(nearestName('tp', ['type'])).toBeUndefined();
    expect(nearestName('maxItms', ['maxItems'])).toBe('maxItems');
    expect(nearestName('mxItms', ['maxItems'])).toBe('maxItems');
    expect(nearestName('mxItm', ['maxItems'])).toBeUndefined();
  });

  it('compares without case, and breaks a tie by plain string order whatever the candidates’ order', () => {
    expect(nearestName('USERNAME', ['userName'])).toBe('userName');
    expect(nearestName('cat', ['cut', 'bat'])).toBe('bat');
    expect(nearestName('cat', ['bat', 'cut'])).toBe('bat');
    expect(nearestName('user_name', ['username', 'user'])).toBe('username');
  });

  it('suggests nothing for a word far from every candidate, or too long to compare', () => {
    expect(nearestName('quantity', ['qty', 'amount'])).toBeUndefined();
    expect(nearestName(`${'a'.repeat(300)}`, ['a'.repeat(300)])).toBeUndefined();
    expect(nearestName('name', [])).toBeUndefined();
  });
});
