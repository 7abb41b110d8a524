/**
 * Names a host folds together (`nameCollisions`, and `checkServer` through it): two tools whose
 * host-side names are one are a finding for each of them — the ones the host drops rejected, the one it
 * keeps told — and tools the host names apart, or a host that never renames, are no finding.
 */
import { describe, expect, it } from 'vitest';
import { nameCollisions } from '../../../src/hosts/check-tool.js';
import { checkServer, hostById, type ServedTool } from '../../../src/hosts/index.js';

/** Two names of 58 and 57 characters: with `mcp_toolsmith_` in front, Gemini CLI keeps their first and last 30 characters, the same. */
const ISSUES = 'list_repository_issues_with_labels_sorted_by_creation_date';
const PULLS = 'list_repository_pulls_with_labels_sorted_by_creation_date';

const CASES: ReadonlyArray<{
  what: string;
  host: string;
  serverName: string;
  names: string[];
  /** By name: the effect of its collision finding (none: the name is not in the map). */
  effects: Record<string, 'rejects' | 'warns'>;
}> = [
  {
    what: 'Gemini CLI cuts two long names to one (server toolsmith): drops the first, keeps the last',
    host: 'gemini-cli',
    serverName: 'toolsmith',
    names: [ISSUES, PULLS, 'read_file'],
    effects: { [ISSUES]: 'rejects', [PULLS]: 'warns' },
  },
  {
    what: 'Gemini CLI with a shorter server name keeps the names apart (the cut falls after they differ)',
    host: 'gemini-cli',
    serverName: 'gh',
    names: [ISSUES, PULLS],
    effects: {},
  },
  {
    what: 'Gemini CLI replaces `/` with `_`: `files/read` and `files_read` are one name',
    host: 'gemini-cli',
    serverName: 'toolsmith',
    names: ['files/read', 'files_read'],
    effects: { 'files/read': 'rejects', files_read: 'warns' },
  },
  {
    what: 'Gemini CLI keeps a dot: `files.read` and `files_read` stay apart',
    host: 'gemini-cli',
    serverName: 'toolsmith',
    names: ['files.read', 'files_read'],
    effects: {},
  },
  {
    what: 'Visual Studio refuses a dot name rather than renaming it: no two names become one',
    host: 'visual-studio',
    serverName: 'toolsmith',
    names: ['files.read', 'files_read', ISSUES, PULLS],
    effects: {},
  },
];

describe('nameCollisions: names a host folds together', () => {
  it.each(CASES)('$what', ({ host, serverName, names, effects }) => {
    const found = nameCollisions(names, hostById(host)!, { serverName });
    const byName = Object.fromEntries([...found].map(([index, finding]) => [names[index], finding.effect]));
    expect(byName).toEqual(effects);
    for (const [index, finding] of found) {
      expect(finding).toMatchObject({ host, rule: `${host}/name-collision`, scope: 'tool', pointer: '/name' });
      // Each finding names the other tool and the name they share, and says what to do.
      const other = names.find((name, at) => at !== index && Object.hasOwn(effects, name))!;
      expect(finding.message).toContain(`\`${other}\``);
      expect(finding.fix).toContain('`manifests.serverName`');
    }
  });

  it('names the shared name and the tool the host keeps', () => {
    const found = nameCollisions([ISSUES, PULLS], hostById('gemini-cli')!, { serverName: 'toolsmith' });
    const shared = '`mcp_toolsmith_list_repository_...labels_sorted_by_creation_date`';
    expect(found.get(0)!.message).toBe(
      `Gemini CLI shows this tool and \`${PULLS}\` under one name, ${shared}: it keeps only \`${PULLS}\` and drops this one`,
    );
    expect(found.get(1)!.message).toBe(
      `Gemini CLI shows this tool and \`${ISSUES}\` under one name, ${shared}: it keeps this one and drops \`${ISSUES}\``,
    );
  });

  it('checkServer: the dropped tool is rejected for the host, the kept one keeps its verdict', () => {
    const tool = (name: string): ServedTool => ({ name, description: 'A tool.', inputSchema: { type: 'object' } });
    const check = checkServer([tool(ISSUES), tool(PULLS), tool('read_file')], hostById('gemini-cli')!);
    expect(check.tools.map((entry) => [entry.tool, entry.verdict])).toEqual([
      [ISSUES, 'rejected'],
      [PULLS, 'altered'],
      ['read_file', 'unaltered'],
    ]);
    const named = check.tools[1]!.findings.filter((finding) => finding.pointer === '/name');
    expect(named.map((finding) => [finding.rule, finding.effect])).toEqual([
      ['gemini-cli/name-rewritten', 'alters'],
      ['gemini-cli/name-collision', 'warns'],
    ]);
  });
});
