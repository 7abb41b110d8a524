/**
 * The host table, row by row: every rule is proven by a tool it must catch — from the vendored real
 * corpus where a real server has the shape (github-mcp-server's snapshots, the MCP reference servers'
 * `tools/list`), else from `test/fixtures/hosts/shapes/`, one small tool per shape a host's source or
 * issue thread describes — at exactly the pointers listed; a rule without a fixture fails the last test.
 */
import { describe, expect, it } from 'vitest';
import {
  checkServer,
  checkTool,
  forbidsArgument,
  HOSTS,
  hostById,
  hostToolName,
  injectedArguments,
  type HostProfile,
  type ServedTool,
} from '../../../src/hosts/index.js';
import { corpus, EVERYTHING, EXAMPLES, FILESYSTEM_OLD, GITHUB, SHAPES } from './corpus.js';

interface RuleFixture {
  /** The host row the rule is checked through (rules shared by VS Code's rows: any of them). */
  host: string;
  file: string;
  tool: string;
  pointers: string[];
}

/** rule id → the tool that proves it and the pointers its findings sit at. */
const RULE_FIXTURES: Record<string, RuleFixture> = {
  'gemini-cli/name-rewritten': {
    host: 'gemini-cli',
    file: SHAPES,
    tool: 'search_repositories_alpha_by_topic_and_language_and_stars',
    pointers: ['/name'],
  },
  'gemini-cli/name-collision': {
    host: 'gemini-cli',
    file: SHAPES,
    tool: 'search_repositories_alpha_by_topic_and_language_and_stars',
    pointers: ['/name'],
  },
  'gemini-cli/tool-list': {
    host: 'gemini-cli',
    file: FILESYSTEM_OLD,
    tool: 'read_file',
    pointers: ['/inputSchema/type'],
  },
  'gemini-cli/nullable': {
    host: 'gemini-cli',
    file: SHAPES,
    tool: 'example_tool',
    pointers: ['/inputSchema/properties/optionalStr/type'],
  },
  'gemini-cli/output-schema': {
    host: 'gemini-cli',
    file: EVERYTHING,
    tool: 'get-structured-content',
    pointers: ['/outputSchema'],
  },
  'gemini-cli/wait_for_previous': {
    host: 'gemini-cli',
    file: EVERYTHING,
    tool: 'echo',
    pointers: ['/inputSchema/properties/wait_for_previous'],
  },
  'cursor/composition': {
    host: 'cursor',
    file: GITHUB,
    tool: 'issue_write',
    pointers: ['/inputSchema/properties/type/anyOf'],
  },
  'cursor/type-union': {
    host: 'cursor',
    file: GITHUB,
    tool: 'issue_write',
    pointers: ['/inputSchema/properties/issue_fields/items/properties/value/type'],
  },
  'cursor/required-null': {
    host: 'cursor',
    file: SHAPES,
    tool: 'search_null_required',
    pointers: ['/inputSchema/required'],
  },
  'claude-code/root-composition': {
    host: 'claude-code',
    file: SHAPES,
    tool: 'sized_upload',
    pointers: ['/inputSchema/allOf'],
  },
  'claude-code/root-composition-400': {
    host: 'claude-code',
    file: SHAPES,
    tool: 'list_by_root_choice',
    pointers: ['/inputSchema/anyOf'],
  },
  'claude-code/non-object-root': {
    host: 'claude-code',
    file: FILESYSTEM_OLD,
    tool: 'read_file',
    pointers: ['/inputSchema'],
  },
  'claude-desktop/output-dialect': {
    host: 'claude-desktop',
    file: EVERYTHING,
    tool: 'get-structured-content',
    pointers: ['/outputSchema/$schema'],
  },
  'codex/closed-subset': {
    host: 'codex',
    file: GITHUB,
    tool: 'actions_list',
    pointers: [
      '/inputSchema/properties/page/minimum',
      '/inputSchema/properties/per_page/maximum',
      '/inputSchema/properties/per_page/minimum',
    ],
  },
  'codex/boolean-subschema': {
    host: 'codex',
    file: SHAPES,
    tool: 'store_anything',
    pointers: ['/inputSchema/properties/value'],
  },
  'codex/tuple-items': {
    host: 'codex',
    file: SHAPES,
    tool: 'read_pdf_pages',
    pointers: ['/inputSchema/properties/pages/items'],
  },
  'codex/schema-additional-properties': {
    host: 'codex',
    file: SHAPES,
    tool: 'extract',
    pointers: ['/inputSchema/properties/schema/additionalProperties'],
  },
  'codex/root-properties': {
    host: 'codex',
    file: FILESYSTEM_OLD,
    tool: 'read_file',
    pointers: ['/inputSchema/properties'],
  },
  'chatgpt/tuple-items': {
    host: 'chatgpt',
    file: SHAPES,
    tool: 'read_pdf_pages',
    pointers: ['/inputSchema/properties/pages/items'],
  },
  'vscode-copilot/meta-schema': {
    host: 'vscode-copilot',
    file: SHAPES,
    tool: 'read_pdf_ranges',
    pointers: ['/inputSchema/properties/page/exclusiveMinimum'],
  },
  'vscode-copilot/array-items': {
    host: 'vscode-copilot',
    file: SHAPES,
    tool: 'animation_events',
    pointers: ['/inputSchema/properties/events'],
  },
  'vscode-copilot/root-composition': {
    host: 'vscode-copilot',
    file: SHAPES,
    tool: 'sized_upload',
    pointers: ['/inputSchema/allOf'],
  },
  'vscode-copilot/root-shape': {
    host: 'vscode-copilot',
    file: FILESYSTEM_OLD,
    tool: 'read_file',
    pointers: ['/inputSchema'],
  },
  'vscode-copilot/required-undeclared': {
    host: 'vscode-copilot',
    file: SHAPES,
    tool: 'create_label',
    pointers: ['/inputSchema/required/1'],
  },
  'vscode-copilot/empty-description': {
    host: 'vscode-copilot',
    file: SHAPES,
    tool: 'undescribed',
    pointers: ['/description'],
  },
  'vscode-copilot/name-characters': {
    host: 'vscode-copilot',
    file: SHAPES,
    tool: 'catalog.get-entity-facets',
    pointers: ['/name'],
  },
  'vscode-copilot/tuple-items': {
    host: 'vscode-copilot-claude',
    file: SHAPES,
    tool: 'read_pdf_pages',
    pointers: ['/inputSchema/properties/pages/items'],
  },
  'vscode-copilot-gpt-4/unsupported-keywords': {
    host: 'vscode-copilot-gpt-4',
    file: GITHUB,
    tool: 'actions_list',
    pointers: [
      '/inputSchema/properties/page/minimum',
      '/inputSchema/properties/per_page/maximum',
      '/inputSchema/properties/per_page/minimum',
    ],
  },
  'vscode-copilot-gpt-4/long-description': {
    host: 'vscode-copilot-gpt-4',
    file: GITHUB,
    tool: 'pull_request_read',
    pointers: ['/inputSchema/properties/method/description'],
  },
  'vscode-copilot-gemini/nullable': {
    host: 'vscode-copilot-gemini',
    file: SHAPES,
    tool: 'example_tool',
    pointers: ['/inputSchema/properties/optionalStr/type'],
  },
  'visual-studio/name-pattern': {
    host: 'visual-studio',
    file: SHAPES,
    tool: 'catalog.get-entity-facets',
    pointers: ['/name'],
  },
  'windsurf/array-items': {
    host: 'windsurf',
    file: SHAPES,
    tool: 'animation_events',
    pointers: ['/inputSchema/properties/events'],
  },
  'windsurf/meta-schema': {
    host: 'windsurf',
    file: SHAPES,
    tool: 'read_pdf_ranges',
    pointers: ['/inputSchema/properties/page/exclusiveMinimum'],
  },
  'mcp-inspector/tool-shape': {
    host: 'mcp-inspector',
    file: SHAPES,
    tool: 'search_null_required',
    pointers: ['/inputSchema/required'],
  },
  'mcp-inspector/schema-lint': {
    host: 'mcp-inspector',
    file: GITHUB,
    tool: 'issue_write',
    pointers: ['/inputSchema/properties/issue_fields/items/properties/value'],
  },
};

