import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram, main } from '../codegen/cli/main.js';
import { MANIFEST_TARGET_TABLE, MANIFEST_TARGETS } from '../src/manifest-targets/table.js';
import { createTempProject, REPO, run, typeCheckFolder, type TempProject } from './helpers/temp-project.js';

/**
 * The README's and docs' code samples, checked as a consumer would meet them: every ```ts block
 * (but `ts illustrative`, a fragment that cannot compile alone) is a file of a project made by
 * `toolsmith init` + `toolsmith generate`, type-checked by tsc with `toolsmith-sdk` resolved to this
 * repository's sources; every `toolsmith` command of a shell block (but `sh illustrative`) names a
 * command and options the CLI has; its `toolsmith call` lines for this repository's tools and its
 * `toolsmith diff` lines (in a project with a `main` branch and a published tools/list) are run.
 * The install path (pack, install, init, generate, build, `npm ci --omit=dev`, call, serve) is run
 * step by step by test/package.e2e.test.ts.
 */

/** The user documents whose samples are checked. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** A fenced code block: its document, the line of its opening fence, its info string and its text. */
interface Block {
  document: string;
  line: number;
  info: string;
  text: string;
}

/** Every fenced block of a Markdown document (fences at the start of a line). */
function fencedBlocks(document: string, markdown: string): Block[] {
  const blocks: Block[] = [];
  let open: { line: number; info: string; lines: string[] } | undefined;
  markdown.split('\n').forEach((text, index) => {
    if (open === undefined) {
      const fence = /^```(.*)$/.exec(text);
      if (fence) open = { line: index + 1, info: fence[1]!.trim(), lines: [] };
    } else if (/^```\s*$/.test(text)) {
      blocks.push({ document, line: open.line, info: open.info, text: open.lines.join('\n') });
      open = undefined;
    } else open.lines.push(text);
  });
  return blocks;
}

const BLOCKS = DOCUMENTS.flatMap((document) => fencedBlocks(document, readFileSync(path.join(REPO, document), 'utf8')));
const TS_INFO = new Set(['ts', 'ts illustrative']);
const SHELL_INFO = new Set(['sh', 'bash', 'console', 'sh illustrative']);
const isTs = (block: Block) => block.info === 'ts' || block.info.startsWith('ts ');
const isShell = (block: Block) => /^(sh|bash|console|shell)(\s|$)/.test(block.info);
const SAMPLES = BLOCKS.filter((block) => block.info === 'ts');
const where = (block: Block) => `${block.document}:${block.line}`;

/**
 * Where a sample lives in the project: the path its first line names (`// src/main.ts — …`), else
 * the project's root when it imports `./generated/…`, else `src/` (beside `../generated/…`).
 */
function samplePath(block: Block): string {
  const named = /^\/\/ ([\w./-]+\.ts)(\s|$)/.exec(block.text)?.[1];
  if (named !== undefined && !named.split('/').includes('..')) return named;
  const stem = `${block.document.replace(/\.md$/, '').replace(/[/.]/g, '-').toLowerCase()}-${block.line}.ts`;
  return /from '\.\/generated\//.test(block.text) ? stem : `src/${stem}`;
}

/**
 * The samples that import the send_email tool of docs/production.md, whose constructor takes an SMTP
 * client: they are checked in a project of their own, since its `createTools()` asks for a factory
 * and every other sample calls `createTools()` without one.
 */
const needsDependencies = (block: Block) => /from '\.\/tools\/send-email\.js'/.test(block.text);

/**
 * Names a sample uses as the reader's own (a program's orchestrator and caller, a model, a provider's
 * client, a function of the reader's), declared with the types the samples hand them to.
 */
const PRELUDE = `import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import type { ToolCallDefaults, ToolOrchestrator, ToolOrchestratorOptions } from 'toolsmith-sdk';

declare global {
  interface SmtpClient { send(message: { to: string; subject: string; body: string }): Promise<string> }
  const orchestrator: ToolOrchestrator;
  const caller: ToolCallDefaults;
  const tools: NonNullable<ToolOrchestratorOptions['tools']>;
  const model: string;
  const input: string;
  const contents: string;
  const max_tokens: number;
  const messages: Anthropic.MessageParam[];
  const openai: OpenAI;
  const anthropic: Anthropic;
  const gemini: GoogleGenAI;
  const smtp: SmtpClient;
  function connectSmtp(): Promise<SmtpClient>;
  function askSomeone(question: string, details: unknown): Promise<boolean>;
  function confirm(question: string, details: unknown): Promise<boolean>;
  function log(event: unknown): void;
  function render(url: string): Promise<string>;
  function takeScreenshot(url: string): Promise<Buffer>;
}
export {};
`;
const PRELUDE_FILE = 'docs-samples-prelude.ts';

