import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { toPosix } from '../load.js';
import { builtFile, readBuildLayout } from './entry.js';

/** What `copy-assets` copied, or why it could not. */
export interface CopyAssetsReport {
  /** The build folder the generated folder maps to (absolute). */
  target: string;
  /** Files copied, relative to the generated folder. */
  copied: string[];
  /** Set when nothing could be copied, as what to do. */
  problem?: string;
}

/**
 * Copies the generated folder's assets into the build: the files `tsc` does not emit, which the
 * build needs at run time (the standalone validators' `.js`, with their `.d.ts` for a build that
 * publishes declarations, `catalog.json`, `schemas/<tool>.json` and the manifests' JSON), put beside
 * what `tsc` wrote from its TypeScript (`outDir`/`rootDir` of the project's `tsconfig.json`, else
 * `dist/`). A copy rather than `allowJs`, with which tsc re-prints every generated validator (many
 * times slower at scale; see bench/README.md).
 */
export function copyGeneratedAssets(root: string, outDir: string): CopyAssetsReport {
  const layout = readBuildLayout(root);
  const shown = (file: string) => path.relative(root, file) || '.';
  const target = builtFile(path.join(outDir, 'registry.ts'), layout);
  if (target === undefined)
    return {
      target: outDir,
      copied: [],
      problem: `${shown(outDir)}/ is outside the tsconfig's rootDir ${shown(layout.rootDir)}/; move it inside, or set rootDir.`,
    };
  const targetDir = path.dirname(target);
  if (!existsSync(path.join(outDir, 'registry.ts')))
    return {
      target: targetDir,
      copied: [],
      problem: `${shown(outDir)}/ has no registry.ts; run \`npx --no toolsmith generate\` first.`,
    };
  if (path.resolve(targetDir) === path.resolve(outDir)) return { target: targetDir, copied: [] };
  const copied: string[] = [];
  for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|d\.ts|json)$/.test(entry.name)) continue;
    const name = toPosix(path.relative(outDir, path.join(entry.parentPath, entry.name)));
    mkdirSync(path.join(targetDir, path.dirname(name)), { recursive: true });
    copyFileSync(path.join(outDir, name), path.join(targetDir, name));
    copied.push(name);
  }
  return { target: targetDir, copied: copied.sort() };
}
