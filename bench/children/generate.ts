/**
 * P3/P4 in a child process of its own (a cold process per run, like the CLI, with a larger heap and
 * a deadline the parent enforces). Warms up on the small project first, then times one run.
 *
 *   toolsmith <root> <warm-up root> [finish]  the CLI's `toolsmith generate` in <root> (its config,
 *                                             its incremental cache); `finish` then writes the trivial
 *                                             implementations and bundled schemas (untimed);
 *                                             `--config <file>` instead: generate under that config (P3d)
 *   check <root> <warm-up root>               the CLI's `toolsmith check` in <root> (never uses a cache)
 *   diff <root> <warm-up root>                the CLI's `toolsmith diff schemas schemas-after --json` in
 *                                             <root> (P9), warmed up by diffing the small project with itself
 *   j2t <root> <warm-up root>                 json-schema-to-typescript compile() with default options
 *                                             (prettier on) on every input and output schema
 *   pipeline <root> <warm-up root>            the hand-written pipeline a user would script: per tool,
 *                                             json-schema-to-typescript (prettier on) for both schemas,
 *                                             an Ajv standalone compile of both, and both files written
 *
 * Run with `node --import tsx` (the codegen is TypeScript); the loader is the same for both sides
 * and its cost falls outside the timed part.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { compile } from 'json-schema-to-typescript';
import { AJV_OPTIONS } from '../../src/schema/ajv-options.js';
import { toPascalCase } from '../../codegen/naming.js';
import { SHARED_FOLDER, type Corpus } from '../corpus.js';
import { main } from '../../codegen/cli/main.js';
import { loadDefinitions } from '../../codegen/load.js';
import { normalize } from '../../codegen/normalize.js';
import { finishGenerated } from '../project.js';
// @ts-expect-error: a plain ESM helper shared with the JavaScript children.
import { peakRssMb, report } from './report.mjs';

const [mode, root, warmupRoot, finish, config] = process.argv.slice(2) as [
  string,
  string,
  string,
  string | undefined,
  string | undefined,
];

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

/** Sizes of the generated validator modules (`*.js`), KB: median, largest, mean, total; and the shared module's. */
function validatorSizes(dir: string): {
  median: number;
  max: number;
  mean: number;
  totalMb: number;
  count: number;
  sharedKb: number;
} {
  const sizes = existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => file.endsWith('.js'))
        .map((file) => statSync(path.join(dir, file)).size / 1024)
        .sort((a, b) => a - b)
    : [];
  const total = sizes.reduce((sum, size) => sum + size, 0);
  return {
    median: sizes[Math.floor(sizes.length / 2)] ?? 0,
    max: sizes.at(-1) ?? 0,
    mean: sizes.length === 0 ? 0 : total / sizes.length,
    totalMb: total / 1024,
    count: sizes.length,
    sharedKb: existsSync(path.join(dir, 'shared', 'index.js'))
      ? statSync(path.join(dir, 'shared', 'index.js')).size / 1024
      : 0,
  };
}

// CommonJS modules: under NodeNext their default import may be `module.exports` or the function.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;
const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (
  ajv: Ajv,
  refsOrFunc: unknown,
) => string;

/**
 * The short script a user would write instead of toolsmith: for each definition, the types of both
 * schemas with json-schema-to-typescript (default options: prettier on, `$ref`s resolved from the
 * file's folder) and one Ajv standalone module validating both, written to `<root>/handwritten/`.
 * One Ajv for the run, holding the shared schemas under their file URLs so that relative `$ref`s
 * resolve; the same options as the generated validators, `x-` keywords allowed.
 */