/** The send_email tool of docs/production.md: a side effect, and a constructor taking an SMTP client. */
const SEND_EMAIL = {
  name: 'send_email',
  description: 'Sends an email.',
  hasSideEffects: true,
  inputSchema: {
    type: 'object',
    required: ['to', 'subject', 'body'],
    additionalProperties: false,
    properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } },
  },
  outputSchema: {
    type: 'object',
    required: ['id'],
    additionalProperties: false,
    properties: { id: { type: 'string' } },
  },
};
const SEND_EMAIL_TOOL = `import type { ToolExecutionResult } from 'toolsmith-sdk';
import { SendEmailToolBase } from '../../generated/tools/send-email.base.js';
import type { SendEmailArgs, SendEmailOutput } from '../../generated/types/send-email.js';

export class SendEmailTool extends SendEmailToolBase {
  constructor(private readonly smtp: SmtpClient) { super(); }
  async execute(args: SendEmailArgs): Promise<ToolExecutionResult<SendEmailOutput>> {
    return { success: true, output: { id: await this.smtp.send(args) } };
  }
}
`;

/** A tool the framework samples call by name (docs/frameworks.md), needing a capability. */
const REFUND_ORDER = {
  name: 'refund_order',
  description: 'Refunds an order.',
  requiredCapabilities: ['capability:refunds'],
  inputSchema: {
    type: 'object',
    required: ['orderId'],
    additionalProperties: false,
    properties: { orderId: { type: 'string' } },
  },
  outputSchema: {
    type: 'object',
    required: ['refunded'],
    additionalProperties: false,
    properties: { refunded: { type: 'boolean' } },
  },
};

/** The definition files the documents show whole: a ```json block right after a line naming its `schemas/….tool.json`. */
function definitionBlocks(): { file: string; block: Block }[] {
  return DOCUMENTS.flatMap((document) => {
    const lines = readFileSync(path.join(REPO, document), 'utf8').split('\n');
    return BLOCKS.filter((block) => block.document === document && block.info === 'json').flatMap((block) => {
      const before =
        lines
          .slice(0, block.line - 1)
          .filter((text) => text.trim() !== '')
          .at(-1) ?? '';
      const file = /^`(schemas\/[\w./-]+\.tool\.json)`:$/.exec(before)?.[1];
      return file === undefined ? [] : [{ file, block }];
    });
  });
}

/**
 * The package (`toolsmith-sdk`) as its exports map names it, from the sources: each subpath's `types`
 * (`./dist/src/index.d.ts`) becomes its source (`src/index.ts`), as tsc's `paths`.
 */
function toolsmithPaths(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { types: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const file =
      typeof target === 'string' ? target : target.types.replace(/^\.\/dist\//, './').replace(/\.d\.ts$/, '.ts');
    paths[`${manifest.name}${subpath.slice(1)}`] = [path.join(REPO, file)];
  }
  return paths;
}

async function cli(project: TempProject, argv: string[]): Promise<void> {
  let output = '';
  const code = await main(argv, { cwd: project.root, stdout: () => {}, stderr: (text) => (output += text) });
  if (code !== 0)
    throw new Error(`toolsmith ${argv.join(' ')} in the docs' example project exited ${code}:\n${output}`);
}

/** One tsc diagnostic, with the continuation lines that belong to it. */
interface Diagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
}

function parseDiagnostics(output: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const text of output.split('\n')) {
    const head = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(text);
    if (head) diagnostics.push({ file: head[1]!, line: Number(head[2]), column: Number(head[3]), message: head[4]! });
    else if (text.trim() !== '' && diagnostics.length > 0) diagnostics.at(-1)!.message += `\n${text}`;
    else if (text.trim() !== '') diagnostics.push({ file: '', line: 0, column: 0, message: text });
  }
  return diagnostics;
}

/** A project made as the README makes one, the samples written into it, checked by tsc. */
interface CheckedProject {
  project: TempProject;
  /** Each sample's diagnostics as `README.md:<line>:<column>: error …` (the document's line). */
  bySample: Map<Block, string[]>;
  /** Diagnostics outside the samples (the generated code, the runtime), as tsc printed them. */
  elsewhere: string[];
}