function row(id: string): HostProfile {
  const host = hostById(id);
  if (host === undefined) throw new Error(`no host row '${id}'`);
  return host;
}

/** Every rule id a check can report: the rows' rules, their injected arguments, and name collisions where a host renames. */
function reportableRules(): Set<string> {
  const ids = new Set<string>();
  for (const host of HOSTS) {
    for (const rule of host.rules) ids.add(rule.id);
    for (const argument of host.injects ?? []) ids.add(`${host.id}/${argument.name}`);
    if (host.naming !== undefined)
      for (const what of ['name-rewritten', 'name-collision']) ids.add(`${host.id}/${what}`);
  }
  return ids;
}

describe('each rule of the host table catches its fixture', () => {
  it.each(Object.entries(RULE_FIXTURES))('%s', (ruleId, fixture) => {
    const host = row(fixture.host);
    const check = checkServer(corpus(fixture.file), host);
    const tool = check.tools.find((entry) => entry.tool === fixture.tool);
    expect(tool, `${fixture.tool} in ${fixture.file}`).toBeDefined();
    const findings = tool!.findings.filter((finding) => finding.rule === ruleId);
    expect(findings.map((finding) => finding.pointer)).toEqual(fixture.pointers);
    const rule = host.rules.find((entry) => entry.id === ruleId);
    for (const finding of findings) {
      expect(finding.host).toBe(host.id);
      if (rule !== undefined) expect([finding.effect, finding.scope]).toEqual([rule.effect, rule.scope ?? 'tool']);
      expect(finding.message.length).toBeGreaterThan(10);
    }
  });

  it('has a fixture for every rule a check can report', () => {
    expect([...reportableRules()].filter((id) => !Object.hasOwn(RULE_FIXTURES, id))).toEqual([]);
    expect(Object.keys(RULE_FIXTURES).filter((id) => !reportableRules().has(id))).toEqual([]);
  });
});

