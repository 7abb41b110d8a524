/**
 * The one layer that makes generation incremental, around the pure generator (generate.ts): it
 * reads the cache and the last run's snapshot, hands normalize the models it already has, reuses
 * every tool unit whose hash and files are unchanged, splices the manifests, streams every emitted
 * file into the output's staging tree (write.ts) as soon as it is made, and records the new cache,
 * model cache and snapshot. The CLI's `generate` and `check` run it; nothing else writes the cache
 * (`toolsmith diff` reads the model cache through `lastRunModels`).
 *
 * By job: `store.ts` (the cache file), `model-cache.ts` (the streamed model cache), `snapshot.ts`
 * (the snapshot and the nothing-changed check), `fingerprint.ts` (the cache key), `plan.ts` (what
 * is reused, how the manifests are made), `stage.ts` (the emission into the staging tree), `run.ts`
 * (a whole run).
 */
export {
  cacheFile,
  readCache,
  sha256,
  spareTree,
  type CacheEntry,
  type GenerationCache,
  type RunSnapshot,
} from './store.js';
export {
  cachedModelHook,
  inputHashes,
  lastRunModels,
  modelCacheText,
  modelsFile,
  openModelCache,
  parseModelCache,
  readModels,
  sharedInputsHash,
  type ModelCache,
  type ModelCacheWriter,
} from './model-cache.js';
export { takeSnapshot, unchangedRun, untouchedSinceSnapshot } from './snapshot.js';
export { codeFingerprint, generationCacheKey, generatorFingerprint, optionsCacheKey } from './fingerprint.js';
export { generateIncrementally, type IncrementalOptions, type IncrementalReport } from './run.js';
