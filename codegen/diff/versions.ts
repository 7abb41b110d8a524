/**
 * The version a tool's changes call for: breaking → the next major (the next minor below 1.0.0),
 * compatible → the next minor, metadata alone → the next patch; none when unchanged. A version that
 * is not semver is kept as it is.
 */
export function suggestedVersion(
  verdict: 'breaking' | 'compatible' | 'unchanged',
  metadataOnly: boolean,
  version: string,
): string | undefined {
  if (verdict === 'unchanged') return undefined;
  const v = parse(version);
  if (v === undefined) return version;
  const [major, minor, patch] = v;
  if (verdict === 'breaking' && major > 0) return `${major + 1}.0.0`;
  if (verdict === 'breaking' || !metadataOnly) return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

function parse(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** True when `version` is below `than` in semver order (an unreadable version is below any). */
export function isBelow(version: string, than: string): boolean {
  const a = parse(version);
  const b = parse(than);
  if (a === undefined || b === undefined) return true;
  for (const index of [0, 1, 2]) if (a[index] !== b[index]) return a[index] < b[index];
  return false;
}
