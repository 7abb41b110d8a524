import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { builtFile, readBuildLayout } from '../../codegen/cli/entry.js';
import { createTempProject, REPO, run, typeCheck, type TempProject } from '../helpers/temp-project.js';

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { cwd, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

const SEND_EMAIL = {
  name: 'send_email',
  description: 'Sends an email.',
  hasSideEffects: true,
  inputSchema: {
    type: 'object',
    required: ['to'],
    additionalProperties: false,
    properties: { to: { type: 'string' } },
  },
  outputSchema: {
    type: 'object',
    required: ['id'],
    additionalProperties: false,
    properties: { id: { type: 'string' } },
  },
};
const ECHO = {
  name: 'echo',
  description: 'Echoes a text.',
  inputSchema: {
    type: 'object',
    required: ['text'],
    additionalProperties: false,
    properties: { text: { type: 'string' } },
  },
  outputSchema: {
    type: 'object',
    required: ['text'],
    additionalProperties: false,
    properties: { text: { type: 'string' } },
  },
};

/** A send_email tool whose constructor takes its SMTP client, as a user writes it. */
const SEND_EMAIL_IMPL = (
  runtime: string,
) => `import type { ToolExecutionContext, ToolExecutionResult } from '${runtime}';
import { SendEmailToolBase } from '../../generated/tools/send-email.base.js';
import type { SendEmailInput, SendEmailOutput } from '../../generated/types/send-email.js';

export interface SmtpClient { send(to: string): string }

export class SendEmailTool extends SendEmailToolBase {
  constructor(private readonly smtp: SmtpClient) {
    super();
  }
  async execute(args: SendEmailInput, _context: ToolExecutionContext): Promise<ToolExecutionResult<SendEmailOutput>> {
    return { success: true, output: { id: this.smtp.send(args.to) } };
  }
}
`;

describe('tools with dependencies and the user entry module', () => {
  let project: TempProject;
  let runtime: string;

  beforeAll(async () => {
    project = createTempProject();
    project.write('schemas/send-email.tool.json', SEND_EMAIL);
    project.write('schemas/echo.tool.json', ECHO);
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport, format: false });
    const generated = await cli(['generate'], project.root);
    expect(generated.stderr).toBe('');
    runtime = path
      .relative(path.join(project.root, 'src/tools'), path.join(project.root, project.runtimeImport))
      .split(path.sep)
      .join('/');
    project.write('src/tools/send-email.ts', SEND_EMAIL_IMPL(runtime));
    project.write(
      'src/tools/echo.ts',
      project
        .read('src/tools/echo.ts')
        .replace(
          /void args;\s*return \{ success: false[^\n]*\n/,
          'return { success: true, output: { text: args.text } };\n',
        ),
    );
  }, 120_000);

  afterAll(() => project.dispose());

  it('createTools() without the factory a constructor needs does not compile; with it, it does and the tool uses the dependency', async () => {
    const registry = './generated/registry.js';
    project.write('missing.ts', `import { createTools } from '${registry}';\nexport const tools = createTools();\n`);
    project.write('empty.ts', `import { createTools } from '${registry}';\nexport const tools = createTools({});\n`);
    project.write(
      'wrong.ts',
      `import { createTools } from '${registry}';\nimport { EchoTool } from './src/tools/echo.js';\nexport const tools = createTools({ send_email: () => new EchoTool() });\n`,
    );
    const missing = await typeCheck(project, ['generated', 'src', 'missing.ts', 'empty.ts', 'wrong.ts']);
    expect(missing.code).not.toBe(0);
    expect(missing.output).toMatch(/missing\.ts\(2,22\): error TS2554: Expected 1 arguments, but got 0/);
    expect(missing.output).toMatch(/empty\.ts\(2,34\): error TS2345: .*Property 'send_email' is missing/s);
    expect(missing.output).toMatch(/wrong\.ts\(3,54\): error TS2741: Property 'smtp' is missing in type 'EchoTool'/);
    expect(missing.output.match(/error TS/g)).toHaveLength(3);

    project.write(
      'main.ts',
      `import { ToolOrchestrator } from '${project.runtimeImport}';
import { createTools, toolNames } from './generated/registry.js';
import { SendEmailTool } from './src/tools/send-email.js';

const sent: string[] = [];
export const orchestrator = new ToolOrchestrator({ allowSideEffects: true, tools: createTools({ send_email: () => new SendEmailTool({ send: (to) => (sent.push(to), \`msg-\${sent.length}\`) }) }) });
export { sent, toolNames };
`,
    );
    const ok = await typeCheck(project, ['generated', 'src', 'main.ts']);
    expect(ok.output).toBe('');
    const module = (await import(pathToFileURL(path.join(project.root, 'main.ts')).href)) as {
      orchestrator: import('../../src/index.js').ToolOrchestrator;
      sent: string[];
    };
    const result = await module.orchestrator.processToolCall({
      toolCallRequest: { id: '1', name: 'send_email', arguments: { to: 'ada@example.com' } },
      gmiId: 'g',
      personaId: 'p',
      personaCapabilities: [],
      userContext: { userId: 'u' },
    });
    expect(result.output).toEqual({ id: 'msg-1' });
    expect(module.sent).toEqual(['ada@example.com']);
  }, 60_000);

  it("createLazyTools takes the same typed factories and calls one only on its tool's first call", async () => {
    project.write(
      'lazy-missing.ts',
      `import { createLazyTools } from './generated/lazy-registry.js';\nexport const tools = createLazyTools();\n`,
    );
    const missing = await typeCheck(project, ['generated', 'src', 'lazy-missing.ts']);
    expect(missing.output).toMatch(/^lazy-missing\.ts\(2,22\): error TS2554: Expected 1 arguments, but got 0\.\n$/);
    // Run with tsx: the lazy registry's computed import() of a tool is beyond what vitest rewrites.
    project.write(
      'lazy-main.ts',
      `import { ToolOrchestrator } from '${project.runtimeImport}';
import { createLazyTools } from './generated/lazy-registry.js';

const made: string[] = [];
const orchestrator = new ToolOrchestrator({
  allowSideEffects: true,
  tools: createLazyTools({
    send_email: async () => {
      made.push('send_email');
      const { SendEmailTool } = await import('./src/tools/send-email.js');
      return new SendEmailTool({ send: (to) => 'lazy ' + to });
    },
  }),
});
const call = async (name: string, args: Record<string, unknown>) =>
  (await orchestrator.processToolCall({ toolCallRequest: { id: name, name, arguments: args }, gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' } })).output;
const steps: unknown[] = [[...made]];
steps.push(await call('echo', { text: 'x' }), [...made]);
steps.push(await call('send_email', { to: 'a@example.com' }), await call('send_email', { to: 'b@example.com' }), [...made]);
console.log(JSON.stringify(steps));
`,
    );
    expect((await typeCheck(project, ['generated', 'src', 'lazy-main.ts'])).output).toBe('');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'lazy-main.ts'], { cwd: project.root });
    expect(JSON.parse(stdout)).toEqual([
      [],
      { text: 'x' },
      [],
      { id: 'lazy a@example.com' },
      { id: 'lazy b@example.com' },
      ['send_email'],
    ]);
  }, 60_000);

  it('without an entry, call and serve (stdio and --http, a real process) refuse to start, naming the tool that needs dependencies and the fix', async () => {
    const expected =
      'tool \'send_email\' needs constructor dependencies (its constructor takes arguments), and no entry module gives them. Write one that makes them, e.g. src/toolsmith.ts with `export default { tools: createTools({ send_email: () => new …(its dependencies) }) }`, and name it with `"entry": "src/toolsmith.ts"` in toolsmith.config.json or with --entry src/toolsmith.ts. A parameter the tool can do without needs a default (`= {}`) to count as none.';
    // The tool that needs nothing is refused too: the server would list a tool that fails at its first call.
    const call = await cli(['call', 'echo', '{"text":"hi"}', '--allow-side-effects'], project.root);
    expect(call).toEqual({ code: 1, stdout: '', stderr: `toolsmith call: ${expected}\n` });
    for (const args of [['serve'], ['serve', '--http', '--no-auth', '--port', '0']]) {
      const child = await run(process.execPath, [path.join(REPO, 'bin/toolsmith.js'), ...args], {
        cwd: project.root,
        timeout: 30_000,
      }).then(
        (done) => ({ code: 0, ...done }),
        (error: { code?: number; stdout: string; stderr: string; killed?: boolean }) => error,
      );
      expect([child.code, child.stdout, child.stderr]).toEqual([1, '', `toolsmith serve: ${expected}\n`]);
    }
    // An entry module that gives options without `tools` leaves them to createTools(): the same refusal, naming the module.
    project.write('options-entry.ts', 'export default { allowSideEffects: true };\n');
    const options = await cli(['call', 'echo', '{"text":"hi"}', '--entry', 'options-entry.ts'], project.root);
    expect(options.code).toBe(1);
    expect(options.stderr).toBe(
      "toolsmith call: tool 'send_email' needs constructor dependencies (its constructor takes arguments), and the entry module options-entry.ts names no `tools`, so the generated registry's createTools() would make them with none. Export `tools` from it: `export default { tools: createTools({ send_email: () => new …(its dependencies) }) }`. A parameter the tool can do without needs a default (`= {}`) to count as none.\n",
    );
  }, 90_000);

  it('call takes the orchestrator from the entry module (config or --entry): its approval gate, hooks and tool dependencies', async () => {
    project.write(
      'src/toolsmith.ts',
      `import type { ApprovalRequest, ToolOrchestratorOptions } from '${path.relative(path.join(project.root, 'src'), path.join(project.root, project.runtimeImport)).split(path.sep).join('/')}';
import { appendFileSync } from 'node:fs';
import { createTools } from '../generated/registry.js';
import { SendEmailTool } from './tools/send-email.js';

export default async (): Promise<ToolOrchestratorOptions> => ({
  tools: createTools({ send_email: () => new SendEmailTool({ send: (to) => 'sent to ' + to }) }),
  requireApproval: 'side-effects',
  approvalGate: async (request: ApprovalRequest) => ({ approved: request.args !== undefined && JSON.stringify(request.args).includes('example.com'), reason: 'only example.com' }),
  hooks: { onCallEnd: (event) => appendFileSync(new URL('../calls.log', import.meta.url), event.toolName + ' ' + (event.code ?? 'ok') + '\\n') },
});
`,
    );
    project.write('toolsmith.config.json', {
      runtimeImport: project.runtimeImport,
      format: false,
      entry: 'src/toolsmith.ts',
    });
    const approved = await cli(['call', 'send_email', '{"to":"ada@example.com"}'], project.root);
    expect(approved.stderr).toBe('');
    expect(JSON.parse(approved.stdout).output).toEqual({ id: 'sent to ada@example.com' });
    const denied = await cli(['call', 'send_email', '{"to":"eve@evil.test"}'], project.root);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stdout).errorDetails.code).toBe('APPROVAL_REJECTED');
    expect(project.read('calls.log')).toBe('send_email ok\nsend_email APPROVAL_REJECTED\n');

    project.write(
      'other-entry.ts',
      `import { ToolOrchestrator } from '${project.runtimeImport}';\nimport { EchoTool } from './src/tools/echo.js';\nexport const orchestrator = new ToolOrchestrator({ tools: [new EchoTool()] });\n`,
    );
    const flagged = await cli(
      ['call', 'send_email', '{"to":"ada@example.com"}', '--entry', 'other-entry.ts'],
      project.root,
    );
    expect(JSON.parse(flagged.stdout).errorDetails.code).toBe('TOOL_NOT_FOUND');
    // A module is imported once per process and call shuts its orchestrator down: a second file for a second call here.
    project.write('echo-entry.ts', project.read('other-entry.ts'));
    const echo = await cli(['call', 'echo', '{"text":"hi"}', '--entry', 'echo-entry.ts'], project.root);
    expect(JSON.parse(echo.stdout).output).toEqual({ text: 'hi' });

    project.write('bad-entry.ts', 'export default 42;\n');
    const bad = await cli(['call', 'echo', '{}', '--entry', 'bad-entry.ts'], project.root);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'toolsmith call: bad-entry.ts must export (as default or as `orchestrator`) a ToolOrchestrator, ToolOrchestratorOptions, or a function returning either; it exports number.\n',
    );
    // The project's tsconfig (written by the type check above) has no outDir: tsc would build beside the source.
    const absent = await cli(['call', 'echo', '{}', '--entry', 'nope.ts'], project.root);
    expect(absent.stderr).toBe(
      'toolsmith call: neither nope.ts nor nope.js exists. Check `entry` in the config or --entry.\n',
    );
  }, 60_000);

  it("--allow-side-effects applies to an entry's options or factory without a gate; with a gate or a built orchestrator, stderr says it was not used (real processes)", async () => {
    const runtime = path
      .relative(project.root, path.join(project.root, project.runtimeImport))
      .split(path.sep)
      .join('/');
    const tools = `createTools({ send_email: () => new SendEmailTool({ send: (to) => 'sent to ' + to }) })`;
    const head = `import { ToolOrchestrator } from '${runtime}';\nimport { createTools } from './generated/registry.js';\nimport { SendEmailTool } from './src/tools/send-email.js';\nvoid ToolOrchestrator;\n`;
    project.write('options-entry.ts', `${head}export default { tools: ${tools} };\n`);
    project.write('factory-entry.ts', `${head}export default async () => ({ tools: ${tools} });\n`);
    project.write(
      'gate-entry.ts',
      `${head}export default { tools: ${tools}, approvalGate: async () => ({ approved: false, reason: 'the gate says no' }) };\n`,
    );
    project.write('built-entry.ts', `${head}export const orchestrator = new ToolOrchestrator({ tools: ${tools} });\n`);
    const toolsmith = (...args: string[]) =>
      run(process.execPath, [path.join(REPO, 'bin/toolsmith.js'), ...args], {
        cwd: project.root,
        timeout: 30_000,
      }).then(
        (done) => ({ code: 0, ...done }),
        (error: { code?: number; stdout: string; stderr: string }) => error,
      );
    const send = (entry: string, ...flags: string[]) =>
      toolsmith('call', 'send_email', '{"to":"ada@example.com"}', '--entry', entry, ...flags);
    const notUsed = (entry: string, why: string) =>
      `toolsmith call: --allow-side-effects was not used: ${entry} ${why}.\n`;

    // Options or a factory without a gate: the flag lets the call run (without it: APPROVAL_REJECTED, below).
    for (const entry of ['options-entry.ts', 'factory-entry.ts']) {
      const allowed = await send(entry, '--allow-side-effects');
      expect([allowed.code, allowed.stderr, JSON.parse(allowed.stdout).output], entry).toEqual([
        0,
        '',
        { id: 'sent to ada@example.com' },
      ]);
    }
    // A gate decides; a built orchestrator's setting is fixed: the flag is not used, and stderr says why.
    const gated = await send('gate-entry.ts', '--allow-side-effects');
    expect(JSON.parse(gated.stdout).errorDetails.message).toContain('the gate says no');
    // stderr: the note, then the call's feedback (the refusal).
    expect(gated.stderr.split('\n').slice(0, 2)).toEqual([
      notUsed('gate-entry.ts', 'gives an approval gate, which decides every call that needs approval').trimEnd(),
      "APPROVAL_REJECTED: The call to tool 'send_email' was not approved: the gate says no",
    ]);
    const built = await send('built-entry.ts', '--allow-side-effects');
    expect(JSON.parse(built.stdout).errorDetails.code).toBe('APPROVAL_REJECTED');
    const fixed =
      'exports a built ToolOrchestrator, whose allowSideEffects is fixed when it is made; set it there, or export its options (or a function returning them) for the flag to apply';
    expect(built.stderr.split('\n')[0]).toBe(notUsed('built-entry.ts', fixed).trimEnd());
    // serve says it too (stdin closed: the server starts, then stops as its client is gone).
    const serve = await toolsmith('serve', '--entry', 'built-entry.ts', '--allow-side-effects');
    expect([serve.code, serve.stdout]).toEqual([0, '']);
    expect(serve.stderr).toBe(notUsed('built-entry.ts', fixed).replace('toolsmith call:', 'toolsmith serve:'));
  }, 120_000);

  it('before anything is generated, call and serve say to generate, with no stack trace', async () => {
    const empty = createTempProject();
    try {
      const call = await cli(['call', 'greet', '{}'], empty.root);
      expect(call).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'toolsmith call: neither generated/registry.ts nor dist/generated/registry.js exists. Run `npx --no toolsmith generate` first (and `npm run build` for a production install).\n',
      });
      const serve = await cli(['serve'], empty.root);
      expect(serve.code).toBe(1);
      expect(serve.stderr).toMatch(
        /^toolsmith serve: neither generated\/registry\.ts nor dist\/generated\/registry\.js exists\./,
      );
    } finally {
      empty.dispose();
    }
  });
});

describe('the build layout call and serve look in', () => {
  it('maps a source to what tsc writes, from the tsconfig (comments allowed) or dist/ without one', () => {
    const project = createTempProject();
    try {
      expect(builtFile(path.join(project.root, 'generated/registry.ts'), readBuildLayout(project.root))).toBe(
        path.join(project.root, 'dist/generated/registry.js'),
      );
      project.write(
        'tsconfig.json',
        '{\n  // ours\n  "compilerOptions": { "outDir": "build/out", "rootDir": ".", },\n}\n',
      );
      expect(builtFile(path.join(project.root, 'src/entry.mts'), readBuildLayout(project.root))).toBe(
        path.join(project.root, 'build/out/src/entry.mjs'),
      );
      project.write('tsconfig.json', '{ "compilerOptions": { "rootDir": "src" } }');
      expect(builtFile(path.join(project.root, 'src/a.ts'), readBuildLayout(project.root))).toBe(
        path.join(project.root, 'src/a.js'),
      );
      expect(
        builtFile(path.join(project.root, 'generated/registry.ts'), readBuildLayout(project.root)),
      ).toBeUndefined();
    } finally {
      project.dispose();
    }
  });
});
