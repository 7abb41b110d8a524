import { build } from 'esbuild';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/temp-project.js';

const FRAMEWORKS = /^(ai|ai\/.*|@ai-sdk\/.*|@openai\/agents.*|@langchain\/.*|langchain.*)$/;

/** Every module `entry` reaches through static imports, and the packages it imports. */
async function importGraph(entry: string): Promise<{ files: string[]; packages: string[] }> {
  const packages = new Set<string>();
  const result = await build({
    entryPoints: [path.join(REPO, entry)],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    plugins: [
      {
        name: 'record-packages',
        setup(context) {
          context.onResolve({ filter: /^[^./]/ }, (args) => {
            packages.add(args.path);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return { files: Object.keys(result.metafile.inputs).sort(), packages: [...packages].sort() };
}

describe('the core stays lean', () => {
  it("`import 'toolsmith-sdk'` reaches no adapter and imports no framework", async () => {
    const { files, packages } = await importGraph('src/index.ts');
    expect(files.filter((file) => file.includes('adapters/'))).toEqual([]);
    expect(packages.filter((name) => FRAMEWORKS.test(name))).toEqual([]);
  });

  it('each adapter imports its own framework only', async () => {
    const frameworksOf = async (entry: string) =>
      (await importGraph(entry)).packages.filter((name) => FRAMEWORKS.test(name));
    expect(await frameworksOf('src/adapters/ai-sdk.ts')).toEqual(['ai']);
    expect(await frameworksOf('src/adapters/openai-agents.ts')).toEqual(['@openai/agents']);
    expect(await frameworksOf('src/adapters/langchain.ts')).toEqual([
      '@langchain/core/messages',
      '@langchain/core/tools',
    ]);
  });
});
