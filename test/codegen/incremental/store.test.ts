import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cacheFile,
  modelsFile,
  readCache,
  writeAtomically,
  type GenerationCache,
} from '../../../codegen/incremental/store.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A project folder with a node_modules, and its cache file for `generated/`. */
function project(): { root: string; file: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'toolsmith-store-'));
  folders.push(root);
  mkdirSync(path.join(root, 'node_modules'));
  return { root, file: cacheFile(root, path.join(root, 'generated'))! };
}

const cache: GenerationCache = {
  version: 2,
  key: 'k1',
  tools: { add: { hash: 'h', files: ['add.ts'] } },
};
const writeCache = (file: string, value: unknown) => writeAtomically(file, JSON.stringify(value));

describe('the cache file', () => {
  it('lives under node_modules/.cache/toolsmith, one per output folder, with the model cache beside it', () => {
    const { root, file } = project();
    expect(path.dirname(file)).toBe(path.join(root, 'node_modules', '.cache', 'toolsmith'));
    expect(cacheFile(root, path.join(root, 'other'))).not.toBe(file);
    expect(modelsFile(root, path.join(root, 'generated'))).toBe(file.replace(/\.json$/, '.models.jsonl'));
  });

  it('has no place without node_modules (a clean clone regenerates everything)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'toolsmith-store-'));
    folders.push(root);
    expect(cacheFile(root, path.join(root, 'generated'))).toBeUndefined();
  });

  it('is read back as written, and written atomically (no temporary file left)', () => {
    const { file } = project();
    writeCache(file, cache);
    expect(readCache(file, 'k1')).toEqual(cache);
    expect(readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
  });

  it('is empty when missing, made under another key or version, or unreadable', () => {
    const { file } = project();
    const empty = (key: string): GenerationCache => ({ version: 2, key, tools: {} });
    expect(readCache(file, 'k1')).toEqual(empty('k1'));
    writeCache(file, cache);
    expect(readCache(file, 'k2')).toEqual(empty('k2'));
    writeFileSync(file, JSON.stringify({ ...cache, version: 1 }));
    expect(readCache(file, 'k1')).toEqual(empty('k1'));
    writeFileSync(file, '{ not json');
    expect(readCache(file, 'k1')).toEqual(empty('k1'));
    expect(readCache(undefined, 'k1')).toEqual(empty('k1'));
  });
});
