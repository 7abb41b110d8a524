import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './helpers/temp-project.js';

const exec = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/*
 * The deploy recipe of docs/production.md ("Install toolsmith on a clean machine"), run as written:
 * the repository packed, the project's shell block run in a fresh consumer project (the tarball kept
 * in vendor/), then the Dockerfile interpreted in a fresh folder standing for the image — each COPY
 * from the project, each RUN there with `npm_config_cache` pointing at an empty folder (the registry
 * is reachable: only the tarball must not come from a cache), then its CMD. And the recipe it
 * replaces — the tarball installed from outside the project — fails the same way on a clean machine.
 */

const DOC = path.join(REPO, 'docs/production.md');

/** The fenced block of `language` following the first `<!-- test/deploy.e2e.test.ts runs the next block…` after `from`. */
function blockAfterMarker(text: string, language: string, from = 0): { body: string; end: number } {
  const marker = text.indexOf('<!-- test/deploy.e2e.test.ts runs the next block', from);
  if (marker === -1) throw new Error(`docs/production.md: no deploy-test marker after offset ${from}.`);
  const open = text.indexOf('```', marker);
  const fence = '```' + language + '\n';
  if (text.slice(open, open + fence.length) !== fence)
    throw new Error(`docs/production.md: the block after the marker at ${marker} is not \`\`\`${language}.`);
  const close = text.indexOf('\n```', open + fence.length);
  return { body: text.slice(open + fence.length, close + 1), end: close };
}

/** The environment of every step: quiet npm, and the caller's cache (when the step is not about it). */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    ...extra,
  };
}

async function shell(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  return exec('sh', ['-e', '-c', script], { cwd, env, maxBuffer: 16 * 1024 * 1024 });
}

/** A built program standing for the user's `dist/`: it imports the installed runtime and calls a tool. */
const MAIN = `import { ToolOrchestrator } from 'toolsmith-sdk';
const greet = {
  id: 'greet', name: 'greet', displayName: 'Greet', description: 'Greets someone.',
  inputSchema: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string' } } },
  async execute(args) { return { success: true, output: { greeting: 'Hello, ' + args.name + '!' } }; },
};
const orchestrator = new ToolOrchestrator({ tools: [greet] });
const result = await orchestrator.processToolCall({
  toolCallRequest: { id: 'c1', name: 'greet', arguments: { name: 'Ada' } },
  gmiId: 'g', personaId: 'p', personaCapabilities: [], userContext: { userId: 'u' },
});
console.log(JSON.stringify(result.output));
await orchestrator.shutdown();
`;