describe('root-only rules', () => {
  it('find a combinator at the root only, not one nested below it', () => {
    const tool: ServedTool = {
      name: 'pick',
      inputSchema: {
        type: 'object',
        if: { required: ['a'] },
        properties: { a: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
      },
    };
    const findings = checkTool(tool, row('claude-code')).findings;
    expect(findings.map((finding) => [finding.rule, finding.pointer])).toEqual([
      ['claude-code/root-composition', '/inputSchema/if'],
    ]);
  });
});

describe('the rows', () => {
  it('give every rule an id under its host, what it does, a source and the versions it holds for', () => {
    const ids = new Set<string>();
    for (const host of HOSTS) {
      expect(host.name).not.toBe('');
      for (const rule of host.rules) {
        expect(rule.id.split('/')[0]!.startsWith(host.id.split('-copilot')[0]!), rule.id).toBe(true);
        expect(rule.does.length, rule.id).toBeGreaterThan(20);
        expect(rule.source, rule.id).toMatch(/https:\/\/github\.com\/|^npm /);
        expect(rule.versions, rule.id).not.toBe('');
      }
      for (const rule of new Set(host.rules)) {
        expect(ids.has(`${host.id}:${rule.id}`)).toBe(false);
        ids.add(`${host.id}:${rule.id}`);
      }
    }
    for (const part of HOSTS.flatMap((host) => [...(host.injects ?? []), ...(host.naming ? [host.naming] : [])])) {
      expect(part.source).toMatch(/^npm |https:\/\/github\.com\//);
      expect(part.versions).not.toBe('');
    }
    expect(new Set(HOSTS.map((host) => host.id)).size).toBe(HOSTS.length);
  });

  it('cover the hosts the issue names, VS Code Copilot once per model family', () => {
    expect(HOSTS.map((host) => host.id)).toEqual([
      'gemini-cli',
      'cursor',
      'claude-code',
      'claude-desktop',
      'codex',
      'chatgpt',
      'vscode-copilot-gpt-4',
      'vscode-copilot-claude',
      'vscode-copilot-gemini',
      'vscode-copilot',
      'visual-studio',
      'windsurf',
      'mcp-inspector',
    ]);
  });
});

describe('server-level checks', () => {
  it('Claude Code: one non-object root takes every tool of the server down', () => {
    const tools = corpus(FILESYSTEM_OLD);
    const check = checkServer(tools, row('claude-code'));
    expect(check.verdict).toBe('server-down');
    expect(check.tools.map((tool) => tool.verdict)).toEqual(tools.map(() => 'server-down'));
    expect(check.down.map((finding) => finding.rule)).toContain('claude-code/non-object-root');
    // The newer release of the same server publishes object roots: nothing takes it down.
    const newer = checkServer(corpus('diff-real/server-filesystem/2025.11.25.json'), row('claude-code'));
    expect(newer.down).toEqual([]);
    expect(newer.verdict).toBe('unaltered');
  });

  it('Cursor: one combinator anywhere fails the session, so every tool of the server is down', () => {
    const check = checkServer(corpus(GITHUB), row('cursor'));
    expect(check.verdict).toBe('server-down');
    expect(new Set(check.tools.map((tool) => tool.verdict))).toEqual(new Set(['server-down']));
    expect(check.down.every((finding) => finding.scope === 'session')).toBe(true);
    // Checked alone, a tool without a combinator is unaltered.
    expect(
      checkTool(
        corpus(GITHUB).find((tool) => tool.name === 'actions_get')!,
        row('cursor'),
      ).verdict,
    ).toBe('unaltered');
  });

  it('Gemini CLI: of two names cut to the same one, its registry keeps the last', () => {
    const [alpha, omega] = corpus(SHAPES).filter((tool) => tool.name.startsWith('search_repositories_'));
    const check = checkServer([alpha!, omega!], row('gemini-cli'));
    expect(check.tools.map((tool) => tool.verdict)).toEqual(['rejected', 'altered']);
    expect(hostToolName(row('gemini-cli'), alpha!.name, { serverName: 'toolsmith' })).toBe(
      'mcp_toolsmith_search_repositor...y_topic_and_language_and_stars',
    );
  });
});

describe('names under a host prefix (Gemini CLI: mcp_<server>_, 63 characters)', () => {
  const gemini = row('gemini-cli');
  const tool = (name: string): ServedTool => ({ name, inputSchema: { type: 'object', properties: {} } });
  const nameFindings = (name: string, serverName?: string) =>
    checkTool(tool(name), gemini, serverName === undefined ? {} : { serverName })
      .findings.filter((finding) => finding.rule === 'gemini-cli/name-rewritten')
      .map((finding) => finding.pointer);

  it('leaves 49 characters with the server named toolsmith (the default)', () => {
    expect(nameFindings('a'.repeat(49))).toEqual([]);
    expect(nameFindings('a'.repeat(50))).toEqual(['/name']);
    expect(hostToolName(gemini, 'a'.repeat(49), { serverName: 'toolsmith' })).toBe(`mcp_toolsmith_${'a'.repeat(49)}`);
  });

  it('counts the server name the project sets', () => {
    expect(nameFindings('a'.repeat(56), 'fs')).toEqual([]);
    expect(nameFindings('a'.repeat(57), 'fs')).toEqual(['/name']);
    expect(nameFindings('a'.repeat(50), 'a-much-longer-server')).toEqual(['/name']);
  });

  it('reports characters it replaces, not its own prefix', () => {
    expect(nameFindings('read_file')).toEqual([]);
    expect(nameFindings('files/read')).toEqual(['/name']);
    expect(hostToolName(gemini, 'files/read', { serverName: 'toolsmith' })).toBe('mcp_toolsmith_files_read');
  });
});

describe('injected arguments', () => {
  it('lists Gemini CLI’s wait_for_previous, for the server to take out', () => {
    expect(injectedArguments().map(({ name, host, schema }) => ({ name, host, schema }))).toEqual([
      { name: 'wait_for_previous', host: 'gemini-cli', schema: { type: 'boolean' } },
    ]);
  });

  it('say when a strict server refuses the call, and alter a tool that declares the name itself', () => {
    const shapes = corpus(SHAPES);
    const closed = corpus(EVERYTHING).find((tool) => tool.name === 'echo')!;
    expect(forbidsArgument(closed.inputSchema, 'wait_for_previous')).toBe(true);
    const open = shapes.find((tool) => tool.name === 'example_tool')!;
    expect(forbidsArgument(open.inputSchema, 'wait_for_previous')).toBe(false);
    const own = checkTool(
      shapes.find((tool) => tool.name === 'set_wait')!,
      row('gemini-cli'),
    );
    expect(own.findings.find((finding) => finding.rule === 'gemini-cli/wait_for_previous')?.effect).toBe('alters');
    expect(own.verdict).toBe('altered');
    expect(
      forbidsArgument(
        { type: 'object', properties: { wait_for_previous: {} }, additionalProperties: false },
        'wait_for_previous',
      ),
    ).toBe(false);
  });
});

describe('the example tools as served today (generated/manifests/mcp.json)', () => {
  const served = corpus(EXAMPLES);

  it('Cursor fails on memory_read’s oneOf; VS Code gpt-4 models lose bounds and defaults on all seven; Gemini CLI injects into all seven', () => {
    expect(served).toHaveLength(7);
    const cursor = checkServer(served, row('cursor'));
    expect(cursor.down.map((finding) => [finding.rule, finding.pointer])).toEqual([
      ['cursor/composition', '/inputSchema/properties/query/oneOf'],
    ]);
    expect(checkServer(served, row('vscode-copilot-gpt-4')).tools.map((tool) => tool.verdict)).toEqual(
      served.map(() => 'altered'),
    );
    const gemini = checkServer(served, row('gemini-cli'));
    expect(gemini.tools.map((tool) => tool.verdict)).toEqual(served.map(() => 'unaltered'));
    expect(gemini.tools.map((tool) => tool.findings.map((finding) => finding.effect).sort())).toEqual(
      served.map(() => ['ignores', 'injects']),
    );
    for (const id of ['claude-code', 'claude-desktop', 'chatgpt', 'visual-studio', 'windsurf', 'mcp-inspector'])
      expect(checkServer(served, row(id)).verdict, id).toBe('unaltered');
  });
});
