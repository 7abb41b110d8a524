#!/usr/bin/env node
// The toolsmith command. Runs the TypeScript sources through tsx's loader, which also lets `call`
// and `serve` import a project's generated registry (TypeScript) directly.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../codegen/cli.ts');
process.exitCode = await main(process.argv.slice(2));
