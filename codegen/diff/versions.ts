/** A semver bump a change set calls for. */
type Bump = 'major' | 'minor' | 'patch' | 'none';

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

/** True when `version` is below `than` in semver order (an unreadable version is below any). */
export function isBelow(version: string, than: string): boolean {
  const a = parse(version);
  const b = parse(than);
  if (a === undefined || b === undefined) return true;
  for (const index of [0, 1, 2]) if (a[index] !== b[index]) return a[index] < b[index];
  return false;
}
