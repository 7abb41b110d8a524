/**
 * Real host code against `toolsmith serve` (stdio and `--http --no-auth`) and against the vendored
 * real-world corpus: Gemini CLI's core (its discovery, the declarations its model gets, its parameter
 * validator, calls through its tool invocation with `wait_for_previous`) and the MCP Inspector CLI
 * (`tools/list --strict`, `tools/call`). What each host should do is read from the host table
 * (`src/hosts/`): these tests hold the table's `gemini-cli` and `mcp-inspector` rows to the hosts'
 * own code. The host packages are this folder's project, installed here (`host-packages.ts`).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkServer,
  forbidsArgument,
  hostById,
  hostToolName,
  injectedArguments,
  portableInputSchema,
  type HostFinding,
  type HostProfile,
  type ServedTool,
} from '../../src/hosts/index.js';
import { escapePointerSegment } from '../../src/schema/json-pointer.js';
import { corpus, EXAMPLES, EXAMPLES_PORTABLE, REAL_CORPUS, SHAPES } from '../src/hosts/corpus.js';
import { HOST_PROJECT, INSPECTOR_BIN, installHostPackages } from './host-packages.js';

const REPO = path.resolve(HOST_PROJECT, '../..');
const run = promisify(execFile);
const gemini = hostById('gemini-cli')!;
const inspector = hostById('mcp-inspector')!;
const served = corpus(EXAMPLES);
const servedPortable = corpus(EXAMPLES_PORTABLE);
/** The generated host report: what generate announced each host does to each example tool, per profile. */
const report = JSON.parse(
  readFileSync(path.join(HOST_PROJECT, '../../generated/manifests/loss-report.json'), 'utf8'),
) as Record<
  string,
  { hosts: Record<string, Record<'exact' | 'portable', { verdict: string; findings: HostFinding[] }>> }
>;

/** Valid arguments for each example tool, in an order that works (memory written before it is read). */
const EXAMPLE_CALLS: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['calculator', { expression: '2*(3+4)' }],
  ['get_current_datetime', { timeZone: 'UTC' }],
  ['list_directory', { path: '.' }],
  ['read_file', { path: 'hello.txt' }],
  ['memory_write', { key: 'e2e.note', value: 'hello' }],
  ['memory_read', { query: { key: 'e2e.note' } }],
  ['remember_calculation', { expression: '6*7', key: 'e2e.answer' }],
];

const SERVE_ARGS = [
  path.join(REPO, 'bin/toolsmith.js'),
  'serve',
  '--allow-side-effects',
  '--capability',
  'capability:filesystem:read',
  '--capability',
  'capability:memory:write',
];

let folder: string;
let serveEnv: Record<string, string>;
type HttpServer = { child: ChildProcess; url: string; exit: Promise<unknown> };
/** `serve --http` with the exact profile, and with the example project's own (portable). */
let http: HttpServer | undefined;
let httpPortable: HttpServer | undefined;

/** Starts `toolsmith serve --http --no-auth` on a free port and waits for its "MCP at <url>" line. */
async function startHttp(...extra: string[]): Promise<HttpServer> {
  const child = spawn(process.execPath, [...SERVE_ARGS, '--http', '--no-auth', '--port', '0', ...extra], {
    cwd: REPO,
    env: { ...process.env, ...serveEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exit = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /MCP at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exit.then(() => reject(new Error(`serve --http exited before listening: ${stderr}`)));
  });
  return { child, url, exit };
}

/** A stdio server entry serving a `tools/list` answer as saved (test/hosts/corpus-server.mjs). */
function corpusServer(tools: readonly ServedTool[], name: string): { command: string; args: string[] } {
  const file = path.join(folder, `${name}.json`);
  writeFileSync(file, JSON.stringify({ tools }));
  return { command: process.execPath, args: [path.join(HOST_PROJECT, 'corpus-server.mjs'), file] };
}

/** The pointers at which two JSON values differ (a key one lacks, a value that differs). */
function differences(a: unknown, b: unknown, at = ''): string[] {
  const object = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (object(a) && object(b))
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((key) => {
      const child = `${at}/${escapePointerSegment(key)}`;
      return Object.hasOwn(a, key) && Object.hasOwn(b, key) ? differences(a[key], b[key], child) : [child];
    });
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.flatMap((item, index) => differences(item, b[index], `${at}/${index}`));
  return isDeepStrictEqual(a, b) ? [] : [at];
}

const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));

