import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/temp-project.js';

/*
 * The runtime's promise (docs/production.md): a production install of toolsmith runs on the oldest
 * Node its `engines` accepts. Development needs Node 22 (some pinned devDependencies say so); the
 * runtime must not. Every package a production install brings — the `dependencies` of package.json
 * (what `npm pack` ships), their `dependencies`, `optionalDependencies` and required peers,
 * transitively, as installed — must accept that Node version in its own `engines.node`.
 */

interface Manifest {
  name?: string;
  version?: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

type Version = [number, number, number];

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** A version as written in a range: `20`, `20.19`, `20.19.0`, `20.x`, `*` (missing parts `undefined`). */
function partial(text: string): Array<number | undefined> {
  const parts = text.replace(/^v/, '').split('-')[0]!.split('.');
  const numbers: Array<number | undefined> = [];
  for (const part of parts.slice(0, 3)) {
    if (part === 'x' || part === 'X' || part === '*' || part === '') break;
    const value = Number(part);
    if (!Number.isInteger(value)) throw new Error(`Cannot read the version '${text}' of an engines range.`);
    numbers.push(value);
  }
  return numbers;
}

const filled = (parts: Array<number | undefined>): Version => [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];

/** The next version above everything `parts` matches (`20` → 21.0.0, `20.19` → 20.20.0). */
function above(parts: Array<number | undefined>): Version {
  if (parts.length === 0) return [Infinity, 0, 0];
  if (parts.length === 1) return [parts[0]! + 1, 0, 0];
  if (parts.length === 2) return [parts[0]!, parts[1]! + 1, 0];
  return [parts[0]!, parts[1]!, parts[2]! + 1];
}

/** Whether `version` satisfies one comparator (`>=20.19`, `^18`, `~1.2`, `20.x`, `<22`). */
function satisfiesComparator(version: Version, comparator: string): boolean {
  const match = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(comparator)!;
  const operator = match[1] ?? '=';
  const parts = partial(match[2]!);
  const low = filled(parts);
  switch (operator) {
    case '>=':
      return compare(version, low) >= 0;
    case '>':
      return parts.length === 3 ? compare(version, low) > 0 : compare(version, above(parts)) >= 0;
    case '<':
      return compare(version, low) < 0;
    case '<=':
      return parts.length === 3 ? compare(version, low) <= 0 : compare(version, above(parts)) < 0;
    case '^': {
      const first = parts.findIndex((part) => part !== 0);
      const upper = first === -1 || first >= parts.length ? above(parts) : above(parts.slice(0, first + 1));
      return compare(version, low) >= 0 && compare(version, upper) < 0;
    }
    case '~':
      return compare(version, low) >= 0 && compare(version, above(parts.slice(0, Math.min(2, parts.length)))) < 0;
    default:
      return compare(version, low) >= 0 && compare(version, above(parts)) < 0;
  }
}

/** Whether `version` satisfies an npm range (`||` of space-separated comparators, hyphen ranges). */
function satisfiesRange(version: Version, range: string): boolean {
  return range.split('||').some((alternative) => {
    const text = alternative.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1');
    if (text === '' || text === '*' || text === 'x') return true;
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    if (hyphen !== null) {
      const high = partial(hyphen[2]!);
      return (
        compare(version, filled(partial(hyphen[1]!))) >= 0 &&
        (high.length === 3 ? compare(version, filled(high)) <= 0 : compare(version, above(high)) < 0)
      );
    }
    return text.split(/\s+/).every((comparator) => satisfiesComparator(version, comparator));
  });
}

function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** The installed package.json of `name` as Node resolves it from `directory` (nearest node_modules up). */
function findInstalled(name: string, directory: string): string | undefined {
  for (let dir = directory; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Every package a production install of the repo's package brings, with its `engines.node`. */
function runtimePackages(): Array<{ name: string; file: string; engines: string | undefined }> {
  const found = new Map<string, { name: string; file: string; engines: string | undefined }>();
  const queue: Array<{ directory: string; manifest: Manifest }> = [
    { directory: REPO, manifest: readManifest(path.join(REPO, 'package.json')) },
  ];
  while (queue.length > 0) {
    const { directory, manifest } = queue.shift()!;
    const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
    );
    // The root's peers are the frameworks the adapters serve, optional for a production install.
    const names = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...(directory === REPO ? [] : requiredPeers),
    ];
    for (const name of names) {
      const file = findInstalled(name, directory);
      if (file === undefined) {
        if (name in (manifest.optionalDependencies ?? {})) continue;
        throw new Error(`${name} (a runtime dependency of ${manifest.name}) is not installed: run npm ci.`);
      }
      if (found.has(file)) continue;
      const installed = readManifest(file);
      found.set(file, { name: `${name}@${installed.version}`, file, engines: installed.engines?.node });
      queue.push({ directory: path.dirname(file), manifest: installed });
    }
  }
  return [...found.values()];
}

describe("the runtime's Node promise", () => {
  const engines = readManifest(path.join(REPO, 'package.json')).engines?.node ?? '';
  const oldest = filled(partial(/^>=\s*(\S+)$/.exec(engines)?.[1] ?? ''));

  it('package.json promises Node >= 20.19 (the version this test holds every runtime dependency to)', () => {
    expect(engines).toBe('>=20.19');
    expect(oldest).toEqual([20, 19, 0]);
  });

  it('the engines ranges are read as npm reads them', () => {
    const accepts = (range: string) => satisfiesRange([20, 19, 0], range);
    for (const range of [
      '>=18',
      '>= 0.6',
      '>=20',
      '^20.19.0 || >=22.12.0',
      '20 || >=22',
      '*',
      '18 - 20',
      '>=16.9.0',
      '~20.19',
    ])
      expect([range, accepts(range)]).toEqual([range, true]);
    for (const range of [
      '>=22',
      '^22.12.0',
      '>=20.20',
      '>20.19.0',
      '^18.18.0 || >=21.1.0',
      '18 - 20.18',
      '<20.19',
      '~20.18',
    ])
      expect([range, accepts(range)]).toEqual([range, false]);
  });

  it('every package a production install brings accepts the oldest Node package.json promises', () => {
    const packages = runtimePackages();
    // The v2 MCP server, ajv, jose and the CLI's parsers, with theirs (zod…): the walk found them.
    expect(packages.length).toBeGreaterThan(10);
    expect(packages.map((entry) => entry.name.replace(/@[^@]+$/, ''))).toEqual(
      expect.arrayContaining(['@modelcontextprotocol/server', 'ajv', 'commander', 'jose', 'zod']),
    );
    const refusing = packages
      .filter((entry) => entry.engines !== undefined && !satisfiesRange(oldest, entry.engines))
      .map((entry) => `${entry.name} needs Node ${entry.engines} (${path.relative(REPO, entry.file)})`);
    expect(refusing).toEqual([]);
  });
});
