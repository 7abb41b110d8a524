#!/usr/bin/env node
// The toolsmith command. When tsx is installed (a generator package `toolsmith init` adds), its
// loader is registered so that `call` and `serve` can import a project's generated registry
// (TypeScript) directly; without it (a production install) they run what `tsc` built. Inside the
// toolsmith repository the TypeScript sources run; an installed package (which ships only dist/)
// runs the built CLI.
import { existsSync } from 'node:fs';

try {
  const { register } = await import('tsx/esm/api');
  register();
  globalThis[Symbol.for('toolsmith.typescript-loader')] = true;
} catch {
  // Without tsx, `call` and `serve` need a registry compiled to JavaScript.
}
const source = new URL('../codegen/cli/main.ts', import.meta.url);
const { main } = await import(existsSync(source) ? source.href : '../dist/codegen/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
