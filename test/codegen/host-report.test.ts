import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { createTempProject, REPO, type TempProject } from '../helpers/temp-project.js';

/** A tool whose `oneOf` takes a Cursor session down and whose array without `items` a Windsurf one, as served exactly. */
const CHOICE = {
  name: 'choice',
  description: 'Picks a thing.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['q'],
    definitions: { Word: { type: 'string', minLength: 1 } },
    properties: {
      q: { oneOf: [{ $ref: '#/definitions/Word' }, { type: 'integer' }] },
      pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      tags: { type: 'array' },
    },
  },
};

/** A name Gemini CLI cuts with the server named `toolsmith` (50 characters: 49 are left after its prefix). */
const LONG_NAME = `a${'b'.repeat(48)}c`;

function project(manifests: object, tools: object[] = [CHOICE]): TempProject {
  const made = createTempProject();
  for (const tool of tools)
    made.write(`schemas/${(tool as { name: string }).name}.tool.json`, `${JSON.stringify(tool, null, 2)}\n`);
  made.write('toolsmith.config.json', {
    runtimeImport: made.runtimeImport,
    manifests: { targets: ['mcp'], ...manifests },
  });
  return made;
}

async function generate(made: TempProject, ...flags: string[]) {
  const out = { stdout: '', stderr: '' };
  const code = await main(['generate', ...flags], {
    cwd: made.root,
    stdout: (text: string) => (out.stdout += text),
    stderr: (text: string) => (out.stderr += text),
  });
  return { code, ...out };
}

const report = (made: TempProject) => JSON.parse(made.read('generated/manifests/loss-report.json'));