async function checkSamples(
  samples: Block[],
  setUp: (project: TempProject) => void,
  options: { schemas?: string } = {},
): Promise<CheckedProject> {
  const project = createTempProject(options);
  try {
    await cli(project, ['init']);
    for (const { file, block } of definitionBlocks()) project.write(file, `${block.text}\n`);
    setUp(project);
    await cli(project, ['generate']);
    project.write(PRELUDE_FILE, PRELUDE);
    const files = new Map<string, Block>();
    for (const block of samples) {
      const file = samplePath(block);
      const taken = files.get(file);
      if (taken) throw new Error(`${where(block)} and ${where(taken)} both name ${file}; give one another path.`);
      files.set(file, block);
      project.write(file, `${block.text}\n`);
    }
    // Every sample a module of its own, even one without imports: no sample sees another's names.
    const result = await typeCheckFolder(project.root, [PRELUDE_FILE, ...files.keys()], {
      paths: toolsmithPaths(),
      moduleDetection: 'force',
    });
    return { project, ...attribute(samples, files, result) };
  } catch (error) {
    project.dispose();
    throw error;
  }
}

/** tsc's diagnostics by sample, at the document's lines, and those of every other file. */
function attribute(
  samples: Block[],
  files: Map<string, Block>,
  result: { code: number; output: string },
): Omit<CheckedProject, 'project'> {
  const bySample = new Map<Block, string[]>(samples.map((block) => [block, []]));
  const elsewhere: string[] = [];
  for (const diagnostic of parseDiagnostics(result.output)) {
    const block = files.get(diagnostic.file.split(path.sep).join('/'));
    if (block === undefined)
      elsewhere.push(
        diagnostic.file === ''
          ? diagnostic.message
          : `${diagnostic.file}(${diagnostic.line},${diagnostic.column}): ${diagnostic.message}`,
      );
    else
      bySample
        .get(block)!
        .push(`${block.document}:${block.line + diagnostic.line}:${diagnostic.column}: ${diagnostic.message}`);
  }
  if (result.code !== 0 && elsewhere.length === 0 && [...bySample.values()].every((list) => list.length === 0))
    elsewhere.push(`tsc exited ${result.code}:\n${result.output}`);
  // tsc reports no type errors at all while a file has a syntax error (TS1xxx): the other samples are unchecked.
  const codes = [...result.output.matchAll(/error TS(\d+)/g)].map((match) => Number(match[1]));
  if (codes.length > 0 && codes.every((code) => code < 2000)) {
    const syntax = samples.filter((block) => bySample.get(block)!.length > 0).map(where);
    for (const list of bySample.values())
      if (list.length === 0)
        list.push(`not type-checked: tsc stops before types at the syntax errors of ${syntax.join(', ')}`);
  }
  return { bySample, elsewhere };
}

