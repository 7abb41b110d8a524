import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The packages only the generator needs, at the exact versions toolsmith is tested with.
 * `toolsmith init` adds them to the project's devDependencies; toolsmith itself does not declare
 * them as peer dependencies, because npm 7+ marks an optional peer that is also a devDependency of
 * the project `devOptional`, and `npm ci --omit=dev` keeps `devOptional` packages. Keep in sync with
 * toolsmith's own devDependencies (a test checks it).
 */
export const GENERATOR_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  'json-schema-to-typescript': '16.0.0',
  prettier: '3.10.1',
  handlebars: '4.7.10',
  chokidar: '4.0.3',
  tsx: '4.23.15',
  // The token report's o200k_base count (src/manifest-targets/tokens.ts).
  'gpt-tokenizer': '4.0.0',
  // Prints the bases and stubs (codegen/emit/pool/printer.ts); `generate --update-stubs` rewrites stubs with it.
  'ts-morph': '28.0.0',
});

/** What `npm run build` needs in a project (`toolsmith init` adds them as devDependencies with the generator's packages). */
export const BUILD_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  typescript: '7.0.2',
  '@types/node': '20.19.9',
});

/**
 * The version of package `name` found as Node resolves it from `fromDir` (the first
 * `node_modules/<name>` up the tree); undefined when it is not installed.
 */
export function installedVersion(name: string, fromDir: string): string | undefined {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) {
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown };
      return typeof version === 'string' ? version : '';
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The generator packages found from `fromDir` at a major version other than `GENERATOR_PACKAGES`
 * pins. Not being peer dependencies, nothing else tells the user; a package not found is left to the
 * missing-package message.
 */
export function generatorVersionMismatches(
  fromDir: string,
  names: readonly string[] = Object.keys(GENERATOR_PACKAGES),
): { name: string; installed: string; tested: string }[] {
  return names.flatMap((name) => {
    const tested = GENERATOR_PACKAGES[name];
    const installed = installedVersion(name, fromDir);
    if (tested === undefined || !installed || installed.split('.')[0] === tested.split('.')[0]) return [];
    return [{ name, installed, tested }];
  });
}
