import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { emitManifests } from '../../codegen/emit/manifests/index.js';
import { makeProject, makeTool, TEST_CONTEXT } from './model-factory.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
// Inside node_modules so the SDK packages resolve, and outside git.
const cacheDir = join(root, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const dir = mkdtempSync(join(cacheDir, 'toolsmith-manifest-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const project = makeProject([
  makeTool({
    name: 'research',
    description: 'Looks things up.',
    inputSchema: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', maxLength: 200 },
        limit: { type: 'integer', default: 10 },
        origin: { $ref: '#/definitions/GeoPoint' },
      },
      definitions: { GeoPoint: { type: 'object', properties: { lat: { type: 'number' } } } },
    },
    outputSchema: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } } },
  }),
  makeTool({ name: 'ping' }),
]);

function manifest(path: string): string {
  const { files, problems } = emitManifests(project, TEST_CONTEXT);
  expect(problems).toEqual([]);
  return files.find((file) => file.path === path)!.content;
}

async function typeCheck(source: string): Promise<{ code: number; output: string }> {
  writeFileSync(join(dir, 'check.ts'), source);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ['check.ts'],
    }),
  );
  try {
    const { stdout } = await run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(dir, 'tsconfig.json')], { cwd: dir });
    return { code: 0, output: stdout };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? 1, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}

describe('manifests type-check against the official SDK types', () => {
  it('openai.json and openai-strict.json are ChatCompletionTool[], anthropic.json is Tool[]', async () => {
    const source = [
      "import type { ChatCompletionTool } from 'openai/resources/chat/completions';",
      "import type { Tool } from '@anthropic-ai/sdk/resources/messages';",
      `export const openai: ChatCompletionTool[] = ${manifest('manifests/openai.json')};`,
      `export const strict: ChatCompletionTool[] = ${manifest('manifests/openai-strict.json')};`,
      `export const anthropic: Tool[] = ${manifest('manifests/anthropic.json')};`,
    ].join('\n');
    const result = await typeCheck(source);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('the check fails for a manifest of the wrong shape (so it can fail)', async () => {
    const wrong = manifest('manifests/anthropic.json');
    const source = [
      "import type { ChatCompletionTool } from 'openai/resources/chat/completions';",
      `export const openai: ChatCompletionTool[] = ${wrong};`,
    ].join('\n');
    const result = await typeCheck(source);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/error TS/);
  }, 60_000);
});