/**
 * How a host's declaration of an input schema compares with what the table says it does: the changes
 * no finding explains, and the findings (alters, injects) no change shows. A change is explained by a
 * finding at it or above it, and the `nullable` Gemini CLI adds beside a `type` it rewrites.
 */
function compareWithTable(
  before: unknown,
  after: unknown,
  findings: readonly HostFinding[],
): { unexplained: string[]; unseen: string[] } {
  const changes = differences(before, after);
  const predicted = findings
    .filter(
      (finding) =>
        (finding.effect === 'alters' || finding.effect === 'injects') && finding.pointer.startsWith('/inputSchema/'),
    )
    .map((finding) => finding.pointer.slice('/inputSchema'.length));
  const explains = (finding: string, change: string) =>
    change === finding ||
    change.startsWith(`${finding}/`) ||
    (finding.endsWith('/type') && change === `${parentOf(finding)}/nullable`);
  return {
    unexplained: changes.filter((change) => !predicted.some((finding) => explains(finding, change))),
    unseen: predicted.filter((finding) => !changes.some((change) => explains(finding, change))),
  };
}

beforeAll(async () => {
  await installHostPackages();
  folder = mkdtempSync(path.join(tmpdir(), 'toolsmith-hosts-'));
  mkdirSync(path.join(folder, 'files'));
  mkdirSync(path.join(folder, 'home'));
  writeFileSync(path.join(folder, 'files', 'hello.txt'), 'Hello from the host test.\n');
  serveEnv = { TOOLSMITH_DATA_DIR: path.join(folder, 'data'), TOOLSMITH_FILES_ROOT: path.join(folder, 'files') };
  [http, httpPortable] = await Promise.all([startHttp('--profile', 'exact'), startHttp()]);
}, 600_000);

