import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../../bench/corpus.js';
import { loadDefinitions } from '../../../codegen/load.js';
import type { ProjectModel } from '../../../codegen/model.js';
import { normalize } from '../../../codegen/normalize.js';
import { buildManifestTarget, type ManifestTarget } from '../../../src/manifest-targets/table.js';
import { DEFAULT_INPUT_EXAMPLES } from '../../../src/manifest-targets/input-examples.js';
import { countO200k, countTargetTokens, ESTIMATE_BOUND } from '../../../src/manifest-targets/tokens.js';

/** A target's entries (its list, or the list under its key). */
function entriesOf(target: ManifestTarget, project: ProjectModel): unknown[] {
  // As generate writes them: Anthropic's with the definitions' examples as `input_examples`.
  const content = buildManifestTarget(target, {
    tools: project.tools,
    describeLosses: true,
    inputExamples: DEFAULT_INPUT_EXAMPLES,
  }).content as unknown[] | Record<string, unknown[]>;
  return Array.isArray(content) ? content : Object.values(content)[0]!;
}

/**
 * The estimate against the o200k count of the same entries, on the bench's 1,000-tool corpus (the one
 * the constants are calibrated on) and on a corpus of another seed (which they were not fitted to).
 */
describe('the Anthropic and Gemini estimate on the bench corpus', () => {
  let scratch: string;
  const projects: Record<string, ProjectModel> = {};
  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'toolsmith-tokens-'));
    for (const [name, count, seed] of [
      ['bench', 1000, undefined],
      ['other seed', 300, 7],
    ] as const) {
      const dir = path.join(scratch, name.replace(' ', '-'));
      generateCorpus({ dir: path.join(dir, 'schemas'), count, ...(seed !== undefined ? { seed } : {}) });
      projects[name] = normalize(loadDefinitions(path.join(dir, 'schemas'), dir)).project;
    }
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.each(['bench', 'other seed'])('%s: within the documented bound, in total and per tool', (name) => {
    const project = projects[name]!;
    for (const target of ['anthropic', 'gemini', 'gemini-legacy'] as const) {
      let exact = 0;
      let estimated = 0;
      let worst = 0;
      for (const entry of entriesOf(target, project)) {
        const json = JSON.stringify(entry);
        const o200k = countO200k(json).tokens;
        const estimate = countTargetTokens(json, target).tokens;
        exact += o200k;
        estimated += estimate;
        worst = Math.max(worst, Math.abs(estimate - o200k) / o200k);
      }
      expect(exact, `${name} ${target}`).toBeGreaterThan(project.tools.length * 100);
      expect(Math.abs(estimated - exact) / exact, `${name} ${target} total`).toBeLessThanOrEqual(ESTIMATE_BOUND.total);
      expect(worst, `${name} ${target} worst tool`).toBeLessThanOrEqual(ESTIMATE_BOUND.perTool);
    }
  });
});
