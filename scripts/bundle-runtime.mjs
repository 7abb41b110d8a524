/**
 * Bundles the runtime (tsc's output, one module per source file) into a single ES module, so a
 * process that runs generated tools loads one file instead of fifteen, and Ajv's small runtime
 * helpers (`ajv/dist/runtime/*`, `ajv-formats/dist/formats`, which generated validators use
 * through `validatorRuntime`) are inside it instead of being CommonJS modules loaded on the first
 * call. Every other package stays an import (Ajv's compiler is loaded only when a hand-written
 * tool's schema must be compiled). Used by `npm run build` and by the benchmark's projects.
 *
 *   node scripts/bundle-runtime.mjs <dist/src/index.js> [<out file>, default: the same file]
 */
import { build } from 'esbuild';

const INLINED = [/^ajv\/dist\/runtime\//, /^ajv-formats\/dist\/formats(\.js)?$/];

const [input, output = input] = process.argv.slice(2);
if (!input) {
  console.error('usage: node scripts/bundle-runtime.mjs <entry.js> [<out.js>]');
  process.exit(2);
}

await build({
  entryPoints: [input],
  outfile: output,
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  legalComments: 'inline',
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages-but-validator-helpers',
      setup(context) {
        context.onResolve({ filter: /^[^./]/ }, (args) =>
          INLINED.some((pattern) => pattern.test(args.path)) ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
