/**
 * The model cache: the models the last run built, one line per definition, streamed to a file of
 * its own beside the cache as the run lets each model go, and read back frozen.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { freezeParsed } from '../../src/schema/freeze.js';
import type { ResolvedOptions } from '../config/options.js';
import { dictionary } from '../dictionary.js';
import type { LoadedFiles } from '../load.js';
import type { ToolModel } from '../model.js';
import type { NormalizeHooks } from '../normalize.js';
import { optionsCacheKey } from './fingerprint.js';
import { cacheFile, sha256 } from './store.js';

/**
 * The models the last successful run built, by definition file, with the hash of the bytes each
 * was built from: a definition whose bytes are the same (and whose generator, options and shared
 * schemas are the same — `key`, `shared`) gets its model back without being checked, bundled or
 * compiled again. Kept in a file of its own beside the cache, read only by a run that generates.
 */
export interface ModelCache {
  key: string;
  /** Hash of every shared schema's path and bytes. */
  shared: string;
  /** Schemas-relative definition path → the hash of its bytes and the model built from them. */
  tools: Record<string, { raw: string; model: ToolModel }>;
}

/** Where the model cache of an output folder lives (beside the cache), or undefined without node_modules. */
export function modelsFile(root: string, outDir: string): string | undefined {
  return cacheFile(root, outDir)?.replace(/\.json$/, '.models.jsonl');
}

/** The hash `ModelCache.shared` is compared with: every shared schema's path and content hash. */
export function sharedInputsHash(
  shared: ReadonlyArray<{ relPath: string }>,
  inputs: Readonly<Record<string, string>>,
): string {
  return sha256(JSON.stringify(shared.map((source) => [source.relPath, inputs[source.relPath]])));
}

/**
 * The model cache as text: a header line (`{ key, shared }`), then one line per definition,
 * `[relPath, raw, model]`. Why lines: a run that changed one tool writes the other lines back as
 * they were read, instead of serializing every model again.
 */
export function modelCacheText(models: ModelCache): string {
  const lines = [modelCacheHeader(models.key, models.shared)];
  for (const [relPath, { raw, model }] of Object.entries(models.tools)) lines.push(modelCacheLine(relPath, raw, model));
  return `${lines.join('\n')}\n`;
}

/** The model cache's first line. */
const modelCacheHeader = (key: string, shared: string): string => JSON.stringify({ key, shared });

/** A definition's line of the model cache: the line it was read from when the same, else the model serialized. */
function modelCacheLine(relPath: string, raw: string, model: ToolModel): string {
  const read = READ_LINES.get(model);
  return read !== undefined && read.relPath === relPath && read.raw === raw
    ? read.line
    : JSON.stringify([relPath, raw, model]);
}

/** The model cache written line by line as a run's models are done with (`openModelCache`). */
export interface ModelCacheWriter {
  /** Appends a definition's line (its model can go once this returns). */
  add(relPath: string, raw: string, model: ToolModel): void;
  /** Puts the written cache in place of the last one. */
  commit(): void;
  /** Removes what was written (a run that wrote nothing keeps the last cache). */
  abandon(): void;
}

/** Bytes gathered before one write to the model cache's file. */
const MODEL_CACHE_CHUNK = 256 * 1024;

/**
 * A model cache being written to a temporary file beside `file`, in the order the models come,
 * renamed over `file` on `commit`. Why: the models are then let go as they are emitted instead of
 * living to the end of the run to be written together (P7). Best effort, like the cache: a
 * failure to write makes it write nothing more, and the next run builds the models again.
 */
export function openModelCache(file: string | undefined, key: string, shared: string): ModelCacheWriter {
  const temporary = file === undefined ? undefined : `${file}.${process.pid}.tmp`;
  let fd: number | undefined;
  let pending: string[] = [];
  let size = 0;
  const fail = () => {
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // ignored (best effort)
    }
    fd = undefined;
    pending = [];
  };
  const flush = () => {
    if (fd === undefined || pending.length === 0) return;
    try {
      writeSync(fd, pending.join(''));
    } catch {
      fail();
    }
    pending = [];
    size = 0;
  };
  if (temporary !== undefined) {
    try {
      mkdirSync(path.dirname(temporary), { recursive: true });
      fd = openSync(temporary, 'w');
    } catch {
      fd = undefined;
    }
  }
  const append = (line: string) => {
    if (fd === undefined) return;
    pending.push(line, '\n');
    size += line.length + 1;
    if (size >= MODEL_CACHE_CHUNK) flush();
  };
  append(modelCacheHeader(key, shared));
  const remove = () => {
    try {
      if (temporary !== undefined) unlinkSync(temporary);
    } catch {
      // ignored (best effort)
    }
  };
  return {
    add: (relPath, raw, model) => append(modelCacheLine(relPath, raw, model)),
    commit() {
      flush();
      if (fd === undefined) return remove();
      closeSync(fd);
      fd = undefined;
      try {
        renameSync(temporary!, file!);
      } catch {
        remove();
      }
    },
    abandon() {
      fail();
      remove();
    },
  };
}

