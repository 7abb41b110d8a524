import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { GeneratedFile, ToolModel } from './model.js';

/**
 * The incremental-generation cache: per tool, the content hash it was generated from (its
 * definition, the shared schemas it uses, the generator version — see `ToolModel.hash`) and the
 * hashes of the files it produced. Kept in `node_modules/.cache/toolsmith/`, never in the output, so
 * a clean clone simply regenerates everything. A tool is reused only when its hash matches and
 * its files on disk are still byte-for-byte what was written.
 */
export interface GenerationCache {
  version: 1;
  /** Hash of everything besides the tools that shapes the output (emit context, templates). */
  key: string;
  tools: Record<string, CacheEntry>;
  /** The files that list every tool (registry, index, shared types, manifests, docs), keyed by the whole model. */
  project?: CacheEntry;
}

/** What produced some files (a hash of their inputs) and the hashes of those files. */
export interface CacheEntry {
  hash: string;
  files: Record<string, string>;
}

/** sha256 of a text, hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Where the cache of an output folder lives, or undefined when the project has no node_modules. */
export function cacheFile(root: string, outDir: string): string | undefined {
  const modules = path.join(root, 'node_modules');
  if (!existsSync(modules)) return undefined;
  return path.join(modules, '.cache', 'toolsmith', `${sha256(path.resolve(outDir)).slice(0, 16)}.json`);
}

/** Reads the cache; a missing, unreadable or foreign cache is an empty one. */
export function readCache(file: string | undefined, key: string): GenerationCache {
  const empty: GenerationCache = { version: 1, key, tools: {} };
  if (file === undefined || !existsSync(file)) return empty;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as GenerationCache;
    return data.version === 1 && data.key === key && typeof data.tools === 'object' ? data : empty;
  } catch {
    return empty;
  }
}

/** Writes the cache atomically (best effort: a cache that cannot be written only costs speed). */
export function writeCache(file: string | undefined, cache: GenerationCache): void {
  if (file === undefined) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(cache));
    renameSync(temporary, file);
  } catch {
    // ignored: the next run regenerates in full
  }
}

/**
 * The previously generated files of a tool when its hash is unchanged and every one of its files
 * on disk still has the recorded content; otherwise undefined (the tool is emitted again).
 */
export function reuseFromCache(cache: GenerationCache, outDir: string, tool: ToolModel): GeneratedFile[] | undefined {
  return reuseEntry(cache.tools[tool.name], tool.hash, outDir);
}

/** The files of a cache entry when its hash is `hash` and every file on disk still matches. */
export function reuseEntry(entry: CacheEntry | undefined, hash: string, outDir: string): GeneratedFile[] | undefined {
  if (!entry || entry.hash !== hash) return undefined;
  const files: GeneratedFile[] = [];
  for (const [file, hash] of Object.entries(entry.files)) {
    let content: string;
    try {
      content = readFileSync(path.join(outDir, file), 'utf8');
    } catch {
      return undefined;
    }
    if (sha256(content) !== hash) return undefined;
    files.push({ path: file, content, kind: 'generated', onDisk: true });
  }
  return files;
}

let fingerprint: string | undefined;

/**
 * A hash of the generator's own code (every file of codegen/, and the shared Ajv options), part of the cache key: an upgraded
 * or edited generator never reuses output of the old one, even under the same version number.
 */
export function generatorFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  for (const file of (readdirSync(dir, { recursive: true }) as string[]).sort()) {
    if (!/\.(ts|js|hbs|json)$/.test(file)) continue;
    hash.update(file).update('\0').update(readFileSync(path.join(dir, file))).update('\0');
  }
  // The validator options live in the runtime but shape every generated validator.
  for (const candidate of ['../src/ajv-options.ts', '../src/ajv-options.js']) {
    const file = path.join(dir, candidate);
    if (existsSync(file)) hash.update(candidate).update('\0').update(readFileSync(file));
  }
  fingerprint = hash.digest('hex');
  return fingerprint;
}
