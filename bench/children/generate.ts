/**
 * P3/P4 in a child process of its own (a cold process per run, like the CLI, with a larger heap and
 * a deadline the parent enforces). Warms up on the small project first, then times one run.
 *
 *   toolsmith <root> <warm-up root> [finish]  the CLI's `toolsmith generate` in <root> (its config,
 *                                             its incremental cache); `finish` then writes the trivial
 *                                             implementations and bundled schemas (untimed)
 *   j2t <root> <warm-up root>                 json-schema-to-typescript compile() with default options
 *                                             (prettier on) on every input and output schema
 *
 * Run with `node --import tsx` (the codegen is TypeScript); the loader is the same for both sides
 * and its cost falls outside the timed part.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';
import { toPascalCase } from '../../codegen/naming.js';
import type { Corpus } from '../corpus.js';
import { main } from '../../codegen/cli.js';
import { loadDefinitions } from '../../codegen/load.js';
import { normalize } from '../../codegen/normalize.js';
import { finishGenerated } from '../project.js';
// @ts-expect-error: a plain ESM helper shared with the JavaScript children.
import { peakRssMb, report } from './report.mjs';

const [mode, root, warmupRoot, finish] = process.argv.slice(2) as [string, string, string, string | undefined];

/** Every `*.tool.json` under a folder, sorted. */
function toolFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...toolFiles(full));
    else if (entry.endsWith('.tool.json')) out.push(full);
  }
  return out;
}

async function jsonSchemaToTypescript(schemasDir: string): Promise<{ ms: number; schemas: number }> {
  const definitions = toolFiles(schemasDir).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  let schemas = 0;
  const started = performance.now();
  for (const { file, text } of definitions) {
    const parsed = JSON.parse(text) as { name: string; inputSchema: object; outputSchema?: object };
    const cwd = path.dirname(file);
    const pascal = toPascalCase(parsed.name);
    await compile(parsed.inputSchema as never, `${pascal}Input`, { cwd });
    schemas++;
    if (parsed.outputSchema) {
      await compile(parsed.outputSchema as never, `${pascal}Output`, { cwd });
      schemas++;
    }
  }
  return { ms: performance.now() - started, schemas };
}

if (mode === 'toolsmith') {
  // Exactly what `toolsmith generate` runs (incremental cache included), with the project as cwd.
  let stdout = '';
  let stderr = '';
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), isTTY: false };
  // Warm-up: `check` always emits everything and writes nothing.
  await main(['check'], { ...io, cwd: warmupRoot });
  stdout = '';
  stderr = '';
  const started = performance.now();
  const code = await main(['generate'], { ...io, cwd: root });
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`toolsmith generate exited ${code}: ${stderr.slice(0, 2000)}`);
  let files: number | undefined;
  if (finish === 'finish') {
    // Untimed: the model (bundled schemas, names) for the implementations and the Ajv baseline;
    // load → normalize is enough (no emit).
    const model = normalize(loadDefinitions(path.join(root, 'schemas'), root));
    finishGenerated(root, model, (JSON.parse(readFileSync(path.join(root, 'corpus.json'), 'utf8')) as Corpus).tools);
    files = /(\d+) files written/.exec(stdout) ? Number(/(\d+) files written/.exec(stdout)![1]) : undefined;
  }
  report({ ms, files, summary: stdout.trim(), ...peakRssMb() });
} else if (mode === 'j2t') {
  await jsonSchemaToTypescript(path.join(warmupRoot, 'schemas'));
  const { ms, schemas } = await jsonSchemaToTypescript(path.join(root, 'schemas'));
  report({ ms, schemas, ...peakRssMb() });
} else {
  throw new Error(`unknown mode ${mode}`);
}