afterAll(async () => {
  for (const server of [http, httpPortable])
    if (server !== undefined && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exit;
    }
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/* ---------------------------------------------------------------- Gemini CLI */

interface GeminiTool {
  name: string;
  serverToolName: string;
  declared: boolean;
  parameters?: unknown;
}
interface GeminiAnswer {
  error?: string;
  servers: Record<string, { error: string | null; tools: GeminiTool[] }>;
  validate: Array<{ server: string; tool: string; args: unknown; error: string | null }>;
  calls: Array<{
    server: string;
    tool: string;
    args: Record<string, unknown>;
    error: string | null;
    llmContent?: unknown;
  }>;
}

/** One run of Gemini CLI's code over `servers` (test/hosts/gemini-driver.mjs). */
async function runGemini(request: object): Promise<GeminiAnswer> {
  const requestFile = path.join(folder, 'gemini-request.json');
  const answerFile = path.join(folder, 'gemini-answer.json');
  writeFileSync(requestFile, JSON.stringify(request));
  await run(process.execPath, [path.join(HOST_PROJECT, 'gemini-driver.mjs'), requestFile, answerFile], {
    cwd: HOST_PROJECT,
    env: { ...process.env, HOME: path.join(folder, 'home') },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  return JSON.parse(readFileSync(answerFile, 'utf8')) as GeminiAnswer;
}

/** The corpus as one list (first of each name, so a server never lists a name twice), and the lists Gemini CLI's client refuses. */
function corpusLists(host: HostProfile): {
  listable: ServedTool[];
  refused: Array<{ file: string; tools: ServedTool[] }>;
} {
  const listable: ServedTool[] = [];
  const refused: Array<{ file: string; tools: ServedTool[] }> = [];
  for (const file of [...REAL_CORPUS, SHAPES]) {
    const tools = corpus(file);
    const down = new Set(
      checkServer(tools, host)
        .tools.filter((tool) =>
          tool.findings.some((finding) => finding.effect === 'rejects' && finding.scope !== 'tool'),
        )
        .map((tool) => tool.tool),
    );
    if (down.size > 0) refused.push({ file, tools });
    for (const tool of tools)
      if (!down.has(tool.name) && !listable.some((kept) => kept.name === tool.name)) listable.push(tool);
  }
  return { listable, refused };
}

/** The example servers Gemini CLI runs against: `toolsmith serve` over stdio and HTTP, exact and portable. */
const EXAMPLE_SERVERS = ['toolsmith', 'toolsmith-http', 'toolsmith-portable', 'toolsmith-http-portable'] as const;
const isPortable = (server: string) => server.endsWith('-portable');

describe('Gemini CLI (@google/gemini-cli-core 0.61.0, its own MCP code path)', () => {
  let answer: GeminiAnswer;
  const { listable, refused } = corpusLists(gemini);
  const portable = listable.map((tool) => ({ ...tool, inputSchema: portableInputSchema(tool.inputSchema).schema }));

  beforeAll(async () => {
    const stdio = (...extra: string[]) => ({
      command: process.execPath,
      args: [...SERVE_ARGS, ...extra],
      cwd: REPO,
      env: serveEnv,
    });
    const servers: Record<string, object> = {
      toolsmith: stdio('--profile', 'exact'),
      'toolsmith-http': { httpUrl: http!.url },
      // The example project's own profile (manifests.servedProfile: portable in toolsmith.config.json).
      'toolsmith-portable': stdio(),
      'toolsmith-http-portable': { httpUrl: httpPortable!.url },
      corpus: corpusServer(listable, 'corpus'),
      'corpus-portable': corpusServer(portable, 'corpus-portable'),
    };
    refused.forEach(({ tools }, index) => {
      servers[`refused-${index}`] = corpusServer(tools, `refused-${index}`);
    });
    const calls = EXAMPLE_SERVERS.flatMap((server) =>
      EXAMPLE_CALLS.flatMap(([tool, args]) => [
        { server, tool, args },
        { server, tool, args: { ...args, wait_for_previous: true } },
      ]),
    );
    const validate = ['toolsmith', 'toolsmith-portable'].flatMap((server) =>
      EXAMPLE_CALLS.map(([tool, args]) => ({ server, tool, args: { ...args, wait_for_previous: true } })),
    );
    answer = await runGemini({ servers, calls, validate });
    expect(answer.error).toBeUndefined();
  }, 240_000);

  it.each(EXAMPLE_SERVERS)('discovers every example tool over %s, under the names the table gives', (server) => {
    const found = answer.servers[server]!;
    expect(found.error).toBeNull();
    expect(found.tools.map((tool) => [tool.serverToolName, tool.name, tool.declared])).toEqual(
      served.map((tool) => [tool.name, hostToolName(gemini, tool.name, { serverName: server }), true]),
    );
  });

  it('declares each example tool as served, changed only where the generated report says for gemini-cli (wait_for_previous added)', () => {
    for (const server of EXAMPLE_SERVERS) {
      const profile = isPortable(server) ? 'portable' : 'exact';
      for (const tool of isPortable(server) ? servedPortable : served) {
        const declared = answer.servers[server]!.tools.find((entry) => entry.serverToolName === tool.name)!;
        const announced = report[tool.name]!.hosts['gemini-cli']![profile];
        expect([
          server,
          tool.name,
          compareWithTable(tool.inputSchema, declared.parameters, announced.findings),
        ]).toEqual([server, tool.name, { unexplained: [], unseen: [] }]);
        expect(differences(tool.inputSchema, declared.parameters)).toEqual(['/properties/wait_for_previous']);
        // Its own argument aside, Gemini CLI takes every example tool as it is, as the report announced.
        expect([server, tool.name, announced.verdict]).toEqual([server, tool.name, 'unaltered']);
      }
    }
  });

  it('its parameter validator accepts every example call with wait_for_previous', () => {
    expect(answer.validate.map((entry) => [entry.server, entry.tool, entry.error])).toEqual(
      ['toolsmith', 'toolsmith-portable'].flatMap((server) => EXAMPLE_CALLS.map(([tool]) => [server, tool, null])),
    );
  });

  it('calls every example tool through its invocation, with and without wait_for_previous: every call succeeds', () => {
    expect(answer.calls).toHaveLength(EXAMPLE_SERVERS.length * EXAMPLE_CALLS.length * 2);
    const injected = injectedArguments([gemini]).map((argument) => argument.name);
    let carrying = 0;
    for (const call of answer.calls) {
      const tool = served.find((entry) => entry.name === call.tool)!;
      // Each of these calls would be refused by a server that validated the arguments as they come.
      if (injected.some((name) => Object.hasOwn(call.args, name) && forbidsArgument(tool.inputSchema, name)))
        carrying++;
      expect([call.server, call.tool, call.error]).toEqual([call.server, call.tool, null]);
      expect(JSON.stringify(call.llmContent)).not.toContain('INVALID_ARGUMENTS');
    }
    expect(carrying).toBe(EXAMPLE_SERVERS.length * EXAMPLE_CALLS.length);
  });

  it('refuses exactly the corpus lists the table says its client refuses (a non-object root, required: null, a `true` property)', () => {
    expect(refused.map(({ file }) => file)).toEqual([
      'diff-real/server-filesystem/2025.3.28.json',
      'diff-real/server-filesystem/2025.8.21.json',
      'hosts/shapes/tools.json',
    ]);
    refused.forEach((_, index) => {
      const found = answer.servers[`refused-${index}`]!;
      expect(found.tools).toEqual([]);
      expect(found.error).toMatch(/Error discovering tools/);
    });
  });

  it('declares every other corpus tool changed exactly where the gemini-cli row says (names, nullable, wait_for_previous)', () => {
    const check = checkServer(listable, gemini, { serverName: 'corpus' });
    const found = answer.servers.corpus!;
    expect(found.error).toBeNull();
    const kept = check.tools.filter((tool) => tool.verdict !== 'rejected').map((tool) => tool.tool);
    expect(found.tools.map((tool) => tool.serverToolName).sort()).toEqual(kept.sort());
    listable.forEach((tool, index) => {
      const seen = found.tools.find((entry) => entry.serverToolName === tool.name);
      const findings = check.tools[index]!.findings;
      if (seen === undefined) return; // left out, as predicted just above
      expect(seen.name).toBe(hostToolName(gemini, tool.name, { serverName: 'corpus' }));
      expect([tool.name, seen.declared]).toEqual([tool.name, true]);
      expect([tool.name, compareWithTable(tool.inputSchema, seen.parameters, findings)]).toEqual([
        tool.name,
        { unexplained: [], unseen: [] },
      ]);
    });
    // The corpus exercises each kind of change: a cut name, a nullable rewrite, a name two tools share.
    const rules = new Set(check.tools.flatMap((tool) => tool.findings.map((finding) => finding.rule)));
    for (const rule of [
      'gemini-cli/name-rewritten',
      'gemini-cli/nullable',
      'gemini-cli/name-collision',
      'gemini-cli/wait_for_previous',
    ])
      expect(rules).toContain(rule);
    expect(kept.length).toBe(listable.length - 1);
  });

  it('declares the portable rewrite of the corpus unaltered (its prefix and wait_for_previous aside)', () => {
    for (const [server, tools] of [['corpus-portable', portable]] as const) {
      const found = answer.servers[server]!;
      expect(found.error).toBeNull();
      const check = checkServer(tools, gemini, { serverName: server });
      tools.forEach((tool, index) => {
        const seen = found.tools.find((entry) => entry.serverToolName === tool.name);
        const verdict = check.tools[index]!.verdict;
        if (verdict === 'rejected') return; // a name two tools share: not the schema's doing
        expect(seen?.declared, tool.name).toBe(true);
        const findings = check.tools[index]!.findings;
        expect([server, tool.name, compareWithTable(tool.inputSchema, seen!.parameters, findings)]).toEqual([
          server,
          tool.name,
          { unexplained: [], unseen: [] },
        ]);
        // Unaltered: what changed in the schema is Gemini CLI's own argument, nothing the schema said
        // (a name too long for its prefix is still cut: the portable profile never renames).
        const schemaChanges = findings.filter(
          (finding) =>
            finding.effect === 'alters' &&
            finding.pointer.startsWith('/inputSchema') &&
            finding.rule !== 'gemini-cli/wait_for_previous',
        );
        expect([tool.name, schemaChanges]).toEqual([tool.name, []]);
      });
    }
  });
});

/* ---------------------------------------------------------------- The MCP Inspector */

/** A pointer from the Inspector's path notation (`properties.a["b c"].items[0]`). */
function inspectorPointer(schema: string, notation: string): string {
  const tokens = [...notation.matchAll(/(?:^|\.)([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)].map(
    (match) => match[1] ?? match[2] ?? (JSON.parse(match[3]!) as string),
  );
  return `/${schema}${tokens.map((token) => `/${escapePointerSegment(token)}`).join('')}`;
}

interface InspectorAnswer {
  result: { tools?: ServedTool[]; structuredContent?: unknown; isError?: boolean };
  schemaFindings?: Array<{ toolName: string; findings: Array<{ schema: string; path: string; severity: string }> }>;
}

/** One run of the Inspector CLI (`--cli --config <file> --server <name> …`), its JSON envelope (exit code aside). */
async function runInspector(server: object, args: string[]): Promise<InspectorAnswer> {
  const configFile = path.join(folder, `inspector-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(configFile, JSON.stringify({ mcpServers: { target: server } }));
  const argv = [INSPECTOR_BIN, '--cli', '--config', configFile, '--server', 'target', '--format', 'json', ...args];
  const options = {
    cwd: HOST_PROJECT,
    env: { ...process.env, HOME: path.join(folder, 'home'), MCP_INSPECTOR_SECRET_STORE: 'memory' },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  };
  const { stdout } = await run(process.execPath, argv, options).catch((error: { stdout?: string }) => ({
    stdout: error.stdout ?? '',
  }));
  return JSON.parse(stdout) as InspectorAnswer;
}

describe('MCP Inspector CLI (@modelcontextprotocol/inspector 2.12.0)', () => {
  const stdio = () => ({ command: process.execPath, args: SERVE_ARGS, cwd: REPO, env: serveEnv });
  const overHttp = () => ({ type: 'streamable-http', url: http!.url });

  it.each([
    ['stdio', stdio],
    ['HTTP', overHttp],
  ] as const)(
    'tools/list --strict over %s: every example tool, no finding, as the mcp-inspector row predicts',
    async (_, server) => {
      const answer = await runInspector(server(), ['--method', 'tools/list', '--strict']);
      expect(answer.result.tools!.map((tool) => tool.name)).toEqual(served.map((tool) => tool.name));
      expect(answer.schemaFindings).toBeUndefined();
      expect(checkServer(served, inspector).tools.flatMap((tool) => tool.findings)).toEqual([]);
    },
  );

  it.each([
    ['stdio', stdio],
    ['HTTP', overHttp],
  ] as const)('tools/call over %s: the calculator answers', async (_, server) => {
    const answer = await runInspector(server(), [
      '--method',
      'tools/call',
      '--tool-name',
      'calculator',
      '--tool-args-json',
      JSON.stringify({ expression: '2*(3+4)' }),
    ]);
    expect(answer.result.isError).toBeUndefined();
    expect(answer.result.structuredContent).toEqual({ expression: '2*(3+4)', result: 14 });
  });

  it('tools/list --strict on the whole corpus: it leaves out and lints the tools the mcp-inspector row says', async () => {
    const tools: ServedTool[] = [];
    for (const file of [...REAL_CORPUS, SHAPES])
      for (const tool of corpus(file)) if (!tools.some((kept) => kept.name === tool.name)) tools.push(tool);
    const answer = await runInspector(corpusServer(tools, 'inspector-corpus'), ['--method', 'tools/list', '--strict']);
    const check = checkServer(tools, inspector);
    const listed = check.tools.filter((tool) => tool.verdict !== 'rejected');
    expect(answer.result.tools!.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.tool));
    expect(listed.length).toBeLessThan(tools.length);
    const seen = (answer.schemaFindings ?? [])
      .flatMap(({ toolName, findings }) =>
        findings.map((finding) => `${toolName} ${inspectorPointer(finding.schema, finding.path)}`),
      )
      .sort();
    const predicted = listed
      .flatMap((tool) =>
        tool.findings
          .filter((finding) => finding.effect === 'warns')
          .map((finding) => `${tool.tool} ${finding.pointer}`),
      )
      .sort();
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(seen).toEqual(predicted);
  });
});
