/**
 * The cache key of a run: the generator's own code (its fingerprint) and everything besides the
 * tools that shapes the output.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { ResolvedOptions } from '../config/options.js';
import { emitSettings, type EmitSettings } from '../emit/settings.js';
import { toPosix } from '../load.js';
import { loadTemplates } from '../templates/index.js';
import { sha256 } from './store.js';

/**
 * The cache key of a run with these options: the generator's code (`fingerprint`, default
 * `generatorFingerprint()`), the run's emission `settings`, whole (emit context, templates, manifests,
 * formatting: whatever is added to `EmitSettings` is part of the key with no edit here), by default
 * made from the options with the templates read from their folder, as a reader of the cache that does
 * not generate (the nothing-changed check, `lastRunModels`) compares with the key the last run
 * recorded; and the schemas folder relative to the root (generated files name their definition's
 * path, so a moved folder reuses nothing). Throws when a template cannot be read.
 */
export function optionsCacheKey(
  resolved: ResolvedOptions,
  fingerprint: string = generatorFingerprint(),
  settings: EmitSettings = emitSettings(resolved, loadTemplates(resolved.templatesDir)),
): string {
  // The token budgets change no file (only warnings): a run with other budgets reuses the files and
  // judges the last token report again (`budget` in the cache).
  const { tokenBudget: _budget, ...manifests } = settings.manifests;
  const schemasFolder = toPosix(path.relative(resolved.root, resolved.schemasDir));
  return sha256(JSON.stringify({ generator: fingerprint, settings: { ...settings, manifests }, schemasFolder }));
}

let fingerprint: string | undefined;

/**
 * A hash of the generator's own code, part of the cache key: an upgraded or edited generator never
 * reuses output of the old one, even under the same version number.
 */
function generatorFingerprint(): string {
  return (fingerprint ??= codeFingerprint(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')));
}

/**
 * The fingerprint of the generator in `codegenDir`: every file of it, and every runtime module beside
 * it in `../src` (the generator imports several — MCP entries, the 2020-12 translation, the Ajv options,
 * the defaults check, the keyword rule — that shape what it writes; hashing them all over-approximates
 * its import graph, so no edit there leaves stale output). The example tools (`src/tools`) and the
 * framework adapters (`src/adapters`), which the generator never imports, are left out.
 */
export function codeFingerprint(codegenDir: string): string {
  const hash = createHash('sha256');
  const add = (dir: string, label: string, skip: (file: string) => boolean) => {
    if (!existsSync(dir)) return;
    for (const file of (readdirSync(dir, { recursive: true }) as string[]).map(toPosix).sort()) {
      if (!/\.(ts|js|mjs|hbs|json)$/.test(file) || skip(file)) continue;
      hash
        .update(`${label}${file}\0`)
        .update(readFileSync(path.join(dir, file)))
        .update('\0');
    }
  };
  add(codegenDir, 'codegen/', () => false);
  add(path.join(codegenDir, '..', 'src'), 'src/', (file) => file.startsWith('tools/') || file.startsWith('adapters/'));
  return hash.digest('hex');
}
