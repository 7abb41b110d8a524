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
  ['src/manifest-targets/'], // provider manifests
  ['src/hosts/'], // what MCP hosts do to tools
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
