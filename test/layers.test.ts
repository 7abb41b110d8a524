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

describe('layers point one way', () => {
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