describe('the host portability report (manifests/loss-report.*, under hosts)', () => {
  it('lists every host for both profiles, as information only when the project lists no host', async () => {
    const made = project({});
    try {
      const run = await generate(made, '--strict');
      expect([run.code, run.stderr]).toEqual([0, '']);
      const hosts = report(made).choice.hosts;
      expect(Object.keys(hosts)).toContain('windsurf');
      expect(hosts.cursor.exact.verdict).toBe('server-down');
      // Placed in the definition's own words: draft-07 `definitions` and tuple `items`, not the served 2020-12 ones.
      expect(hosts.cursor.exact.findings.map((finding: { pointer: string }) => finding.pointer)).toEqual([
        '/inputSchema/properties/q/oneOf',
      ]);
      expect(hosts.windsurf.exact).toMatchObject({
        verdict: 'server-down',
        findings: [{ pointer: '/inputSchema/properties/tags', rule: 'windsurf/array-items', scope: 'session' }],
      });
      // Served as 2020-12 (`prefixItems`), the tuple is no draft-07 tuple `items` ChatGPT refuses.
      expect(hosts.chatgpt.exact).toEqual({ verdict: 'unaltered', findings: [] });
      expect(hosts.cursor.portable).toEqual({ verdict: 'unaltered', findings: [] });
      expect(hosts.windsurf.portable.verdict).toBe('unaltered');
      const markdown = made.read('generated/manifests/loss-report.md');
      expect(markdown).toContain('- **hosts** (served profile: exact):');
      expect(markdown).toContain('  - **cursor**: exact server-down, portable unaltered');
      // Not asked for: no portable file.
      expect(() => made.read('generated/manifests/mcp-portable.json')).toThrow();
    } finally {
      made.dispose();
    }
  });

  it('warns for a listed host that rejects a tool under the served profile, at the keyword’s line; --strict fails', async () => {
    const made = project({ hosts: ['cursor', 'windsurf', 'gemini-cli'] });
    try {
      const strict = await generate(made, '--strict');
      expect(strict.code).toBe(1);
      expect(strict.stderr).toContain('nothing was written');
      const lenient = await generate(made);
      expect(lenient.code).toBe(0);
      const lines = lenient.stderr.split('\n').filter((line) => line.includes('warning:'));
      expect(lines).toHaveLength(2);
      // The definition file's lines of `oneOf` and of the array without `items`.
      expect(lines[0]).toMatch(
        /^schemas\/choice\.tool\.json:18:\d+ \/inputSchema\/properties\/q\/oneOf: warning: Cursor \(`cursor`, a host in manifests.hosts\) refuses the whole server for this tool under the exact profile/,
      );
      expect(lines[1]).toMatch(
        /^schemas\/choice\.tool\.json:39:\d+ \/inputSchema\/properties\/tags: warning: Windsurf .* refuses the whole server for this tool under the exact profile/,
      );
    } finally {
      made.dispose();
    }
  });

  it('serving the portable profile: no warning for the same hosts, and mcp-portable.json is written', async () => {
    const made = project({ hosts: ['cursor', 'windsurf', 'gemini-cli'], servedProfile: 'portable' });
    try {
      const run = await generate(made, '--strict');
      expect([run.code, run.stderr]).toEqual([0, '']);
      const portable = JSON.parse(made.read('generated/manifests/mcp-portable.json')).tools[0];
      expect(portable.name).toBe('choice');
      expect(JSON.stringify(portable.inputSchema)).not.toMatch(/oneOf|prefixItems|\$ref/);
      // What moved into prose is a loss entry of mcp-portable, at its place in the definition.
      expect(
        report(made).choice['mcp-portable'].map(
          (entry: { pointer: string; keyword: string }) => `${entry.pointer} ${entry.keyword}`,
        ),
      ).toEqual([
        '/inputSchema/definitions/Word minLength',
        '/inputSchema/properties/pair items',
        '/inputSchema/properties/q oneOf',
      ]);
    } finally {
      made.dispose();
    }
  });

  it('a name too long for a listed host’s prefix is a rejection under the portable profile, with the fix; the server name counts', async () => {
    const long = { name: LONG_NAME, description: 'Long.', inputSchema: { type: 'object', properties: {} } };
    const made = project({ hosts: ['gemini-cli'], servedProfile: 'portable' }, [long]);
    try {
      const run = await generate(made);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(
        /\/name: warning: Gemini CLI .* does not take this tool under the portable profile: .*never renames/,
      );
      expect(run.stderr).toContain(
        'hint: keep the name within 63 characters with the prefix (49 with the server named `toolsmith`)',
      );
      const hosts = report(made)[LONG_NAME].hosts;
      expect([hosts['gemini-cli'].exact.verdict, hosts['gemini-cli'].portable.verdict]).toEqual([
        'altered',
        'rejected',
      ]);
    } finally {
      made.dispose();
    }
    const short = project({ hosts: ['gemini-cli'], servedProfile: 'portable', serverName: 'ts' }, [long]);
    try {
      const run = await generate(short, '--strict');
      expect([run.code, run.stderr]).toEqual([0, '']);
    } finally {
      short.dispose();
    }
  });

  it('two tools a listed host names alike: a warning at the dropped one’s name, --strict fails; information otherwise', async () => {
    // With `mcp_toolsmith_` in front, Gemini CLI keeps the same first and last 30 characters of both.
    const issues = 'list_repository_issues_with_labels_sorted_by_creation_date';
    const pulls = 'list_repository_pulls_with_labels_sorted_by_creation_date';
    const tools = [issues, pulls].map((name) => ({
      name,
      description: 'Lists.',
      inputSchema: { type: 'object', properties: {} },
    }));
    const listed = project({ hosts: ['gemini-cli'] }, tools);
    try {
      expect((await generate(listed, '--strict')).code).toBe(1);
      const run = await generate(listed);
      expect(run.code).toBe(0);
      const lines = run.stderr.split('\n').filter((line) => line.includes('warning:'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(
        `schemas/${issues}.tool.json:2:3 /name: warning: Gemini CLI (\`gemini-cli\`, a host in manifests.hosts) does not take this tool under the exact profile: Gemini CLI shows this tool and \`${pulls}\` under one name, \`mcp_toolsmith_list_repository_...labels_sorted_by_creation_date\`: it keeps only \`${pulls}\` and drops this one.`,
      );
      // Serving the portable profile does not help (it never renames): the hint does not offer it.
      expect(run.stderr).toContain(
        'hint: give the tools shorter or distinct names, or the server a shorter name (`manifests.serverName`); or take gemini-cli out of manifests.hosts',
      );
      // A later run that converts only the changed tool again still tells it (the names are the same).
      listed.write(
        `schemas/${issues}.tool.json`,
        `${JSON.stringify({ ...tools[0], description: 'Lists issues.' }, null, 2)}\n`,
      );
      const again = await generate(listed);
      expect(again.stderr.split('\n').filter((line) => line.includes('warning:'))).toEqual(lines);
    } finally {
      listed.dispose();
    }
    const unlisted = project({ servedProfile: 'portable' }, tools);
    try {
      const run = await generate(unlisted, '--strict');
      expect([run.code, run.stderr]).toEqual([0, '']);
      const collisions = (name: string) =>
        report(unlisted)
          [name].hosts['gemini-cli'].portable.findings.filter(
            (finding: { rule: string }) => finding.rule === 'gemini-cli/name-collision',
          )
          .map((finding: { effect: string; pointer: string }) => [finding.effect, finding.pointer]);
      expect([collisions(issues), collisions(pulls)]).toEqual([[['rejects', '/name']], [['warns', '/name']]]);
    } finally {
      unlisted.dispose();
    }
  });

  it('serve --profile portable without mcp-portable.json: a start-up error saying how to write it', async () => {
    const made = project({});
    try {
      expect((await generate(made)).code).toBe(0);
      const out = { stdout: '', stderr: '' };
      const code = await main(['serve', '--profile', 'portable'], {
        cwd: made.root,
        stdout: (text: string) => (out.stdout += text),
        stderr: (text: string) => (out.stderr += text),
      });
      expect(code).toBe(1);
      expect(out.stdout).toBe('');
      expect(out.stderr).toMatch(
        /^toolsmith serve: --profile portable serves .*mcp-portable\.json, which is missing: set "manifests\.servedProfile": "portable" in the config .* and run toolsmith generate\.\n$/,
      );
    } finally {
      made.dispose();
    }
  });

  it('the example project (every host listed, portable served): every host takes every example tool as it is', () => {
    const example = JSON.parse(readFileSync(path.join(REPO, 'generated/manifests/loss-report.json'), 'utf8')) as Record<
      string,
      { hosts: Record<string, { exact: { verdict: string }; portable: { verdict: string } }> }
    >;
    const verdicts = Object.entries(example).flatMap(([tool, { hosts }]) =>
      Object.entries(hosts).map(([host, { portable }]) => `${tool} ${host} ${portable.verdict}`),
    );
    expect(verdicts).toHaveLength(7 * 13);
    expect(verdicts.filter((line) => !line.endsWith(' unaltered'))).toEqual([]);
    // Served exactly, memory_read's `oneOf` would take a Cursor session down.
    expect(example.memory_read!.hosts.cursor!.exact.verdict).toBe('server-down');
  });
});
