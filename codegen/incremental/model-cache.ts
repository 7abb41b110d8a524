/**
 * The model cache: the models the last run built, one line per definition, in a file of its own
 * beside the cache, read back frozen.
 */
import { existsSync, readFileSync } from 'node:fs';
import { freezeParsed } from '../../src/schema/freeze.js';
import type { ResolvedOptions } from '../config/options.js';
import { dictionary, ownValue } from '../dictionary.js';
import type { LoadedFiles } from '../load.js';
import type { ToolModel } from '../model.js';
import type { NormalizeHooks } from '../normalize.js';
import { optionsCacheKey } from './fingerprint.js';
import { modelsFile, sha256, writeAtomically } from './store.js';

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
  const lines = [JSON.stringify({ key: models.key, shared: models.shared })];
  for (const [relPath, { raw, model }] of Object.entries(models.tools)) {
    // A model read from the model cache as it is written now keeps the line it was read from.
    const read = READ_LINES.get(model);
    lines.push(
      read !== undefined && read.relPath === relPath && read.raw === raw
        ? read.line
        : JSON.stringify([relPath, raw, model]),
    );
  }
  return `${lines.join('\n')}\n`;
}

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
 * normalize's `cached` hook over the model cache in `file` made under `key`, for the definitions of
 * `loaded` (and its shared schemas, which must be those the models were built with) whose hashes are
 * `inputs` (`inputHashes`): a definition's model when its bytes hash to those the model was built
 * from, read from the same file; else none (it is normalized again). Undefined when the file has
 * nothing for them.
 */
export function cachedModels(
  file: string | undefined,
  key: string,
  loaded: LoadedFiles,
  inputs: Readonly<Record<string, string>>,
): NormalizeHooks['cached'] | undefined {
  const models = readModels(file, key, sharedInputsHash(loaded.shared, inputs));
  if (Object.keys(models).length === 0) return undefined;
  return (source) => {
    const entry = ownValue(models, source.relPath);
    return entry !== undefined && entry.raw === inputs[source.relPath] && entry.model.source.file === source.file
      ? entry.model
      : undefined;
  };
}

/** Writes the model cache of a run under `key`: every tool's model with the hash of the definition it was built from (`inputs`). */
export function writeRunModels(
  file: string | undefined,
  key: string,
  loaded: LoadedFiles,
  inputs: Readonly<Record<string, string>>,
  tools: readonly ToolModel[],
): void {
  const models = dictionary<{ raw: string; model: ToolModel }>();
  for (const model of tools) models[model.source.relPath] = { raw: inputs[model.source.relPath]!, model };
  // Best effort, as the cache: without it the next run normalizes every definition again.
  writeAtomically(file, modelCacheText({ key, shared: sharedInputsHash(loaded.shared, inputs), tools: models }));
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
  return cachedModels(file, key, loaded, inputHashes(loaded));
}
