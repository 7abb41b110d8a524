import { defineConfig } from 'vitest/config';

/**
 * The slow end-to-end files: real packages, worker pools, child processes, servers, large projects.
 * New ones are named `*.e2e.test.ts` and need no entry here.
 */
const endToEnd = [
  'test/**/*.e2e.test.ts',
  'test/package.test.ts',
  'test/codegen/emit-workers.test.ts',
  'test/codegen/emit-memory.test.ts',
  'test/codegen/hostile-generate.test.ts',
  'test/codegen/registry-scale.test.ts',
  'test/codegen/field-corpus.test.ts',
  'test/src/mcp-http-process.test.ts',
  'test/src/runtime-loading.test.ts',
];

/** Packages installed under test/ (test/hosts/node_modules): their own test files are not ours. */
const installed = ['**/node_modules/**'];

export default defineConfig({
  test: {
    setupFiles: ['test/setup/fast-check.ts'],
    testTimeout: 30_000,
    hookTimeout: 240_000,
    // `npm test` runs `unit` (minutes), `npm run test:e2e` runs `e2e`; `vitest run` (CI) runs both.
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...endToEnd, ...installed] } },
      { extends: true, test: { name: 'e2e', include: endToEnd, exclude: installed } },
    ],
  },
});