async function handWrittenPipeline(root: string): Promise<{ ms: number; tools: number }> {
  const schemasDir = path.join(root, 'schemas');
  const outDir = path.join(root, 'handwritten');
  rmSync(outDir, { recursive: true, force: true });
  const started = performance.now();
  const definitions = toolFiles(schemasDir).map((file) => ({
    file,
    definition: JSON.parse(readFileSync(file, 'utf8')) as { name: string; inputSchema: object; outputSchema?: object },
  }));
  const ajv = new Ajv({ ...AJV_OPTIONS, strict: false, code: { source: true, esm: true } });
  addFormats(ajv);
  const sharedDir = path.join(schemasDir, SHARED_FOLDER);
  for (const entry of existsSync(sharedDir) ? readdirSync(sharedDir).sort() : []) {
    if (entry.endsWith('.json'))
      ajv.addSchema(
        JSON.parse(readFileSync(path.join(sharedDir, entry), 'utf8')) as object,
        pathToFileURL(path.join(sharedDir, entry)).href,
      );
  }
  mkdirSync(outDir, { recursive: true });
  for (const { file, definition } of definitions) {
    const cwd = path.dirname(file);
    const pascal = toPascalCase(definition.name);
    const url = pathToFileURL(file).href;
    let types = await compile(definition.inputSchema as never, `${pascal}Input`, { cwd });
    const refs: Record<string, string> = { [`validate${pascal}Input`]: `${url}?input` };
    ajv.addSchema({ ...definition.inputSchema, $id: `${url}?input` });
    if (definition.outputSchema) {
      types += await compile(definition.outputSchema as never, `${pascal}Output`, { cwd });
      ajv.addSchema({ ...definition.outputSchema, $id: `${url}?output` });
      refs[`validate${pascal}Output`] = `${url}?output`;
    }
    const validators = standaloneCode(ajv, refs);
    writeFileSync(path.join(outDir, `${definition.name}.ts`), types);
    writeFileSync(path.join(outDir, `${definition.name}.js`), validators);
  }
  return { ms: performance.now() - started, tools: definitions.length };
}

if (mode === 'toolsmith' || mode === 'check') {
  // Exactly what `toolsmith generate` runs (incremental cache included), with the project as cwd.
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (text: string) => void (stdout += text),
    stderr: (text: string) => void (stderr += text),
    isTTY: false,
  };
  // Warm-up: `check` always emits everything and writes nothing.
  await main(['check'], { ...io, cwd: warmupRoot });
  stdout = '';
  stderr = '';
  const started = performance.now();
  const command = mode === 'check' ? 'check' : 'generate';
  const code = await main([command, ...(finish === '--config' ? ['--config', config!] : [])], { ...io, cwd: root });
  const ms = performance.now() - started;
  // The peak of the run itself, read before the untimed `finish` (a second normalize of the whole
  // project, in this process: at 5,000 tools it added 140 MB to a peak that is not the generate's).
  const peak = peakRssMb();
  if (code !== 0) throw new Error(`toolsmith ${command} exited ${code}: ${stderr.slice(0, 2000)}`);
  let files: number | undefined;
  if (finish === 'finish') {
    // Untimed: the model (bundled schemas, names) for the implementations and the Ajv baseline;
    // load → normalize is enough (no emit).
    const model = normalize(loadDefinitions(path.join(root, 'schemas'), root));
    finishGenerated(root, model, (JSON.parse(readFileSync(path.join(root, 'corpus.json'), 'utf8')) as Corpus).tools);
    files = /(\d+) files written/.exec(stdout) ? Number(/(\d+) files written/.exec(stdout)![1]) : undefined;
  }
  report({
    ms,
    files,
    summary: stdout.trim(),
    ...(finish === 'finish' ? { validatorKb: validatorSizes(path.join(root, 'generated', 'validators')) } : {}),
    ...peak,
  });
} else if (mode === 'diff') {
  let stdout = '';
  const io = { stdout: (text: string) => void (stdout += text), stderr: () => {}, isTTY: false };
  await main(['diff', 'schemas', 'schemas', '--json'], { ...io, cwd: warmupRoot });
  stdout = '';
  const started = performance.now();
  const code = await main(['diff', 'schemas', 'schemas-after', '--json', '--fail-on', 'none'], { ...io, cwd: root });
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`toolsmith diff exited ${code}`);
  const diff = JSON.parse(stdout) as { tools: { verdict: string }[] };
  report({
    ms,
    tools: diff.tools.length,
    breakingTools: diff.tools.filter((t) => t.verdict === 'breaking').length,
    ...peakRssMb(),
  });
} else if (mode === 'j2t') {
  await jsonSchemaToTypescript(path.join(warmupRoot, 'schemas'));
  const { ms, schemas } = await jsonSchemaToTypescript(path.join(root, 'schemas'));
  report({ ms, schemas, ...peakRssMb() });
} else if (mode === 'pipeline') {
  await handWrittenPipeline(warmupRoot);
  const { ms, tools } = await handWrittenPipeline(root);
  report({ ms, tools, ...peakRssMb() });
} else {
  throw new Error(`unknown mode ${mode}`);
}