describe('the TypeScript samples of the README and docs/', () => {
  let example: CheckedProject;
  let withDependencies: CheckedProject;

  beforeAll(async () => {
    const settled = await Promise.allSettled([
      checkSamples(
        SAMPLES.filter((block) => !needsDependencies(block)),
        (project) => {
          project.write('schemas/shop/refund_order.tool.json', REFUND_ORDER);
          // Every target, the opt-in gemini-legacy and mcp-portable too: docs/manifests.md imports every typed module.
          const config = JSON.parse(project.read('toolsmith.config.json'));
          project.write('toolsmith.config.json', { ...config, manifests: { targets: [...MANIFEST_TARGETS] } });
        },
        { schemas: 'schemas' },
      ),
      checkSamples(SAMPLES.filter(needsDependencies), (project) => {
        project.write('schemas/send_email.tool.json', SEND_EMAIL);
        project.write('src/tools/send-email.ts', SEND_EMAIL_TOOL);
      }),
    ]);
    const failure = settled.find((outcome) => outcome.status === 'rejected');
    if (failure) {
      for (const outcome of settled) if (outcome.status === 'fulfilled') outcome.value.project.dispose();
      throw failure.reason;
    }
    [example, withDependencies] = settled.map((outcome) => (outcome as PromiseFulfilledResult<CheckedProject>).value);
  }, 240_000);

  afterAll(() => {
    example?.project.dispose();
    withDependencies?.project.dispose();
  });

  it('finds the blocks it checks, with their lines', () => {
    expect(fencedBlocks('a.md', 'x\n```ts\nconst a = 1;\n```\n```ts illustrative\nb\n```\n```\nc\n```')).toEqual([
      { document: 'a.md', line: 2, info: 'ts', text: 'const a = 1;' },
      { document: 'a.md', line: 5, info: 'ts illustrative', text: 'b' },
      { document: 'a.md', line: 8, info: '', text: 'c' },
    ]);
  });

  it('marks fragments with the info strings it knows', () => {
    const unknown = BLOCKS.filter(
      (block) => (isTs(block) && !TS_INFO.has(block.info)) || (isShell(block) && !SHELL_INFO.has(block.info)),
    ).map(
      (block) =>
        `${where(block)}: \`\`\`${block.info} (use \`\`\`ts, \`\`\`ts illustrative, \`\`\`sh or \`\`\`sh illustrative)`,
    );
    expect(unknown).toEqual([]);
  });

  it.each(SAMPLES.map((block) => ({ name: where(block), block })))('$name compiles', ({ block }) => {
    const checked = needsDependencies(block) ? withDependencies : example;
    expect(checked.bySample.get(block)).toEqual([]);
  });

  it("docs/manifests.md names every typed manifest module's export, and a sample imports each", () => {
    const manifests = readFileSync(path.join(REPO, 'docs/manifests.md'), 'utf8');
    const samples = SAMPLES.filter((block) => block.document === 'docs/manifests.md').map((block) => block.text);
    for (const target of MANIFEST_TARGETS) {
      const { file, typed } = MANIFEST_TARGET_TABLE[target];
      expect(manifests, target).toContain(`\`${typed.name}: ${typed.type}\``);
      const module = `../generated/${file.replace(/\.json$/, '.js')}`;
      expect(
        samples.some((text) => text.includes(`import { ${typed.name} } from '${module}';`)),
        target,
      ).toBe(true);
    }
  });

  it('leaves no error elsewhere: the generated code and the runtime compile with the samples', () => {
    expect(example.elsewhere).toEqual([]);
    expect(withDependencies.elsewhere).toEqual([]);
  });
});

/** One `toolsmith <command> …` of a shell block, its words and its document line. */
interface Invocation {
  document: string;
  line: number;
  words: string[];
}

/** Splits a shell line into words, keeping quoted strings whole (their quotes removed). */
function shellWords(text: string): string[] {
  return [...text.matchAll(/'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"]+/g)].map((match) => match[0].replace(/^['"]|['"]$/g, ''));
}

