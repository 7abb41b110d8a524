import { execFile } from 'node:child_process';
import { MANIFEST_TARGET_TABLE, MANIFEST_TARGETS } from '../../src/manifest-targets/table.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/corpus.js';
import { loadDefinitions } from '../../codegen/load.js';
import { normalize } from '../../codegen/normalize.js';
import { TEST_CONTEXT, emitManifests } from './model-factory.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
// Inside node_modules so the SDK packages resolve, and outside git.
const cacheDir = join(root, 'node_modules', '.cache');

/**
 * The bench's 1,000-tool corpus with deferred loading on (one category kept loaded): the token report
 * matches an independent o200k_base count of every entry read back from the written files, and the
 * deferred manifests type-check against the pinned SDKs.
 */
describe('the 1,000-tool corpus: token report and deferred loading', () => {
  let dir: string;
  beforeAll(() => {
    mkdirSync(cacheDir, { recursive: true });
    dir = mkdtempSync(join(cacheDir, 'toolsmith-token-corpus-'));
    generateCorpus({ dir: join(dir, 'schemas'), count: 1000 });
    const { project, problems } = normalize(loadDefinitions(join(dir, 'schemas'), dir));
    expect(problems.filter((problem) => problem.severity !== 'warning')).toEqual([]);
    const emission = emitManifests(
      project,
      { ...TEST_CONTEXT, runtimeImport: 'toolsmith-sdk' },
      {
        targets: MANIFEST_TARGETS,
        deferLoading: { loadedCategories: ['billing'] },
      },
    );
    expect(emission.problems).toEqual([]);
    for (const file of emission.files) {
      mkdirSync(dirname(join(dir, 'out', file.path)), { recursive: true });
      writeFileSync(join(dir, 'out', file.path), file.content);
    }
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts every entry as an independent o200k_base count of the written file does', () => {
    const report = JSON.parse(readFileSync(join(dir, 'out/manifests/token-report.json'), 'utf8'));
    expect(Object.keys(report.tools)).toHaveLength(1000);
    for (const target of MANIFEST_TARGETS) {
      const { file, key } = MANIFEST_TARGET_TABLE[target];
      const content = JSON.parse(readFileSync(join(dir, 'out', file), 'utf8'));
      const entries = (key === undefined ? content : content[key]) as Record<string, unknown>[];
      let total = 0;
      let counted = 0;
      for (const entry of entries) {
        const name = (entry.name ?? (entry.function as { name: string } | undefined)?.name) as string;
        // The search tool entry is no tool's.
        if (report.tools[name] === undefined) continue;
        const json = JSON.stringify(entry);
        const tokenizer = report.tokenizer[target];
        const expected = tokenizer.exact ? encode(json).length : Math.ceil(json.length / tokenizer.charsPerToken);
        expect(report.tools[name][target], `${name} ${target}`).toBe(expected);
        total += expected;
        counted++;
      }
      expect(counted, target).toBeGreaterThan(900);
      expect(report.totals[target], target).toBe(total);
    }
  });

  it('the deferred Anthropic and OpenAI Responses manifests type-check against the pinned SDKs', async () => {
    const anthropic = readFileSync(join(dir, 'out/manifests/anthropic.json'), 'utf8');
    const responses = readFileSync(join(dir, 'out/manifests/openai-responses.json'), 'utf8');
    expect(anthropic).toContain('"defer_loading": true');
    expect(JSON.parse(responses).at(-1)).toEqual({ type: 'tool_search' });
    writeFileSync(
      join(dir, 'check.ts'),
      [
        "import type { ToolUnion } from '@anthropic-ai/sdk/resources/messages';",
        "import type { Tool as ResponsesTool } from 'openai/resources/responses/responses';",
        `export const anthropic: ToolUnion[] = ${anthropic};`,
        `export const responses: ResponsesTool[] = ${responses};`,
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        files: ['check.ts'],
      }),
    );
    const result = await run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(dir, 'tsconfig.json')], {
      cwd: dir,
    }).then(
      ({ stdout }) => ({ code: 0, output: stdout }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, output: error.stdout ?? '' }),
    );
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 240_000);
});
