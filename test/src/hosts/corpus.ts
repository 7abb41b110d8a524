/** The vendored `tools/list` answers the host tests read (test/fixtures/hosts/README.md says where each comes from). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServedTool } from '../../../src/hosts/index.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');

export const GITHUB = 'hosts/github-mcp-server/tools.json';
export const EVERYTHING = 'hosts/server-everything/2026.1.26.json';
export const FILESYSTEM_OLD = 'diff-real/server-filesystem/2025.3.28.json';
export const SHAPES = 'hosts/shapes/tools.json';
/** The example project's tools as `toolsmith serve --profile exact` lists them. */
export const EXAMPLES = '../../generated/manifests/mcp.json';
/** The example project's tools as `toolsmith serve` lists them: its config serves the portable profile. */
export const EXAMPLES_PORTABLE = '../../generated/manifests/mcp-portable.json';

/** Every real server answer of the corpus (the shapes file aside). */
export const REAL_CORPUS: readonly string[] = [
  GITHUB,
  EVERYTHING,
  'hosts/server-sequential-thinking/2025.12.18.json',
  'hosts/server-github/2025.4.8.json',
  FILESYSTEM_OLD,
  'diff-real/server-filesystem/2025.8.21.json',
  'diff-real/server-filesystem/2025.11.25.json',
  'diff-real/server-memory/2025.4.25.json',
  'diff-real/server-memory/2026.1.26.json',
];

/** The tools of a `tools/list` answer (a path under test/fixtures/). */
export function corpus(file: string): ServedTool[] {
  return (JSON.parse(readFileSync(path.join(fixtures, file), 'utf8')) as { tools: ServedTool[] }).tools;
}
