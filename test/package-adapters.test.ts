import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './helpers/temp-project.js';

const exec = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The three adapters, from the subpath exports, used as a consumer would, with typed tools. */
const CONSUMER = `import { ToolClient, ToolOrchestrator, type ITool } from 'toolsmith';
import { aiSdkTools } from 'toolsmith/ai-sdk';
import { openAiAgentsTools } from 'toolsmith/openai-agents';
import { langChainTools } from 'toolsmith/langchain';
import type { Tool } from 'ai';
import { RunContext } from '@openai/agents';

interface GreetInput { name: string }
interface GreetOutput { greeting: string }
interface Types { greet: { input: GreetInput; output: GreetOutput } }

const greet: ITool<GreetInput, GreetOutput> = {
  id: 'greet', name: 'greet', displayName: 'Greet', description: 'Greets someone.',
  inputSchema: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string' } } },
  outputSchema: { type: 'object', required: ['greeting'], additionalProperties: false, properties: { greeting: { type: 'string' } } },
  async execute(args) { return { success: true, output: { greeting: \`Hello, \${args.name}!\` } }; },
};
const orchestrator = new ToolOrchestrator({ tools: [greet] });
const client = new ToolClient<Types>(orchestrator, { gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' } });

const ai = aiSdkTools(client, { tools: ['greet'] });
const typed: Tool<GreetInput, GreetOutput> = ai.greet;
// @ts-expect-error the input type survives: name is a string
void ai.greet.execute({ name: 42 }, { toolCallId: 'x', messages: [], context: undefined });

const [agents] = openAiAgentsTools(client, { tools: ['greet'] });
const [langchain] = langChainTools(client, { tools: ['greet'] });
const name: 'greet' = langchain.name;
// @ts-expect-error the input type survives
void langchain.func({ name: 42 });
// @ts-expect-error only registered names
export const misspelled = () => aiSdkTools(client, { tools: ['gret'] });

const results = {
  ai: await typed.execute!({ name: 'Ada' }, { toolCallId: 'call-1', messages: [], context: undefined }),
  agents: await agents.invoke(new RunContext(), '{"name":"Bob"}'),
  agentsStrict: agents.strict,
  langchain: await langchain.invoke({ name: 'Cy' }),
  name,
};
console.log(JSON.stringify(results));
await orchestrator.shutdown();
`;

/**
 * The adapters as installed: pack, install the tarball with each framework (pinned as in the
 * lockfile, from npm's cache), type-check a consumer of the three subpath exports (strict, NodeNext)
 * and run it.
 */
describe('toolsmith adapters as an installed package', () => {
  let dir: string;
  let project: string;
  const run = (command: string, args: string[]) => exec(command, args, { cwd: project, env: { ...process.env, npm_config_update_notifier: 'false' }, maxBuffer: 16 * 1024 * 1024 });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'toolsmith-adapters-'));
    project = path.join(dir, 'project');
    mkdirSync(project);
    await exec(npm, ['pack', '--pack-destination', dir], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'adapter-user', private: true, type: 'module' }, null, 2));
    const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8'));
    const pinned = (name: string) => `${name}@${lock.packages[`node_modules/${name}`].version}`;
    const frameworks = ['ai', '@openai/agents', '@langchain/core', 'zod'].map(pinned);
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, tarball), pinned('typescript'), pinned('@types/node'), ...frameworks]);
  }, 240_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the runtime bundle imports no framework', () => {
    const bundle = readFileSync(path.join(project, 'node_modules/toolsmith/dist/src/index.js'), 'utf8');
    expect(bundle).not.toMatch(/from\s*["'](ai|@openai\/agents[^"']*|@langchain\/[^"']*|langchain)["']/);
    expect(bundle).not.toMatch(/import\(\s*["'](ai|@openai|@langchain)/);
  });

  it('a consumer of toolsmith/ai-sdk, toolsmith/openai-agents and toolsmith/langchain type-checks and runs', async () => {
    writeFileSync(path.join(project, 'main.ts'), CONSUMER);
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'] }, include: ['main.ts'] }),
    );
    const tsc = await run(path.join(project, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']).catch((error) => error);
    expect(`${tsc.stdout ?? ''}${tsc.stderr ?? ''}`).toBe('');
    const { stdout } = await run(process.execPath, ['out/main.js']);
    expect(JSON.parse(stdout)).toEqual({
      ai: { greeting: 'Hello, Ada!' },
      agents: { greeting: 'Hello, Bob!' },
      agentsStrict: true,
      langchain: { greeting: 'Hello, Cy!' },
      name: 'greet',
    });
  }, 120_000);
});
