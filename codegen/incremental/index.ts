/**
 * The cache of a generate (what `generate` consults, incremental/cache.ts), by job: `store.ts` (the
 * cache file), `model-cache.ts` (the models of the last run), `snapshot.ts` (the snapshot and the
 * nothing-changed shortcut), `fingerprint.ts` (the cache key), `plan.ts` (what a run reuses). What
 * other commands read of it: `toolsmith diff` takes the last run's models (`lastRunModels`).
 */
export { cacheFile, modelsFile } from './store.js';
export { lastRunModels, modelCacheText, parseModelCache, readModels } from './model-cache.js';
export { codeFingerprint } from './fingerprint.js';
