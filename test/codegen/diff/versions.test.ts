import { describe, expect, it } from 'vitest';
import { isBelow, suggestedVersion } from '../../../codegen/diff/versions.js';

/** The version a change set calls for, and whether `after` falls short of it (as `diffSides` asks). */
function check(verdict: 'breaking' | 'compatible', metadataOnly: boolean, before: string, after: string) {
  const suggested = suggestedVersion(verdict, metadataOnly, before)!;
  return { suggested, underBumped: isBelow(after, suggested) };
}

describe('version check', () => {
  it('breaking calls for a major bump, a minor one below 1.0.0', () => {
    expect(check('breaking', false, '1.2.3', '1.9.0')).toEqual({ suggested: '2.0.0', underBumped: true });
    expect(check('breaking', false, '1.2.3', '2.0.0')).toEqual({ suggested: '2.0.0', underBumped: false });
    expect(check('breaking', false, '0.2.3', '0.2.9')).toEqual({ suggested: '0.3.0', underBumped: true });
    expect(check('breaking', false, '0.2.3', '0.3.0')).toEqual({ suggested: '0.3.0', underBumped: false });
  });

  it('compatible calls for a minor bump, metadata alone for a patch; a higher major is enough', () => {
    expect(check('compatible', false, '1.2.3', '1.2.9')).toEqual({ suggested: '1.3.0', underBumped: true });
    expect(check('compatible', false, '1.2.3', '3.0.0')).toEqual({ suggested: '1.3.0', underBumped: false });
    expect(check('compatible', true, '1.2.3', '1.2.3')).toEqual({ suggested: '1.2.4', underBumped: true });
    expect(check('compatible', true, '1.2.3', '1.2.4')).toEqual({ suggested: '1.2.4', underBumped: false });
  });

  it('a lower version, or one that is not semver, is never enough', () => {
    expect(isBelow('1.9.9', '2.0.0')).toBe(true);
    expect(isBelow('2.0.0', '1.9.9')).toBe(false);
    expect(isBelow('next', '1.0.0')).toBe(true);
    expect(check('compatible', false, 'v1', '2.0.0')).toEqual({ suggested: 'v1', underBumped: true });
  });
});
