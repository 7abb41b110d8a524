import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every `.ts` file under a folder of the repo, as repo-relative posix paths. */
function tsFiles(folder: string): string[] {
  return (readdirSync(path.join(repoRoot, folder), { recursive: true }) as string[])
    .map((name) => `${folder}/${name.split(path.sep).join('/')}`)
    .filter((file) => file.endsWith('.ts'))
    .sort();
}

/**
 * The repo-relative files a module imports (static, type-only, re-exports and dynamic `import()`),
 * read by TypeScript's own pre-processor rather than a regular expression; packages are left out.
 */
function importsOf(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((entry) => entry.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) =>
      path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts'),
    );
}

/** `file → imported file` for every import of `files` that `offends`. */
function offenders(files: readonly string[], offends: (imported: string, file: string) => boolean): string[] {
  return files.flatMap((file) =>
    importsOf(file, readFileSync(path.join(repoRoot, file), 'utf8'))
      .filter((imported) => offends(imported, file))
      .map((imported) => `${file} → ${imported}`),
  );
}

/**
 * The runtime's layers, lowest first: a module of `src/` imports only from its own layer or lower
 * ones (types too). A folder is one room; every `.ts` file of `src/` is in exactly one layer.
 */
const SRC_LAYERS: readonly (readonly string[])[] = [
  ['src/call-order.ts', 'src/errors.ts', 'src/text/'], // the call's steps and error codes; text helpers
  ['src/schema/'], // JSON Schema: dialects, walker, pointers, validation
  ['src/caller/'], // what a running tool tells and asks its caller
  ['src/tool-description.ts', 'src/context.ts', 'src/tool.ts'], // the tool contract
  ['src/registry.ts', 'src/lazy.ts'], // tools by name; tools loaded on first use
  ['src/pipeline/', 'src/feedback/'], // the call's steps, run by one driver; what a model is told of a failed call
  ['src/orchestrator.ts', 'src/executor.ts', 'src/composed.ts'], // the pipeline's hosts; tools made of calls
  ['src/client.ts', 'src/tasks/'], // typed calls, task stores
  ['src/mcp/'], // the MCP server
  ['src/hosts/'], // what MCP hosts do to tools
  ['src/manifest-targets/'], // provider manifests (the portable MCP profile among them)
  ['src/index.ts'], // the public API
  ['src/adapters/', 'src/tools/'], // framework adapters and the example tools, through the API
];

/** The layer of a `src/` file: the index in `SRC_LAYERS` of the room that holds it (-1 for none). */
function layerOf(file: string): number {
  return SRC_LAYERS.findIndex((rooms) =>
    rooms.some((room) => (room.endsWith('/') ? file.startsWith(room) : file === room)),
  );
}

describe('layers point one way', () => {
  it('every module of src/ is in a layer of SRC_LAYERS', () => {
    expect(tsFiles('src').filter((file) => layerOf(file) === -1)).toEqual([]);
  });

  it('no module of src/ imports from a higher layer (type imports included)', () => {
    const runtime = (file: string) => file.startsWith('src/');
    expect(
      offenders(tsFiles('src'), (imported, file) => runtime(imported) && layerOf(imported) > layerOf(file)),
    ).toEqual([]);
  });

  it('the layer check reads a room by its folder or its file', () => {
    expect([layerOf('src/errors.ts'), layerOf('src/schema/walk.ts'), layerOf('src/mcp/http.ts')]).toEqual([0, 1, 8]);
    expect(layerOf('src/new-file.ts')).toBe(-1);
  });

  it('reads every kind of import statement', () => {
    const text = [
      "import { a } from '../codegen/a.js';",
      "import type { B } from '../codegen/b.js';",
      "export { c } from '../codegen/c.js';",
      "const d = await import('../codegen/d.js');",
      "import 'node:fs';",
    ].join('\n');
    expect(importsOf('src/x.ts', text)).toEqual(['codegen/a.ts', 'codegen/b.ts', 'codegen/c.ts', 'codegen/d.ts']);
  });

  it('src/ (the runtime) imports nothing from codegen/ (the generator)', () => {
    expect(offenders(tsFiles('src'), (imported) => imported.startsWith('codegen/'))).toEqual([]);
  });

  it('outside emit/manifests the generator uses only its entry (index.ts), never a builder or the loss report', () => {
    const outside = tsFiles('codegen').filter((file) => !file.startsWith('codegen/emit/manifests/'));
    expect(
      offenders(
        outside,
        (imported) => imported.startsWith('codegen/emit/manifests/') && imported !== 'codegen/emit/manifests/index.ts',
      ),
    ).toEqual([]);
  });
});

/**
 * The generator's layers, highest first: an import goes to a module of its own layer or a lower one.
 * The commands (cli/, the library entry, `npm run config-schema`'s script) use the run (generate.ts)
 * and `toolsmith diff`; those use the cache (incremental/), which plans what the emit stage and the
 * output (emit/, write.ts) make; everything rests on load, normalize and its rules, the config, names,
 * the model and problems.
 */
function generatorLayer(file: string): number {
  if (file.startsWith('codegen/cli/') || file === 'codegen/index.ts' || file === 'codegen/config/config-artifacts.ts')
    return 5;
  if (file === 'codegen/generate.ts' || file.startsWith('codegen/diff/')) return 4;
  if (file.startsWith('codegen/incremental/')) return 3;
  if (file.startsWith('codegen/emit/') || file === 'codegen/write.ts') return 2;
  return file.startsWith('codegen/') ? 1 : 0;
}

/** The cycles of an import graph (every module of a strongly connected component of two or more), each sorted. */
function importCycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('the generator’s rooms', () => {
  const files = tsFiles('codegen');
  const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(path.join(repoRoot, file), 'utf8'))]));

  it('import no module of a higher layer', () => {
    expect(offenders(files, (imported, file) => generatorLayer(imported) > generatorLayer(file))).toEqual([]);
  });

  it('have no import circle, type imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('the check finds a circle of type imports, and a module of a higher layer', () => {
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts', 'd.ts']],
          ['d.ts', []],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(generatorLayer('codegen/emit/project.ts')).toBeLessThan(generatorLayer('codegen/incremental/plan.ts'));
  });

  it('keep at most twelve .ts files at the top of codegen/ (folders hold the rest)', () => {
    const top = files.filter((file) => !file.slice('codegen/'.length).includes('/'));
    expect(top.length, top.join(', ')).toBeLessThanOrEqual(12);
  });
});
