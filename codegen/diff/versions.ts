/** A semver bump a change set calls for. */
export type Bump = 'major' | 'minor' | 'patch' | 'none';

const ORDER: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

/** The bump a tool's changes call for: breaking → major (minor below 1.0.0), compatible → minor, metadata → patch. */
export function neededBump(
  verdict: 'breaking' | 'compatible' | 'unchanged',
  metadataOnly: boolean,
  version: string,
): Bump {
  if (verdict === 'breaking') return parse(version)?.[0] === 0 ? 'minor' : 'major';
  if (verdict === 'compatible') return metadataOnly ? 'patch' : 'minor';
  return 'none';
}

function parse(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** The version `bump` makes of `version`. */
export function bumped(version: string, bump: Bump): string {
  const v = parse(version);
  if (v === undefined || bump === 'none') return version;
  if (bump === 'major') return `${v[0] + 1}.0.0`;
  if (bump === 'minor') return `${v[0]}.${v[1] + 1}.0`;
  return `${v[0]}.${v[1]}.${v[2] + 1}`;
}

/** The bump that took `before` to `after` (none when not greater). */
export function actualBump(before: string, after: string): Bump {
  const a = parse(before);
  const b = parse(after);
  if (a === undefined || b === undefined) return 'none';
  if (b[0] > a[0]) return 'major';
  if (b[0] < a[0]) return 'none';
  if (b[1] > a[1]) return a[0] === 0 ? 'major' : 'minor';
  if (b[1] < a[1]) return 'none';
  return b[2] > a[2] ? 'patch' : 'none';
}

/** True when `actual` is at least `needed`. */
export function enough(actual: Bump, needed: Bump): boolean {
  return ORDER.indexOf(actual) >= ORDER.indexOf(needed);
}
