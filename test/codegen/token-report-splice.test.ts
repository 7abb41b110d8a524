import { describe, expect, it } from 'vitest';
import { TOKEN_REPORT_PATH } from '../../codegen/emit/manifests/index.js';
import { encoded } from '../../codegen/write.js';
import { countO200k } from '../../src/manifest-targets/tokens.js';
import { makeProject, makeTool, spliceRun, TEST_CONTEXT, emitManifests } from './model-factory.js';

const input = { type: 'object', properties: { q: { type: 'string' } } } as const;
const TOOLS = [
  makeTool({ name: 'alpha', inputSchema: input }),
  makeTool({ name: 'beta', inputSchema: input }),
  makeTool({ name: 'gamma', inputSchema: input }),
];
const OPTIONS = { targets: ['openai', 'anthropic'] } as const;

describe('a splice counts again only the tools whose entries changed', () => {
  it('takes the others’ counts from the last report, and a changed tool with the same entries keeps its count', () => {
    const first = emitManifests(makeProject(TOOLS), TEST_CONTEXT, OPTIONS);
    const report = JSON.parse(first.files.find((file) => file.path === TOKEN_REPORT_PATH)!.content);
    // The last report, with counts no tokenizer gives: a count taken from it shows that it was not counted again.
    for (const name of ['alpha', 'beta', 'gamma']) report.tools[name].openai = 1000;
    const previous = {
      segments: first.segments!,
      read: (path: string) =>
        path === TOKEN_REPORT_PATH
          ? Buffer.from(JSON.stringify(report))
          : encoded(first.files.find((file) => file.path === path)!),
    };
    // beta's description changes (its entries too); gamma is "changed" with the same entries (e.g. its version).
    const tools = TOOLS.map((tool) =>
      tool.name === 'beta' ? { ...tool, description: 'Beta, now described at length.' } : tool,
    );
    const changed = tools.filter((tool) => tool.name !== 'alpha');
    const project = makeProject(tools);
    const spliced = spliceRun(project, TEST_CONTEXT, OPTIONS, previous, changed);
    expect(spliced.spliced).toBe(true);
    const after = JSON.parse(spliced.files.find((file) => file.path === TOKEN_REPORT_PATH)!.content);
    const openai = JSON.parse(spliced.files.find((file) => file.path === 'manifests/openai.json')!.content);
    expect(after.tools.alpha.openai).toBe(1000);
    expect(after.tools.gamma.openai).toBe(1000);
    expect(after.tools.beta.openai).toBe(countO200k(JSON.stringify(openai[1])).tokens);
    expect(after.tools.beta.hash).not.toBe(report.tools.beta.hash);
    expect(after.totals.openai).toBe(2000 + after.tools.beta.openai);
  });

  it('counts every tool again when the last report is not there to trust', () => {
    const first = emitManifests(makeProject(TOOLS), TEST_CONTEXT, OPTIONS);
    const previous = {
      segments: first.segments!,
      read: (path: string) =>
        path === TOKEN_REPORT_PATH ? undefined : encoded(first.files.find((file) => file.path === path)!),
    };
    // No tool is fresh and no last report is there: every count is made again from the entries in the last run's files.
    const spliced = spliceRun(makeProject(TOOLS), TEST_CONTEXT, OPTIONS, previous, []);
    expect(spliced.spliced).toBe(true);
    const counted = (emission: typeof first) => emission.files.find((file) => file.path === TOKEN_REPORT_PATH)!.content;
    expect(counted(spliced)).toBe(counted(first));
  });
});