describe('the documented deploy installs on a clean machine', () => {
  let dir: string;
  let tarball: string;
  const doc = readFileSync(DOC, 'utf8');
  const projectBlock = blockAfterMarker(doc, 'sh');
  const dockerfile = blockAfterMarker(doc, 'dockerfile', projectBlock.end).body;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'toolsmith-deploy-'));
    await exec(npm, ['pack', '--pack-destination', dir], {
      cwd: REPO,
      env: environment(),
      maxBuffer: 16 * 1024 * 1024,
    });
    tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
  }, 300_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A consumer project with package.json only, under `dir`. */
  const newProject = (name: string) => {
    const project = path.join(dir, name);
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: `deploy-${name}`, private: true, type: 'module' }, null, 2),
    );
    return project;
  };

  /** The Dockerfile run in `image` (an empty folder standing for /app): COPY from `project`, RUN and CMD there. */
  async function runDockerfile(text: string, project: string, image: string, cache: string) {
    const outputs: string[] = [];
    const env = environment({ npm_config_cache: cache });
    for (const line of text.split('\n').filter((entry) => entry.trim() !== '' && !entry.startsWith('#'))) {
      const [instruction, ...rest] = line.trim().split(/\s+/);
      const argument = line.trim().slice(instruction!.length).trim();
      switch (instruction) {
        case 'FROM':
        case 'WORKDIR':
        case 'USER':
        case 'EXPOSE':
          break;
        case 'COPY': {
          const destination = path.join(image, rest.at(-1)!);
          for (const source of rest.slice(0, -1)) {
            const target =
              rest.length > 2 || destination.endsWith(path.sep) ? path.join(destination, source) : destination;
            cpSync(path.join(project, source), target, { recursive: true });
          }
          break;
        }
        case 'RUN':
          outputs.push((await shell(argument, image, env)).stdout);
          break;
        case 'CMD': {
          const [command, ...args] = JSON.parse(argument) as string[];
          outputs.push(
            (await exec(command === 'node' ? process.execPath : command!, args, { cwd: image, env })).stdout,
          );
          break;
        }
        default:
          throw new Error(`deploy test: the Dockerfile instruction ${instruction} is not interpreted (line: ${line}).`);
      }
    }
    return outputs;
  }

  it('the packed tarball is the one the recipe names', () => {
    const version = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version as string;
    expect(tarball).toBe(`toolsmith-sdk-${version}.tgz`);
    expect(projectBlock.body).toContain(`/path/to/${tarball}`);
    expect(dockerfile).toContain('RUN npm ci --omit=dev');
  });

  it('the project keeps the tarball in vendor/; the image runs npm ci --omit=dev with an empty cache, then the bin and the program', async () => {
    const project = newProject('project');
    // The recipe's shell block as written, the tarball's folder in place of /path/to/.
    await shell(projectBlock.body.replaceAll('/path/to/', `${dir}/`), project, environment());
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual({ 'toolsmith-sdk': `file:vendor/${tarball}` });
    const lock = JSON.parse(readFileSync(path.join(project, 'package-lock.json'), 'utf8'));
    expect(lock.packages['node_modules/toolsmith-sdk'].resolved).toBe(`file:vendor/${tarball}`);

    mkdirSync(path.join(project, 'dist/src'), { recursive: true });
    writeFileSync(path.join(project, 'dist/src/main.js'), MAIN);
    const image = path.join(dir, 'images/image');
    const cache = path.join(dir, 'empty-cache');
    mkdirSync(image, { recursive: true });
    mkdirSync(cache);
    const outputs = await runDockerfile(dockerfile, project, image, cache);

    expect(readdirSync(image).sort()).toEqual(['dist', 'node_modules', 'package-lock.json', 'package.json', 'vendor']);
    // RUN npm ci, RUN npx --no -- toolsmith --version, CMD node dist/src/main.js.
    expect(outputs).toHaveLength(3);
    expect(outputs[1]!.trim()).toBe(JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version);
    expect(JSON.parse(outputs[2]!)).toEqual({ greeting: 'Hello, Ada!' });
    // The production install: the runtime only.
    expect(readdirSync(path.join(image, 'node_modules'))).not.toContain('typescript');
  }, 600_000);

  it('the recipe it replaces (the tarball installed from outside the project) fails npm ci on a clean machine', async () => {
    const project = newProject('outside');
    await exec(npm, ['install', '--prefer-offline', path.join(dir, tarball)], {
      cwd: project,
      env: environment(),
      maxBuffer: 16 * 1024 * 1024,
    });
    // Deeper than the project: the recorded file:../ path names no file there.
    const image = path.join(dir, 'images/outside');
    const cache = path.join(dir, 'outside-cache');
    mkdirSync(image, { recursive: true });
    mkdirSync(cache);
    const failure = await runDockerfile(
      ['COPY package.json package-lock.json ./', 'RUN npm ci --omit=dev'].join('\n'),
      project,
      image,
      cache,
    ).catch((error: { stderr?: string }) => error);
    expect(String((failure as { stderr?: string }).stderr)).toMatch(/ENOENT[\s\S]*toolsmith-sdk-[\d.]+\.tgz/);
  }, 600_000);
});
