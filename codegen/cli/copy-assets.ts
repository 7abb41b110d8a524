import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { toPosix } from '../load.js';
import { builtFile, readBuildLayout } from './entry.js';
import { EXIT, options, reportProblems, type CommonFlags, type Io } from './io.js';

/**
 * `toolsmith copy-assets`: copies the generated folder's assets into the build — the files `tsc` does
 * not emit, which the build needs at run time (the standalone validators' `.js`, with their `.d.ts`
 * for a build that publishes declarations, `catalog.json`, `schemas/<tool>.json` and the manifests'
 * JSON), put beside what `tsc` wrote from its TypeScript (`outDir`/`rootDir` of the project's
 * `tsconfig.json`, else `dist/`). A copy rather than `allowJs`, with which tsc re-prints every
 * generated validator (many times slower at scale; see bench/README.md).
 */
export async function runCopyAssets(flags: Pick<CommonFlags, 'config' | 'out'>, io: Io): Promise<number> {
  const { resolved, problems } = await options(flags, io);
  if (problems.length > 0) return reportProblems(problems, io);
  const root = io.cwd;
  const { outDir } = resolved;
  const layout = readBuildLayout(root);
  const shown = (file: string) => path.relative(root, file) || '.';
  const refuse = (problem: string) => {
    io.stderr(`toolsmith copy-assets: ${problem}\n`);
    return EXIT.invalid;
  };
  const target = builtFile(path.join(outDir, 'registry.ts'), layout);
  if (target === undefined)
    return refuse(
      `${shown(outDir)}/ is outside the tsconfig's rootDir ${shown(layout.rootDir)}/; move it inside, or set rootDir.`,
    );
  if (!existsSync(path.join(outDir, 'registry.ts')))
    return refuse(`${shown(outDir)}/ has no registry.ts; run \`npx --no toolsmith generate\` first.`);
  const targetDir = path.dirname(target);
  let copied = 0;
  if (path.resolve(targetDir) !== path.resolve(outDir))
    for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(js|d\.ts|json)$/.test(entry.name)) continue;
      const name = toPosix(path.relative(outDir, path.join(entry.parentPath, entry.name)));
      mkdirSync(path.join(targetDir, path.dirname(name)), { recursive: true });
      copyFileSync(path.join(outDir, name), path.join(targetDir, name));
      copied++;
    }
  io.stdout(`toolsmith copy-assets: ${copied} files copied to ${shown(targetDir)}/\n`);
  return EXIT.ok;
}
