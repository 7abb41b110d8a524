/**
 * P3/P4 in a child process of its own (a cold process per run, like the CLI, with a larger heap and
 * a deadline the parent enforces). Warms up on the small project first, then times one run.
 *
 *   toolsmith <root> <warm-up root> [finish]  generate() + writeOutput(); `finish` also writes the
 *                                             trivial implementations and bundled schemas
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
import { finishGenerated, generateAndWrite } from '../project.js';
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
  await generateAndWrite(warmupRoot);
  const { result, generateMs, writeMs } = await generateAndWrite(root);
  if (result.problems.length > 0) throw new Error(`generate reported problems: ${JSON.stringify(result.problems.slice(0, 3))}`);
  if (finish === 'finish') finishGenerated(root, result, (JSON.parse(readFileSync(path.join(root, 'corpus.json'), 'utf8')) as Corpus).tools);
  report({ ms: generateMs + writeMs, generateMs, writeMs, files: result.files.length + result.stubs.length, ...peakRssMb() });
} else if (mode === 'j2t') {
  await jsonSchemaToTypescript(path.join(warmupRoot, 'schemas'));
  const { ms, schemas } = await jsonSchemaToTypescript(path.join(root, 'schemas'));
  report({ ms, schemas, ...peakRssMb() });
} else {
  throw new Error(`unknown mode ${mode}`);
}