/** Every `toolsmith …` / `npx [--no] toolsmith …` of a shell block, the words after `toolsmith`. */
function toolsmithInvocations(block: Block): Invocation[] {
  const invocations: Invocation[] = [];
  const lines = block.text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = block.line + 1 + index;
    let text = lines[index]!;
    while (text.endsWith('\\') && index + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++index]}`;
    if (block.info === 'console') {
      if (!text.startsWith('$ ')) continue;
      text = text.slice(2);
    }
    text = text.replace(/(^|\s)#.*$/, '');
    for (const command of text.split(/\s(?:&&|\|\||\||;)\s/)) {
      const words = shellWords(command);
      // `npx --no toolsmith …`: npx's own options come before the command.
      let start = 0;
      if (words[0] === 'npx') for (start = 1; words[start]?.startsWith('-');) start++;
      if (words[start] === 'toolsmith')
        invocations.push({ document: block.document, line, words: words.slice(start + 1) });
    }
  }
  return invocations;
}

/** What is wrong with an invocation against the CLI's commands and options, or nothing. */
function invocationProblems(program: Command, invocation: Invocation): string[] {
  const at = `${invocation.document}:${invocation.line}: toolsmith ${invocation.words.join(' ')}`;
  const words = invocation.words.map((word) => word.replace(/^\[+|\]+$/g, ''));
  const commandName = words.find((word) => !word.startsWith('-'));
  const command = commandName === undefined ? program : program.commands.find((each) => each.name() === commandName);
  if (command === undefined)
    return [`${at}: no command '${commandName}' (commands: ${program.commands.map((each) => each.name()).join(', ')})`];
  const known = new Set(['--help', '-h', ...command.options.flatMap((option) => [option.long, option.short])]);
  return words
    .filter((word) => /^--?[a-z]/i.test(word))
    .map((word) => word.split('=')[0]!)
    .filter((flag) => !known.has(flag))
    .map(
      (flag) =>
        `${at}: ${commandName ?? 'toolsmith'} has no option ${flag} (its options: ${[...known].filter(Boolean).join(', ')})`,
    );
}

describe('the toolsmith commands of the README and docs/ shell blocks', () => {
  const program = createProgram();
  const invocations = BLOCKS.filter((block) => isShell(block) && !block.info.endsWith(' illustrative')).flatMap(
    toolsmithInvocations,
  );

  it('finds the commands it checks', () => {
    const block: Block = {
      document: 'a.md',
      line: 1,
      info: 'sh',
      text: 'npm ci && npx toolsmith call calc \'{"a": 1}\' --capability x   # toolsmith init\nnpx --no toolsmith serve \\\n  --http\n# npx toolsmith gone',
    };
    expect(toolsmithInvocations(block)).toEqual([
      { document: 'a.md', line: 2, words: ['call', 'calc', '{"a": 1}', '--capability', 'x'] },
      { document: 'a.md', line: 3, words: ['serve', '--http'] },
    ]);
    expect(invocationProblems(program, { document: 'a.md', line: 2, words: ['call', 'calc', '--nope'] })).toEqual([
      expect.stringMatching(
        /^a\.md:2: toolsmith call calc --nope: call has no option --nope \(its options: .*--capability/,
      ),
    ]);
    expect(invocationProblems(program, { document: 'a.md', line: 2, words: ['gen'] })).toEqual([
      expect.stringMatching(/^a\.md:2: toolsmith gen: no command 'gen' \(commands: init, generate, /),
    ]);
    expect(invocations.length).toBeGreaterThan(5);
  });

  it('names only commands and options the CLI has', () => {
    expect(invocations.flatMap((invocation) => invocationProblems(program, invocation))).toEqual([]);
  });
});

describe('the toolsmith call lines the README and docs/ run in this repository', () => {
  const repoTools = new Set(Object.keys(JSON.parse(readFileSync(path.join(REPO, 'generated/catalog.json'), 'utf8'))));
  const calls = BLOCKS.filter((block) => isShell(block) && !block.info.endsWith(' illustrative'))
    .flatMap(toolsmithInvocations)
    .filter((invocation) => invocation.words[0] === 'call' && repoTools.has(invocation.words[1]!));
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'toolsmith-docs-calls-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finds them (the README’s example calls, the side-effect call of tools-over-mcp.md)', () => {
    expect(calls.map((call) => `${call.document} ${call.words[1]}`)).toEqual(
      expect.arrayContaining(['README.md calculator', 'README.md read_file', 'docs/tools-over-mcp.md memory_write']),
    );
  });

  it('answer without an error, as the installed CLI runs them (memory kept in a temp folder)', async () => {
    for (const call of calls) {
      const { stdout } = await run(process.execPath, [path.join(REPO, 'bin/toolsmith.js'), ...call.words], {
        cwd: REPO,
        env: { ...process.env, TOOLSMITH_DATA_DIR: dataDir },
      }).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(
          `${call.document}:${call.line}: toolsmith ${call.words.join(' ')} failed: ${error.stderr ?? ''}${error.stdout ?? ''}`,
        );
      });
      expect(JSON.parse(stdout), `${call.document}:${call.line}`).toMatchObject({
        toolName: call.words[1],
        isError: false,
      });
    }
  }, 60_000);
});

describe('the toolsmith diff lines of the README and docs/', () => {
  const diffs = BLOCKS.filter((block) => isShell(block) && !block.info.endsWith(' illustrative'))
    .flatMap(toolsmithInvocations)
    .filter((invocation) => invocation.words[0] === 'diff');

  it('run in a project with a main branch and a published tools/list answer, and find nothing breaking', async () => {
    expect(diffs.map((each) => each.words.slice(1).join(' '))).toEqual(
      expect.arrayContaining(['git:main', 'published/tools.json']),
    );
    const project = createTempProject({ schemas: 'schemas' });
    try {
      const io = { cwd: project.root, stdout: () => undefined, stderr: () => undefined };
      project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
      expect(await main(['generate'], io)).toBe(0);
      project.write('published/tools.json', project.read('generated/manifests/mcp.json'));
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
          cwd: project.root,
          stdio: 'ignore',
        });
      git('init', '-q', '-b', 'main');
      git('add', 'schemas');
      git('commit', '-qm', 'the definitions');
      for (const invocation of diffs) {
        const output: string[] = [];
        const code = await main(invocation.words, { ...io, stdout: (text: string) => void output.push(text) });
        expect(
          code,
          `${invocation.document}:${invocation.line}: toolsmith ${invocation.words.join(' ')}\n${output.join('')}`,
        ).toBe(0);
      }
    } finally {
      project.dispose();
    }
  }, 60_000);
});
