import { defineConfig } from 'vitest/config';

/**
 * A test file's project follows from its name (CONTRIBUTING.md, "Tests"):
 * - `*.e2e.test.ts`: end to end — packed packages, worker pools, large corpora, long-lived servers;
 * - `*.slow.test.ts` and `*.property.test.ts`: a whole generate, tsc, a child process, a server on
 *   loopback, a large corpus, many random samples;
 * - any other `*.test.ts`: fast — pure functions and in-memory parts.
 */
const endToEnd = ['test/**/*.e2e.test.ts'];
const slow = ['test/**/*.slow.test.ts', 'test/**/*.property.test.ts'];

/** Packages installed under test/ (test/hosts/node_modules): their own test files are not ours. */
const installed = ['**/node_modules/**'];

export default defineConfig({
  test: {
    setupFiles: ['test/setup/fast-check.ts'],
    testTimeout: 30_000,
    hookTimeout: 240_000,
    // `npm run test:fast` runs `fast`; `npm test` runs `unit` (fast and slow files); `npm run test:e2e`
    // runs `e2e`; CI runs `unit` and `e2e`. `fast` is part of `unit`: name the project to run a file once.
    projects: [
      {
        extends: true,
        // The fast files share one module cache (no per-file isolation): it halves the loop's time, so
        // a fast file leaves no module state behind (no vi.mock, environment restored).
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [...endToEnd, ...slow, ...installed],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...endToEnd, ...installed] } },
      { extends: true, test: { name: 'e2e', include: endToEnd, exclude: installed } },
    ],
  },
});