/** A writer that writes nothing (`check` keeps no model cache). */
export const NO_MODEL_CACHE: ModelCacheWriter = {
  add: () => undefined,
  commit: () => undefined,
  abandon: () => undefined,
};

/** The line each model read from the model cache came from. */
const READ_LINES = new WeakMap<ToolModel, { relPath: string; raw: string; line: string }>();

/** The model cache parsed from `modelCacheText`'s text, every model frozen; throws on anything else. */
export function parseModelCache(text: string): ModelCache {
  const lines = text.split('\n');
  const header = JSON.parse(lines[0]!) as { key: string; shared: string };
  const tools: ModelCache['tools'] = dictionary();
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const [relPath, raw, parsed] = JSON.parse(line) as [string, string, ToolModel];
    // Frozen (by the fast walk normalize's deepFreeze then skips), so the line stays its text.
    const model = freezeParsed(parsed);
    tools[relPath] = { raw, model };
    READ_LINES.set(model, { relPath, raw, line });
  }
  return { key: header.key, shared: header.shared, tools };
}

/** The model cache for `key` and `shared`; empty when missing, unreadable or made for other inputs. */
export function readModels(file: string | undefined, key: string, shared: string): ModelCache['tools'] {
  if (file === undefined || !existsSync(file)) return {};
  try {
    const data = parseModelCache(readFileSync(file, 'utf8'));
    return data.key === key && data.shared === shared ? data.tools : {};
  } catch {
    return {};
  }
}

/** Schemas-relative path of every loaded definition and shared schema → sha256 of its bytes. */
export function inputHashes(loaded: LoadedFiles): Record<string, string> {
  const inputs: Record<string, string> = dictionary();
  for (const source of [...loaded.tools, ...loaded.shared]) inputs[source.relPath] = sha256(source.text);
  return inputs;
}

/**
 * normalize's `cached` hook over a model cache: a definition's model when the definition's bytes
 * hash to those the model was built from (`inputs`), read from the same file; else none (it is
 * normalized again).
 */
export function cachedModelHook(
  models: ModelCache['tools'],
  inputs: Readonly<Record<string, string>>,
): NonNullable<NormalizeHooks['cached']> {
  return (source) => {
    const entry = Object.prototype.hasOwnProperty.call(models, source.relPath) ? models[source.relPath] : undefined;
    return entry !== undefined && entry.raw === inputs[source.relPath] && entry.model.source.file === source.file
      ? entry.model
      : undefined;
  };
}

/**
 * The models the last successful `toolsmith generate` under `resolved` built, for a command that
 * reads the same definitions without generating (`toolsmith diff`): normalize's `cached` hook for
 * `loaded`, the files of the project's schemas folder. The rules are generate's own: the cache key
 * (generator code, settings, templates) and every shared schema are the same, and a definition gets
 * its model back only when its bytes and file are those the model was built from. Undefined when the
 * cache has nothing for these inputs (missing, made for other ones, or a template that cannot be read).
 */
export function lastRunModels(
  resolved: ResolvedOptions,
  loaded: LoadedFiles,
  fingerprint?: string,
): NormalizeHooks['cached'] | undefined {
  const file = modelsFile(resolved.root, resolved.outDir);
  if (file === undefined || !existsSync(file)) return undefined;
  let key: string;
  try {
    key = optionsCacheKey(resolved, fingerprint);
  } catch {
    return undefined;
  }
  const inputs = inputHashes(loaded);
  const models = readModels(file, key, sharedInputsHash(loaded.shared, inputs));
  return Object.keys(models).length === 0 ? undefined : cachedModelHook(models, inputs);
}
